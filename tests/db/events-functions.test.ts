// Runs on: hosted — the events functions over the events table, on the production shape.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from './clients.ts';
import type { Event } from '../../src/features/events/events.ts';
import type { FunctionServer } from '../support/function-server.ts';
import { IDS, seedEventsTenant, startFunctions, utcDay } from './events-fixtures.ts';

// The events functions over real HTTP, reading the local events table of a fixture chamber
// through PostgREST as a visitor would.

let tenant: { slug: string; id: string };
let server: FunctionServer;

beforeAll(async () => {
	await db.connect();
	tenant = await seedEventsTenant('events-local');
	server = await startFunctions(tenant.slug);
});

afterAll(async () => {
	await server?.close();
	await db.query('delete from public.tenants where id = $1', [tenant.id]);
	await db.end();
});

const get = (path: string) => fetch(`${server.url}${path}`);
const ids = (events: Event[]) => events.map((e) => e.EventId);

describe('GET /api/events', () => {
	it('answers the open chamber events from 3 months back to 6 ahead, sorted by start', async () => {
		const response = await get('/api/events');
		expect(response.status).toBe(200);
		const body = (await response.json()) as { Result: Event[] };
		expect(ids(body.Result)).toEqual([IDS.pastLunch, IDS.mixer, IDS.expo]);
		const mixer = body.Result[1];
		expect(mixer).toMatchObject({ EventName: 'Upcoming Mixer', Venue: 'Chamber Office' });
		// The public ticket items only (the staff item is nothing a visitor sees).
		expect(mixer?.Items).toHaveLength(2);
	});

	it('is cached by the CDN for a day plus two stale, tagged and keyed by version and range', async () => {
		const response = await get('/api/events?v=3');
		expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
		expect(response.headers.get('netlify-cdn-cache-control')).toBe(
			'public, durable, s-maxage=86400, stale-while-revalidate=172800',
		);
		expect(response.headers.get('netlify-cache-tag')?.split(',')).toEqual([
			tenant.slug,
			`${tenant.slug}:events`,
		]);
		expect(response.headers.get('netlify-vary')).toBe('query=v|startDate|endDate');
		expect(response.headers.get('warning')).toBeNull();
	});

	it('answers a range with every event overlapping it, multi-day ones included', async () => {
		const day = utcDay(41);
		const response = await get(`/api/events?startDate=${day}&endDate=${day}`);
		expect(response.status).toBe(200);
		expect(ids(((await response.json()) as { Result: Event[] }).Result)).toEqual([IDS.expo]);
		const all = await get(`/api/events?startDate=${utcDay(-200)}&endDate=${utcDay(60)}`);
		expect(ids(((await all.json()) as { Result: Event[] }).Result)).toEqual([
			IDS.oldBreakfast,
			IDS.pastLunch,
			IDS.mixer,
			IDS.expo,
		]);
	});

	it.each([
		['startDate=2027-01-01', 'endDate: startDate and endDate go together: give both or neither'],
		['endDate=2027-01-01', 'startDate: startDate and endDate go together: give both or neither'],
		[
			'startDate=2027-02-30&endDate=2027-03-01',
			'startDate: startDate must be a real calendar date',
		],
		[
			'startDate=01/02/2027&endDate=2027-03-01',
			'startDate: startDate must be a date like 2027-03-15',
		],
		['startDate=2027-03-02&endDate=2027-03-01', 'endDate: endDate must not be before startDate'],
		[
			`startDate=${utcDay(-600)}&endDate=${utcDay(600)}`,
			'endDate: The range may span at most 1098 days',
		],
		// Without a bound every distinct range from 0000 to 9999 is a source request and a cache entry.
		[
			'startDate=0001-01-01&endDate=0001-01-02',
			'startDate: startDate must be within 5 years of today',
		],
		[
			'startDate=9999-01-01&endDate=9999-01-02',
			'startDate: startDate must be within 5 years of today',
		],
		['v=abc', expect.stringContaining('v: ')],
	])('refuses %s with 400', async (query, error) => {
		const response = await get(`/api/events?${query}`);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ error });
	});

	it('answers only GET', async () => {
		const response = await fetch(`${server.url}/api/events`, { method: 'POST' });
		expect(response.status).toBe(405);
	});
});

