import { expect, test } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { openPanel, importChamber, removeChamber, DEMO_PASSWORD } from './admin-support.ts';
import { findBusiness, listBusinesses } from './directory-helpers.ts';
import { expectFocusKeptIn, expectNoKeyboardTrap, tabTo } from './focus-support.ts';

// The main tasks with the keyboard alone, as a screen reader user does them: every stop shows
// the focus, nothing traps it, dialogs give it back, and what changes is announced by a live
// region. What each task does is the subject of its own spec; this one is about the way there.
// Saves and the import go to a chamber of this spec's own: nothing here publishes the demo.

// Several presses and checks a stop, on a machine that may be busy.
test.describe.configure({ timeout: 120_000 });

let slug: string;

test.beforeAll(async () => {
	slug = await importChamber('keyboard', 'Keyboard', {
		config: { content: { heroTitle: 'Welcome' } },
	});
});

test.afterAll(async () => {
	await removeChamber(slug);
});

test('search and open a profile; send a message', IN_FULL_BROWSER, async ({ page }) => {
	test.setTimeout(120_000);
	const business = await findBusiness(page.request, 'taking messages', (b) => b.acceptsMessages);
	const word = business.name.split(' ')[0]!;
	const expected = await listBusinesses(page.request, { searchQuery: word });

	await page.goto('/');
	await tabTo(page, page.getByRole('searchbox', { name: 'Search the directory' }));
	await page.keyboard.type(word);
	await page.keyboard.press('Enter');
	// The count is a live region: a screen reader hears the result of the search.
	await expect(page.getByRole('status')).toHaveText(
		`${expected.total} ${expected.total === 1 ? 'business' : 'businesses'} found`,
	);
	const link = page.getByRole('main').getByRole('link', { name: business.name, exact: true });
	await tabTo(page, link, { max: 120 });
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(business.name);

	const opener = page.getByRole('button', { name: 'Send Message' });
	await tabTo(page, opener);
	await page.keyboard.press('Enter');
	const dialog = page.getByRole('dialog', { name: `Contact ${business.name}` });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
	await expectFocusKeptIn(page, 'dialog[open]', 8, 8);
	await dialog.getByRole('textbox', { name: 'Name' }).focus();
	await page.keyboard.type('Ada Lovelace');
	await page.keyboard.press('Tab');
	await page.keyboard.type('ada@example.com');
	await page.keyboard.press('Tab');
	await page.keyboard.type(`Do you deliver? (keyboard e2e ${Date.now()})`);
	await tabTo(page, dialog.getByRole('button', { name: 'Send Message' }));
	await page.keyboard.press('Enter');
	await expect(dialog.getByRole('status')).toHaveText('Message sent successfully!');
	// The dialog closes by itself and gives the focus back to the button that opened it.
	await expect(dialog).toBeHidden({ timeout: 5_000 });
	await expect(opener).toBeFocused();
	expect(await expectNoKeyboardTrap(page)).toBeGreaterThan(10);
});

