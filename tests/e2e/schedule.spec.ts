import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { nextScheduleMark } from '../../src/features/publish/schedule.ts';
import { getTenantBySlug } from '../../src/features/tenants/tenants.server.ts';
import {
	changeDemoConfig,
	openPanel,
	PANEL,
	panelTab,
	serviceClient,
	waitUntilLive,
	withDatabase,
} from './admin-support.ts';
import { timeWithBuilds } from './e2e-env.ts';
import type { JsonObject } from '../support/db-clients.ts';

// 'Publish at…' in the panel of the demo chamber: the change is stored, not saved; the header and
// History list it with who and when on the chamber's clock, with Cancel; when it is due (here its
// time is moved to now and the scheduled function called) it is written and goes live. The
// server's own scheduler runs the function on the real 5-minute marks meanwhile: the changes are
// scheduled for tomorrow, so it never fires them before the test says, however long a test takes.

const FIELD = 'Why join button text';

async function openContent(page: Page): Promise<void> {
	await openPanel(page, 'admin@demo.test');
	await expect(
		(await panelTab(page, 'Content')).getByRole('textbox', { name: FIELD }),
	).toBeVisible();
}

/** The dialog is checked by axe the first time it opens. */
let dialogChecked = false;

async function schedule(page: Page, value: string): Promise<void> {
	await page.getByRole('tabpanel').getByRole('textbox', { name: FIELD }).fill(value);
	await page.getByRole('button', { name: 'Publish at…' }).click();
	const dialog = page.getByRole('dialog', { name: 'Publish this change at' });
	const when = dialog.getByLabel('Date and time (America/Chicago)');
	// Offered: the next 5-minute mark far enough ahead.
	await expect(when).toHaveValue(/^\d{4}-\d\d-\d\dT\d\d:\d[05]$/);
	if (!dialogChecked) {
		await expectAccessibleInEveryTheme(page, 'the Publish at… dialog', { include: 'dialog[open]' });
		dialogChecked = true;
	}
	await when.fill(nextScheduleMark(new Date(Date.now() + 86_400_000), 'America/Chicago'));
	await dialog.getByRole('button', { name: 'Schedule' }).click();
	await expect(dialog).toBeHidden();
}

async function stored(): Promise<string> {
	const service = await serviceClient();
	const { data } = await service
		.from('chamber_config')
		.select('content')
		.eq('slug', 'demo')
		.single<{ content: { whyJoinButtonText?: string } }>();
	return data?.content.whyJoinButtonText ?? '';
}

let original: JsonObject;

test.beforeAll(async () => {
	original = await changeDemoConfig('content', (c) => c);
});

test.afterAll(async () => {
	await changeDemoConfig('content', () => original);
	const tenant = await getTenantBySlug(await serviceClient(), 'demo');
	await (await serviceClient()).from('scheduled_publishes').delete().eq('tenant_id', tenant.id);
});

test('a change scheduled from the panel waits, is listed with who and when, and goes live when due', async ({
	page,
}) => {
	// One real build of the demo site, when it is due.
	test.setTimeout(timeWithBuilds(1));
	const before = await stored();
	await openContent(page);
	await schedule(page, 'Join us this spring');

	await expect(page.getByRole('status').filter({ hasText: 'Scheduled to go live' })).toHaveText(
		/^Scheduled to go live \w{3} \d{1,2}, \d{4}, \d\d:\d\d C[SD]T: 1 change: content\.whyJoinButtonText$/,
	);
	await expect(page.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
	expect(await stored()).toBe(before);

	// The header lists it.
	await page.getByText('1 scheduled', { exact: true }).click();
	const item = page.getByRole('listitem').filter({ hasText: 'content.whyJoinButtonText' });
	await expect(item).toContainText('Goes live');
	await expect(item).toContainText('scheduled by admin@demo.test');
	await expect(
		item.getByRole('button', { name: /^Cancel the publish scheduled for/ }),
	).toBeVisible();

	// So does History.
	await page.getByRole('tab', { name: 'History', exact: true }).click();
	const scheduled = page.getByRole('tabpanel').getByRole('heading', { name: 'Scheduled' });
	await expect(scheduled).toBeVisible();

	// Due: its time moved to now, as a clock reaching it would (the row's time is otherwise kept
	// by the database), and the scheduled function run as the server's scheduler runs it: the
	// change is written in its author's name and goes live with the build it asks for.
	const tenant = await getTenantBySlug(await serviceClient(), 'demo');
	const id = await withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`select id from public.scheduled_publishes
			where tenant_id = $1 and state = 'scheduled' and summary like '%whyJoinButtonText'
			order by id desc limit 1`,
			[tenant.id],
		);
		await db.query('begin');
		await db.query('set local session_replication_role = replica');
		await db.query('update public.scheduled_publishes set run_at = now() where id = $1', [
			rows[0]!.id,
		]);
		await db.query('commit');
		return rows[0]!.id;
	});
	expect((await page.request.post('/.netlify/functions/fire-scheduled-publishes')).status()).toBe(
		204,
	);
	const publish = await withDatabase(async (db) => {
		const { rows } = await db.query<{ state: string; publish_id: string | null }>(
			'select state, publish_id from public.scheduled_publishes where id = $1',
			[id],
		);
		return rows[0];
	});
	expect(publish?.state).toBe('published');
	expect(await stored()).toBe('Join us this spring');
	await waitUntilLive(page.request, Number(publish?.publish_id));
	await page.goto('/');
	await expect(page.getByRole('link', { name: /^Join us this spring/ })).toBeVisible();

	await page.goto(PANEL);
	await panelTab(page, 'History');
	await expect(
		page
			.getByRole('tabpanel')
			.getByRole('listitem')
			.filter({ hasText: 'content.whyJoinButtonText' }),
	).toContainText('Went live');
});

test('Cancel in the header: it never goes live', async ({ page }) => {
	await openContent(page);
	await schedule(page, 'Never published');
	await page.getByText('1 scheduled', { exact: true }).click();
	await page
		.getByRole('button', {
			name: /^Cancel the publish scheduled for .*content\.whyJoinButtonText$/,
		})
		.click();
	await expect(page.getByText('1 scheduled', { exact: true })).toHaveCount(0);
	const tenant = await getTenantBySlug(await serviceClient(), 'demo');
	const states = await withDatabase(async (db) => {
		const { rows } = await db.query<{ state: string }>(
			`select state from public.scheduled_publishes where tenant_id = $1 and summary like '%whyJoinButtonText' order by id desc limit 1`,
			[tenant.id],
		);
		return rows.map((r) => r.state);
	});
	expect(states).toEqual(['canceled']);
	expect(await stored()).not.toBe('Never published');
});
