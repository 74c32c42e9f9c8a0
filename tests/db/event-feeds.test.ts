// Runs on: hosted — what a feed's read writes, keeps and cancels is decided in SQL (apply_event_feed, its roles): proved on the production shape.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Event } from '../../src/features/events/events.ts';
import { fetchFeedText, chamberZone } from '../../src/features/chamber-events/feeds.server.ts';
import { config as scheduledConfig } from '../../netlify/functions/event-feeds-scheduled.ts';
import { FEED_LIMITS } from '../../src/features/chamber-events/feed-limits.ts';
import { useSourceFetch } from '../../src/lib/public-fetch.server.ts';
import type { Answer } from '../support/function-server.ts';
import {
	feedDays,
	googleFeed,
	GOOGLE_UIDS,
	outlookFeed,
	OUTLOOK_UIDS,
	startFeedStandin,
	type FeedStandin,
} from '../support/calendar-feeds.ts';
import { signInAs } from '../support/db-clients.ts';
import { standinFetch, standinUrl } from '../support/standin-fetch.ts';
import { db, service, stack } from './clients.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';
import { format } from 'date-fns/format';
import { TZDate } from '@date-fns/tz';
import { randomUUID } from 'node:crypto';

// Calendar feeds over real HTTP: a stand-in serves Google Calendar's and Outlook's exported
// shapes at calendar-feeds.test (127.0.0.1, reached through the tests' public-address fetch); the
// chamber's admin adds each in /api/admin/event-feeds, sees the preview, imports it, changes a
// field in the Events tab, and the next read (on demand, or the scheduled function's) updates the
// events in place, keeps the staff's field, and cancels what the feed dropped. A feed that fails
// keeps its events and e-mails the admins.

const DOMAIN = 'event-feeds.test';

let site: StaffSite<StaffChambers>;
let tokens: StaffChambers['tokens'];
let feeds: FeedStandin;
let outbox: string;
let restoreFetch: () => void;
let memberToken: string;
let memberId: string;

const call = (method: string, path: string, token: string | null, body?: unknown) =>
	site.server.call(path, { method, token: token ?? undefined, body });

/** A feed of the stand-in at its host name (plain http: webcal:// is https://, feeds.test.ts). */
const feedUrl = (path: string) => `${standinUrl(feeds.url, 'calendar-feeds.test')}${path}`;

beforeAll(async () => {
	feeds = await startFeedStandin();
	outbox = await mkdtemp(join(tmpdir(), 'chamber-feeds-outbox-'));
	restoreFetch = useSourceFetch(standinFetch());
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'event-feeds',
				domain: DOMAIN,
				password: 'event-feeds-password',
				name: 'Feeds Chamber',
			}),
		env: { OUTBOX_DIR: outbox },
	});
	({ tokens } = site.chambers);
	const email = `member-${randomUUID()}@${DOMAIN}`;
	const created = await service.auth.admin.createUser({
		email,
		password: 'event-feeds-member',
		email_confirm: true,
	});
	if (created.error) throw created.error;
	memberId = created.data.user.id;
	memberToken = await signInAs(stack, email, 'event-feeds-member');
});

afterAll(async () => {
	if (memberId) await db.query('delete from auth.users where id = $1', [memberId]);
	await site?.close();
	restoreFetch?.();
	await feeds?.close();
	await rm(outbox, { recursive: true, force: true });
});

beforeEach(async () => {
	feeds.setMode('ok');
	feeds.serve('/google/basic.ics', googleFeed());
	feeds.serve('/outlook/calendar.ics', outlookFeed());
	await db.query('delete from public.event_feeds where tenant_id = $1', [site.chambers.tenantId]);
});

interface FeedAnswer {
	feed: { id: string; state: string; name: string; last_error: string | null; event_count: number };
	read: {
		dryRun: boolean;
		calendarName: string;
		error: string | null;
		result: {
			added: number;
			updated: number;
			cancelled: number;
			unchanged: number;
			events: { uid: string; name: string; change: string; fields: string[]; kept: string[] }[];
		} | null;
	};
}

