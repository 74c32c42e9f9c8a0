import { expect, test } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { getTenantBySlug } from '../../src/features/tenants/tenants.server.ts';
import {
	changeDemoConfig,
	openPanel,
	panelTab,
	serviceClient,
	withDatabase,
} from './admin-support.ts';
import type { JsonObject } from '../support/db-clients.ts';
import { BUILD_GOES_LIVE, timeWithBuilds } from './e2e-env.ts';

// The month's publish budget in the demo's panel: the header says how many of the month's
// publishes are used; at the budget a save asks before it publishes, naming the cost, and 'Wait
// for the daily publish' leaves the change saved and waiting, listed in the header and History.
// The month is brought to its budget by publishes recorded for it (nothing is built), and put
// back afterwards.

const FIELD = 'Why join button text';
const REASON = 'e2e: an earlier publish of the month';
let original: JsonObject;
let tenantId: string;

test.beforeAll(async () => {
	original = await changeDemoConfig('content', (c) => c);
	tenantId = (await getTenantBySlug(await serviceClient(), 'demo')).id;
	// What earlier specs left waiting for the window (an import) is not this test's.
	await withDatabase((db) =>
		db.query(`delete from public.waiting_changes where tenant_id = $1 and state = 'waiting'`, [
			tenantId,
		]),
	);
});

test.afterAll(async () => {
	await changeDemoConfig('content', () => original);
	await withDatabase(async (db) => {
		await db.query(`delete from public.publishes where tenant_id = $1 and reason = $2`, [
			tenantId,
			REASON,
		]);
		await db.query(
			`delete from public.waiting_changes where tenant_id = $1 and source = 'staff' and state = 'waiting'`,
			[tenantId],
		);
		await db.query(`delete from public.publish_months where tenant_id = $1`, [tenantId]);
	});
});

/** The demo's newest publish so far (the month's recorded ones included). */
async function lastPublish(): Promise<number> {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string | null }>(
			'select max(id) as id from public.publishes where tenant_id = $1',
			[tenantId],
		);
		return Number(rows[0]?.id ?? 0);
	});
}

test("the header shows the month's publishes; at the budget a save asks first, naming the cost, and can wait", async ({
	page,
}) => {
	test.setTimeout(timeWithBuilds(1));
	// A build still under way from an earlier spec would take the save in (a save joins a queued
	// build, which costs nothing): wait until none is.
	await expect
		.poll(
			() =>
				withDatabase(async (db) => {
					const { rows } = await db.query<{ n: number }>(
						`select count(*)::int as n from public.publishes
						where tenant_id = $1 and state in ('queued', 'building')`,
						[tenantId],
					);
					return rows[0]!.n;
				}),
			BUILD_GOES_LIVE,
		)
		.toBe(0);
	// The month's publishes up to the budget, as the database counts them.
	const budget = await withDatabase(async (db) => {
		const { rows } = await db.query<{ used: number; budget: number }>(
			`select u.used, public.publish_budget($1) as budget from public.publish_month_used($1, now()) u`,
			[tenantId],
		);
		const { used, budget } = rows[0]!;
		await db.query(
			`insert into public.publishes (tenant_id, state, reason, started_at, finished_at)
			select $1, 'live', $2, now(), now() from generate_series(1, $3)`,
			[tenantId, REASON, Math.max(0, budget - used)],
		);
		return budget;
	});

	const before = await lastPublish();
	await openPanel(page, 'admin@demo.test');
	await expect(
		page.getByText(`Publishes this month: ${budget} of ${budget}`, { exact: false }),
	).toHaveText(
		`Publishes this month: ${budget} of ${budget} The budget is used: members' changes go out once a day.`,
	);

	const content = await panelTab(page, 'Content');
	await content.getByRole('textbox', { name: FIELD }).fill('Join within budget');
	await page.getByRole('button', { name: /^Save Changes/ }).click();
	const dialog = page.getByRole('dialog', { name: 'Publish past this month’s budget?' });
	await expect(dialog).toContainText(
		`Publishing now is publish ${budget + 1} of the month and costs 15 more Netlify credits`,
	);
	await expect(dialog.getByRole('button', { name: 'Publish for 15 credits' })).toBeVisible();
	await expectAccessibleInEveryTheme(page, 'the confirmation at the budget', {
		include: 'dialog[open]',
	});
	await dialog.getByRole('button', { name: 'Wait for the daily publish' }).click();
	await expect(dialog).toBeHidden();
	await expect(page.getByText('Changes saved successfully!')).toBeVisible();

	// Saved, not built: it waits for the daily publish, at midnight on the chamber's clock.
	await expect(
		page.getByText(/^1 change waits for a publish: live on the site by \w{3} \d{1,2}, 00:00$/),
	).toBeVisible();
	const builds = await withDatabase(async (db) => {
		const { rows } = await db.query<{ n: number }>(
			`select count(*)::int as n from public.publishes where tenant_id = $1 and id > $2`,
			[tenantId, before],
		);
		return rows[0]!.n;
	});
	expect(builds).toBe(0);

	// History says the same, with what waits.
	const history = await panelTab(page, 'History');
	const month = history.getByRole('region', { name: 'This month' });
	await expect(month).toContainText(`Publishes this month: ${budget} of ${budget}`);
	await expect(month.getByRole('listitem')).toContainText(
		'(the daily publish: the month’s budget is used): Configuration saved. Staff (admin@demo.test)',
	);
	await expectAccessibleInEveryTheme(page, "History's month", { include: 'main' });
});
