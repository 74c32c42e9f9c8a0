import { expect, type Page } from '@playwright/test';

/**
 * An open modal (a dialog, the mobile menu) keeps the keyboard inside it: focus moves into
 * `container` (a CSS selector) and stays there through `forward` presses of Tab, then `back`
 * presses of Shift+Tab.
 */
export async function expectFocusKeptIn(
	page: Page,
	container: string,
	forward: number,
	back: number,
): Promise<void> {
	const inside = () =>
		page.evaluate((selector) => Boolean(document.activeElement?.closest(selector)), container);
	await expect.poll(inside, `focus in ${container}`).toBe(true);
	for (let i = 1; i <= forward; i++) {
		await page.keyboard.press('Tab');
		expect(await inside(), `focus in ${container} after Tab ${i}`).toBe(true);
	}
	for (let i = 1; i <= back; i++) {
		await page.keyboard.press('Shift+Tab');
		expect(await inside(), `focus in ${container} after Shift+Tab ${i}`).toBe(true);
	}
}