describe('GET /api/community-events', () => {
	it('answers the open community events, tagged as community events', async () => {
		const response = await get('/api/community-events');
		expect(response.status).toBe(200);
		expect(ids(((await response.json()) as { Result: Event[] }).Result)).toEqual([IDS.market]);
		expect(response.headers.get('netlify-cache-tag')).toContain(`${tenant.slug}:community_events`);
	});

	it('validates its range the same way', async () => {
		const response = await get('/api/community-events?startDate=2027-01-01');
		expect(response.status).toBe(400);
	});
});

describe('GET /api/event-details', () => {
	it('answers one event, chamber or community, cached and tagged with its id', async () => {
		const response = await get(`/api/event-details?eventId=${IDS.mixer}&v=2`);
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({
			EventId: IDS.mixer,
			EventName: 'Upcoming Mixer',
		});
		expect(response.headers.get('netlify-cache-tag')?.split(',')).toEqual([
			tenant.slug,
			`${tenant.slug}:event_details`,
			`${tenant.slug}:event:${IDS.mixer}`,
		]);
		expect(response.headers.get('netlify-vary')).toBe('query=v|eventId');
		const market = await get(`/api/event-details?eventId=${IDS.market}`);
		expect(await market.json()).toMatchObject({ EventName: 'Farmers Market' });
	});

	it("answers 404 'Event not found' for unknown and closed events", async () => {
		for (const id of [999_999, IDS.closedGala, IDS.closedParade]) {
			const response = await get(`/api/event-details?eventId=${id}`);
			expect(response.status).toBe(404);
			expect(await response.json()).toEqual({ error: 'Event not found' });
		}
	});

	it("answers 400 'Event ID is required' without an id, and 400 for a non-numeric one", async () => {
		for (const query of ['', '?eventId=', '?v=1']) {
			const response = await get(`/api/event-details${query}`);
			expect(response.status).toBe(400);
			expect(await response.json()).toEqual({ error: 'Event ID is required' });
		}
		for (const id of ['abc', '12x', '-4', '0', '1.5']) {
			const response = await get(`/api/event-details?eventId=${id}`);
			expect(response.status).toBe(400);
			expect(await response.json()).toEqual({
				error: 'eventId: Event ID must be a positive whole number',
			});
		}
	});
});

describe('calendar feeds', () => {
	const parse = (text: string) =>
		new ICAL.Component(ICAL.parse(text))
			.getAllSubcomponents('vevent')
			.map((v) => new ICAL.Event(v));

	it('GET /api/events.ics: every upcoming open chamber event, subscribable', async () => {
		const response = await get('/api/events.ics');
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
		expect(response.headers.get('netlify-cdn-cache-control')).toContain('s-maxage=86400');
		expect(response.headers.get('netlify-vary')).toBe('query=v|source');
		const events = parse(await response.text());
		const host = new URL(server.url).hostname;
		expect(events.map((e) => e.uid)).toEqual([
			`event-${IDS.mixer}@${host}`,
			`event-${IDS.expo}@${host}`,
		]);
		expect(events[0]?.component.getFirstPropertyValue('url')).toBe(
			`${server.url}/events/${IDS.mixer}/upcoming-mixer`,
		);
	});

	it('GET /api/events.ics?source=community: the community events', async () => {
		const response = await get('/api/events.ics?source=community');
		expect(parse(await response.text()).map((e) => e.summary)).toEqual(['Farmers Market']);
		expect((await get('/api/events.ics?source=other')).status).toBe(400);
	});

	it('GET /api/events/{id}.ics downloads one event, 404 for a closed one', async () => {
		const response = await get(`/api/events/${IDS.mixer}.ics`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-disposition')).toBe(
			'attachment; filename="upcoming-mixer.ics"',
		);
		const [event] = parse(await response.text());
		expect(event?.summary).toBe('Upcoming Mixer');
		const closed = await get(`/api/events/${IDS.closedGala}.ics`);
		expect(closed.status).toBe(404);
		expect(await closed.json()).toEqual({ error: 'Event not found' });
	});
});
