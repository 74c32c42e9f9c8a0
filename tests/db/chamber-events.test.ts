// Runs on: hosted — the events' definer functions, roles and versions are SQL behaviour: proved on the production shape.
import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../src/features/events/events.ts';
import type { SupabaseClient } from '../../src/lib/database.ts';
import { localDateTime, type EventInput } from '../../src/features/tenants/tenant-file.ts';
import { anon, db, service, stack } from './clients.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';
import { userClient } from '../support/db-clients.ts';

// The chamber's own events in the database, as each caller's token meets them (the rules,
// versions, dates and who may do what, refused by Postgres), and as visitors read them through
// the events functions beside the tenant file's events.

const DOMAIN = 'own-events.test';
const ZONE = 'America/Chicago';

let site: StaffSite<StaffChambers>;
let chambers: StaffChambers;
let as: Record<'admin' | 'editor' | 'otherAdmin' | 'super', SupabaseClient>;

/** 'yyyy-mm-dd' in Chicago, `days` from today. */
function dayFromToday(days: number): string {
	const d = new TZDate(Date.now() + days * 86_400_000, ZONE);
	return localDateTime(d, ZONE).date;
}

const FILE_EVENT_ID = 4101;

function fileEvent(): EventInput {
	const start = new TZDate(`${dayFromToday(5)}T17:00:00`, ZONE);
	const end = new TZDate(`${dayFromToday(5)}T19:00:00`, ZONE);
	const s = localDateTime(start, ZONE);
	const e = localDateTime(end, ZONE);
	return {
		EventId: FILE_EVENT_ID,
		EventName: 'File Mixer',
		StartDateTimeUtc: start.toISOString(),
		EndDateTimeUtc: end.toISOString(),
		StartDate: s.date,
		EndDate: e.date,
		StartTime: s.time,
		EndTime: e.time,
		TimeZone: { Abbreviation: 'CST', Name: ZONE },
	};
}

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'own-events',
				domain: DOMAIN,
				password: 'own-events-password',
				name: 'Own Events',
				events: [fileEvent()],
			}),
	});
	chambers = site.chambers;
	as = {
		admin: userClient(stack, chambers.tokens.admin),
		editor: userClient(stack, chambers.tokens.editor),
		otherAdmin: userClient(stack, chambers.tokens.otherAdmin),
		super: userClient(stack, chambers.tokens.super),
	};
});

afterAll(() => site?.close());

const tenant = () => chambers.tenantId;

interface Saved {
	id: string;
	version: number;
}

/** An event added as `who`: a one-off on `day` from 18:00 to 20:00 unless `changes` say otherwise. */
async function add(who: SupabaseClient, changes: Record<string, unknown> = {}, dates?: unknown) {
	const day = dayFromToday(10);
	return who.rpc('save_chamber_event', {
		p_tenant_id: tenant(),
		p_event_id: null,
		p_changes: {
			name: 'Chamber Breakfast',
			time_zone: ZONE,
			starts_local: `${day}T18:00`,
			ends_local: `${day}T20:00`,
			...changes,
		},
		p_version: 0,
		p_dates: (dates ?? null) as never,
	});
}

async function added(who: SupabaseClient, changes: Record<string, unknown> = {}, dates?: unknown) {
	const { data, error } = await add(who, changes, dates);
	if (error) throw new Error(`${error.code} ${error.message}`);
	return data as unknown as Saved;
}

const save = (who: SupabaseClient, id: string, version: number, changes: object, dates?: unknown) =>
	who.rpc('save_chamber_event', {
		p_tenant_id: tenant(),
		p_event_id: id,
		p_changes: changes as never,
		p_version: version,
		p_dates: (dates ?? null) as never,
	});

async function occurrences(id: string) {
	const { rows } = await db.query<{
		event_id: number;
		recurrence_key: string;
		start_utc: Date;
		cancelled: boolean;
	}>(
		`select event_id, recurrence_key, start_utc, cancelled from public.chamber_event_occurrences
		where series_id = $1 order by start_utc`,
		[id],
	);
	return rows;
}

