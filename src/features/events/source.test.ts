import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAtlasStandin, type AtlasStandin } from '../../../tests/support/atlas-standin.ts';
import { standinFetch, standinUrl } from '../../../tests/support/standin-fetch.ts';
import { useSourceFetch } from '../../lib/public-fetch.server.ts';
import { generateTenant } from '../../../tenants/demo/generate.ts';
import { parseTenantFile } from '../tenants/tenant-file.ts';
import {
	ATLAS_MAX_BYTES,
	ATLAS_TIMEOUT_MS,
	atlasEventsSource,
	getEventsSource,
	readEventsSourceConfig,
	withOwnEvents,
	type EventsSource,
} from './source.server.ts';
import { sourceEvent } from './test-events.ts';

// The Atlas adapter against a real HTTP stand-in of the Atlas API, serving the demo chamber's
// events as of a fixed day. The stand-in listens on 127.0.0.1, which the deployed fetch refuses:
// the adapter reaches it as atlas-events.test through the tests' fetch (standinFetch).
const file = generateTenant({ businesses: 40, today: new Date('2026-11-15T12:00:00Z') });
const demo = parseTenantFile(file, 'demo');
const range = { start: new Date('2026-08-01T00:00:00Z'), end: new Date('2027-05-31T23:59:59Z') };

let atlas: AtlasStandin;
let source: EventsSource;
const fetcher = standinFetch();
const viaName = (url: string) => standinUrl(url, 'atlas-events.test');

beforeAll(async () => {
	atlas = await startAtlasStandin({ file, tenant: 'cedarvalley' });
	source = atlasEventsSource({ baseUrl: viaName(atlas.url), tenant: atlas.tenant, fetcher });
});
afterAll(() => atlas.close());
afterEach(() => atlas.setMode('ok'));

