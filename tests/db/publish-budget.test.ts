// Runs on: hosted — the window, the month's count and who may read or change them are SQL:
// proved on the production shape.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fireScheduledPublishes from '../../netlify/functions/fire-scheduled-publishes.ts';
import {
	chamberTimeZone,
	stateTimeZone,
	ZONED_STATES,
} from '../../src/features/config/time-zone.ts';
import { fireWindow } from '../../src/features/publish/policy.server.ts';
import {
	finishPublish,
	startPublish,
	syncPublishBudget,
} from '../../src/features/publish/publish.server.ts';
import { fireDueSchedules } from '../../src/features/publish/schedule.server.ts';
import { chamberConfigSchema } from '../../src/features/config/config.ts';
import { userClient } from '../support/db-clients.ts';
import { db, service, stack } from './clients.ts';
import { configVersions, importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// Publishing within a budget, through the functions over real HTTP, the local identity service
// and the database, with a stand-in of Netlify's API receiving the build hooks and purges: who
// changed what decides when it is published (staff at once; members, syncs and imports with the
// window), the month's count against the budget, and changes no page shows. Times the database
// judges take the service role's injected clock (p_now); a member's or staff member's call is
// judged at now().

const DOMAIN = 'publish-budget.test';
const ZONE = 'America/Chicago';
const outbox = join(stack.dataDir, 'outbox');

let site: StaffSite<StaffChambers>;
let chambers: StaffChambers;
const tag = Math.random().toString(36).slice(2, 8);
const ids = { shop: randomUUID(), hidden: randomUUID() };
const memberEmail = `owner-${tag}@${DOMAIN}`;
let memberToken: string;

const call: StaffSite<StaffChambers>['server']['call'] = (path, options) =>
	site.server.call(path, options);

function business(id: string, name: string, email: string, weblink: string, published = true) {
	return {
		id,
		report_name: name,
		email,
		weblink_profile_id: weblink,
		published,
		work_phone: '555-0100',
		website: 'https://old.example',
		categories: ['Restaurants'],
	};
}

/** The newest e-mail of `kind` to an address in the outbox, once it is there. */
async function mailTo(address: string, kind: string, after = 0) {
	for (let i = 0; i < 100; i++) {
		const files = (await readdir(outbox).catch(() => [] as string[]))
			.filter((f) => f.includes(kind) && f.includes(address))
			.sort();
		if (files.length > after) return simpleParser(await readFile(join(outbox, files.at(-1)!)));
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`No ${kind} e-mail to ${address}`);
}

async function countMail(address: string, kind: string): Promise<number> {
	return (await readdir(outbox).catch(() => [] as string[])).filter(
		(f) => f.includes(kind) && f.includes(address),
	).length;
}

/** The member of the shop, signed in through its e-mailed link (as its page is). */
async function signInMember(): Promise<string> {
	const before = await countMail(memberEmail, 'sign-in');
	await call('/api/members/sign-in', { body: { business: ids.shop }, from: '127.0.0.41' });
	const mail = await mailTo(memberEmail, 'sign-in', before);
	const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
	const answer = await fetch(link, { redirect: 'manual' });
	const fragment = new URLSearchParams(new URL(answer.headers.get('location')!).hash.slice(1));
	return fragment.get('access_token')!;
}

/** The member's listing and a change of it, as its page sends them. */
async function memberSave(changes: object) {
	const listing = await call(`/api/members/listing?business=${ids.shop}`, { token: memberToken });
	return call(`/api/members/listing?business=${ids.shop}`, {
		token: memberToken,
		body: { version: listing.body.version, changes },
	});
}

async function waitingRows() {
	const { rows } = await db.query<{
		source: string;
		state: string;
		due_at: Date;
		daily: boolean;
		publish_id: string | null;
	}>(
		`select source, state, due_at, daily, publish_id from public.waiting_changes
		where tenant_id = $1 order by id`,
		[chambers.tenantId],
	);
	return rows;
}

/** When a change collected at `at` is live at the latest, as the database says. */
async function liveBy(at: Date, daily = false): Promise<Date> {
	const { rows } = await db.query<{ at: Date }>('select public.publish_live_by($1, $2, $3) as at', [
		chambers.tenantId,
		at,
		daily,
	]);
	return rows[0]!.at;
}

const minutes = (n: number) => n * 60_000;

/** A change a sync (or an import) collects at `at`, as the server does: when it is live by. */
async function collectAt(source: 'sync' | 'import', at: Date): Promise<Date> {
	const { data, error } = await service.rpc('collect_publish', {
		p_tenant_id: chambers.tenantId,
		p_source: source,
		p_summary: `Member ${source}: 2 businesses`,
		p_now: at.toISOString(),
	});
	expect(error).toBeNull();
	return new Date(data![0]!.due_at);
}

/** A save of the footer's tagline scheduled for `runAt`, stored as the server side stores one. */
async function scheduleTagline(runAt: Date, value: string) {
	await db.query(
		`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
		values ($1, $2, 'save', $3, '1 change: content.footerTagline')`,
		[
			chambers.tenantId,
			runAt,
			JSON.stringify([
				{
					column: 'content',
					field: 'footerTagline',
					value,
					version: (await configVersions(service, chambers.tenantId)).content,
					path: 'content.footerTagline',
				},
			]),
		],
	);
}

async function footerTagline(): Promise<unknown> {
	const { rows } = await db.query<{ tagline: unknown }>(
		`select content -> 'footerTagline' as tagline from public.chamber_config where tenant_id = $1`,
		[chambers.tenantId],
	);
	return rows[0]!.tagline;
}

/** A build the stand-in was asked for starts and goes live (as the deploy events report). */
async function buildGoesLive(publishId: number) {
	await startPublish(service, publishId, `deploy-${publishId}`);
	await finishPublish(service, publishId, { state: 'live' });
}

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'budget',
				domain: DOMAIN,
				password: 'budget-password',
				config: {
					contact: { timeZone: ZONE },
					features: { memberUpdates: true, memberLiveFields: ['work_phone', 'hours'] },
				},
				businesses: [
					business(ids.shop, 'Budget Bakery', memberEmail, '8101'),
					business(ids.hidden, 'Hidden Shed', `hidden-${tag}@${DOMAIN}`, '8102', false),
				],
			}),
		env: { OUTBOX_DIR: outbox, SMTP_URL: undefined, PUBLISH_MONTHLY_BUDGET: '40' },
	});
	chambers = site.chambers;
	memberToken = await signInMember();
});

