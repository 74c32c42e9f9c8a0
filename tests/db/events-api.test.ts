// Runs on: hosted — what the Events tab's API writes and refuses is decided in SQL
// (save_chamber_event and its neighbours, row-level security): proved on the production shape.
import { TZDate } from '@date-fns/tz';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/features/events/events.ts';
import { localDateTime, type EventInput } from '../../src/features/tenants/tenant-file.ts';
import type { Answer } from '../support/function-server.ts';
import type { NetlifyStandin } from '../support/netlify-api-standin.ts';
import { db, service, stack } from './clients.ts';
import { signInAs } from '../support/db-clients.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// /api/admin/events and /api/admin/events/{id}… over real HTTP in the local Netlify server,
// signed in with the identity service, writing with the user's token; what a change makes public
// is read back through the visitors' events API, and a stand-in of Netlify's API receives the
// purges it causes.

const DOMAIN = 'events-api.test';
const ZONE = 'America/Chicago';
const FILE_EVENT_ID = 4201;

let site: StaffSite<StaffChambers>;
let netlify: NetlifyStandin;
let chambers: StaffChambers;
let tokens: StaffChambers['tokens'];
/** A signed-in user with no staff role, as a member of a business is. */
let memberToken: string;
let memberId: string;

/** 'yyyy-mm-dd' in Chicago, `days` from today. */
function dayFromToday(days: number): string {
	return localDateTime(new TZDate(Date.now() + days * 86_400_000, ZONE), ZONE).date;
}

function fileEvent(): EventInput {
	const start = new TZDate(`${dayFromToday(3)}T17:00:00`, ZONE);
	const end = new TZDate(`${dayFromToday(3)}T19:00:00`, ZONE);
	const s = localDateTime(start, ZONE);
	const e = localDateTime(end, ZONE);
	return {
		EventId: FILE_EVENT_ID,
		EventName: 'File Luncheon',
		EventType: 'Luncheon',
		StartDateTimeUtc: start.toISOString(),
		EndDateTimeUtc: end.toISOString(),
		StartDate: s.date,
		EndDate: e.date,
		StartTime: s.time,
		EndTime: e.time,
		TimeZone: { Abbreviation: 'CST', Name: ZONE },
	};
}

function call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
	return site.server.call(path, { method, token: token ?? undefined, body });
}

const events = (query = '') => `/api/admin/events${query}`;
const event = (id: string, rest = '', query = '') => `/api/admin/events/${id}${rest}${query}`;

/** A one-off event `days` from today, 18:00 to 20:00 in Chicago, with `fields` over it. */
function newEvent(days: number, fields: Record<string, unknown> = {}) {
	const day = dayFromToday(days);
	return {
		name: 'Chamber Breakfast',
		time_zone: ZONE,
		starts_local: `${day}T18:00`,
		ends_local: `${day}T20:00`,
		...fields,
	};
}

async function add(fields: Record<string, unknown>, token = tokens.admin) {
	const answer = await call('POST', events(), token, fields);
	expect(answer.status, JSON.stringify(answer.body)).toBe(201);
	return answer.body as { id: string; version: number };
}

/** The visitors' calendar (the chamber's), names of its events. */
async function calendarNames(path = '/api/events'): Promise<string[]> {
	const answer = await call('GET', path, null);
	expect(answer.status).toBe(200);
	return (answer.body.Result as Event[]).map((e) => e.EventName);
}

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'events-api',
				domain: DOMAIN,
				password: 'events-api-password',
				name: 'Events API',
				events: [fileEvent()],
			}),
	});
	({ netlify, chambers } = site);
	({ tokens } = chambers);
	const email = `member-${randomUUID()}@${DOMAIN}`;
	const created = await service.auth.admin.createUser({
		email,
		password: 'events-api-member',
		email_confirm: true,
	});
	if (created.error) throw created.error;
	memberId = created.data.user.id;
	memberToken = await signInAs(stack, email, 'events-api-member');
});

afterAll(async () => {
	if (memberId) await db.query('delete from auth.users where id = $1', [memberId]);
	await site?.close();
});

beforeEach(async () => {
	await site.reset();
	await db.query('delete from public.chamber_events where tenant_id = any($1::uuid[])', [
		[chambers.tenantId, chambers.otherTenantId],
	]);
});