async function addFeed(url: string, calendar = 'chamber'): Promise<FeedAnswer> {
	const answer = await call('POST', '/api/admin/event-feeds', tokens.admin, { url, calendar });
	expect(answer.status, JSON.stringify(answer.body)).toBe(201);
	return answer.body as FeedAnswer;
}

async function readNow(id: string, token = tokens.admin): Promise<FeedAnswer> {
	const answer = await call('POST', `/api/admin/event-feeds/${id}/read`, token);
	expect(answer.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body as FeedAnswer;
}

async function calendar(path: string): Promise<Event[]> {
	const from = format(new Date(Date.now() - 86_400_000), 'yyyy-MM-dd');
	const to = format(new Date(Date.now() + 200 * 86_400_000), 'yyyy-MM-dd');
	const answer = await call('GET', `${path}?startDate=${from}&endDate=${to}`, null);
	expect(answer.status).toBe(200);
	return answer.body.Result as Event[];
}

async function feedEvent(uid: string) {
	const { rows } = await db.query<{ id: string; version: number; name: string; status: string }>(
		'select id, version, name, status from public.chamber_events where feed_uid = $1 and tenant_id = $2',
		[uid, site.chambers.tenantId],
	);
	return rows[0]!;
}

async function eventIds(uid: string): Promise<Record<string, number>> {
	const { rows } = await db.query<{ recurrence_key: string; event_id: number }>(
		`select o.recurrence_key, o.event_id from public.chamber_event_occurrences o
		join public.chamber_events e on e.id = o.series_id where e.feed_uid = $1 and e.tenant_id = $2`,
		[uid, site.chambers.tenantId],
	);
	return Object.fromEntries(rows.map((r) => [r.recurrence_key, r.event_id]));
}

const detail = (eventId: number) => call('GET', `/api/event-details?eventId=${eventId}`, null);
const day = (d: Date) => format(d, 'yyyy-MM-dd');

describe('a Google Calendar feed', () => {
	it('is previewed when added, imported on demand, and on the calendar with its series', async () => {
		const added = await addFeed(feedUrl('/google/basic.ics'));
		expect(added.feed).toMatchObject({ state: 'preview', last_error: null, event_count: 0 });
		expect(added.read).toMatchObject({
			dryRun: true,
			calendarName: 'Cedar Valley Chamber',
			error: null,
			result: { added: 3, updated: 0, cancelled: 0 },
		});
		expect(added.read.result!.events.map((e) => [e.name, e.change]).sort()).toEqual([
			['Evening Networking', 'added'],
			['Ribbon Cutting: Main Street Bakery', 'added'],
			['Spring Business Expo', 'added'],
		]);
		// The preview wrote nothing: not on the calendar.
		expect((await calendar('/api/events')).map((e) => e.EventName)).not.toContain(
			'Spring Business Expo',
		);

		const read = await readNow(added.feed.id);
		expect(read.read).toMatchObject({ dryRun: false, result: { added: 3 } });
		// Named as the calendar names itself, active, read on the schedule from now on.
		expect(read.feed).toMatchObject({
			state: 'active',
			name: 'Cedar Valley Chamber',
			event_count: 3,
		});

		const d = feedDays();
		const ids = await eventIds(GOOGLE_UIDS.networking);
		expect(Object.keys(ids).sort()).toEqual(d.tuesdays.map(day));
		const list = await calendar('/api/events');
		const networking = list.filter((e) => e.EventName.endsWith('Networking'));
		expect(networking.map((e) => e.EventId).sort()).toEqual(Object.values(ids).sort());
		// The EXDATE date is cancelled, the moved instance has its own title and time.
		const [, , third, fourth] = d.tuesdays.map(day);
		expect((await detail(ids[third!]!)).body).toMatchObject({ Cancelled: true });
		expect((await detail(ids[fourth!]!)).body).toMatchObject({
			EventName: 'Breakfast Networking',
			StartTime: '7:30 AM',
			EndTime: '9:00 AM',
			TimeZone: { Name: 'America/Chicago' },
		});
		expect((await detail(ids[day(d.tuesdays[0]!)]!)).body).toMatchObject({
			EventName: 'Evening Networking',
			StartTime: '6:00 PM',
			Venue: 'Cedar Valley Chamber, 100 Main St, Cedar Falls, IA 50613, USA',
		});
		const expo = list.find((e) => e.EventName === 'Spring Business Expo')!;
		expect(expo).toMatchObject({ StartDate: expect.any(String), StartTime: '12:00 AM' });
		const ics = await call('GET', `/api/events/${ids[fourth!]}.ics`, null);
		expect(ics.body).toContain('SUMMARY:Breakfast Networking');
	});

	it('updates in place on the next read, keeps a field staff changed, cancels what the feed dropped', async () => {
		const { feed } = await addFeed(feedUrl('/google/basic.ics'));
		await readNow(feed.id);
		const ribbon = await feedEvent(GOOGLE_UIDS.ribbon);
		const [before] = Object.values(await eventIds(GOOGLE_UIDS.ribbon));
		// Staff correct the venue in the Events tab.
		const saved = await call('PATCH', `/api/admin/events/${ribbon.id}`, tokens.editor, {
			version: ribbon.version,
			changes: { venue: 'Main Street Bakery (back entrance)' },
		});
		expect(saved.status, JSON.stringify(saved.body)).toBe(200);

		feeds.serve(
			'/google/basic.ics',
			googleFeed({ ribbonTitle: 'Grand Opening: Main Street Bakery', withoutExpo: true }),
		);
		const next = await readNow(feed.id);
		expect(next.read.result).toMatchObject({ added: 0, updated: 1, cancelled: 1, unchanged: 1 });
		expect(next.read.result!.events).toContainEqual(
			expect.objectContaining({
				uid: GOOGLE_UIDS.ribbon,
				change: 'updated',
				fields: ['name'],
				kept: ['venue'],
			}),
		);
		const [after] = Object.values(await eventIds(GOOGLE_UIDS.ribbon));
		expect(after).toBe(before);
		expect((await detail(after!)).body).toMatchObject({
			EventName: 'Grand Opening: Main Street Bakery',
			Venue: 'Main Street Bakery (back entrance)',
		});
		expect(await feedEvent(GOOGLE_UIDS.expo)).toMatchObject({ status: 'cancelled' });
		const expo = (await calendar('/api/events')).find(
			(e) => e.EventName === 'Spring Business Expo',
		);
		expect(expo).toMatchObject({ Cancelled: true });

		// The tab shows where it came from and what was changed here.
		const opened = await call('GET', `/api/admin/events/${ribbon.id}`, tokens.editor);
		expect(opened.body).toMatchObject({
			source: 'feed',
			feed: { name: 'Cedar Valley Chamber' },
			overrides: [
				{ field: 'venue', feedValue: 'Main Street Bakery, 214 Main St, Cedar Falls, IA 50613' },
			],
		});
		// Taking the feed's value back: the next read sets it again.
		const back = await call(
			'DELETE',
			`/api/admin/events/${ribbon.id}/overrides/venue`,
			tokens.editor,
		);
		expect(back.status).toBe(200);
		expect((await detail(after!)).body.Venue).toBe(
			'Main Street Bakery, 214 Main St, Cedar Falls, IA 50613',
		);
	});
});

describe('an Outlook feed', () => {
	it('imports a monthly series in its Windows zone, and the scheduled read updates it in place', async () => {
		const { feed, read } = await addFeed(feedUrl('/outlook/calendar.ics'), 'community');
		expect(read.result).toMatchObject({ added: 2 });
		await readNow(feed.id);
		const zone = await chamberZone(service, site.chambers.tenantId);
		const d = feedDays();
		const ids = await eventIds(OUTLOOK_UIDS.luncheon);
		expect(Object.keys(ids).sort()).toEqual(d.thursdays.map(day));
		const list = await calendar('/api/community-events');
		expect(list.filter((e) => e.EventName === 'Board Luncheon')).toHaveLength(4);
		const [first, second, third] = d.thursdays;
		// Noon in Outlook's 'Central Standard Time', on the chamber's clock.
		const noon = new TZDate(
			first!.getFullYear(),
			first!.getMonth(),
			first!.getDate(),
			12,
			0,
			'America/Chicago',
		);
		const expected = format(new TZDate(noon.getTime(), zone), 'h:mm a');
		expect((await detail(ids[day(first!)]!)).body).toMatchObject({
			EventName: 'Board Luncheon',
			StartTime: expected,
			Venue: 'Chamber Board Room',
		});
		expect((await detail(ids[day(second!)]!)).body).toMatchObject({
			Venue: 'Cedar Falls Public Library, Room B',
		});
		expect((await detail(ids[day(third!)]!)).body).toMatchObject({ Cancelled: true });
		const picnic = list.find((e) => e.EventName === 'Members’ Summer Picnic');
		expect(picnic).toMatchObject({ StartDate: expect.any(String) });

		// Staff retitle the luncheon in the tab.
		const luncheon = await feedEvent(OUTLOOK_UIDS.luncheon);
		const own = await call('PATCH', `/api/admin/events/${luncheon.id}`, tokens.admin, {
			version: luncheon.version,
			changes: { name: 'Board Luncheon (members welcome)' },
		});
		expect(own.status, JSON.stringify(own.body)).toBe(200);

		// The schedule: every 30 minutes, as the service role; the luncheon moved rooms.
		expect(scheduledConfig.schedule).toBe(`*/${FEED_LIMITS.scheduleMinutes} * * * *`);
		feeds.serve('/outlook/calendar.ics', outlookFeed({ luncheonRoom: 'Main Hall' }));
		const scheduled = (await import('../../netlify/functions/event-feeds-scheduled.ts')).default;
		const answer = await scheduled(
			new Request('http://localhost/.netlify/functions/event-feeds-scheduled', { method: 'POST' }),
		);
		expect(await answer.json()).toEqual({ feeds: 1, changed: 1 });
		expect(await eventIds(OUTLOOK_UIDS.luncheon)).toEqual(ids);
		expect((await detail(ids[day(first!)]!)).body).toMatchObject({
			Venue: 'Main Hall',
			EventName: 'Board Luncheon (members welcome)',
		});
		// The moved date keeps its own room.
		expect((await detail(ids[day(second!)]!)).body.Venue).toBe(
			'Cedar Falls Public Library, Room B',
		);
		const audit = await db.query(
			`select actor_role from public.audit_log where tenant_id = $1 and field = 'venue' order by at desc limit 1`,
			[site.chambers.tenantId],
		);
		expect(audit.rows[0]).toEqual({ actor_role: 'service_role' });
	});
});

describe('a feed that cannot be read', () => {
	const mails = async () => {
		const files = (await readdir(outbox)).filter((f) => f.includes('event-feed-')).sort();
		return Promise.all(files.map(async (f) => simpleParser(await readFile(join(outbox, f)))));
	};

	it('keeps its events, says why in the tab, and e-mails the admins once a day', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const { feed } = await addFeed(feedUrl('/google/basic.ics'));
		await readNow(feed.id);
		const sent = (await mails()).length;

		feeds.setMode('error500');
		const failed = await readNow(feed.id);
		expect(failed.read).toMatchObject({
			error: 'The feed’s address answered HTTP 500',
			result: null,
		});
		expect(failed.feed).toMatchObject({
			state: 'active',
			last_error: 'The feed’s address answered HTTP 500',
			event_count: 3,
		});
		expect((await calendar('/api/events')).map((e) => e.EventName)).toContain(
			'Spring Business Expo',
		);
		await vi.waitFor(async () => expect((await mails()).length).toBe(sent + 1));
		const mail = (await mails()).at(-1)!;
		expect(mail.subject).toMatch(
			/^Feeds Chamber.*: the calendar feed “Cedar Valley Chamber” cannot be read$/,
		);
		expect(mail.text).toContain('The feed’s address answered HTTP 500');
		// The host only: a secret address's path stays out of mail.
		expect(mail.text).not.toContain('/google/basic.ics');
		expect(
			(mail.to as { value: { address: string }[] }).value.map((v) => v.address).sort(),
		).toEqual([site.chambers.emails.admin, site.chambers.emails.second].sort());

		feeds.setMode('notCalendar');
		expect((await readNow(feed.id)).read.error).toMatch(/did not answer with a calendar/);
		feeds.setMode('tooLarge');
		expect((await readNow(feed.id)).read.error).toBe(
			'The feed is larger than 5 MB, the most one read takes',
		);
		// Within the day: no second e-mail; a day later the next failure sends one.
		expect((await mails()).length).toBe(sent + 1);
		await db.query(
			`update public.event_feeds set error_notified_at = now() - interval '25 hours' where id = $1`,
			[feed.id],
		);
		feeds.setMode('error500');
		await readNow(feed.id);
		await vi.waitFor(async () => expect((await mails()).length).toBe(sent + 2));

		// Back: the error is gone.
		feeds.setMode('ok');
		expect((await readNow(feed.id)).feed).toMatchObject({ last_error: null });
		warn.mockRestore();
	});

	it('refuses an address that is not on the public internet, and stops a feed that never ends', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const added = await addFeed(`${feeds.url}/google/basic.ics`);
		expect(added.read.error).toBe('The address is not one on the public internet');
		expect(added.feed.state).toBe('preview');
		feeds.setMode('slow');
		await expect(
			fetchFeedText(feedUrl('/google/basic.ics'), { fetcher: standinFetch(), timeoutMs: 300 }),
		).rejects.toThrow('The feed did not answer within 0.3 seconds');
		warn.mockRestore();
	});
});