afterAll(() => site?.close());

beforeEach(async () => {
	await site.reset();
	await db.query('delete from public.waiting_changes where tenant_id = $1', [chambers.tenantId]);
	await db.query('delete from public.publish_months where tenant_id = $1', [chambers.tenantId]);
	await db.query('delete from public.scheduled_publishes where tenant_id = $1', [
		chambers.tenantId,
	]);
	await db.query('delete from public.rate_limit_hits where bucket like $1', ['member-publish:%']);
	process.env.PUBLISH_MONTHLY_BUDGET = '40';
});

afterEach(() => {
	delete process.env.PRERENDERED_PROFILES_MAX;
});

describe('members, syncs and imports wait for the window', () => {
	it('a member update, a sync and an import make no build of their own; one publish at the mark takes them', async () => {
		const saved = await memberSave({ work_phone: '555-0142' });
		expect(saved.status).toBe(200);
		expect(saved.body).toMatchObject({ live: ['work_phone'], published: false });
		const due = await liveBy(new Date());
		expect(new Date(saved.body.liveBy).getTime()).toBe(due.getTime());
		// What a sync and an import collect (members/import/import.server.ts), as the server.
		for (const source of ['sync', 'import']) {
			const { error } = await service.rpc('collect_publish', {
				p_tenant_id: chambers.tenantId,
				p_source: source,
				p_summary: `Member ${source}: 3 businesses`,
			});
			expect(error).toBeNull();
		}
		expect(site.netlify.buildHooks).toHaveLength(0);
		// The function answers show the member's phone at once: the business's tags were purged.
		expect(site.netlify.purges.at(-1)?.body).toMatchObject({
			cache_tags: expect.arrayContaining([`${chambers.slug}:business:${ids.shop}`]),
		});

		// Before the window's publish time nothing is built; at its mark less the lead, one build.
		expect(
			await fireWindow(chambers.tenantId, { now: new Date(due.getTime() - minutes(15)) }),
		).toBeNull();
		expect(site.netlify.buildHooks).toHaveLength(0);
		const publish = await fireWindow(chambers.tenantId, {
			now: new Date(due.getTime() - minutes(10)),
		});
		expect(publish).toMatchObject({ state: 'queued', requests: 3 });
		expect(site.netlify.buildHooks).toHaveLength(1);
		expect(site.netlify.buildHooks[0]!.triggerTitle).toContain('Waiting changes: 3');
		// Asked again meanwhile, it joins nothing new.
		expect(await fireWindow(chambers.tenantId, { now: due })).toBeNull();

		await buildGoesLive(publish!.id);
		expect((await waitingRows()).map((r) => [r.source, r.state])).toEqual([
			['member', 'live'],
			['sync', 'live'],
			['import', 'live'],
		]);
		// Reading it again, the member's page says nothing waits any more.
		const listing = await call(`/api/members/listing?business=${ids.shop}`, { token: memberToken });
		expect(listing.body.waiting).toBeNull();
	});

	it("a member's second save before the mark updates its one waiting change and keeps the mark", async () => {
		const first = await memberSave({ work_phone: '555-0143' });
		const second = await memberSave({ work_phone: '555-0144' });
		expect(second.body.liveBy).toBe(first.body.liveBy);
		expect(await waitingRows()).toHaveLength(1);
		const listing = await call(`/api/members/listing?business=${ids.shop}`, { token: memberToken });
		expect(listing.body.waiting).toEqual({ dueAt: first.body.liveBy });
	});

	it('a staff publish takes everything waiting with it, and the window then builds nothing', async () => {
		const saved = await memberSave({ work_phone: '555-0145' });
		const staff = await call('/api/publish', { token: chambers.tokens.editor, body: {} });
		expect(staff.status).toBe(202);
		expect(site.netlify.buildHooks).toHaveLength(1);
		await startPublish(service, staff.body.publish.id, 'deploy-staff');
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ state: 'building', publish_id: String(staff.body.publish.id) }),
		]);
		await finishPublish(service, staff.body.publish.id, { state: 'live' });
		expect(await fireWindow(chambers.tenantId, { now: new Date(saved.body.liveBy) })).toBeNull();
		expect(site.netlify.buildHooks).toHaveLength(1);
	});

	it('a build that fails puts its changes back to wait; the next run builds them', async () => {
		const saved = await memberSave({ work_phone: '555-0146' });
		const at = new Date(new Date(saved.body.liveBy).getTime() - minutes(10));
		const first = await fireWindow(chambers.tenantId, { now: at });
		await startPublish(service, first!.id, 'deploy-failing');
		// Meanwhile the member saves again: one waiting change, with the earlier mark.
		await memberSave({ work_phone: '555-0147' });
		await finishPublish(service, first!.id, { state: 'failed', error: 'The build failed.' });
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ state: 'waiting', due_at: new Date(saved.body.liveBy) }),
		]);
		const again = await fireWindow(chambers.tenantId, { now: at });
		expect(again).toMatchObject({ state: 'queued' });
		expect(again!.id).not.toBe(first!.id);
	});

	it('a scheduled publish due before the mark takes the window’s changes: the window waits for it', async () => {
		const saved = await memberSave({ work_phone: '555-0148' });
		const due = new Date(saved.body.liveBy);
		await db.query(
			`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
			values ($1, $2, 'save', '[{"column": "content", "field": "heroTitle", "value": "Soon", "version": 0}]', 'Scheduled before the mark')`,
			[chambers.tenantId, new Date(due.getTime() - minutes(5))],
		);
		try {
			expect(
				await fireWindow(chambers.tenantId, { now: new Date(due.getTime() - minutes(10)) }),
			).toBeNull();
			expect(site.netlify.buildHooks).toHaveLength(0);
		} finally {
			await db.query('delete from public.scheduled_publishes where tenant_id = $1', [
				chambers.tenantId,
			]);
		}
	});
	it('a scheduled publish early in a window takes what waits: the window builds nothing then, and only for what comes after it', async () => {
		// The clock (injected, as the server's calls are): a minute into a window.
		const start = new Date((await liveBy(new Date())).getTime() + minutes(1));
		const mark = await collectAt('sync', start);
		const runAt = new Date(start.getTime() + minutes(14));
		expect(runAt.getTime()).toBeLessThan(mark.getTime() - minutes(10));
		await scheduleTagline(runAt, 'Scheduled early in the window');

		// The scheduled function at that time: one publish, whose build takes the sync along.
		const fired = await fireDueSchedules(chambers.tenantId, { now: runAt });
		expect(fired.publish).toMatchObject({ state: 'queued' });
		expect(await fireWindow(chambers.tenantId, { now: runAt })).toBeNull();
		expect(site.netlify.buildHooks).toHaveLength(1);
		await startPublish(service, fired.publish!.id, 'deploy-scheduled');
		expect(await waitingRows()).toEqual([
			expect.objectContaining({
				source: 'sync',
				state: 'building',
				publish_id: String(fired.publish!.id),
			}),
		]);
		await finishPublish(service, fired.publish!.id, { state: 'live' });

		// Nothing waits: the window's publish time comes and goes without a build.
		for (const at of [minutes(10), minutes(5), 0]) {
			expect(
				await fireWindow(chambers.tenantId, { now: new Date(mark.getTime() - at) }),
			).toBeNull();
		}
		expect(site.netlify.buildHooks).toHaveLength(1);

		// An import applied after that build started waits for the same mark: the window builds it.
		expect(await collectAt('import', new Date(runAt.getTime() + minutes(5)))).toEqual(mark);
		const window = await fireWindow(chambers.tenantId, {
			now: new Date(mark.getTime() - minutes(10)),
		});
		expect(window).toMatchObject({ state: 'queued', requests: 1 });
		expect(site.netlify.buildHooks).toHaveLength(2);
	});
});