describe('GET /api/admin/events', () => {
	it('pages the chamber’s events for its staff: upcoming first, searched by title, filtered by type', async () => {
		await add(newEvent(2, { name: 'Morning Mixer', event_type: 'Networking' }));
		await add(newEvent(5, { name: 'Evening Mixer', event_type: 'Networking' }));
		await add(newEvent(-3, { name: 'Past Gala', event_type: 'Gala' }));
		await add(newEvent(8, { name: 'Called Off', status: 'cancelled' }));

		const upcoming = await call('GET', events('?when=upcoming'), tokens.editor);
		expect(upcoming.status).toBe(200);
		expect(upcoming.headers.get('cache-control')).toBe('no-store');
		expect(upcoming.body.events.map((e: { name: string }) => e.name)).toEqual([
			'Morning Mixer',
			'File Luncheon',
			'Evening Mixer',
		]);
		expect(upcoming.body.events[1]).toMatchObject({ source: 'file', readOnly: true });
		expect(upcoming.body.events[0]).toMatchObject({
			source: 'staff',
			readOnly: false,
			eventType: 'Networking',
			updatedBy: chambers.emails.admin,
		});

		const past = await call('GET', events('?when=past'), tokens.admin);
		expect(past.body).toMatchObject({ total: 1, events: [{ name: 'Past Gala' }] });
		const cancelled = await call('GET', events('?when=cancelled'), tokens.admin);
		expect(cancelled.body).toMatchObject({ total: 1, events: [{ name: 'Called Off' }] });
		const found = await call('GET', events('?q=MIXER&type=Networking'), tokens.admin);
		expect(found.body.total).toBe(2);
		const page2 = await call('GET', events('?q=mixer&page=2&pageSize=25'), tokens.admin);
		expect(page2.body).toMatchObject({ total: 2, events: [] });
		const byType = await call('GET', events('?type=Luncheon'), tokens.admin);
		expect(byType.body).toMatchObject({ total: 1, events: [{ name: 'File Luncheon' }] });
	});

	it('answers 400 naming a bad parameter, 401 without a token, 403 to a member and to another chamber’s admin', async () => {
		expect(await call('GET', events('?when=someday'), tokens.admin)).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^when: /) },
		});
		expect((await call('GET', events('?pageSize=1000'), tokens.admin)).status).toBe(400);
		expect((await call('GET', events(), null)).status).toBe(401);
		expect((await call('GET', events(), memberToken)).status).toBe(403);
		// The other chamber's admin asking for this chamber, and for their own (not this site's).
		const other = await call('GET', events(`?chamber=${chambers.slug}`), tokens.otherAdmin);
		expect(other.status).toBe(403);
		expect(JSON.stringify(other.body)).not.toContain('File Luncheon');
		expect((await call('PUT', events(), tokens.admin)).status).toBe(405);
	});

	it('lets a super_admin list any chamber’s events', async () => {
		await add(newEvent(4, { name: 'Other Town Fair' }), tokens.super);
		const own = await call('GET', events(), tokens.super);
		expect(own.body.events.map((e: { name: string }) => e.name)).toContain('Other Town Fair');
		const other = await call('GET', events(`?chamber=${chambers.otherSlug}`), tokens.super);
		expect(other.status).toBe(200);
		expect(other.body.events.map((e: { name: string }) => e.name)).not.toContain('Other Town Fair');
	});
});