describe('the Atlas events source', () => {
	it('lists the open chamber events of a range, sorted by start, asking as Atlas expects', async () => {
		const events = await source.listEvents({ community: false, ...range });
		const expected = demo.events
			.filter((e) => !e.Closed)
			.filter((e) => Date.parse(e.EndDateTimeUtc) >= range.start.getTime())
			.filter((e) => Date.parse(e.StartDateTimeUtc) <= range.end.getTime())
			.map((e) => e.EventId);
		expect(expected.length).toBeGreaterThan(20);
		expect(events.map((e) => e.EventId)).toEqual(expected);
		const starts = events.map((e) => e.StartDateTimeUtc);
		expect(starts).toEqual([...starts].sort());
		// Atlas sends instants without the Z; they come back as UTC ISO instants.
		expect(events[0]?.StartDateTimeUtc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
		const last = atlas.requests.at(-1);
		expect(last?.tenant).toBe('cedarvalley');
		const query = new URL(last?.path ?? '', 'http://x').searchParams;
		expect(Object.fromEntries(query)).toEqual({
			PageSize: '0',
			OrganizationEvent: 'true',
			CommunityEvent: 'false',
			EventClosed: 'false',
			SearchDateBegin: range.start.toISOString(),
			SearchDateEnd: range.end.toISOString(),
		});
	});

	it('lists community events separately', async () => {
		const events = await source.listEvents({ community: true, ...range });
		expect(events.length).toBeGreaterThan(10);
		expect(events.every((e) => demo.communityEvents.some((c) => c.EventId === e.EventId))).toBe(
			true,
		);
	});

	it('drops closed events even when Atlas sends them', async () => {
		const leaky = await startAtlasStandin({ file, tenant: 't', ignoreClosedFilter: true });
		try {
			const all = atlasEventsSource({ baseUrl: viaName(leaky.url), tenant: 't', fetcher });
			const closed = demo.events.filter((e) => e.Closed).map((e) => e.EventId);
			expect(closed.length).toBeGreaterThan(0);
			const ids = (await all.listEvents({ community: false, ...range })).map((e) => e.EventId);
			expect(ids.filter((id) => closed.includes(id))).toEqual([]);
			expect(await all.getEvent(closed[0]!)).toBeNull();
		} finally {
			await leaky.close();
		}
	});

	it('gets one event with its items, sponsors and attendees', async () => {
		const gala = demo.events.find((e) => e.EventName === 'Annual Gala & Awards Night');
		const event = await source.getEvent(gala!.EventId);
		expect(event).toMatchObject({
			EventId: gala!.EventId,
			EventName: 'Annual Gala & Awards Night',
			Address2: '',
			StartDate: gala!.StartDate,
			StartDateTimeUtc: new Date(gala!.StartDateTimeUtc).toISOString(),
		});
		expect(event?.Attendees).toHaveLength(gala!.Attendees.length);
		expect(event?.Items).toHaveLength(gala!.Items.length);
		expect(event?.Sponsors).toHaveLength(gala!.Sponsors.length);
		expect(atlas.requests.at(-1)?.path).toBe(`/Event/${gala!.EventId}/Details`);
	});

	it('answers null for an unknown event (Atlas answers 200 with an error object)', async () => {
		expect(await source.getEvent(99_999)).toBeNull();
	});

	it('answers null for a soft 404: 200 with an empty body', async () => {
		atlas.setMode('soft404');
		expect(await source.getEvent(demo.events[0]!.EventId)).toBeNull();
	});

	it('turns HTTP 500 into the visitor-facing messages', async () => {
		atlas.setMode('error500');
		await expect(source.listEvents({ community: false, ...range })).rejects.toThrow(
			/^Failed to fetch events$/,
		);
		await expect(source.listEvents({ community: true, ...range })).rejects.toThrow(
			/^Failed to fetch community events$/,
		);
		await expect(source.getEvent(demo.events[0]!.EventId)).rejects.toThrow(
			/^Failed to load event details$/,
		);
	});

	it("says 'No events found in response' when the body has no Result list", async () => {
		atlas.setMode('noResult');
		await expect(source.listEvents({ community: false, ...range })).rejects.toThrow(
			/^No events found in response$/,
		);
		atlas.setMode('soft404');
		await expect(source.listEvents({ community: true, ...range })).rejects.toThrow(
			/^No events found in response$/,
		);
	});

	it('treats the 500 Atlas answers without x-tenant as a failure', async () => {
		const anonymous = atlasEventsSource({ baseUrl: viaName(atlas.url), tenant: '', fetcher });
		await expect(anonymous.listEvents({ community: false, ...range })).rejects.toThrow(
			'Failed to fetch events',
		);
		expect(atlas.requests.at(-1)?.tenant).toBe('');
	});

	it('gives up after 5 seconds when Atlas hangs', { timeout: 15_000 }, async () => {
		expect(ATLAS_TIMEOUT_MS).toBe(5_000);
		atlas.setMode('hang');
		const started = performance.now();
		const error = await source.listEvents({ community: false, ...range }).catch((e: unknown) => e);
		const elapsed = performance.now() - started;
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe('Failed to fetch events');
		expect(((error as Error).cause as Error).name).toBe('TimeoutError');
		expect(elapsed).toBeGreaterThanOrEqual(4_900);
		expect(elapsed).toBeLessThan(5_900);
	});

	it('reads at most 10 MB of an answer, stopping while it streams', async () => {
		expect(ATLAS_MAX_BYTES).toBe(10 * 1024 * 1024);
		atlas.setMode('huge');
		const error = await source.listEvents({ community: false, ...range }).catch((e: unknown) => e);
		expect((error as Error).message).toBe('Failed to fetch events');
		expect(((error as Error).cause as Error).message).toBe('larger than 10 MB');
	});

	it('refuses loopback and private addresses, also behind a redirect, as deployed', async () => {
		const internal = createServer((_req, res) => res.end('{"Result":[]}'));
		await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
		const reached: string[] = [];
		internal.on('request', (req) => reached.push(req.url ?? ''));
		const internalPort = (internal.address() as AddressInfo).port;
		try {
			// The deployed fetch: the stand-in's own address is refused before any connection.
			const direct = atlasEventsSource({ baseUrl: atlas.url, tenant: atlas.tenant });
			const before = atlas.requests.length;
			const refused = await direct.listEvents({ community: false, ...range }).catch((e) => e);
			expect(((refused as Error).cause as Error).message).toBe('127.0.0.1 is not a public address');
			expect(atlas.requests.length).toBe(before);
			// The stand-in, reachable by its name, redirects to this machine's other addresses.
			atlas.setMode('redirect');
			for (const [location, reason] of [
				[`http://127.0.0.2:${internalPort}/Events`, '127.0.0.2 is not a public address'],
				['http://10.0.0.1/Events', '10.0.0.1 is not a public address'],
				['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address'],
				[`http://[::1]:${internalPort}/Events`, '::1 is not a public address'],
				[`http://localhost:${internalPort}/Events`, /^localhost resolves to/],
			] as const) {
				atlas.setRedirect(location);
				const error = await source.listEvents({ community: false, ...range }).catch((e) => e);
				expect((error as Error).message, location).toBe('Failed to fetch events');
				expect(((error as Error).cause as Error).message, location).toMatch(reason);
			}
			expect(reached).toEqual([]);
		} finally {
			internal.close();
		}
	});
});

describe('choosing the events source', () => {
	it('is local by default and Atlas with both variables', () => {
		expect(readEventsSourceConfig({})).toEqual({ kind: 'local' });
		expect(readEventsSourceConfig({ ATLAS_BASE_URL: '', ATLAS_TENANT: ' ' })).toEqual({
			kind: 'local',
		});
		expect(
			readEventsSourceConfig({ ATLAS_BASE_URL: 'https://api.example.org/api', ATLAS_TENANT: 'x' }),
		).toEqual({
			kind: 'atlas',
			baseUrl: 'https://api.example.org/api',
			tenant: 'x',
			timeoutMs: 5000,
		});
		expect(
			readEventsSourceConfig({
				ATLAS_BASE_URL: 'https://api.example.org/api',
				ATLAS_TENANT: 'x',
				ATLAS_TIMEOUT_MS: '1500',
			}),
		).toMatchObject({ kind: 'atlas', timeoutMs: 1500 });
	});

	it('refuses half a configuration or a bad URL', () => {
		expect(() => readEventsSourceConfig({ ATLAS_BASE_URL: 'https://a.example' })).toThrow(
			'ATLAS_BASE_URL and ATLAS_TENANT go together',
		);
		expect(() =>
			readEventsSourceConfig({ ATLAS_BASE_URL: 'ftp://a.example', ATLAS_TENANT: 'x' }),
		).toThrow('ATLAS_BASE_URL must be an http(s) URL');
	});

	it('logs the choice once per configuration', async () => {
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		const restore = useSourceFetch(fetcher);
		try {
			const env = { ATLAS_BASE_URL: viaName(atlas.url), ATLAS_TENANT: atlas.tenant };
			const first = getEventsSource(env);
			expect(getEventsSource({ ...env })).toBe(first);
			expect(log).toHaveBeenCalledTimes(1);
			expect(log.mock.calls[0]?.[0]).toContain(`Atlas at ${viaName(atlas.url)}`);
			expect(log.mock.calls[0]?.[0]).toContain("and the chamber's own events");
			// An Atlas id: answered by Atlas alone (the own events' part reads the database).
			const atlasEvent = demo.events.find((e) => !e.Closed)!;
			expect(await first.getEvent(atlasEvent.EventId)).toMatchObject({
				EventName: atlasEvent.EventName,
			});
		} finally {
			restore();
			log.mockRestore();
		}
	});
});

describe("the chamber's own events beside a source", () => {
	// The own events' store is the database (tests/db/chamber-events.test.ts); here one in memory.
	const own = sourceEvent({
		EventId: 900_000_001,
		EventName: 'Own Breakfast',
		start: '2026-11-20T14:00:00Z',
		end: '2026-11-20T15:00:00Z',
	});
	const ownSource: EventsSource = {
		listEvents: async () => [own],
		getEvent: async (id) => (id === own.EventId ? own : null),
	};

	it('lists both by start and finds each event where its id says', async () => {
		const both = withOwnEvents(source, ownSource);
		const events = await both.listEvents({ community: false, ...range });
		const ids = events.map((e) => e.EventId);
		expect(ids).toContain(own.EventId);
		expect(ids.length).toBeGreaterThan(20);
		const starts = events.map((e) => e.StartDateTimeUtc);
		expect(starts).toEqual([...starts].sort());
		expect(await both.getEvent(own.EventId)).toMatchObject({ EventName: 'Own Breakfast' });
		const atlasEvent = demo.events.find((e) => !e.Closed)!;
		expect(await both.getEvent(atlasEvent.EventId)).toMatchObject({
			EventName: atlasEvent.EventName,
		});
	});
});
