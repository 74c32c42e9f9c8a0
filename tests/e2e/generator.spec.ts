import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import {
	createUser,
	PANEL,
	savedConfig,
	serviceClient,
	signIn,
	useSession,
} from './admin-support.ts';
import { DATA_DIR, STACK_PORT } from './e2e-env.ts';

// The configuration generator in Chromium: its guard, the form and
// its live outputs, drafts, downloads, and the tenant file it writes going through the real
// `npm run tenant:import`.

const GENERATOR = '/chamber-config/generator';
const run = promisify(execFile);

async function openAs(page: Page, email: string): Promise<void> {
	await useSession(page, email);
	await page.goto(GENERATOR);
	await expect(page.getByRole('heading', { name: 'Configuration Generator' })).toBeVisible();
}

/** The tab panel on show (the others are hidden). */
const panel = (page: Page) => page.getByRole('tabpanel');

/** Opens a tab and answers its panel. */
async function tab(page: Page, name: string) {
	await page.getByRole('tab', { name }).click();
	return panel(page);
}

/** The eight required fields, typed as a person would, tab by tab. */
async function fillRequired(page: Page, name: string): Promise<void> {
	let fields = await tab(page, 'Identity');
	await fields.getByRole('textbox', { name: 'Chamber name', exact: true }).fill(name);
	await fields.getByRole('textbox', { name: 'City', exact: true }).fill('Lakeside');
	await fields.getByRole('textbox', { name: 'State', exact: true }).fill('mn');
	fields = await tab(page, 'Contact');
	await fields.getByRole('textbox', { name: 'Address', exact: true }).fill('1 Harbor Road');
	await fields.getByRole('textbox', { name: 'Phone', exact: true }).fill('(218) 555-0100');
	await fields.getByRole('textbox', { name: 'Email', exact: true }).fill('info@lakeside.example');
	fields = await tab(page, 'URLs');
	await fields
		.getByRole('textbox', { name: 'Main website', exact: true })
		.fill('https://www.lakeside.example');
}

test('the guard sends a visitor without a session to the login and back', async ({ page }) => {
	await page.clock.install();
	await page.goto(GENERATOR);
	await expect(page).toHaveURL(/\/chamber-login\?redirect=%2Fchamber-config%2Fgenerator$/);
	await page.clock.runFor(5_000);
	await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=%2Fchamber-config%2Fgenerator$/);
	await signIn(page, 'admin@demo.test');
	await expect(page).toHaveURL(GENERATOR);
	await expect(page.getByRole('heading', { name: 'Configuration Generator' })).toBeVisible();
});

test('an editor is not let in', async ({ page }) => {
	await useSession(page, 'editor@demo.test');
	await page.goto(PANEL);
	await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
	await page.goto(GENERATOR);
	await expect(page).toHaveURL(/\/chamber-login/);
});

test('filling the required fields takes the progress to 100 %, with auto-fill on the way', async ({
	page,
}) => {
	await openAs(page, 'admin@demo.test');
	await expect(page.getByText('0 of 8 required fields')).toBeVisible();
	// Required fields are marked * and required for assistive technology too.
	await expect(panel(page).getByText('Chamber name *')).toBeVisible();
	await expect(panel(page).getByLabel('Chamber name')).toHaveAttribute('required', '');
	await panel(page).getByLabel('Chamber name').fill('Lakeside Chamber of Commerce');
	await expect(panel(page).getByLabel('Slug')).toHaveValue('lakeside-chamber-of-commerce');
	await expect(page.getByText('2 of 8 required fields')).toBeVisible();
	await expect(page.getByRole('progressbar')).toHaveAttribute('value', '25');
	await fillRequired(page, 'Lakeside Chamber of Commerce');
	await expect(page.getByText('8 of 8 required fields')).toBeVisible();
	await expect(page.getByRole('progressbar')).toHaveAttribute('value', '100');
	await expect((await tab(page, 'Identity')).getByLabel('State')).toHaveValue('MN');
	const contact = await tab(page, 'Contact');
	await expect(contact.getByLabel('City')).toHaveValue('Lakeside');
	await expect(contact.getByLabel('State')).toHaveValue('MN');
	await expect((await tab(page, 'Branding')).getByLabel('Standard logo path')).toHaveValue(
		'/logos/lakeside-chamber-of-commerce/logo.svg',
	);
	// The outputs follow the form.
	await expect(page.getByRole('region', { name: 'Generated output' })).toContainText(
		'TENANT=lakeside-chamber-of-commerce',
	);
	await expectAccessibleInEveryTheme(page, 'the generator with its output');
});

test("Copy says 'Copied!' for 2 s and puts the text on the clipboard", async ({
	page,
	context,
}) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.clock.install();
	await openAs(page, 'admin@demo.test');
	await panel(page).getByLabel('Chamber name').fill('Copy Chamber');
	await page.getByRole('button', { name: 'Copy environment variables' }).click();
	await expect(page.getByRole('button', { name: 'Environment variables copied' })).toHaveText(
		'Copied!',
	);
	expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
		'TENANT=copy-chamber',
	);
	await page.clock.runFor(2_000);
	await expect(page.getByRole('button', { name: 'Copy environment variables' })).toHaveText('Copy');
});