describe('who may manage feeds', () => {
	it('admins and super_admins; editors, members and other chambers are refused', async () => {
		const { feed } = await addFeed(feedUrl('/google/basic.ics'));
		const refused = async (answer: Promise<Answer>, status: number) =>
			expect((await answer).status).toBe(status);
		await refused(call('GET', '/api/admin/event-feeds', tokens.editor), 403);
		await refused(call('POST', `/api/admin/event-feeds/${feed.id}/read`, tokens.editor), 403);
		await refused(call('DELETE', `/api/admin/event-feeds/${feed.id}`, tokens.editor), 403);
		await refused(call('GET', '/api/admin/event-feeds', memberToken), 403);
		await refused(call('GET', '/api/admin/event-feeds', null), 401);
		await refused(call('POST', `/api/admin/event-feeds/${feed.id}/read`, tokens.otherAdmin), 403);
		await refused(
			call('GET', `/api/admin/event-feeds?chamber=${site.chambers.slug}`, tokens.otherAdmin),
			403,
		);
		const superList = await call(
			'GET',
			`/api/admin/event-feeds?chamber=${site.chambers.slug}`,
			tokens.super,
		);
		expect(superList.status).toBe(200);
		expect(superList.body.feeds.map((f: { id: string }) => f.id)).toEqual([feed.id]);
		expect(
			await call('POST', '/api/admin/event-feeds', tokens.admin, {
				url: 'ftp://example.org/x.ics',
			}),
		).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^url: /) } });
		expect(
			await call('POST', '/api/admin/event-feeds', tokens.admin, {
				url: feedUrl('/google/basic.ics'),
			}),
		).toMatchObject({ status: 400, body: { error: 'url: the chamber reads this feed already' } });
		// The editor's token calling the database directly: refused by Postgres.
		const direct = await fetch(`${stack.supabaseUrl}/rest/v1/rpc/apply_event_feed`, {
			method: 'POST',
			headers: {
				apikey: stack.anonKey,
				authorization: `Bearer ${tokens.editor}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ p_feed_id: feed.id, p_events: [] }),
		});
		expect(direct.status).toBe(404);

		const removed = await call('DELETE', `/api/admin/event-feeds/${feed.id}`, tokens.admin);
		expect(removed).toMatchObject({ status: 200, body: { id: feed.id, events: 0 } });
	});
});
