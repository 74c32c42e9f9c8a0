import { expect, type Page } from '@playwright/test';

// The demo chamber's fonts (Merriweather headings, Source Sans Pro text), self-hosted: shared by
// the shell spec (a pre-rendered page) and the event detail spec (a page rendered on demand).

/**
 * Opens a page and checks its fonts: every font file comes from this site's /_astro/ as woff2,
 * and headings are set in Merriweather with its metric-matched fallback next in line.
 */
export async function expectSelfHostedFonts(page: Page, path: string): Promise<void> {
	const fonts: { url: URL; status: number; type: string }[] = [];
	page.on('response', (response) => {
		if (response.request().resourceType() === 'font') {
			fonts.push({
				url: new URL(response.url()),
				status: response.status(),
				type: response.headers()['content-type'] ?? '',
			});
		}
	});
	await page.goto(path);
	await page.waitForLoadState('networkidle');
	const site = new URL(page.url()).origin;
	expect(fonts.length).toBeGreaterThan(0);
	for (const font of fonts) {
		expect(font.url.origin).toBe(site);
		expect(font.url.pathname).toMatch(
			/^\/_astro\/(merriweather|source-sans-3)-latin-(ext-)?wght-normal\.[\w-]+\.woff2$/,
		);
		expect(font.status).toBe(200);
		expect(font.type).toBe('font/woff2');
	}
	const family = await page.evaluate(
		() => getComputedStyle(document.querySelector('h1') as Element).fontFamily,
	);
	expect(family).toMatch(/^Merriweather, "Merriweather Fallback"/);
}
