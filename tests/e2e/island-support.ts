import type { Page, Route } from '@playwright/test';

/**
 * Holds back the requests `url` matches until `release()`, then lets each go on (or answers it
 * with `answer`), so a test sees what the page shows while it waits, however fast or slow the
 * machine is.
 */
export async function holdRequests(
	page: Page,
	url: string | RegExp | ((url: URL) => boolean),
	answer: (route: Route) => Promise<void> = (route) => route.continue(),
) {
	let open!: () => void;
	const released = new Promise<void>((resolve) => (open = resolve));
	let requested!: () => void;
	const seen = new Promise<void>((resolve) => (requested = resolve));
	await page.route(url, async (route) => {
		requested();
		await released;
		// A navigation may have dropped the request while it was held.
		await answer(route).catch(() => undefined);
	});
	return {
		/** Resolves when the browser has made the first such request. */
		requested: seen,
		/** Lets the held requests go on. */
		release: () => open(),
	};
}

/**
 * Holds back the module of one island (its component chunk, `/_astro/{Component}.{hash}.js`)
 * until `release()`, so a test sees and uses the page as the browser paints it from the HTML,
 * before hydration.
 */
export async function holdIsland(page: Page, component: string) {
	return holdRequests(page, new RegExp(`/_astro/${component}\\.[\\w-]+\\.js$`));
}