async function publicEvents(calendar = 'chamber') {
	const { data, error } = await anon.rpc('public_chamber_events', {
		p_tenant_id: tenant(),
		p_calendar: calendar,
		p_start: new Date(Date.now() - 86_400_000 * 30).toISOString(),
		p_end: new Date(Date.now() + 86_400_000 * 400).toISOString(),
	});
	if (error) throw error;
	return data as unknown as { event_id: number; name: string; cancelled: boolean }[];
}

describe('adding and changing an event (save_chamber_event)', () => {
	it('adds a one-off event with one date, its EventId from the own range, public at once', async () => {
		const saved = await added(as.editor, { venue: 'Chamber Office' });
		expect(saved.version).toBe(1);
		const dates = await occurrences(saved.id);
		expect(dates).toHaveLength(1);
		expect(dates[0]).toMatchObject({ recurrence_key: 'once', cancelled: false });
		expect(dates[0]!.event_id).toBeGreaterThanOrEqual(900_000_000);
		// 18:00 in Chicago is 23:00 or 00:00 UTC, whichever daylight saving says.
		expect(localDateTime(dates[0]!.start_utc, ZONE).time).toBe('6:00 PM');
		expect((await publicEvents()).map((e) => e.event_id)).toContain(dates[0]!.event_id);
	});

	it('keeps a draft from visitors and staff of other chambers', async () => {
		const saved = await added(as.admin, { name: 'Secret Planning', status: 'draft' });
		const [date] = await occurrences(saved.id);
		expect((await publicEvents()).map((e) => e.event_id)).not.toContain(date!.event_id);
		const single = await anon.rpc('public_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: date!.event_id,
		});
		expect(single.data).toBeNull();
		const other = await as.otherAdmin.from('chamber_events').select('id').eq('id', saved.id);
		expect(other.data).toEqual([]);
		const theirs = await as.otherAdmin.rpc('admin_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
		});
		expect(theirs.error?.code).toBe('42501');
		// A super_admin opens any chamber's.
		const superRead = await as.super.rpc('admin_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
		});
		expect(superRead.error).toBeNull();
	});

	it('refuses what the database holds invalid, whoever writes', async () => {
		for (const [changes, code] of [
			[{ time_zone: 'Mars/Olympus' }, '23514'],
			[{ event_type_color: 'red' }, '23514'],
			[{ ends_local: `${dayFromToday(9)}T08:00` }, '23514'],
			[{ tickets: [{ ItemName: 'Guest', UnitPrice: -5, IsPublic: true }] }, '23514'],
			[{ registration_url: 'javascript:alert(1)' }, '23514'],
			[{ all_day: true }, '23514'],
			[{ starts_local: 'next Tuesday' }, '22007'],
			[{ colour: 'blue' }, '22023'],
		] as const) {
			const { error } = await add(as.admin, changes);
			expect(error?.code, JSON.stringify(changes)).toBe(code);
		}
		// The service role's direct insert meets the same checks.
		await expect(
			db.query(
				`insert into public.chamber_events (tenant_id, name, time_zone, starts_local, ends_local, contact_email)
				values ($1, 'x', 'America/Chicago', now(), now(), 'not an address')`,
				[tenant()],
			),
		).rejects.toThrow(/chamber_events_contact_email_check/);
	});

	it('lets an editor change events but not feature or delete one (refused by Postgres)', async () => {
		const saved = await added(as.editor);
		const featured = await save(as.editor, saved.id, 1, { featured: true });
		expect(featured.error).toMatchObject({ code: '42501' });
		expect((await add(as.editor, { featured: true })).error?.code).toBe('42501');
		const renamed = await save(as.editor, saved.id, 1, { name: 'Chamber Breakfast, moved' });
		expect(renamed.error).toBeNull();
		const deleted = await as.editor.rpc('delete_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
		});
		expect(deleted.error?.code).toBe('42501');
		expect(await occurrences(saved.id)).toHaveLength(1);
		// Nobody writes the tables directly, whatever their role.
		const direct = await as.admin
			.from('chamber_events')
			.update({ featured: true })
			.eq('id', saved.id);
		expect(direct.error?.code).toBe('42501');
		const otherChamber = await save(as.otherAdmin, saved.id, 2, { name: 'Mine now' });
		expect(otherChamber.error?.code).toBe('42501');
		const visitor = await anon.rpc('save_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
			p_changes: { name: 'x' },
			p_version: 2,
			p_dates: null,
		});
		expect(visitor.error?.code).toBe('42501');
	});

	it('merges changes of different fields and refuses a stale change of the same one (409)', async () => {
		const saved = await added(as.admin);
		const first = await save(as.admin, saved.id, 1, { venue: 'Main Hall' });
		expect(first.data).toMatchObject({ version: 2 });
		// Opened at version 1 too: another field merges.
		const other = await save(as.editor, saved.id, 1, { summary: 'Coffee and a talk' });
		expect(other.data).toMatchObject({ version: 3 });
		const stale = await save(as.editor, saved.id, 1, { venue: 'Side Room' });
		expect(stale.error?.code).toBe('PT409');
		expect(JSON.parse(stale.error!.details)).toEqual({
			version: 3,
			conflicts: [
				{
					field: 'venue',
					value: 'Main Hall',
					changedBy: chambers.emails.admin,
					changedAt: expect.any(String),
				},
			],
		});
		// The same value is no conflict.
		expect((await save(as.editor, saved.id, 1, { venue: 'Main Hall' })).error).toBeNull();
	});

	it('writes one audit row per changed field and moves the events cache versions, not the cache audit', async () => {
		const before = await db.query(
			`select type, version from public.cache_versions where tenant_id = $1 and type like '%event%' order by type`,
			[tenant()],
		);
		const saved = await added(as.admin);
		await save(as.admin, saved.id, 1, { name: 'Renamed', city: 'Cedarbrook' });
		const { rows: audit } = await db.query(
			`select field, actor_email, new_value from public.audit_log where event_id = $1 order by id`,
			[saved.id],
		);
		expect(audit.map((r) => r.field)).toEqual(['added', 'city', 'name']);
		expect(audit[2]).toMatchObject({ actor_email: chambers.emails.admin, new_value: 'Renamed' });
		const after = await db.query(
			`select type, version from public.cache_versions where tenant_id = $1 and type like '%event%' order by type`,
			[tenant()],
		);
		expect(after.rows.map((r) => r.type)).toEqual(['community_events', 'event_details', 'events']);
		for (const row of after.rows) {
			const was = before.rows.find((b) => b.type === row.type)?.version ?? 0;
			expect(row.version, row.type).toBeGreaterThanOrEqual(was + 2);
		}
		const { rows: cacheAudit } = await db.query(
			`select 1 from public.audit_log where tenant_id = $1 and section = 'cache'`,
			[tenant()],
		);
		expect(cacheAudit).toEqual([]);
	});
});