describe("the window: the chamber's setting, on its clock", () => {
	async function setWindow(window: string | null) {
		await db.query(
			`update public.chamber_config set features = case when $2::text is null
				then features - 'publishWindow' else features || jsonb_build_object('publishWindow', $2::text) end
			where tenant_id = $1`,
			[chambers.tenantId, window],
		);
	}
	afterEach(() => setWindow(null));

	it('marks counted from midnight on the chamber’s clock, at least the lead (10 minutes) ahead', async () => {
		// 13:20 in Chicago (CST, UTC-6): live by 14:00; at 13:55 the next mark is 15:00.
		expect(await liveBy(new Date('2031-01-14T19:20:00Z'))).toEqual(
			new Date('2031-01-14T20:00:00Z'),
		);
		expect(await liveBy(new Date('2031-01-14T19:50:00Z'))).toEqual(
			new Date('2031-01-14T20:00:00Z'),
		);
		expect(await liveBy(new Date('2031-01-14T19:55:00Z'))).toEqual(
			new Date('2031-01-14T21:00:00Z'),
		);
		await setWindow('15min');
		expect(await liveBy(new Date('2031-01-14T19:20:00Z'))).toEqual(
			new Date('2031-01-14T19:30:00Z'),
		);
		await setWindow('24h');
		// A day's window: the next midnight in Chicago.
		expect(await liveBy(new Date('2031-01-14T19:20:00Z'))).toEqual(
			new Date('2031-01-15T06:00:00Z'),
		);
		// The day of the clocks' change (2031-03-09, 23 hours long in Chicago) has its midnight too.
		expect(await liveBy(new Date('2031-03-09T12:00:00Z'))).toEqual(
			new Date('2031-03-10T05:00:00Z'),
		);
		await setWindow('4h');
		expect(await liveBy(new Date('2031-03-09T12:00:00Z'))).toEqual(
			new Date('2031-03-09T13:00:00Z'),
		);
	});

	it('the database refuses a window that is not one of the choices, as the schema does', async () => {
		const { error } = await userClient(stack, chambers.tokens.admin).rpc('update_chamber_config', {
			p_tenant_id: chambers.tenantId,
			p_column: 'features',
			p_field: 'publishWindow',
			p_value: '90min',
			p_version: 0,
		});
		expect(error?.message).toMatch(/publishWindow/);
		expect(chamberConfigSchema.shape.features.safeParse({ publishWindow: '90min' }).success).toBe(
			false,
		);
	});

	it("the database's time zone of a chamber is the site's, for every state", async () => {
		for (const state of [...ZONED_STATES, 'XX']) {
			await db.query(
				`update public.chamber_config set contact = contact || jsonb_build_object('timeZone', '', 'state', $2::text) where tenant_id = $1`,
				[chambers.tenantId, state],
			);
			const { rows } = await db.query<{ zone: string }>(
				'select public.chamber_time_zone($1) as zone',
				[chambers.tenantId],
			);
			const config = chamberConfigSchema.parse({
				name: 'x',
				slug: 'x',
				contact: { state, timeZone: '' },
			});
			expect(rows[0]!.zone, state).toBe(chamberTimeZone(config));
			expect(rows[0]!.zone, state).toBe(stateTimeZone(state) ?? 'America/New_York');
		}
		await db.query(
			`update public.chamber_config set contact = contact || jsonb_build_object('timeZone', $2::text, 'state', '') where tenant_id = $1`,
			[chambers.tenantId, ZONE],
		);
	});
});