describe('adding an event (POST /api/admin/events)', () => {
	it('adds it (201), on the calendar and its page at once, and purges the events’ answers', async () => {
		const saved = await add(
			newEvent(6, {
				name: 'Ribbon Cutting',
				summary: 'A bakery opens',
				venue: 'Main Street Bakery',
				event_type: 'Ribbon Cutting',
				tickets: [{ ItemName: 'Guest', UnitPrice: 5, IsPublic: true }],
			}),
			tokens.editor,
		);
		expect(saved.version).toBe(1);
		const detail = await call('GET', event(saved.id), tokens.editor);
		expect(detail.status).toBe(200);
		expect(detail.body).toMatchObject({
			version: 1,
			source: 'staff',
			event: { name: 'Ribbon Cutting', status: 'published', rrule: null },
			dates: [{ key: 'once', start: `${dayFromToday(6)}T18:00`, cancelled: false }],
		});
		const eventId = detail.body.dates[0].eventId as number;
		expect(eventId).toBeGreaterThanOrEqual(900_000_000);

		expect(await calendarNames()).toContain('Ribbon Cutting');
		const page = await call('GET', `/api/event-details?eventId=${eventId}`, null);
		expect(page.body).toMatchObject({
			EventName: 'Ribbon Cutting',
			Summary: 'A bakery opens',
			Venue: 'Main Street Bakery',
			StartTime: '6:00 PM',
		});
		expect(netlify.purges.map((p) => (p.body as { cache_tags: string[] }).cache_tags)).toEqual([
			[
				`${chambers.slug}:events`,
				`${chambers.slug}:community_events`,
				`${chambers.slug}:event_details`,
			],
		]);
		// No build: the calendars and event pages read events when asked.
		expect(netlify.buildHooks).toHaveLength(0);
	});

	it('refuses bad values with the field named (400), an editor’s featured event (403), and writes nothing', async () => {
		expect(await call('POST', events(), tokens.admin, { name: 'No date' })).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/time_zone: a new event needs it/) },
		});
		expect(
			await call('POST', events(), tokens.admin, newEvent(3, { ends_local: '2000-01-01T10:00' })),
		).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^ends_local: /) } });
		expect(
			await call(
				'POST',
				events(),
				tokens.admin,
				newEvent(3, { tickets: [{ ItemName: 'X', UnitPrice: -1, IsPublic: true }] }),
			),
		).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^tickets\[0\]\.UnitPrice: /) },
		});
		expect(
			await call('POST', events(), tokens.admin, newEvent(3, { time_zone: 'Mars/Olympus' })),
		).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^time_zone: /) } });
		expect(
			(await call('POST', events(), tokens.editor, newEvent(3, { featured: true }))).status,
		).toBe(403);
		expect((await call('POST', events(), memberToken, newEvent(3))).status).toBe(403);
		expect(
			(
				await call(
					'POST',
					events(`?chamber=${chambers.slug}`),
					tokens.otherAdmin,
					newEvent(3, { name: 'Planted' }),
				)
			).status,
		).toBe(403);
		const { rows } = await db.query(
			'select count(*)::int as n from public.chamber_events where tenant_id = $1',
			[chambers.tenantId],
		);
		expect(rows[0].n).toBe(0);
		expect(netlify.purges).toHaveLength(0);
	});
});

