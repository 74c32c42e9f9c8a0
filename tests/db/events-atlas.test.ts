// Runs on: hosted — the events functions and their last good answer; the chamber is read from
// the production shape.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from './clients.ts';
import type { Event } from '../../src/features/events/events.ts';
import type { FunctionServer } from '../support/function-server.ts';
import { startAtlasStandin, type AtlasStandin } from '../support/atlas-standin.ts';
import { standinFetch, standinUrl } from '../support/standin-fetch.ts';
import { useSourceFetch } from '../../src/lib/public-fetch.server.ts';
import {
	eventsTenantFile,
	IDS,
	seedEventsTenant,
	startFunctions,
	utcDay,
} from './events-fixtures.ts';

// The same functions with ATLAS_BASE_URL pointed at the Atlas stand-in: the answers come from
// Atlas, and when Atlas starts failing each function serves its last good answer, else a 502.
// The stand-in listens on 127.0.0.1, which the deployed fetch refuses: the functions reach it as
// atlas-events.test through the tests' fetch (standinFetch, installed by code, not by a variable).

let tenant: { slug: string; id: string };
let atlas: AtlasStandin;
let server: FunctionServer;
let restoreFetch: (() => void) | undefined;

beforeAll(async () => {
	await db.connect();
	// The chamber itself (name, configuration) still lives in the database.
	tenant = await seedEventsTenant('events-atlas');
	atlas = await startAtlasStandin({ file: eventsTenantFile(tenant.slug), tenant: 'cedar-atlas' });
	restoreFetch = useSourceFetch(standinFetch());
	server = await startFunctions(tenant.slug, {
		ATLAS_BASE_URL: standinUrl(atlas.url, 'atlas-events.test'),
		ATLAS_TENANT: 'cedar-atlas',
	});
});

afterAll(async () => {
	await server?.close();
	restoreFetch?.();
	await atlas?.close();
	await db.query('delete from public.tenants where id = $1', [tenant.id]);
	await db.end();
});

afterEach(() => atlas.setMode('ok'));

const get = (path: string) => fetch(`${server.url}${path}`);
const ids = (events: Event[]) => events.map((e) => e.EventId);

describe('the events functions on Atlas', () => {
	it('answer from Atlas, asking with the x-tenant header', async () => {
		const before = atlas.requests.length;
		const response = await get('/api/events');
		expect(response.status).toBe(200);
		expect(ids(((await response.json()) as { Result: Event[] }).Result)).toEqual([
			IDS.pastLunch,
			IDS.mixer,
			IDS.expo,
		]);
		const asked = atlas.requests.slice(before);
		expect(asked).toHaveLength(1);
		expect(asked[0]?.tenant).toBe('cedar-atlas');
		expect(asked[0]?.path).toContain('CommunityEvent=false');

		const details = await get(`/api/event-details?eventId=${IDS.mixer}`);
		expect(await details.json()).toMatchObject({
			EventId: IDS.mixer,
			EventName: 'Upcoming Mixer',
			Address2: '',
		});
		expect((await get(`/api/event-details?eventId=${IDS.closedGala}`)).status).toBe(404);
		expect((await get('/api/event-details?eventId=424242')).status).toBe(404);
	});

	it('serve the last good answer, marked stale and kept briefly, once Atlas fails', async () => {
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		const range = `startDate=${utcDay(-30)}&endDate=${utcDay(30)}`;
		const good = await get(`/api/community-events?${range}`);
		const goodBody = await good.json();
		expect(ids((goodBody as { Result: Event[] }).Result)).toEqual([IDS.market]);
		const detail = await (await get(`/api/event-details?eventId=${IDS.market}`)).json();

		atlas.setMode('error500');
		const stale = await get(`/api/community-events?${range}`);
		expect(stale.status).toBe(200);
		expect(await stale.json()).toEqual(goodBody);
		expect(stale.headers.get('warning')).toBe('110 - "Response is Stale"');
		expect(Date.parse(stale.headers.get('x-events-stale-since') ?? '')).toBeLessThanOrEqual(
			Date.now(),
		);
		expect(stale.headers.get('netlify-cdn-cache-control')).toBe(
			'public, durable, s-maxage=60, stale-while-revalidate=172800',
		);
		const staleDetail = await get(`/api/event-details?eventId=${IDS.market}`);
		expect(staleDetail.status).toBe(200);
		expect(await staleDetail.json()).toEqual(detail);
		expect(error).toHaveBeenCalled();
		error.mockRestore();
	});

	it("answer 502 with the source's message when there is no last good answer", async () => {
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		atlas.setMode('error500');
		const events = await get(`/api/events?startDate=${utcDay(100)}&endDate=${utcDay(120)}`);
		expect(events.status).toBe(502);
		expect(await events.json()).toEqual({ error: 'Failed to fetch events' });
		const community = await get(
			`/api/community-events?startDate=${utcDay(100)}&endDate=${utcDay(120)}`,
		);
		expect(community.status).toBe(502);
		expect(await community.json()).toEqual({ error: 'Failed to fetch community events' });
		const details = await get(`/api/event-details?eventId=${IDS.expo}`);
		expect(details.status).toBe(502);
		expect(await details.json()).toEqual({ error: 'Failed to load event details' });

		atlas.setMode('noResult');
		const empty = await get(`/api/events?startDate=${utcDay(200)}&endDate=${utcDay(220)}`);
		expect(empty.status).toBe(502);
		expect(await empty.json()).toEqual({ error: 'No events found in response' });
		error.mockRestore();
	});

	it("answer 404 'Event not found' for Atlas's soft 404", async () => {
		atlas.setMode('soft404');
		const response = await get(`/api/event-details?eventId=${IDS.pastLunch}`);
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ error: 'Event not found' });
	});
});

