import { expect, test, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { slugify } from '../../src/features/directory/rules.ts';
import {
	startAtlasMembersStandin,
	type AtlasMembersStandin,
} from '../support/atlas-members-standin.ts';
import { dataOf } from '../support/db-clients.ts';
import { unusedPartsBomb } from '../support/hostile-files.ts';
import { LIMIT_MESSAGES } from '../../src/features/members/import/limits.ts';
import { DEMO_PASSWORD, openPanel, serviceClient } from './admin-support.ts';
import { ATLAS_MEMBERS_PORT, DATA_DIR, STACK_URL } from './e2e-env.ts';

// Member imports in Chromium on `npm start`, signed in as the demo chamber's admin: a file with
// a bad row is previewed with its row and column and nothing is applied; a good one is applied,
// waits for the publish window, and its new member has its page at once; a large file shows its progress across
// a reload; a sync from the stand-in membership system keeps a field staff changed in the panel.

const ADMIN = 'admin@demo.test';
/** Membership-system ids this spec adds, far from the demo's. */
const NEW_ID = '990001';
const SYNC_ID = '990002';

let atlas: AtlasMembersStandin;
let demoTenantId: string;
/** A demo business the sync spec edits, and its website before. */
let edited: { id: string; weblink_profile_id: string; report_name: string; website: string };

async function openImport(page: Page) {
	await openPanel(page, ADMIN);
	return showImport(page);
}

/** Members tab → Import members: the file import and the membership system's sync. */
async function showImport(page: Page) {
	await page.getByRole('tab', { name: 'Members', exact: true }).click();
	await page.getByRole('button', { name: 'Import members' }).click();
	return page.getByRole('tabpanel');
}

async function chooseFile(page: Page, name: string, csv: string) {
	await page.getByLabel('Member file').setInputFiles({
		name,
		mimeType: 'text/csv',
		buffer: Buffer.from(csv, 'utf8'),
	});
	await page.getByRole('button', { name: 'Upload and preview' }).click();
}

async function profile(weblinkId: string) {
	const service = await serviceClient();
	const { data } = await service
		.from('profiles')
		.select('id, report_name, website, published')
		.eq('tenant_id', demoTenantId)
		.eq('weblink_profile_id', weblinkId)
		.maybeSingle<{ id: string; report_name: string; website: string; published: boolean }>();
	return data;
}

test.beforeAll(async () => {
	const service = await serviceClient();
	const { data: tenant } = await service.from('tenants').select('id').eq('slug', 'demo').single();
	demoTenantId = (tenant as { id: string }).id;
	const { data } = await service
		.from('profiles')
		.select('id, weblink_profile_id, report_name, website')
		.eq('tenant_id', demoTenantId)
		.eq('published', true)
		.order('report_name')
		.limit(1)
		.single();
	edited = data as typeof edited;
	atlas = await startAtlasMembersStandin({
		members: [],
		port: ATLAS_MEMBERS_PORT,
		clientSecret: 'e2e-atlas-secret',
	});
});

test.afterAll(async () => {
	await atlas?.close();
	const service = await serviceClient();
	await service
		.from('profiles')
		.delete()
		.eq('tenant_id', demoTenantId)
		.in('weblink_profile_id', [NEW_ID, SYNC_ID]);
	await service.from('business_overrides').delete().eq('profile_id', edited.id);
	await service.from('profiles').update({ website: edited.website }).eq('id', edited.id);
	await service
		.from('member_import_mappings')
		.delete()
		.eq('tenant_id', demoTenantId)
		.eq('header', 'plainnotes');
	// The built site keeps the members added here until the next publish builds it again (the
	// next spec's first): no build of its own for that.
});

test('a CSV with a bad row: the preview names its row and column, and nothing is applied', async ({
	page,
}) => {
	const panel = await openImport(page);
	await chooseFile(
		page,
		'bad-row.csv',
		`Profile ID,Organization Name,Member Since\r\n${NEW_ID},Importia Bakery,2020-05-01\r\n${SYNC_ID},Second Shop,31/31/2020\r\n`,
	);
	const invalid = panel.getByRole('region', { name: 'Invalid rows' });
	await expect(invalid.getByRole('listitem')).toHaveText([
		'Row 3 (Second Shop): column Member Since: Expected a date like 2027-03-15 or 3/15/2027',
	]);
	await expect(panel.getByRole('button', { name: 'Apply changes' })).toBeDisabled();
	await expect(panel.getByText(/Nothing has been changed yet\.$/)).toBeVisible();
	expect(await profile(NEW_ID)).toBeNull();
	await panel.getByRole('button', { name: 'Discard' }).click();
	await expect(panel.getByRole('button', { name: 'Upload and preview' })).toBeVisible();
});

test('a plain spreadsheet without ids: columns preselected, a similar name to confirm before applying', async ({
	page,
}) => {
	const panel = await openImport(page);
	await chooseFile(
		page,
		'plain.csv',
		`Business,Phone,Email,Plain Notes\r\n${edited.report_name} Annex,555-0100,,Second shop\r\nPlainfile Pottery,555-0101,pots@plainfile.example,New\r\n`,
	);
	// The column page: what it recognised is chosen, and it needs no id column.
	await expect(panel.getByLabel('Field for Business')).toHaveValue('report_name');
	await expect(panel.getByLabel('Field for Email')).toHaveValue('email');
	await expect(
		panel.getByText('No column holds a membership-system id: rows will be matched'),
	).toBeVisible();
	await panel.getByLabel('Field for Plain Notes').selectOption({ label: 'Ignore this column' });
	await panel.getByRole('button', { name: 'Save mapping and continue' }).click();

	const confirm = panel.getByRole('region', { name: 'To confirm' });
	const row = confirm.getByRole('group', { name: `Row 2: ${edited.report_name} Annex` });
	await expect(
		row.getByRole('radio', { name: `${edited.report_name} (#${edited.weblink_profile_id})` }),
	).toBeVisible();
	await expect(row).toContainText('similar name');
	await expect(panel.getByRole('region', { name: 'To add' }).getByRole('listitem')).toHaveText([
		'Plainfile Pottery',
	]);
	await expect(panel.getByRole('button', { name: 'Apply changes' })).toBeDisabled();
	await expect(
		panel.getByText('Confirm or skip each row to confirm before applying (1 left).'),
	).toBeVisible();
	// Each choice is saved as it is made; the radio shows it once the database has it.
	await row.getByRole('radio', { name: 'Skip this row' }).click();
	await expect(row.getByRole('radio', { name: 'Skip this row' })).toBeChecked();
	await expect(panel.getByRole('status').filter({ hasText: '1 row skipped' })).toBeVisible();
	await expect(panel.getByRole('button', { name: 'Apply changes' })).toBeEnabled();
	await panel.getByRole('button', { name: 'Discard' }).click();
	await expect(panel.getByRole('button', { name: 'Upload and preview' })).toBeVisible();
});

test('a good CSV is previewed, applied in one go, and waits for the publish window; its new business has its page at once', async ({
	page,
}) => {
	test.setTimeout(120_000);
	const panel = await openImport(page);
	await chooseFile(
		page,
		'members.csv',
		`\uFEFFProfile ID;Organization Name;City;Website\r\n${NEW_ID};Importia Bakery;"Lakeside";https://importia.example\r\n`,
	);
	await expect(panel.getByRole('region', { name: 'To add' }).getByRole('listitem')).toHaveText([
		`Importia Bakery (#${NEW_ID})`,
	]);
	expect(await profile(NEW_ID)).toBeNull();
	await panel.getByRole('radio', { name: 'Keep them listed' }).check();
	await panel.getByRole('button', { name: 'Apply changes' }).click();
	// No build of its own: it waits for the chamber's window, with members' changes.
	await expect(panel.getByRole('status').filter({ hasText: 'Applied members.csv' })).toHaveText(
		/1 business added or changed\. Live on the site by (\w{3} \d{1,2}, )?\d\d:\d\d, with the chamber's publish window\./,
		{ timeout: 60_000 },
	);
	const added = await profile(NEW_ID);
	expect(added).toMatchObject({ report_name: 'Importia Bakery', published: true });
	// A business published since the last build has its profile, rendered on demand, at once.
	await page.goto(`/business/${added!.id}/${slugify('Importia Bakery')}`);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Importia Bakery');
});

test('a workbook that unpacks to gigabytes is refused with a sentence for the staff', async ({
	page,
}) => {
	test.setTimeout(60_000);
	const panel = await openImport(page);
	await page.getByLabel('Member file').setInputFiles({
		name: 'members.xlsx',
		mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		buffer: await unusedPartsBomb(5 * 1024 * 1024),
	});
	await page.getByRole('button', { name: 'Upload and preview' }).click();
	await expect(panel.getByRole('alert')).toHaveText(LIMIT_MESSAGES.unpackedBytes, {
		timeout: 30_000,
	});
});

test('a large file shows its progress, which survives a reload', async ({ page }) => {
	test.setTimeout(240_000);
	const rows = Array.from(
		{ length: 60_000 },
		(_, i) => `${800_000 + i},Bulk Member ${i},Lakeside`,
	).join('\r\n');
	const panel = await openImport(page);
	await chooseFile(page, 'large.csv', `Profile ID,Organization Name,City\r\n${rows}\r\n`);
	await expect(panel.getByRole('progressbar', { name: 'Import progress' })).toBeVisible({
		timeout: 30_000,
	});
	await page.reload();
	await showImport(page);
	await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
	await expect(
		page.getByRole('status').filter({ hasText: /Checked [\d,]+ of 60,000 rows/ }),
	).toBeVisible({
		timeout: 60_000,
	});
	await expect(
		page.getByRole('status').filter({ hasText: '60,000 businesses to add' }),
	).toBeVisible({ timeout: 180_000 });
	await page.getByRole('button', { name: 'Discard' }).click();
	await expect(page.getByRole('button', { name: 'Upload and preview' })).toBeVisible();
	expect(await profile('800000')).toBeNull();
});

test('a sync from the membership system keeps a field staff changed in the panel', async ({
	page,
}) => {
	test.setTimeout(120_000);
	// The panel's edit, made as the admin with their own token (save_business, as the Members tab).
	const keys = await loadOrCreateKeys(DATA_DIR);
	const staff = createClient<Database>(STACK_URL, keys.anonKey, {
		auth: { persistSession: false },
	});
	await staff.auth.signInWithPassword({ email: ADMIN, password: DEMO_PASSWORD });
	// The version as the member editor reads it (staff read a business's bookkeeping this way).
	const current = dataOf(
		await staff.rpc('admin_business', { p_tenant_id: demoTenantId, p_business_id: edited.id }),
	);
	const saved = await staff.rpc('save_business', {
		p_tenant_id: demoTenantId,
		p_business_id: edited.id,
		p_changes: { website: 'https://changed-here.example' },
		p_version: current.version,
	});
	expect(saved.error).toBeNull();
	atlas.members = [
		{
			weblink_profile_id: edited.weblink_profile_id,
			report_name: edited.report_name,
			website: 'https://from-atlas.example',
		},
		{ weblink_profile_id: SYNC_ID, report_name: 'Atlas Synced Cafe', city: 'Harbor' },
	];

	const panel = await openImport(page);
	await panel.getByRole('button', { name: 'Sync now' }).click();
	const kept = panel.getByRole('region', { name: 'Kept as changed here' });
	await expect(kept.getByRole('listitem').first()).toContainText(
		'Website: kept (changed here) as https://changed-here.example; the file has https://from-atlas.example',
		{ timeout: 60_000 },
	);
	await expect(panel.getByRole('region', { name: 'To add' })).toContainText('Atlas Synced Cafe');
	await panel.getByRole('radio', { name: 'Keep them listed' }).check();
	await panel.getByRole('button', { name: 'Apply changes' }).click();
	await expect(
		panel.getByRole('row').filter({ hasText: 'MemberClicks Atlas' }).first(),
	).toContainText('Applied', { timeout: 60_000 });
	expect(await profile(SYNC_ID)).toMatchObject({ report_name: 'Atlas Synced Cafe' });
	expect((await profile(edited.weblink_profile_id))?.website).toBe('https://changed-here.example');
	expect(atlas.requests.some((r) => r.path === '/connect/token')).toBe(true);
});
