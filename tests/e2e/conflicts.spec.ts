import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import {
	createUser,
	importChamber,
	openPanel,
	panelTab,
	removeChamber,
	saveChanges,
	savedConfig,
} from './admin-support.ts';

// No lost edits: two people, each in a browser of their own, edit the same chamber. Where both
// changed the same field, the second save shows both values with who saved the other and when,
// and the person keeps theirs or takes the other; different fields merge.

let ann: string;
let bo: string;
let slug: string;

test.beforeAll(async () => {
	ann = await createUser('demo', 'super_admin');
	bo = await createUser('demo', 'super_admin');
	slug = await importChamber('conflict', 'Conflict', {
		config: { content: { heroTitle: 'Welcome' } },
	});
});

test.afterAll(async () => {
	await removeChamber(slug);
});

/** A browser of its own, signed in, on the Content tab of the test chamber. */
async function person(browser: Browser, email: string): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await openPanel(page, email, slug);
	const content = await panelTab(page, 'Content');
	await expect(content.getByRole('textbox', { name: 'Hero title' })).toBeVisible();
	return page;
}

const field = (page: Page, name: string) =>
	page.getByRole('tabpanel').getByRole('textbox', { name, exact: true });

/**
 * Ann and Bo, each in a browser of their own, fill in fields of the Content tab (name → value);
 * Ann saves first, then Bo. Answers their pages and the dialog Bo's save meets.
 */
async function saveOneAfterTheOther(
	browser: Browser,
	annFills: Record<string, string>,
	boFills: Record<string, string>,
) {
	const first = await person(browser, ann);
	const second = await person(browser, bo);
	for (const [name, value] of Object.entries(annFills)) await field(first, name).fill(value);
	for (const [name, value] of Object.entries(boFills)) await field(second, name).fill(value);
	await saveChanges(first);
	await second.getByRole('button', { name: /^Save Changes/ }).click();
	const dialog = second.getByRole('dialog', { name: 'Someone else changed this meanwhile' });
	return { first, second, dialog };
}

test('the same field saved by two people: the second sees both and keeps theirs, other fields merge', async ({
	browser,
}) => {
	// Two people's browsers, and axe on the dialog in three colour sets.
	test.setTimeout(90_000);
	const { first, second, dialog } = await saveOneAfterTheOther(
		browser,
		{ 'Hero title': 'Ann’s title' },
		{ 'Hero title': 'Bo’s title', 'Featured businesses title': 'Bo’s featured' },
	);
	await expect(dialog).toBeVisible();
	const conflict = dialog.getByRole('group', { name: 'Content: Hero title' });
	await expect(conflict.getByRole('definition')).toHaveText(['Bo’s title', 'Ann’s title']);
	await expect(conflict.getByText(`Theirs, saved by ${ann} on`)).toBeVisible();
	await expectAccessibleInEveryTheme(second, 'the conflicts dialog', { include: 'dialog[open]' });
	// Nothing of Ann's was overwritten; Bo's other field went in.
	const meanwhile = await savedConfig(slug);
	expect(meanwhile.content.heroTitle).toBe('Ann’s title');
	expect(meanwhile.content.featuredTitle).toBe('Bo’s featured');

	await conflict.getByRole('button', { name: 'Keep mine' }).click();
	await expect(dialog).toBeHidden();
	await expect(second.getByText('Changes saved successfully!')).toBeVisible();
	await expect.poll(async () => (await savedConfig(slug)).content.heroTitle).toBe('Bo’s title');
	await first.context().close();
	await second.context().close();
});

test('take theirs: the other value comes into the form and nothing is saved over it', async ({
	browser,
}) => {
	const { first, second, dialog } = await saveOneAfterTheOther(
		browser,
		{ 'Footer tagline': 'Ann’s tagline' },
		{ 'Footer tagline': 'Bo’s tagline' },
	);
	await dialog
		.getByRole('group', { name: 'Content: Footer tagline' })
		.getByRole('button', { name: 'Take theirs' })
		.click();
	await expect(dialog).toBeHidden();
	await expect(field(second, 'Footer tagline')).toHaveValue('Ann’s tagline');
	await expect(second.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
	expect((await savedConfig(slug)).content.footerTagline).toBe('Ann’s tagline');
	await first.context().close();
	await second.context().close();
});