test('Download All saves one text file with the three outputs', async ({ page }) => {
	await openAs(page, 'admin@demo.test');
	await fillRequired(page, 'Download Chamber');
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Download All' }).click(),
	]);
	expect(download.suggestedFilename()).toBe('download-chamber-configuration.txt');
	const text = await readFile(await download.path(), 'utf8');
	expect(text).toContain('## Configuration');
	expect(text).toContain('"name": "Download Chamber"');
	expect(text).toContain('## Styling');
	expect(text).toContain('--color-primary:');
	expect(text).toContain('## Environment variables');
	expect(text).toContain('TENANT=download-chamber');
});

test('a saved draft loads back into the same form after a reload; a broken one is refused', async ({
	page,
}) => {
	await openAs(page, 'admin@demo.test');
	await fillRequired(page, 'Draft Chamber');
	await (await tab(page, 'Branding')).getByLabel('Primary', { exact: true }).fill('#336699');
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Save Draft (JSON)' }).click(),
	]);
	const draft = await download.path();

	await page.reload();
	await expect(page.getByText('0 of 8 required fields')).toBeVisible();
	await page.getByLabel('Load Draft').setInputFiles(draft);
	await expect(page.getByRole('status')).toHaveText('Draft loaded.');
	await expect(page.getByText('8 of 8 required fields')).toBeVisible();
	await expect((await tab(page, 'Branding')).getByLabel('Primary', { exact: true })).toHaveValue(
		'#336699',
	);
	await expect((await tab(page, 'Identity')).getByLabel('Chamber name')).toHaveValue(
		'Draft Chamber',
	);

	const alert = page.waitForEvent('dialog');
	await page.getByLabel('Load Draft').setInputFiles({
		name: 'broken.json',
		mimeType: 'application/json',
		buffer: Buffer.from('{"name": '),
	});
	const dialog = await alert;
	expect(dialog.message()).toBe('Invalid JSON file');
	await dialog.accept();
	await expect(panel(page).getByLabel('Chamber name')).toHaveValue('Draft Chamber');
});

test('the downloaded tenant file is imported by tenant:import as it is', async ({ page }) => {
	const slug = `gen-${Date.now().toString(36)}`;
	await openAs(page, 'admin@demo.test');
	await fillRequired(page, `Generated ${slug}`);
	const identity = await tab(page, 'Identity');
	await identity.getByLabel('Slug').fill(slug);
	await identity.getByLabel('Administrator e-mail').fill(`first-admin-${slug}@e2e.test`);
	await (await tab(page, 'Branding')).getByLabel('Primary', { exact: true }).fill('#7a1f5c');
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Download tenant file' }).click(),
	]);
	expect(download.suggestedFilename()).toBe(`${slug}.json`);
	const file = join(tmpdir(), `${slug}.json`);
	await writeFile(file, await readFile(await download.path()));

	const env = {
		...process.env,
		CHAMBER_DATA_DIR: DATA_DIR,
		CHAMBER_STACK_PORT: String(STACK_PORT),
	};
	try {
		const { stdout } = await run(process.execPath, ['scripts/tenant-import.ts', file], { env });
		expect(stdout).toContain(`as tenant "${slug}"`);
		expect(stdout).toContain(
			`first-admin-${slug}@e2e.test has no password yet: sent the e-mail to set one.`,
		);
		// What the form said is what the chamber is: a site built from it shows its name in its
		// colours (a chamber imported by the deploy guide is built and served by `npm start` in the
		// hosted stage, tests/hosted/publish.spec.ts).
		const config = await savedConfig(slug);
		expect(config.name).toBe(`Generated ${slug}`);
		expect(config.colors.primary).toBe('#7a1f5c');
	} finally {
		await rm(file, { force: true });
		const service = await serviceClient();
		await service.from('tenants').delete().eq('slug', slug);
	}
});

test("'Create chamber' (super_admin) imports the chamber and opens its panel", async ({ page }) => {
	const email = await createUser('demo', 'super_admin');
	const slug = `created-${Date.now().toString(36)}`;
	await openAs(page, email);
	await fillRequired(page, `Created ${slug}`);
	await (await tab(page, 'Identity')).getByLabel('Slug').fill(slug);
	await page.getByRole('button', { name: 'Create chamber' }).click();
	await expect(page).toHaveURL(`${PANEL}?chamber=${slug}`);
	await expect(page.getByRole('heading', { level: 1 })).toContainText(`Created ${slug}`);
	await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'Slug' })).toHaveValue(slug);
	const service = await serviceClient();
	const { data } = await service
		.from('chamber_config')
		.select('name, city')
		.eq('slug', slug)
		.single();
	expect(data).toEqual({ name: `Created ${slug}`, city: 'Lakeside' });
	await service.from('tenants').delete().eq('slug', slug);
});

test("'Create chamber' is offered to super_admins only", async ({ page }) => {
	await openAs(page, 'admin@demo.test');
	await expect(page.getByRole('button', { name: 'Download tenant file' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Create chamber' })).toHaveCount(0);
});