describe('cancel, duplicate, delete', () => {
	it('a cancelled event stays public, marked cancelled', async () => {
		const saved = await added(as.editor, { name: 'Golf Outing' });
		expect((await save(as.editor, saved.id, 1, { status: 'cancelled' })).error).toBeNull();
		const [date] = await occurrences(saved.id);
		expect((await publicEvents()).find((e) => e.event_id === date!.event_id)).toMatchObject({
			name: 'Golf Outing',
			cancelled: true,
		});
	});

	it('a duplicate is a draft copy with its own dates and EventIds', async () => {
		const saved = await added(as.admin, { name: 'Lunch & Learn', featured: true });
		const copy = await as.editor.rpc('duplicate_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
		});
		expect(copy.error).toBeNull();
		const { id } = copy.data as unknown as Saved;
		const { data } = await as.editor.rpc('admin_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: id,
		});
		expect(data).toMatchObject({
			event: { name: 'Copy of Lunch & Learn', status: 'draft', featured: false },
		});
		const [original] = await occurrences(saved.id);
		const [copied] = await occurrences(id);
		expect(copied!.event_id).not.toBe(original!.event_id);
	});

	it('deleting (admins) takes the event and its dates; the audit log keeps what it was', async () => {
		const saved = await added(as.admin, { name: 'Gone Gala' });
		const deleted = await as.admin.rpc('delete_chamber_event', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
		});
		expect(deleted.error).toBeNull();
		expect(await occurrences(saved.id)).toEqual([]);
		const { rows } = await db.query(
			`select old_value ->> 'name' as name from public.audit_log where event_id = $1 and field = 'deleted'`,
			[saved.id],
		);
		expect(rows).toEqual([{ name: 'Gone Gala' }]);
	});
});