describe('changing an event (PATCH /api/admin/events/{id})', () => {
	it('saves the changed fields from the version it was opened at; a stale change of the same field is a 409 with their value', async () => {
		const { id } = await add(newEvent(7, { name: 'Board Meeting' }));
		const first = await call('PATCH', event(id), tokens.admin, {
			version: 1,
			changes: { venue: 'Town Hall' },
		});
		expect(first).toMatchObject({ status: 200, body: { id, version: 2 } });
		// The editor opened it at version 1 too: another field merges, the same field conflicts.
		const merged = await call('PATCH', event(id), tokens.editor, {
			version: 1,
			changes: { summary: 'Monthly' },
		});
		expect(merged).toMatchObject({ status: 200, body: { version: 3 } });
		const stale = await call('PATCH', event(id), tokens.editor, {
			version: 1,
			changes: { venue: 'Library' },
		});
		expect(stale.status).toBe(409);
		expect(stale.body).toMatchObject({
			error: expect.any(String),
			version: 3,
			conflicts: [{ field: 'venue', value: 'Town Hall', changedBy: chambers.emails.admin }],
		});
		const detail = await call('GET', event(id), tokens.admin);
		expect(detail.body.event).toMatchObject({ venue: 'Town Hall', summary: 'Monthly' });
		// An unchanged save is no new version and no purge.
		netlify.reset();
		const same = await call('PATCH', event(id), tokens.admin, {
			version: 3,
			changes: { venue: 'Town Hall' },
		});
		expect(same).toMatchObject({ status: 200, body: { version: 3 } });
		expect(netlify.purges).toHaveLength(0);
	});

	it('shows a change of a one-off event on the calendar, its page and its calendar file at once', async () => {
		const { id } = await add(newEvent(7, { name: 'Board Meeting', venue: 'Town Hall' }));
		const eventId = (await call('GET', event(id), tokens.admin)).body.dates[0].eventId as number;
		const day = dayFromToday(8);
		const changed = await call('PATCH', event(id), tokens.editor, {
			version: 1,
			changes: {
				name: 'Board Meeting (moved)',
				venue: 'Public Library',
				starts_local: `${day}T09:00`,
				ends_local: `${day}T10:30`,
			},
		});
		expect(changed).toMatchObject({ status: 200, body: { version: 2 } });

		const listed = ((await call('GET', '/api/events', null)).body.Result as Event[]).find(
			(e) => e.EventId === eventId,
		);
		expect(listed).toMatchObject({
			EventName: 'Board Meeting (moved)',
			Venue: 'Public Library',
			StartDate: day,
			StartTime: '9:00 AM',
			EndTime: '10:30 AM',
		});
		const ics = await call('GET', `/api/events/${eventId}.ics`, null);
		expect(ics.status).toBe(200);
		const text = ics.body as string;
		// The wall-clock time in Chicago, as the file's UTC 'yyyymmddThhmmssZ'.
		const utc = (time: string) => {
			const [y, m, d] = day.split('-').map(Number) as [number, number, number];
			const [h, min] = time.split(':').map(Number) as [number, number];
			const instant = new TZDate(y, m - 1, d, h, min, ZONE).getTime();
			return new Date(instant)
				.toISOString()
				.replace(/[-:]/g, '')
				.replace(/\.\d{3}/, '');
		};
		expect(text).toContain('SUMMARY:Board Meeting (moved)');
		expect(text).toContain('LOCATION:Public Library');
		expect(text).toContain(`DTSTART:${utc('09:00')}`);
		expect(text).toContain(`DTEND:${utc('10:30')}`);
		expect(text).not.toContain('Town Hall');
	});

	it('cancels an event (still listed, marked) and refuses an editor featuring it', async () => {
		const { id } = await add(newEvent(9, { name: 'Golf Outing' }));
		const cancelled = await call('PATCH', event(id), tokens.editor, {
			version: 1,
			changes: { status: 'cancelled' },
		});
		expect(cancelled.status).toBe(200);
		const detail = await call('GET', event(id), tokens.admin);
		const eventId = detail.body.dates[0].eventId as number;
		const page = await call('GET', `/api/event-details?eventId=${eventId}`, null);
		expect(page.body).toMatchObject({ EventName: 'Golf Outing', Cancelled: true });
		expect(
			(
				await call('PATCH', event(id), tokens.editor, {
					version: 2,
					changes: { featured: true },
				})
			).status,
		).toBe(403);
		expect(
			(await call('PATCH', event(id), tokens.admin, { version: 2, changes: { featured: true } }))
				.status,
		).toBe(200);
	});

	it('answers 404 for another chamber’s event and an unknown one, 403 to a member', async () => {
		const { id } = await add(newEvent(4, { name: 'Private Tour' }));
		// The super_admin's event in the other chamber: this chamber's admin cannot reach it.
		const other = (
			await call(
				'POST',
				events(`?chamber=${chambers.otherSlug}`),
				tokens.super,
				newEvent(4, { name: 'Elsewhere' }),
			)
		).body as { id: string };
		for (const path of [event(other.id), event(randomUUID()), event('not-an-id')]) {
			expect((await call('GET', path, tokens.admin)).status, path).toBe(404);
		}
		expect(
			(await call('PATCH', event(other.id), tokens.admin, { version: 1, changes: { name: 'X' } }))
				.status,
		).toBe(404);
		expect((await call('GET', event(id), memberToken)).status).toBe(403);
		expect(
			(await call('PATCH', event(id), memberToken, { version: 1, changes: { name: 'X' } })).status,
		).toBe(403);
		const detail = await call('GET', event(id, '', `?chamber=${chambers.otherSlug}`), tokens.super);
		expect(detail.status).toBe(404);
	});
});

