import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffChamber } from '../db/fixtures.ts';
import { day, EVENT_IDS, startContractSite, type ContractSite } from './site.ts';

// The contract of the public events calls: each request the specification's events part defines,
// sent as it writes it, and the fields its answer names (an event in the membership system's
// shape; list answers an object with a Result array).

/** Where the product deliberately leaves the specification's form, with why. */
export const EXCEPTIONS = [
	{
		spec: 'Cache version lookups per resource type (events, community_events, event_details, categories): endpoint not shown',
		reason:
			"The product's lookup is GET /api/cache-version?type={type}, the directory part's call; its rows are in directory.test.ts.",
	},
	{
		spec: 'A fonts stylesheet is loaded from a font service; an analytics script loads when a measurement id is configured',
		reason:
			"Fonts are served from the site itself (self-hosted, no request to a font service); the analytics script is Google's, not a call to this product (docs/behaviour.md, Analytics).",
	},
] as const;

let site: ContractSite<StaffChamber<never>>;

beforeAll(async () => {
	site = await startContractSite({ domain: 'contract-events.test', staff: {} });
});
afterAll(() => site?.close());

const call = (path: string) => site.server.call(path);

/** Every field of the specification's Event, with the ticket items. */
function expectEvent(event: unknown, id: number, name: string) {
	expect(event).toEqual(
		expect.objectContaining({
			EventId: id,
			EventName: name,
			Descr: expect.stringContaining('<p>'),
			StartDateTimeUtc: expect.any(String),
			EndDateTimeUtc: expect.any(String),
			StartDate: expect.any(String),
			EndDate: expect.any(String),
			StartTime: '5:00 PM',
			EndTime: '7:00 PM',
			TimeZone: expect.objectContaining({ Abbreviation: 'UTC' }),
			Venue: 'Chamber Office',
			Address1: '200 Main Street',
			Address2: expect.any(String),
			City: 'Cedarbrook',
			State: 'IA',
			Zip: '52901',
			EventType: 'Networking',
			EventTypeColor: expect.any(String),
			FeaturedEvent: expect.any(Boolean),
			Closed: false,
			DisableRegistration: expect.any(Boolean),
			SpecialRegistrationUrl: expect.any(String),
			RegistrationStartDate: expect.toBeOneOf([expect.any(String), null]),
			RegistrationEndDate: expect.toBeOneOf([expect.any(String), null]),
			SendQuestionsToEmail: expect.any(String),
			ShowAttendeeDetail: expect.any(Boolean),
			AttendeeDetailThreshold: expect.any(Number),
			AttendingAttendees: expect.any(Number),
			Attendees: expect.any(Array),
			Items: [
				expect.objectContaining({
					ItemId: 1,
					ItemName: 'Member',
					Descr: expect.any(String),
					UnitPrice: 0,
					IsPublic: true,
					AttendeesForItem: expect.any(Number),
					Sold: expect.any(Number),
					MaxQuantity: expect.toBeOneOf([expect.any(Number), null]),
				}),
				expect.objectContaining({ ItemId: 2, UnitPrice: 25 }),
			],
			Sponsors: expect.any(Array),
		}),
	);
}

describe('public events', () => {
	const range = `startDate=${day(-30)}&endDate=${day(60)}`;

	it.each([
		['GET /api/events', '/api/events', EVENT_IDS.mixer, 'Contract Mixer'],
		['GET /api/events?v={version}', '/api/events?v=1', EVENT_IDS.mixer, 'Contract Mixer'],
		[
			'GET /api/events?startDate={yyyy-mm-dd}&endDate={yyyy-mm-dd}',
			`/api/events?v=1&${range}`,
			EVENT_IDS.mixer,
			'Contract Mixer',
		],
		['GET /api/community-events', '/api/community-events', EVENT_IDS.market, 'Contract Market'],
		[
			'GET /api/community-events?v={version}&startDate=&endDate=',
			`/api/community-events?v=1&${range}`,
			EVENT_IDS.market,
			'Contract Market',
		],
	])('%s → {Result: [event]}', async (_name, path, id, eventName) => {
		const answer = await call(path);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual(expect.objectContaining({ Result: expect.any(Array) }));
		expect(answer.body.Result).toHaveLength(1);
		expectEvent(answer.body.Result[0], id, eventName);
	});

	it('GET /api/event-details?eventId={id} → one event', async () => {
		const answer = await call(`/api/event-details?eventId=${EVENT_IDS.mixer}`);
		expect(answer.status).toBe(200);
		expectEvent(answer.body, EVENT_IDS.mixer, 'Contract Mixer');
	});

	it('GET /api/event-details?eventId={id}&v={version} → one event', async () => {
		const { version } = (await call('/api/cache-version?type=event_details')).body;
		const answer = await call(`/api/event-details?eventId=${EVENT_IDS.market}&v=${version}`);
		expect(answer.status).toBe(200);
		expectEvent(answer.body, EVENT_IDS.market, 'Contract Market');
	});

	it("GET /api/event-details of no event → 404 'Event not found'", async () => {
		const answer = await call('/api/event-details?eventId=999999');
		expect(answer).toEqual({ status: 404, body: { error: 'Event not found' } });
	});

	it("GET /api/event-details without an id → 'Event ID is required'", async () => {
		const answer = await call('/api/event-details');
		expect(answer).toEqual({ status: 400, body: { error: 'Event ID is required' } });
	});
});