describe("the month's budget", () => {
	/** The deployment's budget (PUBLISH_MONTHLY_BUDGET), as a function puts it in the database. */
	async function setBudget(n: number) {
		process.env.PUBLISH_MONTHLY_BUDGET = String(n);
		await syncPublishBudget(chambers.tenantId);
	}

	/** Publishes of this month that went live earlier, as the count sees them. */
	async function earlier(n: number) {
		await db.query(
			`insert into public.publishes (tenant_id, state, reason, started_at, finished_at)
			select $1, 'live', 'Earlier publish', now(), now() from generate_series(1, $2)`,
			[chambers.tenantId, n],
		);
	}

	/**
	 * The day's mark at `midnight`: nothing builds at the scheduled function's run 15 minutes
	 * before; the run 10 minutes before queues the daily publish, the one build. Answers it.
	 */
	async function dailyPublish(midnight: Date) {
		expect(
			await fireWindow(chambers.tenantId, { now: new Date(midnight.getTime() - minutes(15)) }),
		).toBeNull();
		const daily = await fireWindow(chambers.tenantId, {
			now: new Date(midnight.getTime() - minutes(10)),
		});
		expect(daily).toMatchObject({ state: 'queued' });
		expect(site.netlify.buildHooks).toHaveLength(1);
		return daily!;
	}

	/** Publishes requested (as the server) and built now. */
	async function publishes(n: number) {
		for (let i = 0; i < n; i++) {
			const { data, error } = await service.rpc('request_publish', {
				p_tenant_id: chambers.tenantId,
				p_reason: `Earlier publish ${i}`,
			});
			expect(error).toBeNull();
			await buildGoesLive(Number(data![0]!.publish_id));
		}
	}

	it("is shown as 'Publishes this month: N of B', counting what went live or is on its way, not what failed", async () => {
		await setBudget(12);
		await publishes(2);
		const { data } = await service.rpc('request_publish', { p_tenant_id: chambers.tenantId });
		await finishPublish(service, Number(data![0]!.publish_id), { state: 'failed', error: 'x' });
		const status = await call('/api/publish-status', { token: chambers.tokens.editor });
		expect(status.status).toBe(200);
		expect(status.body.usage).toMatchObject({
			used: 2,
			budget: 12,
			warnAt: 10,
			atBudget: false,
			waiting: 0,
		});
		expect(status.body.usage.month).toMatch(/^\d{4}-\d{2}$/);
	});

	it('at the budget a staff publish asks first, naming the cost; confirmed, it builds', async () => {
		await setBudget(2);
		await earlier(2);
		const refused = await call('/api/publish', {
			token: chambers.tokens.admin,
			body: { reason: 'Configuration saved' },
		});
		expect(refused.status).toBe(409);
		expect(refused.body).toMatchObject({
			error: expect.stringContaining('15 more Netlify credits'),
			budget: { used: 2, budget: 2, cost: 15 },
			waiting: { daily: true },
		});
		expect(site.netlify.buildHooks).toHaveLength(0);
		// Meanwhile the save waits for the daily publish.
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ source: 'staff', state: 'waiting', daily: true }),
		]);
		const confirmed = await call('/api/publish', {
			token: chambers.tokens.admin,
			body: { reason: 'Configuration saved', confirm: true },
		});
		expect(confirmed.status).toBe(202);
		expect(confirmed.body.usage).toEqual({ used: 3, budget: 2 });
		expect(site.netlify.buildHooks).toHaveLength(1);
		// A direct call with a staff token is refused alike (PostgREST: 402, the PT402 the database raises).
		const { error } = await userClient(stack, chambers.tokens.second).rpc('request_publish', {
			p_tenant_id: chambers.tenantId,
		});
		// The confirmed one is still queued: a new request joins it, which costs nothing.
		expect(error).toBeNull();
		await buildGoesLive(confirmed.body.publish.id);
		const direct = await userClient(stack, chambers.tokens.second).rpc('request_publish', {
			p_tenant_id: chambers.tenantId,
		});
		expect(direct.error?.code).toBe('PT402');
		expect(JSON.parse(direct.error!.details)).toEqual({ used: 3, budget: 2 });
	});

	it('at the budget a staff save through the API waits for the daily publish instead of building', async () => {
		await setBudget(1);
		await earlier(1);
		const saved = await call('/api/update-config', {
			token: chambers.tokens.admin,
			body: {
				chamber: chambers.slug,
				section: 'content',
				field: 'heroTitle',
				value: 'At the budget',
			},
		});
		expect(saved.status).toBe(200);
		expect(saved.body).toMatchObject({ success: true, publish: null, waiting: { daily: true } });
		expect(site.netlify.buildHooks).toHaveLength(0);
	});

	it('at the budget what waits goes out once a day: moved to midnight, published there', async () => {
		await setBudget(1);
		const saved = await memberSave({ work_phone: '555-0150' });
		expect(saved.body.liveBy).toEqual(expect.any(String));
		// The month reaches its budget before the window's mark (a build elsewhere would take it).
		await earlier(1);
		const hour = new Date(saved.body.liveBy);
		// The window's mark comes: at the budget, its changes move to the day's mark instead.
		expect(
			await fireWindow(chambers.tenantId, { now: new Date(hour.getTime() - minutes(10)) }),
		).toBeNull();
		const midnight = await liveBy(new Date(hour.getTime() - minutes(10)), true);
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ source: 'member', daily: true, due_at: midnight }),
		]);
		const status = await call('/api/publish-status', { token: chambers.tokens.admin });
		expect(status.body.usage).toMatchObject({ atBudget: true, waiting: 1, daily: true });
		expect(status.body.waiting).toEqual([
			expect.objectContaining({ source: 'member', daily: true }),
		]);
		// A member saving now is told the day's mark.
		const later = await memberSave({ work_phone: '555-0151' });
		expect(new Date(later.body.liveBy)).toEqual(midnight);
		await dailyPublish(midnight);
	});

	it('a scheduled publish due at the budget is written on time, builds nothing, and waits for the daily publish, saying when', async () => {
		await setBudget(1);
		await earlier(1);
		const runAt = new Date(Math.ceil(Date.now() / minutes(5)) * minutes(5));
		await scheduleTagline(runAt, 'Scheduled at the budget');
		const midnight = await liveBy(runAt, true);

		// Nobody is there to confirm the cost: written in the configuration, no build.
		const fired = await fireDueSchedules(chambers.tenantId, { now: runAt });
		expect(fired).toMatchObject({
			fired: [expect.objectContaining({ state: 'published', publishId: null })],
			publish: null,
			waiting: { dueAt: midnight.toISOString(), daily: true, held: false },
		});
		expect(site.netlify.buildHooks).toHaveLength(0);
		expect(await footerTagline()).toBe('Scheduled at the budget');

		// What staff read: it waits for the daily publish, live by midnight on the chamber's clock;
		// the schedule was written without a publish of its own.
		const status = await call('/api/publish-status', { token: chambers.tokens.admin });
		expect(status.body.usage).toMatchObject({
			atBudget: true,
			waiting: 1,
			daily: true,
			liveBy: midnight.toISOString(),
		});
		expect(status.body.waiting).toEqual([
			expect.objectContaining({
				source: 'scheduled',
				daily: true,
				dueAt: midnight.toISOString(),
				summary: expect.stringContaining('1 change: content.footerTagline'),
			}),
		]);
		const schedule = await call('/api/publish-schedule', { token: chambers.tokens.admin });
		expect(schedule.body.scheduled).toEqual([
			expect.objectContaining({ state: 'published', publishId: null }),
		]);

		// The daily publish takes it, and nothing builds before.
		const daily = await dailyPublish(midnight);
		await startPublish(service, daily.id, 'deploy-daily');
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ source: 'scheduled', state: 'building' }),
		]);
	});

	it('a scheduled change written at the budget says, once the daily publish went live, when it did', async () => {
		await setBudget(1);
		await earlier(1);
		await scheduleTagline(
			new Date(Math.ceil(Date.now() / minutes(5)) * minutes(5) + minutes(5)),
			'Written, then live',
		);
		// Due: its time moved to now, as a clock reaching it would (the row's time is otherwise kept
		// by the database), so it is written at the real time a build later starts after.
		await db.query('begin');
		await db.query('set local session_replication_role = replica');
		await db.query(
			`update public.scheduled_publishes set run_at = now() where tenant_id = $1 and state = 'scheduled'`,
			[chambers.tenantId],
		);
		await db.query('commit');
		expect(await fireDueSchedules(chambers.tenantId)).toMatchObject({
			fired: [expect.objectContaining({ state: 'published', publishId: null })],
			publish: null,
		});
		const listed = async () =>
			(await call('/api/publish-schedule', { token: chambers.tokens.editor })).body.scheduled;
		expect(await listed()).toEqual([
			expect.objectContaining({ state: 'published', publishId: null, liveAt: null }),
		]);

		const daily = await dailyPublish(await liveBy(new Date(), true));
		await startPublish(service, daily.id, 'deploy-daily');
		// Building is not live yet.
		expect(await listed()).toEqual([expect.objectContaining({ liveAt: null })]);
		await finishPublish(service, daily.id, { state: 'live' });
		const { rows } = await db.query<{ finished_at: Date }>(
			'select finished_at from public.publishes where id = $1',
			[daily.id],
		);
		const [item] = await listed();
		expect(item).toMatchObject({ state: 'published', publishId: null });
		expect(new Date(item.liveAt)).toEqual(rows[0]!.finished_at);
	});

	it('past the budget the daily publishes stop at a reserve of a quarter of it; then only a confirmed publish takes them', async () => {
		await setBudget(4);
		await earlier(5);
		const saved = await memberSave({ work_phone: '555-0152' });
		// No time to promise: the member is told it goes live with the chamber's next publish.
		expect(saved.body).toMatchObject({ held: true, liveBy: null, published: false });
		const midnight = await liveBy(new Date(), true);
		const status = await call('/api/publish-status', { token: chambers.tokens.admin });
		expect(status.body.usage).toMatchObject({ used: 5, budget: 4, ceiling: 5, atBudget: true });
		// 4 publishes and the 1 daily one past them: the daily mark publishes nothing now.
		expect(
			await fireWindow(chambers.tenantId, { now: new Date(midnight.getTime() - minutes(10)) }),
		).toBeNull();
		expect(site.netlify.buildHooks).toHaveLength(0);
		expect(await waitingRows()).toEqual([
			expect.objectContaining({ source: 'member', state: 'waiting', daily: true }),
		]);
		// A publish staff confirm takes it.
		const confirmed = await call('/api/publish', {
			token: chambers.tokens.admin,
			body: { confirm: true },
		});
		expect(confirmed.status).toBe(202);
		await startPublish(service, confirmed.body.publish.id, 'deploy-confirmed');
		expect(await waitingRows()).toEqual([expect.objectContaining({ state: 'building' })]);
	});

	it('at 80 % the admins are told once, by e-mail and in the panel', async () => {
		await setBudget(5);
		await earlier(2);
		await publishes(1);
		expect(
			(
				await db.query('select 1 from public.publish_months where tenant_id = $1', [
					chambers.tenantId,
				])
			).rowCount,
		).toBe(0);
		await publishes(1);
		const admin = chambers.emails.admin;
		const before = await countMail(admin, 'publish-budget');
		await fireScheduledPublishes();
		const mail = await mailTo(admin, 'publish-budget', before);
		expect(mail.subject).toBe(`${chambers.tenantName}: Publishes this month: 4 of 5`);
		expect(mail.text).toContain('At 5, members');
		expect(await countMail(chambers.emails.second, 'publish-budget')).toBeGreaterThan(0);
		expect(await countMail(chambers.emails.editor, 'publish-budget')).toBe(0);
		// Once a month.
		await publishes(1);
		await fireScheduledPublishes();
		expect(await countMail(admin, 'publish-budget')).toBe(before + 1);
		const status = await call('/api/publish-status', { token: chambers.tokens.editor });
		expect(status.body.usage).toMatchObject({ used: 5, warned: true, atBudget: true });
	});

	it("counts in the chamber's month: a publish at 23:30 on the 31st in Chicago is that month's", async () => {
		const lastEvening = new Date('2031-01-01T05:30:00Z'); // Dec 31, 23:30 CST
		const { data } = await service.rpc('request_publish', {
			p_tenant_id: chambers.tenantId,
			p_now: lastEvening.toISOString(),
		});
		const { rows } = await db.query<{ month: string; used: number }>(
			`select to_char(month, 'YYYY-MM') as month, used from public.publish_month_used($1, $2)`,
			[chambers.tenantId, lastEvening],
		);
		expect(rows[0]).toEqual({ month: '2030-12', used: 1 });
		const january = await db.query<{ used: number }>(
			'select used from public.publish_month_used($1, $2)',
			[chambers.tenantId, new Date('2031-01-01T06:30:00Z')],
		);
		expect(january.rows[0]!.used).toBe(0);
		expect(Number(data![0]!.publish_id)).toBeGreaterThan(0);
	});
});