describe('what the events functions pass on from Atlas', () => {
	const attendees = [
		{
			AttendeeId: 1,
			RegistrationId: 10,
			RegistrationOrgName: 'Acme Roofing',
			OrgName: 'Acme Roofing',
			ItemsDisplay: 'Guest',
			FName: 'Dana',
			LName: 'Private',
			Title: 'Owner',
		},
	];

	afterEach(() => {
		atlas.patchEvent(IDS.mixer, null);
		atlas.patchEvent(IDS.expo, null);
	});

	// A javascript: registration link would run script on the site's origin when clicked.
	it('passes on only http(s) links: registration, sponsor website and sponsor logo', async () => {
		atlas.patchEvent(IDS.mixer, {
			SpecialRegistrationUrl: 'javascript:alert(document.cookie)',
			Sponsors: [
				{
					SponserId: 7,
					SponsorName: 'Evil Sponsor',
					SponsorLogoUrl: 'data:image/svg+xml,<svg onload=alert(1)>',
					SponsorWebsite: 'JaVaScRiPt:alert(1)',
					SponsorMessage: null,
					HideSponsorOrgName: false,
				},
				{
					SponserId: 8,
					SponsorName: 'Good Sponsor',
					SponsorLogoUrl: 'cdn.example.org/logo.png',
					SponsorWebsite: 'https://good.example.org',
					SponsorMessage: null,
					HideSponsorOrgName: false,
				},
			],
		});
		const detail = (await (await get(`/api/event-details?eventId=${IDS.mixer}`)).json()) as Event;
		expect(detail.SpecialRegistrationUrl).toBe('');
		expect(detail.Sponsors).toMatchObject([
			{ SponsorName: 'Evil Sponsor', SponsorLogoUrl: '', SponsorWebsite: '' },
			{
				SponsorName: 'Good Sponsor',
				SponsorLogoUrl: 'http://cdn.example.org/logo.png',
				SponsorWebsite: 'https://good.example.org',
			},
		]);
		const list = (await (await get('/api/events?v=2')).json()) as { Result: Event[] };
		const mixer = list.Result.find((e) => e.EventId === IDS.mixer);
		expect(mixer?.SpecialRegistrationUrl).toBe('');
		expect(JSON.stringify(list)).not.toMatch(/javascript:|data:image/i);
	});

	// Attendee names go out only as ShowAttendeeDetail says, and no field Atlas adds goes out.
	it('answers attendees only when the event shows them, and no field Atlas adds', async () => {
		atlas.patchEvent(IDS.mixer, {
			ShowAttendeeDetail: false,
			Attendees: attendees,
			InternalNotes: 'VIP list, do not publish',
		});
		atlas.patchEvent(IDS.expo, {
			ShowAttendeeDetail: true,
			AttendeeDetailThreshold: 5,
			AttendingAttendees: 1,
			Attendees: attendees,
		});
		for (const path of [
			`/api/event-details?eventId=${IDS.mixer}&v=3`,
			`/api/event-details?eventId=${IDS.expo}&v=3`,
			'/api/events?v=3',
		]) {
			const text = await (await get(path)).text();
			expect(text, path).not.toContain('Private');
			expect(text, path).not.toContain('InternalNotes');
			expect(text, path).not.toContain('VIP list');
		}
		const mixer = (await (
			await get(`/api/event-details?eventId=${IDS.mixer}&v=4`)
		).json()) as Event;
		expect(mixer.Attendees).toEqual([]);
		// Non-public ticket items (staff prices) are not passed on either.
		expect(mixer.Items.map((i) => i.ItemName)).toEqual(['Member', 'Guest']);

		atlas.patchEvent(IDS.expo, {
			ShowAttendeeDetail: true,
			AttendeeDetailThreshold: 1,
			AttendingAttendees: 1,
			Attendees: attendees,
		});
		const shown = (await (await get(`/api/event-details?eventId=${IDS.expo}&v=5`)).json()) as Event;
		expect(shown.Attendees).toMatchObject([{ FName: 'Dana', LName: 'Private', Title: 'Owner' }]);
	});
});
