import { expect, test, type Browser, type Page } from '@playwright/test';
import { configFromRow, type ChamberConfig } from '../../src/features/config/config.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { createUser, serviceClient, signIn } from './admin-support.ts';

// No lost edits: two people, each in a browser of their own, edit the same chamber. Where both
// changed the same field, the second save shows both values with who saved the other and when,
// and the person keeps theirs or takes the other; different fields merge.

const PANEL = '/chamber-config-v2';

let ann: string;
let bo: string;
let slug: string;

test.beforeAll(async () => {
	ann = await createUser('demo', 'super_admin');
	bo = await createUser('demo', 'super_admin');
	slug = `conflict-${Date.now().toString(36)}`;
	await importTenant(
		await serviceClient(),
		parseTenantFile(
			{ tenant: { slug, name: `Conflict ${slug}` }, config: { content: { heroTitle: 'Welcome' } } },
			'conflicts e2e',
		),
	);
});

test.afterAll(async () => {
	await (await serviceClient()).from('tenants').delete().eq('slug', slug);
});

async function savedConfig(): Promise<ChamberConfig> {
	const { data, error } = await (
		await serviceClient()
	)
		.from('chamber_config')
		.select('*')
		.eq('slug', slug)
		.single();
	if (error) throw error;
	return configFromRow(data, slug);
}

/** A browser of its own, signed in, on the Content tab of the test chamber. */
async function person(browser: Browser, email: string): Promise<Page> {
	const context = await browser.newContext();
	const page = await context.newPage();
	const target = `${PANEL}?chamber=${slug}`;
	await page.goto(`/chamber-login-v2?redirect=${encodeURIComponent(target)}`);
	await signIn(page, email);
	await page.getByRole('tab', { name: 'Content', exact: true }).click();
	await expect(
		page.getByRole('tabpanel').getByRole('textbox', { name: 'Hero title' }),
	).toBeVisible();
	return page;
}

const field = (page: Page, name: string) =>
	page.getByRole('tabpanel').getByRole('textbox', { name, exact: true });

async function saveAndWait(page: Page): Promise<void> {
	await page.getByRole('button', { name: /^Save Changes/ }).click();
	await expect(page.getByText('Changes saved successfully!')).toBeVisible();
}

test('the same field saved by two people: the second sees both and keeps theirs, other fields merge', async ({
	browser,
}) => {
	const first = await person(browser, ann);
	const second = await person(browser, bo);

	await field(first, 'Hero title').fill('Ann’s title');
	await field(second, 'Hero title').fill('Bo’s title');
	await field(second, 'Featured businesses title').fill('Bo’s featured');
	await saveAndWait(first);

	await second.getByRole('button', { name: /^Save Changes/ }).click();
	const dialog = second.getByRole('dialog', { name: 'Someone else changed this meanwhile' });
	await expect(dialog).toBeVisible();
	const conflict = dialog.getByRole('group', { name: 'Content: Hero title' });
	await expect(conflict.getByRole('definition')).toHaveText(['Bo’s title', 'Ann’s title']);
	await expect(conflict.getByText(`Theirs, saved by ${ann} on`)).toBeVisible();
	// Nothing of Ann's was overwritten; Bo's other field went in.
	const meanwhile = await savedConfig();
	expect(meanwhile.content.heroTitle).toBe('Ann’s title');
	expect(meanwhile.content.featuredTitle).toBe('Bo’s featured');

	await conflict.getByRole('button', { name: 'Keep mine' }).click();
	await expect(dialog).toBeHidden();
	await expect(second.getByText('Changes saved successfully!')).toBeVisible();
	await expect.poll(async () => (await savedConfig()).content.heroTitle).toBe('Bo’s title');
	await first.context().close();
	await second.context().close();
});

test('take theirs: the other value comes into the form and nothing is saved over it', async ({
	browser,
}) => {
	const first = await person(browser, ann);
	const second = await person(browser, bo);

	await field(first, 'Footer tagline').fill('Ann’s tagline');
	await field(second, 'Footer tagline').fill('Bo’s tagline');
	await saveAndWait(first);

	await second.getByRole('button', { name: /^Save Changes/ }).click();
	const dialog = second.getByRole('dialog', { name: 'Someone else changed this meanwhile' });
	await dialog
		.getByRole('group', { name: 'Content: Footer tagline' })
		.getByRole('button', { name: 'Take theirs' })
		.click();
	await expect(dialog).toBeHidden();
	await expect(field(second, 'Footer tagline')).toHaveValue('Ann’s tagline');
	await expect(second.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
	expect((await savedConfig()).content.footerTagline).toBe('Ann’s tagline');
	await first.context().close();
	await second.context().close();
});