describe('no build where none is needed', () => {
	it('a save of a field no page shows publishes nothing; one the site shows publishes', async () => {
		const hidden = await call('/api/update-config', {
			token: chambers.tokens.admin,
			body: { chamber: chambers.slug, section: 'features', field: 'publishWindow', value: '2h' },
		});
		expect(hidden.status).toBe(200);
		expect(hidden.body).toMatchObject({ success: true, publish: null, waiting: null });
		expect(site.netlify.buildHooks).toHaveLength(0);
		const shown = await call('/api/update-config', {
			token: chambers.tokens.admin,
			body: { chamber: chambers.slug, section: 'content', field: 'heroTitle', value: 'Shown' },
		});
		expect(shown.body.publish).toMatchObject({ state: 'queued' });
		expect(site.netlify.buildHooks).toHaveLength(1);
		await db.query(
			`update public.chamber_config set features = features - 'publishWindow' where tenant_id = $1`,
			[chambers.tenantId],
		);
	});

	it('a change of a listing that is not on the site publishes nothing', async () => {
		const detail = await call(`/api/admin/businesses/${ids.hidden}`, {
			token: chambers.tokens.admin,
		});
		const saved = await call(`/api/admin/businesses/${ids.hidden}`, {
			token: chambers.tokens.admin,
			method: 'PATCH',
			body: { version: detail.body.version, changes: { work_phone: '555-0199' } },
		});
		expect(saved.status).toBe(200);
		expect(saved.body).toMatchObject({ publish: null, waiting: null });
		expect(site.netlify.buildHooks).toHaveLength(0);
	});

	it('a statistics setting publishes nothing', async () => {
		const { error } = await userClient(stack, chambers.tokens.admin)
			.from('member_report_settings')
			.upsert({ tenant_id: chambers.tenantId, monthly_email: true });
		expect(error).toBeNull();
		expect(
			(await db.query('select 1 from public.publishes where tenant_id = $1', [chambers.tenantId]))
				.rowCount,
		).toBe(0);
	});

	it('where profiles are rendered on demand, a field only the profile shows purges its tags instead of building', async () => {
		process.env.PRERENDERED_PROFILES_MAX = '0';
		const detail = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
		});
		const saved = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
			method: 'PATCH',
			body: { version: detail.body.version, changes: { hours: 'Mon-Fri 8:00-17:00' } },
		});
		expect(saved.body).toMatchObject({ publish: null, waiting: null });
		expect(site.netlify.buildHooks).toHaveLength(0);
		expect(site.netlify.purges.at(-1)?.body).toMatchObject({
			cache_tags: [
				`${chambers.slug}:business:${ids.shop}`,
				`${chambers.slug}:businesses`,
				`${chambers.slug}:categories`,
			],
		});
		// A member's hours go live at once too (at most once in 10 minutes), and say so.
		const member = await memberSave({ hours: 'Mon-Fri 9:00-17:00' });
		expect(member.body).toMatchObject({ published: true, liveBy: null, publishAfter: null });
		const again = await memberSave({ hours: 'Mon-Fri 10:00-17:00' });
		expect(again.body).toMatchObject({ published: false, liveBy: expect.any(String) });
		expect(Date.parse(again.body.publishAfter)).toBeGreaterThan(Date.now() + minutes(9));
		expect(site.netlify.buildHooks).toHaveLength(0);
		// A field cards show builds (staff: at once).
		const current = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
		});
		const phone = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
			method: 'PATCH',
			body: { version: current.body.version, changes: { work_phone: '555-0177' } },
		});
		expect(phone.body.publish).toMatchObject({ state: 'queued' });
	});

	it('where profiles are pre-rendered, the same field builds: the profile is a file of the build', async () => {
		process.env.PRERENDERED_PROFILES_MAX = '1000';
		const detail = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
		});
		const saved = await call(`/api/admin/businesses/${ids.shop}`, {
			token: chambers.tokens.admin,
			method: 'PATCH',
			body: { version: detail.body.version, changes: { hours: 'Mon-Sat 8:00-17:00' } },
		});
		expect(saved.body.publish).toMatchObject({ state: 'queued' });
		expect(site.netlify.buildHooks).toHaveLength(1);
	});
});

