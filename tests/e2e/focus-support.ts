import { expect, type Locator, type Page } from '@playwright/test';

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

/**
 * What the keyboard focus is on, and whether it is seen: an outline of at least 2 px or a box
 * shadow on the element or on one of its four nearest ancestors (a card outlines itself when its
 * stretched link, four levels down, has the focus).
 */
async function focusState(page: Page): Promise<{ element: string; visible: boolean }> {
	return page.evaluate(() => {
		const active = document.activeElement;
		if (!active || active === document.body) return { element: 'body', visible: true };
		const shown = (el: Element | null) => {
			if (!el) return false;
			const style = getComputedStyle(el);
			return (
				(style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
				style.boxShadow !== 'none'
			);
		};
		const name =
			active.getAttribute('aria-label') ?? (active.textContent ?? '').trim().slice(0, 40);
		return {
			element: `${active.tagName.toLowerCase()} "${name}"`,
			visible: [0, 1, 2, 3, 4].some((up) => {
				let el: Element | null = active;
				for (let i = 0; i < up && el; i++) el = el.parentElement;
				return shown(el);
			}),
		};
	});
}

/**
 * Presses Tab (Shift+Tab where `back`) until `target` has the focus, checking on every stop that
 * the focus is seen; fails after `max` presses (a trap, or a target out of the tab order).
 */
export async function tabTo(
	page: Page,
	target: Locator,
	{ max = 60, back = false }: { max?: number; back?: boolean } = {},
): Promise<void> {
	for (let i = 0; i < max; i++) {
		await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
		const state = await focusState(page);
		expect(state.visible, `the focus on ${state.element} is seen`).toBe(true);
		if (await target.evaluate((el) => el === document.activeElement)) return;
	}
	throw new Error(`${target} not reached in ${max} presses of Tab`);
}

/**
 * Tab moves through every stop of the page and comes back round to its first (no keyboard
 * trap), the focus seen at each; answers how many stops there were.
 */
export async function expectNoKeyboardTrap(page: Page, max = 200): Promise<number> {
	await page.locator('body').focus();
	const seen: string[] = [];
	for (let i = 0; i < max; i++) {
		await page.keyboard.press('Tab');
		const state = await focusState(page);
		expect(state.visible, `the focus on ${state.element} is seen`).toBe(true);
		const id = await page.evaluate(() => {
			const el = document.activeElement;
			if (!el || el === document.body) return 'body';
			return `${el.tagName}|${el.id}|${el.getAttribute('href') ?? ''}|${el.textContent?.slice(0, 30)}`;
		});
		if (seen.length > 0 && (id === seen[0] || id === 'body')) return seen.length;
		seen.push(id);
	}
	throw new Error(`Tab never came back round after ${max} stops: ${seen.slice(-5).join(', ')}`);
}