describe('duplicate, delete and the history', () => {
	it('duplicates as a draft visitors do not see until it is published; deletes (admins) from the calendars at once', async () => {
		const { id } = await add(newEvent(11, { name: 'Annual Dinner' }));
		const copy = await call('POST', event(id, '/duplicate'), tokens.editor);
		expect(copy.status).toBe(201);
		const copied = await call('GET', event(copy.body.id), tokens.editor);
		expect(copied.body.event).toMatchObject({ name: 'Copy of Annual Dinner', status: 'draft' });
		expect(await calendarNames()).not.toContain('Copy of Annual Dinner');
		const copyId = copied.body.dates[0].eventId as number;
		expect((await call('GET', `/api/events/${copyId}.ics`, null)).status).toBe(404);
		// Published (on a day of its own), the copy is on the calendar, with its calendar file.
		const day = dayFromToday(18);
		const published = await call('PATCH', event(copy.body.id), tokens.editor, {
			version: copied.body.version,
			changes: { status: 'published', starts_local: `${day}T18:00`, ends_local: `${day}T20:00` },
		});
		expect(published.status, JSON.stringify(published.body)).toBe(200);
		expect(await calendarNames()).toContain('Copy of Annual Dinner');
		const copyIcs = await call('GET', `/api/events/${copyId}.ics`, null);
		expect(copyIcs.status).toBe(200);
		expect(copyIcs.body as string).toContain('SUMMARY:Copy of Annual Dinner');

		expect((await call('DELETE', event(id), tokens.editor)).status).toBe(403);
		expect(await calendarNames()).toContain('Annual Dinner');
		expect((await call('DELETE', event(id), tokens.admin)).status).toBe(200);
		expect(await calendarNames()).not.toContain('Annual Dinner');
		expect((await call('GET', event(id), tokens.admin)).status).toBe(404);
		expect((await call('DELETE', event(id), tokens.admin)).status).toBe(404);
	});

	it('shows admins who changed what, newest first; not editors', async () => {
		const { id } = await add(newEvent(12, { name: 'Expo' }), tokens.editor);
		await call('PATCH', event(id), tokens.admin, { version: 1, changes: { venue: 'Arena' } });
		const history = await call('GET', event(id, '/history'), tokens.admin);
		expect(history.status).toBe(200);
		expect(history.body.history).toMatchObject([
			{ field: 'venue', actor: chambers.emails.admin, oldValue: '', newValue: 'Arena' },
			{ field: 'added', actor: chambers.emails.editor },
		]);
		expect((await call('GET', event(id, '/history'), tokens.editor)).status).toBe(403);
	});
});