describe('who may read and change the month and what waits', () => {
	it('publish_usage: the chamber’s staff; not a member, another chamber’s admin or a visitor', async () => {
		const usage = (token: string) =>
			userClient(stack, token).rpc('publish_usage', { p_tenant_id: chambers.tenantId });
		for (const key of ['admin', 'editor', 'super'] as const) {
			const { data, error } = await usage(chambers.tokens[key]);
			expect(error, key).toBeNull();
			expect(data, key).toMatchObject({ budget: 40 });
		}
		for (const token of [chambers.tokens.otherAdmin, memberToken]) {
			expect((await usage(token)).error?.code).toBe('42501');
		}
		const anon = await fetch(`${stack.supabaseUrl}/rest/v1/rpc/publish_usage`, {
			method: 'POST',
			headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
			body: JSON.stringify({ p_tenant_id: chambers.tenantId }),
		});
		expect([401, 403, 404]).toContain(anon.status);
	});

	it('collect_publish: a member its own business, staff their own waiting change; nobody another’s', async () => {
		const collect = (token: string, source: string, business: string | null) =>
			userClient(stack, token).rpc('collect_publish', {
				p_tenant_id: chambers.tenantId,
				p_source: source,
				p_summary: 'A change',
				p_business_id: business ?? undefined,
			});
		expect((await collect(memberToken, 'member', ids.shop)).error).toBeNull();
		expect((await collect(memberToken, 'member', ids.hidden)).error?.code).toBe('42501');
		expect((await collect(memberToken, 'sync', null)).error?.code).toBe('42501');
		expect((await collect(chambers.tokens.editor, 'staff', null)).error).toBeNull();
		expect((await collect(chambers.tokens.editor, 'import', null)).error?.code).toBe('42501');
		expect((await collect(chambers.tokens.otherAdmin, 'staff', null)).error?.code).toBe('42501');
		// The budget, the month and the window's publish are the server's alone.
		for (const token of [chambers.tokens.admin, chambers.tokens.super, memberToken]) {
			const client = userClient(stack, token);
			expect(
				(
					await client.rpc('set_publish_budget', {
						p_tenant_id: chambers.tenantId,
						p_publishes: 999,
					})
				).error?.code,
			).toBe('42501');
			expect(
				(await client.rpc('fire_publish_window', { p_tenant_id: chambers.tenantId })).error?.code,
			).toBe('42501');
			expect(
				(await client.rpc('claim_publish_budget_warning', { p_tenant_id: chambers.tenantId })).error
					?.code,
			).toBe('42501');
		}
	});

	it('the budget is 1 to 1000 publishes, in the database as in PUBLISH_MONTHLY_BUDGET', async () => {
		for (const wrong of [0, 1001]) {
			const { error } = await service.rpc('set_publish_budget', {
				p_tenant_id: chambers.tenantId,
				p_publishes: wrong,
			});
			expect(error?.code).toBe('22023');
		}
		const direct = await db
			.query(
				'insert into public.publish_budgets (tenant_id, monthly_publishes) values ($1, 0) on conflict (tenant_id) do update set monthly_publishes = 0',
				[chambers.tenantId],
			)
			.catch((error: { code: string }) => error);
		expect((direct as { code: string }).code).toBe('23514');
	});
});