describe('recurring events: dates that keep their EventIds', () => {
	const weekly = (days: number[]) =>
		days.map((d) => ({
			key: dayFromToday(d),
			start: `${dayFromToday(d)}T18:00`,
			end: `${dayFromToday(d)}T20:00`,
		}));

	it('needs the dates of its rule, and keeps each date’s EventId when the series changes', async () => {
		const rule = 'FREQ=WEEKLY;COUNT=3';
		expect((await add(as.admin, { rrule: rule })).error?.code).toBe('22023');
		const first = dayFromToday(7);
		const saved = await added(
			as.admin,
			{ rrule: rule, starts_local: `${first}T18:00`, ends_local: `${first}T20:00` },
			weekly([7, 14, 21]),
		);
		const before = await occurrences(saved.id);
		expect(before.map((o) => o.recurrence_key)).toEqual([7, 14, 21].map(dayFromToday));
		// One more week, an hour later: the three dates keep their ids.
		const later = [7, 14, 21, 28].map((d) => ({
			key: dayFromToday(d),
			start: `${dayFromToday(d)}T19:00`,
			end: `${dayFromToday(d)}T21:00`,
		}));
		const changed = await save(
			as.admin,
			saved.id,
			1,
			{
				rrule: 'FREQ=WEEKLY;COUNT=4',
				starts_local: `${first}T19:00`,
				ends_local: `${first}T21:00`,
			},
			later,
		);
		expect(changed.error).toBeNull();
		const after = await occurrences(saved.id);
		expect(after.slice(0, 3).map((o) => o.event_id)).toEqual(before.map((o) => o.event_id));
		expect(localDateTime(after[0]!.start_utc, ZONE).time).toBe('7:00 PM');
		expect(after).toHaveLength(4);
	});

	it('changes or cancels one date on its own, versioned with the series', async () => {
		const first = dayFromToday(8);
		const saved = await added(
			as.editor,
			{
				rrule: 'FREQ=WEEKLY;COUNT=3',
				starts_local: `${first}T18:00`,
				ends_local: `${first}T20:00`,
			},
			weekly([8, 15, 22]),
		);
		const [, second, third] = await occurrences(saved.id);
		const moved = await as.editor.rpc('change_event_occurrence', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
			p_key: second!.recurrence_key,
			p_changes: {
				venue: 'Riverside Park',
				starts_local: `${dayFromToday(16)}T10:00`,
				ends_local: `${dayFromToday(16)}T12:00`,
			},
			p_cancelled: false,
			p_version: 1,
		});
		expect(moved.data).toMatchObject({ version: 2, eventId: second!.event_id });
		const cancelled = await as.editor.rpc('change_event_occurrence', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
			p_key: third!.recurrence_key,
			p_changes: {},
			p_cancelled: true,
			p_version: 2,
		});
		expect(cancelled.error).toBeNull();
		const stale = await as.admin.rpc('change_event_occurrence', {
			p_tenant_id: tenant(),
			p_event_id: saved.id,
			p_key: third!.recurrence_key,
			p_changes: { name: 'Other' },
			p_cancelled: false,
			p_version: 1,
		});
		expect(stale.error?.code).toBe('PT409');
		const shown = (await publicEvents()).filter((e) =>
			[second!.event_id, third!.event_id].includes(e.event_id),
		);
		expect(shown).toEqual([
			expect.objectContaining({
				event_id: second!.event_id,
				venue: 'Riverside Park',
				cancelled: false,
			}),
			expect.objectContaining({ event_id: third!.event_id, cancelled: true }),
		]);
		// The moved date keeps its own time when the series' time changes.
		const later = [8, 15, 22].map((d) => ({
			key: dayFromToday(d),
			start: `${dayFromToday(d)}T17:00`,
			end: `${dayFromToday(d)}T19:00`,
		}));
		await save(
			as.editor,
			saved.id,
			3,
			{ starts_local: `${first}T17:00`, ends_local: `${first}T19:00` },
			later,
		);
		const after = await occurrences(saved.id);
		expect(localDateTime(after[1]!.start_utc, ZONE)).toEqual({
			date: dayFromToday(16),
			time: '10:00 AM',
		});
		expect(localDateTime(after[0]!.start_utc, ZONE).time).toBe('5:00 PM');
	});
});