describe('recurring events', () => {
	it('expands the rule with ical.js: each date its own EventId on the calendar', async () => {
		// Weekly on the start's weekday, four times.
		const { id } = await add(newEvent(14, { name: 'Weekly Coffee', rrule: 'FREQ=WEEKLY;COUNT=4' }));
		const detail = await call('GET', event(id), tokens.admin);
		const dates = detail.body.dates as { key: string; eventId: number; start: string }[];
		expect(dates.map((d) => d.key)).toEqual([
			dayFromToday(14),
			dayFromToday(21),
			dayFromToday(28),
			dayFromToday(35),
		]);
		// Wall-clock times repeat, whatever the daylight-saving changes between them.
		expect(dates.every((d) => d.start.endsWith('T18:00'))).toBe(true);
		expect(new Set(dates.map((d) => d.eventId)).size).toBe(4);
		const list = await call('GET', events('?q=weekly'), tokens.admin);
		expect(list.body.events[0]).toMatchObject({ recurring: true, dates: 4 });
	});

	it('refuses a rule without an end or one ical.js cannot read (400)', async () => {
		expect(
			await call('POST', events(), tokens.admin, newEvent(3, { rrule: 'FREQ=WEEKLY' })),
		).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^rrule: .*end/) } });
		expect(
			await call('POST', events(), tokens.admin, newEvent(3, { rrule: 'FREQ=HOURLY;COUNT=3' })),
		).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^rrule: /) } });
	});

	it('changes or cancels one date on its own; the series and its other dates stay', async () => {
		const { id } = await add(
			newEvent(15, { name: 'Lunch and Learn', rrule: 'FREQ=WEEKLY;COUNT=3' }),
		);
		const before = await call('GET', event(id), tokens.admin);
		const [first, second, third] = before.body.dates as { key: string; eventId: number }[];
		const moved = await call('PATCH', event(id, `/dates/${second!.key}`), tokens.editor, {
			version: 1,
			changes: { name: 'Lunch and Learn: Special', starts_local: `${second!.key}T12:00` },
		});
		expect(moved.status, JSON.stringify(moved.body)).toBe(200);
		const cancelled = await call('PATCH', event(id, `/dates/${third!.key}`), tokens.editor, {
			version: moved.body.version,
			changes: {},
			cancelled: true,
		});
		expect(cancelled.status).toBe(200);

		const page = (eventId: number) => call('GET', `/api/event-details?eventId=${eventId}`, null);
		expect((await page(first!.eventId)).body).toMatchObject({
			EventName: 'Lunch and Learn',
			StartTime: '6:00 PM',
		});
		expect((await page(second!.eventId)).body).toMatchObject({
			EventName: 'Lunch and Learn: Special',
			StartTime: '12:00 PM',
		});
		expect((await page(third!.eventId)).body).toMatchObject({ Cancelled: true });
		const after = await call('GET', event(id), tokens.admin);
		expect(after.body.event.name).toBe('Lunch and Learn');

		// The calendar lists each date with its own title and state; each date's calendar file too.
		const ids = [first!.eventId, second!.eventId, third!.eventId];
		const listed = ((await call('GET', '/api/events', null)).body.Result as Event[]).filter((e) =>
			ids.includes(e.EventId),
		);
		expect(listed.map((e) => [e.EventId, e.EventName, e.Cancelled])).toEqual([
			[first!.eventId, 'Lunch and Learn', false],
			[second!.eventId, 'Lunch and Learn: Special', false],
			[third!.eventId, 'Lunch and Learn', true],
		]);
		const ics = async (eventId: number) =>
			(await call('GET', `/api/events/${eventId}.ics`, null)).body as string;
		expect(await ics(first!.eventId)).toContain('STATUS:CONFIRMED');
		expect(await ics(second!.eventId)).toContain('SUMMARY:Lunch and Learn: Special');
		expect(await ics(third!.eventId)).toContain('STATUS:CANCELLED');
		const feed = (await call('GET', '/api/events.ics', null)).body as string;
		expect(feed.match(/SUMMARY:Lunch and Learn/g)).toHaveLength(3);

		// A change of the date made from before someone else's change of it: 409.
		const stale = await call('PATCH', event(id, `/dates/${second!.key}`), tokens.admin, {
			version: 1,
			changes: {},
			cancelled: true,
		});
		expect(stale.status).toBe(409);
		expect(
			(
				await call('PATCH', event(id, '/dates/2001-01-01'), tokens.admin, {
					version: after.body.version,
					cancelled: true,
				})
			).status,
		).toBe(404);
		expect(
			(
				await call('PATCH', event(id, `/dates/${first!.key}`), tokens.admin, {
					version: after.body.version,
					changes: { featured: true },
				})
			).status,
		).toBe(400);

		// A copy of the series is a draft with dates of its own; deleting the series takes every
		// date off the calendar, its pages and its calendar files.
		const copy = await call('POST', event(id, '/duplicate'), tokens.editor);
		expect(copy.status).toBe(201);
		const copied = await call('GET', event(copy.body.id), tokens.editor);
		expect(copied.body.event).toMatchObject({ status: 'draft', name: 'Copy of Lunch and Learn' });
		expect(copied.body.dates).toHaveLength(3);
		expect(copied.body.dates.map((d: { eventId: number }) => d.eventId)).not.toContain(
			first!.eventId,
		);
		expect((await call('DELETE', event(id), tokens.admin)).status).toBe(200);
		const gone = ((await call('GET', '/api/events', null)).body.Result as Event[]).map(
			(e) => e.EventId,
		);
		for (const eventId of ids) {
			expect(gone).not.toContain(eventId);
			expect((await call('GET', `/api/event-details?eventId=${eventId}`, null)).status).toBe(404);
			expect((await call('GET', `/api/events/${eventId}.ics`, null)).status).toBe(404);
		}
	});
});
