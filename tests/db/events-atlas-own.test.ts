// Runs on: hosted — the Events tab's list merges the membership system's events in SQL (admin_list_chamber_events): proved on the production shape.
import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Event } from '../../src/features/events/events.ts';
import { localDateTime, type EventInput } from '../../src/features/tenants/tenant-file.ts';
import { useSourceFetch } from '../../src/lib/public-fetch.server.ts';
import { startAtlasStandin, type AtlasStandin } from '../support/atlas-standin.ts';
import { standinFetch, standinUrl } from '../support/standin-fetch.ts';
import { service, stack } from './clients.ts';
import { eventsTenantFile, IDS } from './events-fixtures.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// The membership system stays a source: with ATLAS_BASE_URL set, the calendars, event pages and
// calendar files show its events as before and the chamber's own beside them; the Events tab
// lists both, each with where it comes from, the membership system's read-only (and the tenant
// file's not at all: with Atlas they are not on the site). Atlas is the stand-in of
// tests/support/atlas-standin.ts at atlas-events.test.

const DOMAIN = 'atlas-own.test';
const ZONE = 'America/Chicago';
const FILE_EVENT_ID = 4301;

let atlas: AtlasStandin;
let site: StaffSite<StaffChambers>;
let restoreFetch: () => void;
let ownId: string;
let ownEventId: number;

function day(days: number): string {
	return localDateTime(new TZDate(Date.now() + days * 86_400_000, ZONE), ZONE).date;
}

function fileEvent(): EventInput {
	const start = new TZDate(`${day(6)}T17:00:00`, ZONE);
	const end = new TZDate(`${day(6)}T19:00:00`, ZONE);
	const s = localDateTime(start, ZONE);
	const e = localDateTime(end, ZONE);
	return {
		EventId: FILE_EVENT_ID,
		EventName: 'Tenant File Social',
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
	atlas = await startAtlasStandin({ file: eventsTenantFile('atlas-own'), tenant: 'cedar-atlas' });
	restoreFetch = useSourceFetch(standinFetch());
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'atlas-own',
				domain: DOMAIN,
				password: 'atlas-own-password',
				name: 'Atlas Own',
				events: [fileEvent()],
			}),
		env: {
			ATLAS_BASE_URL: standinUrl(atlas.url, 'atlas-events.test'),
			ATLAS_TENANT: 'cedar-atlas',
		},
	});
	const added = await site.server.call('/api/admin/events', {
		method: 'POST',
		token: site.chambers.tokens.admin,
		body: {
			name: 'Chamber Golf Outing',
			time_zone: ZONE,
			starts_local: `${day(12)}T13:00`,
			ends_local: `${day(12)}T18:00`,
			venue: 'Pheasant Ridge',
		},
	});
	expect(added.status, JSON.stringify(added.body)).toBe(201);
	ownId = added.body.id;
	const detail = await site.server.call(`/api/admin/events/${ownId}`, {
		token: site.chambers.tokens.admin,
	});
	ownEventId = detail.body.dates[0].eventId;
});

afterAll(async () => {
	await site?.close();
	restoreFetch?.();
	await atlas?.close();
});

describe('the calendars with the membership system as their source', () => {
	it('show Atlas’s events and the chamber’s own beside them, never the tenant file’s', async () => {
		const list = await site.server.call('/api/events');
		expect(list.status).toBe(200);
		const ids = (list.body.Result as Event[]).map((e) => e.EventId);
		expect(ids).toEqual(expect.arrayContaining([IDS.mixer, IDS.expo, ownEventId]));
		expect(ids).not.toContain(FILE_EVENT_ID);
		expect(atlas.requests.some((r) => r.path.startsWith('/Events?'))).toBe(true);

		expect((await site.server.call(`/api/event-details?eventId=${ownEventId}`)).body).toMatchObject(
			{ EventName: 'Chamber Golf Outing', Venue: 'Pheasant Ridge' },
		);
		expect((await site.server.call(`/api/event-details?eventId=${IDS.mixer}`)).body).toMatchObject({
			EventName: 'Upcoming Mixer',
		});
		const own = await site.server.call(`/api/events/${ownEventId}.ics`);
		expect(own.body).toContain('SUMMARY:Chamber Golf Outing');
		const feed = await site.server.call('/api/events.ics');
		expect(feed.body).toContain('SUMMARY:Chamber Golf Outing');
		expect(feed.body).toContain('SUMMARY:Upcoming Mixer');
		expect(feed.body).not.toContain('Tenant File Social');
	});
});

describe('the Events tab with the membership system as a source', () => {
	const list = (query = '') =>
		site.server.call(`/api/admin/events${query}`, { token: site.chambers.tokens.editor });

	it('lists both, each saying where it comes from; the membership system’s read-only', async () => {
		const all = await list('?when=upcoming&pageSize=100');
		expect(all.status).toBe(200);
		const rows = all.body.events as {
			id: string;
			name: string;
			source: string;
			readOnly: boolean;
			calendar: string;
		}[];
		expect(rows.find((r) => r.name === 'Upcoming Mixer')).toMatchObject({
			id: `atlas:${IDS.mixer}`,
			source: 'atlas',
			readOnly: true,
			calendar: 'chamber',
		});
		expect(rows.find((r) => r.name === 'Farmers Market')).toMatchObject({
			source: 'atlas',
			calendar: 'community',
		});
		expect(rows.find((r) => r.name === 'Chamber Golf Outing')).toMatchObject({
			id: ownId,
			source: 'staff',
			readOnly: false,
		});
		expect(rows.map((r) => r.source)).not.toContain('file');
		// Closed events of Atlas are not on the site, nor in the tab.
		expect(rows.map((r) => r.name)).not.toContain('Closed Gala');

		const onlyAtlas = await list('?source=atlas&pageSize=100');
		expect((onlyAtlas.body.events as { source: string }[]).every((r) => r.source === 'atlas')).toBe(
			true,
		);
		const searched = await list('?q=golf');
		expect(searched.body).toMatchObject({ total: 1, events: [{ name: 'Chamber Golf Outing' }] });
	});

	it('refuses to open or change one of the membership system’s events (404)', async () => {
		const token = site.chambers.tokens.admin;
		for (const [method, body] of [
			['GET', undefined],
			['PATCH', { version: 1, changes: { name: 'Taken over' } }],
			['DELETE', undefined],
		] as const) {
			const answer = await site.server.call(`/api/admin/events/atlas:${IDS.mixer}`, {
				method,
				token,
				body,
			});
			expect(answer.status, method).toBe(404);
		}
	});

	it('still lists the chamber’s own events while the membership system fails, saying so', async () => {
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		atlas.setMode('error500');
		try {
			const answer = await list('?when=upcoming');
			expect(answer.status).toBe(200);
			expect(answer.body.atlasError).toBe(
				'The membership system’s events could not be read just now.',
			);
			expect((answer.body.events as { name: string }[]).map((r) => r.name)).toEqual([
				'Chamber Golf Outing',
			]);
		} finally {
			atlas.setMode('ok');
			error.mockRestore();
		}
	});
});
