import { expect, test } from '@playwright/test';
import { TABS } from '../../src/features/admin/admin.ts';
import {
	createUser,
	importChamber,
	openPanel,
	panelTab as tab,
	PNG,
	removeChamber,
	serviceClient,
} from './admin-support.ts';

// The panel's Logos, Cache and Users tabs in Chromium, on a chamber of the test's own
// opened by a super_admin (?chamber=), so nothing here rebuilds the demo site.

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="alert('onload')">
<script>alert('script')</script>
<foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert('iframe')"></iframe></foreignObject>
<a href="javascript:alert('link')"><rect width="40" height="40" fill="#0d3e63"/></a>
</svg>`;

let superAdmin: string;
let slug: string;

test.beforeAll(async () => {
	superAdmin = await createUser('demo', 'super_admin');
	slug = await importChamber('ops', 'Ops');
});

test.afterAll(async () => {
	await removeChamber(slug);
});

test('each role sees its tabs: admin all but Users, super_admin all', async ({ page }) => {
	await openPanel(page, 'admin@demo.test');
	await expect(page.getByRole('tab')).toHaveText(TABS.filter((name) => name !== 'Users'));
	await tab(page, 'Cache');
	await expect(page.getByRole('button', { name: 'Refresh Categories cache' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Cache Refresh History' })).toHaveCount(0);

	await openPanel(page, superAdmin);
	await expect(page.getByRole('tab')).toHaveCount(17);
	await expect(page.getByRole('tab').last()).toHaveText('Users');
});

test('Logos: a PNG is uploaded and previewed; a file that is not an image and one over 5 MB are refused', async ({
	page,
}) => {
	await openPanel(page, superAdmin, slug);
	const logos = await tab(page, 'Logos');
	const standard = logos.getByRole('region', { name: 'Standard Logo' });
	await standard.getByLabel('Upload standard logo').setInputFiles({
		name: 'logo.png',
		mimeType: 'image/png',
		buffer: PNG,
	});
	await expect(standard.getByText('Logo uploaded')).toBeVisible();
	const preview = standard.getByRole('img', { name: 'Current standard logo' });
	await expect(preview).toHaveAttribute('src', /\/storage\/v1\/object\/public\/logos\/.+\.png$/);
	await expect(preview).toHaveJSProperty('complete', true);
	expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
	const service = await serviceClient();
	const { data } = await service.from('chamber_config').select('logo').eq('slug', slug).single();
	expect((data as { logo: { standard: string } }).logo.standard).toBe(
		await preview.getAttribute('src'),
	);

	// Named .png, but text: the type comes from the bytes.
	const favicon = logos.getByRole('region', { name: 'Favicon' });
	await favicon.getByLabel('Upload favicon').setInputFiles({
		name: 'favicon.png',
		mimeType: 'image/png',
		buffer: Buffer.from('not an image at all'),
	});
	await expect(favicon.getByRole('alert')).toHaveText(
		'Invalid file type. Use PNG, JPG, SVG, WebP, or ICO',
	);
	const stacked = logos.getByRole('region', { name: 'Stacked Logo (Mobile)' });
	await stacked.getByLabel('Upload stacked logo (mobile)').setInputFiles({
		name: 'big.png',
		mimeType: 'image/png',
		buffer: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]),
	});
	await expect(stacked.getByRole('alert')).toHaveText('File size must be under 5MB');
});

test('Logos: a hostile SVG is stored sanitised and runs nothing, in the panel or opened directly', async ({
	page,
}) => {
	const dialogs: string[] = [];
	page.on('dialog', (dialog) => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	await openPanel(page, superAdmin, slug);
	const logos = await tab(page, 'Logos');
	const stacked = logos.getByRole('region', { name: 'Stacked Logo (Mobile)' });
	await stacked.getByLabel('Upload stacked logo (mobile)').setInputFiles({
		name: 'logo.svg',
		mimeType: 'image/svg+xml',
		buffer: Buffer.from(HOSTILE_SVG),
	});
	await expect(stacked.getByText('Logo uploaded')).toBeVisible();
	const src = (await stacked
		.getByRole('img', { name: 'Current stacked logo (mobile)' })
		.getAttribute('src'))!;
	const stored = await (await page.request.get(src)).text();
	expect(stored).toContain('<rect');
	expect(stored).not.toMatch(/script|onload|foreignObject|javascript:/i);

	await page.goto(src);
	await page.locator('svg').first().click({ force: true });
	expect(dialogs).toEqual([]);
});

test('Cache: a refresh shows the new version, and super_admins see it in the refresh history', async ({
	page,
}) => {
	await openPanel(page, superAdmin, slug);
	const cache = await tab(page, 'Cache');
	await cache.getByRole('button', { name: 'Refresh Chamber Events cache' }).click();
	await expect(
		cache.getByText(/^Chamber Events cache refreshed \(now version \d+\)$/),
	).toBeVisible();
	const history = cache.getByRole('region', { name: 'Cache Refresh History' });
	await expect(history.getByRole('row').nth(1)).toContainText(superAdmin);
	await expect(history.getByRole('row').nth(1)).toContainText('Chamber Events');
});

test('Users: a super_admin creates a user of a chamber and deletes it after confirming', async ({
	page,
}) => {
	const email = `created-${Date.now().toString(36)}@e2e.test`;
	await openPanel(page, superAdmin, slug);
	const users = await tab(page, 'Users');
	await expect(users.getByRole('table', { name: 'Role Permissions' })).toContainText(
		'Manage Users',
	);
	await users.getByRole('button', { name: 'Create User' }).click();
	const create = page.getByRole('dialog', { name: 'Create User' });
	await create.getByLabel('Email').fill(email);
	await create.getByLabel('Password').fill('secret1');
	await create.getByLabel('Chamber').selectOption({ label: `Ops ${slug}` });
	await expect(create.getByLabel('Role')).toHaveValue('admin');
	await create.getByRole('button', { name: 'Create User' }).click();
	await expect(users.getByText(`User ${email} created successfully`)).toBeVisible();
	const row = users.getByRole('row').filter({ hasText: email });
	await expect(row).toContainText(`Ops ${slug}`);
	await expect(row).toContainText('Never');

	await row.getByRole('button', { name: `Delete ${email}` }).click();
	const confirm = page.getByRole('dialog', { name: 'Delete User' });
	await expect(confirm).toContainText(email);
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(users.getByText(`User ${email} deleted successfully`)).toBeVisible();
	await expect(users.getByRole('row').filter({ hasText: email })).toHaveCount(0);
});