describe('the events functions read the chamber’s own events beside the tenant file’s', () => {
	it('lists, details and calendar files of an own event', async () => {
		const saved = await added(as.admin, {
			name: 'Ribbon Cutting',
			summary: 'A new bakery opens',
			venue: 'Main Street Bakery',
			tickets: [
				{ ItemName: 'Member', UnitPrice: 0, IsPublic: true },
				{ ItemName: 'Staff', UnitPrice: 10, IsPublic: false },
			],
		});
		const [date] = await occurrences(saved.id);
		const list = await site.server.call('/api/events');
		expect(list.status).toBe(200);
		const ids = (list.body.Result as Event[]).map((e) => e.EventId);
		expect(ids).toContain(FILE_EVENT_ID);
		expect(ids).toContain(date!.event_id);
		const details = await site.server.call(`/api/event-details?eventId=${date!.event_id}`);
		expect(details.status).toBe(200);
		expect(details.body).toMatchObject({
			EventId: date!.event_id,
			EventName: 'Ribbon Cutting',
			Summary: 'A new bakery opens',
			Venue: 'Main Street Bakery',
			StartTime: '6:00 PM',
			EndTime: '8:00 PM',
			TimeZone: { Name: ZONE },
			Closed: false,
			Cancelled: false,
			Items: [expect.objectContaining({ ItemName: 'Member', UnitPrice: 0, IsPublic: true })],
		});
		expect(details.body.Items).toHaveLength(1);
		const ics = await site.server.call(`/api/events/${date!.event_id}.ics`);
		expect(ics.status).toBe(200);
		expect(ics.body).toContain('SUMMARY:Ribbon Cutting');
		const feed = await site.server.call('/api/events.ics');
		expect(feed.body).toContain('SUMMARY:Ribbon Cutting');
		expect(feed.body).toContain('SUMMARY:File Mixer');
		// The file's events are not in the own range, and stay where they are.
		const file = await site.server.call(`/api/event-details?eventId=${FILE_EVENT_ID}`);
		expect(file.body).toMatchObject({ EventName: 'File Mixer' });
		expect(file.body).not.toHaveProperty('Cancelled');
	});

	it('a draft is not found by visitors', async () => {
		const saved = await added(as.admin, { name: 'Unannounced', status: 'draft' });
		const [date] = await occurrences(saved.id);
		expect((await site.server.call(`/api/event-details?eventId=${date!.event_id}`)).status).toBe(
			404,
		);
	});
});