test('browse the calendar and open an event', IN_FULL_BROWSER, async ({ page }) => {
	await page.goto('/events');
	const grid = page.getByRole('grid');
	await expect(grid).toBeVisible();
	const month = page
		.getByRole('heading', { level: 2 })
		.filter({ hasText: /\d{4}$/ })
		.first();
	const shown = await month.textContent();
	// One stop for the whole month: the day that holds it, then the arrows.
	const day = grid.locator('td[tabindex="0"]');
	await tabTo(page, day);
	await page.keyboard.press('PageDown');
	await page.keyboard.press('ArrowDown');
	// The month's heading is a live region: moving into another month is announced.
	await expect(month).not.toHaveText(shown ?? '');
	const moved = (await month.textContent()) ?? '';
	await page.getByRole('button', { name: 'Previous month' }).focus();
	await page.keyboard.press('Enter');
	await expect(month).not.toHaveText(moved);
	const busy = grid.getByRole('gridcell', { name: /, \d+ events?: / }).first();
	await busy.focus();
	await page.keyboard.press('Tab');
	const event = page.locator(':focus');
	await expect(event).toHaveAttribute('href', /^\/events\/\d+\//);
	const name = (await event.textContent())!.trim();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
	expect(await expectNoKeyboardTrap(page)).toBeGreaterThan(5);
});

test('sign in and save a change; the save is announced', IN_FULL_BROWSER, async ({ page }) => {
	test.setTimeout(120_000);
	await page.goto(
		`/chamber-login-v2?redirect=${encodeURIComponent(`/chamber-config-v2?chamber=${slug}`)}`,
	);
	await tabTo(page, page.getByLabel('Email'));
	await page.keyboard.type('super@demo.test');
	await page.keyboard.press('Tab');
	await page.keyboard.type(DEMO_PASSWORD);
	await page.keyboard.press('Enter');
	const tabs = page.getByRole('tablist', { name: 'Settings' });
	await expect(tabs).toBeVisible();

	// The tabs are one stop; the arrow keys choose among them.
	await tabTo(page, tabs.getByRole('tab', { selected: true }), { max: 80 });
	const content = tabs.getByRole('tab', { name: 'Content', exact: true });
	for (let i = 0; i < 20 && !(await content.evaluate((el) => el === document.activeElement)); i++) {
		await page.keyboard.press('ArrowRight');
	}
	await expect(content).toBeFocused();
	await expect(content).toHaveAttribute('aria-selected', 'true');
	const title = page.getByRole('tabpanel').getByRole('textbox', { name: 'Hero title' });
	await tabTo(page, title);
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.type('Welcome, keyboard users');
	const save = page.getByRole('button', { name: /^Save Changes/ });
	await tabTo(page, save, { back: true, max: 120 });
	await page.keyboard.press('Enter');
	await expect(page.getByRole('status').filter({ hasText: 'Saved!' })).toBeVisible();
	await expect(page.getByText('Changes saved successfully!')).toBeVisible();
});

test(
	'import a file: choose it, preview, apply; each step is announced',
	IN_FULL_BROWSER,
	async ({ page }) => {
		await openPanel(page, 'super@demo.test', slug);
		const tabs = page.getByRole('tablist', { name: 'Settings' });
		await tabs.getByRole('tab', { name: 'Members', exact: true }).focus();
		await page.keyboard.press('Enter');
		const importButton = page.getByRole('button', { name: 'Import members' });
		await tabTo(page, importButton, { max: 120 });
		await page.keyboard.press('Enter');
		const file = page.getByLabel('Member file');
		// A file input opens the system's file chooser on Space, as a visitor's keyboard would.
		// Listened for before the focus moves there: Playwright catches the chooser only once the
		// browser has been told to, which a key pressed straight after asking could beat.
		const chooser = page.waitForEvent('filechooser');
		await tabTo(page, file, { max: 40 });
		await page.keyboard.press('Space');
		await (
			await chooser
		).setFiles({
			name: 'members.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from(
				'Profile ID;Organization Name;City\r\n990501;Keyed Bakery;Lakeside\r\n',
				'utf8',
			),
		});
		await tabTo(page, page.getByRole('button', { name: 'Upload and preview' }));
		await page.keyboard.press('Enter');
		const toAdd = page.getByRole('region', { name: 'To add' });
		await expect(toAdd.getByRole('listitem')).toHaveText(['Keyed Bakery (#990501)']);
		await tabTo(page, page.getByRole('button', { name: 'Apply changes' }), { max: 80 });
		await page.keyboard.press('Enter');
		await expect(page.getByRole('status').filter({ hasText: 'Applied members.csv' })).toHaveText(
			/1 business added or changed\./,
			{ timeout: 60_000 },
		);
	},
);

test(
	'the panel opens with the keyboard and every tab is reachable without a trap',
	IN_FULL_BROWSER,
	async ({ page }) => {
		test.setTimeout(120_000);
		await openPanel(page, 'super@demo.test', slug);
		// The tabs are one stop, so the panel has few: its header's controls, the tabs, the tab's fields.
		expect(await expectNoKeyboardTrap(page, 400)).toBeGreaterThan(5);
	},
);
