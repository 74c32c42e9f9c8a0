import type { Page } from '@playwright/test';

/**
 * Holds back the module of one island (its component chunk, `/_astro/{Component}.{hash}.js`)
 * until `release()`, so a test sees and uses the page as the browser paints it from the HTML,
 * before hydration, however fast or slow the machine is.
 */
export async function holdIsland(page: Page, component: string) {
	let open!: () => void;
	const released = new Promise<void>((resolve) => (open = resolve));
	let requested!: () => void;
	const seen = new Promise<void>((resolve) => (requested = resolve));
	await page.route(new RegExp(`/_astro/${component}\\.[\\w-]+\\.js$`), async (route) => {
		requested();
		await released;
		// A navigation may have dropped the request while it was held.
		await route.continue().catch(() => undefined);
	});
	return {
		/** Resolves when the browser has asked for the island's module. */
		requested: seen,
		/** Lets the module load, so the island hydrates. */
		release: () => open(),
	};
}
