import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Event } from './events.ts';
import { createEventsFeed, createListView, fetchEvents, fetchFeaturedEvent } from './store.ts';

// The calendar store against a real HTTP server on 127.0.0.1 that answers like the events API.

type Handler = (url: URL, res: ServerResponse) => void | Promise<void>;

let server: Server;
let base: string;
let handler: Handler;
let requests: URL[];
let inFlight: number;
let mostInFlight: number;

beforeEach(async () => {
	requests = [];
	inFlight = 0;
	mostInFlight = 0;
	handler = (_url, res) => json(res, 404, { error: 'Not found' });
	server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		requests.push(url);
		mostInFlight = Math.max(mostInFlight, ++inFlight);
		res.on('close', () => inFlight--);
		await handler(url, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
	vi.restoreAllMocks();
	await new Promise((resolve) => server.close(resolve));
});

function json(res: ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function event(EventId: number, day: string, extra: Partial<Event> = {}): Event {
	return {
		EventId,
		EventName: `Event ${EventId}`,
		StartDateTimeUtc: `${day}T15:00:00.000Z`,
		EndDateTimeUtc: `${day}T16:00:00.000Z`,
		StartDate: day,
		EndDate: day,
		StartTime: '9:00 AM',
		EndTime: '10:00 AM',
		TimeZone: { Abbreviation: 'CST', Name: 'America/Chicago' },
		EventType: 'Networking',
		EventTypeColor: '#2563eb',
		Closed: false,
		...extra,
	} as Event;
}

/** An events API holding `events`, answering each range with the events starting in it. */
function eventsApi(events: Event[], version = 7): Handler {
	return (url, res) => {
		if (url.pathname === '/api/cache-version') return json(res, 200, { version });
		if (url.pathname !== '/api/events' && url.pathname !== '/api/community-events') {
			return json(res, 404, { error: 'Not found' });
		}
		const start = url.searchParams.get('startDate') ?? '0000';
		const end = url.searchParams.get('endDate') ?? '9999';
		// One event spans the ranges' edge, so two answers hold it.
		const Result = events.filter((e) => e.EndDate >= start && e.StartDate <= end);
		return json(res, 200, { Result });
	};
}

const first = { startDate: '2026-08-22', endDate: '2027-02-22' };

describe('fetchEvents', () => {
	it('asks for the range with the cache version and drops closed events', async () => {
		handler = eventsApi([event(1, '2026-11-03'), event(2, '2026-11-04', { Closed: true })]);
		const events = await fetchEvents('community', first, base);
		expect(events.map((e) => e.EventId)).toEqual([1]);
		const call = requests.find((u) => u.pathname === '/api/community-events')!;
		expect(Object.fromEntries(call.searchParams)).toEqual({ v: '7', ...first });
		expect(requests.find((u) => u.pathname === '/api/cache-version')!.search).toBe(
			'?type=community_events',
		);
	});

	it('calls without v when there is no cache version', async () => {
		handler = (url, res) =>
			url.pathname === '/api/events'
				? json(res, 200, { Result: [] })
				: json(res, 404, { error: 'Not found' });
		await fetchEvents('events', null, base);
		expect(requests.at(-1)!.search).toBe('');
	});

	it('names the failing source, and a response without a Result list', async () => {
		handler = (_url, res) => json(res, 502, { error: 'Failed to fetch events' });
		await expect(fetchEvents('events', first, base)).rejects.toThrow('Failed to fetch events');
		await expect(fetchEvents('community', first, base)).rejects.toThrow(
			'Failed to fetch community events',
		);
		handler = (_url, res) => json(res, 200, { Result: null });
		await expect(fetchEvents('events', first, base)).rejects.toThrow('No events found in response');
	});
});

describe('the five-minute cache of the events pages', () => {
	/** The browser's sessionStorage, as far as the store uses it. */
	class MemoryStorage {
		readonly items = new Map<string, string>();
		getItem(key: string) {
			return this.items.get(key) ?? null;
		}
		setItem(key: string, value: string) {
			this.items.set(key, value);
			Object.defineProperty(this, key, { value, enumerable: true, configurable: true });
		}
		removeItem(key: string) {
			this.items.delete(key);
			delete (this as Record<string, unknown>)[key];
		}
	}

	afterEach(() => {
		vi.unstubAllGlobals();
		vi.useRealTimers();
	});

	it('answers the same call from the session for five minutes, then asks again', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		const storage = new MemoryStorage();
		vi.stubGlobal('sessionStorage', storage);
		handler = eventsApi([event(1, '2026-11-03')]);
		const calls = () => requests.filter((u) => u.pathname === '/api/events').length;

		await fetchEvents('events', first, base);
		vi.advanceTimersByTime(4 * 60_000);
		expect((await fetchEvents('events', first, base)).map((e) => e.EventId)).toEqual([1]);
		expect(calls()).toBe(1);

		vi.advanceTimersByTime(2 * 60_000);
		await fetchEvents('events', { startDate: '2027-01-01', endDate: '2027-03-31' }, base);
		// The expired answer was dropped when the new one was stored.
		expect([...storage.items.keys()].every((k) => k.includes('2027-01-01'))).toBe(true);
		await fetchEvents('events', first, base);
		expect(calls()).toBe(3);
	});
});

describe('the events feed', () => {
	it('loads the first range, then three more months on the side the calendar moves to', async () => {
		handler = eventsApi([
			event(1, '2026-05-30'),
			event(2, '2026-11-03'),
			event(3, '2027-02-20', { EndDate: '2027-02-24', EndDateTimeUtc: '2027-02-24T16:00:00.000Z' }),
			event(4, '2027-04-01'),
		]);
		const feed = createEventsFeed('events', first, { base });
		await feed.load();
		expect(feed.$state.get()).toMatchObject({ status: 'loaded', range: first, loadingMore: false });
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([2, 3]);

		await feed.ensure({ startDate: '2027-04-01', endDate: '2027-04-30' });
		const later = requests.filter((u) => u.searchParams.get('startDate') === '2027-02-23');
		expect(later).toHaveLength(1);
		expect(later[0]!.searchParams.get('endDate')).toBe('2027-05-22');
		// Event 3 came twice (it spans the edge) and is kept once; the list stays sorted.
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([2, 3, 4]);
		expect(feed.$state.get().range).toEqual({ startDate: '2026-08-22', endDate: '2027-05-22' });

		await feed.ensure({ startDate: '2026-05-01', endDate: '2026-05-31' });
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([1, 2, 3, 4]);
		// Two windows back: May 22 - Aug 21, then Feb 22 - May 21.
		expect(feed.$state.get().range!.startDate).toBe('2026-02-22');
	});

	it('runs one load-more fetch at a time, however fast the calendar moves', async () => {
		const api = eventsApi([event(1, '2027-06-10')]);
		handler = async (url, res) => {
			if (url.searchParams.has('startDate') && url.searchParams.get('startDate')! > '2027') {
				await delay(30);
			}
			return api(url, res);
		};
		const feed = createEventsFeed('events', first, { base });
		await feed.load();
		const runs = ['2027-03', '2027-04', '2027-05', '2027-06'].map((month) =>
			feed.ensure({ startDate: `${month}-01`, endDate: `${month}-28` }),
		);
		expect(feed.$state.get().loadingMore).toBe(true);
		await Promise.all(runs);
		expect(mostInFlight).toBe(1);
		expect(feed.$state.get()).toMatchObject({ loadingMore: false });
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([1]);
		expect(feed.$state.get().range!.endDate >= '2027-06-28').toBe(true);
	});

	it('keeps its events when loading more fails, and logs it', async () => {
		const api = eventsApi([event(2, '2026-11-03')]);
		handler = (url, res) =>
			url.searchParams.get('startDate') === '2027-02-23'
				? json(res, 502, { error: 'Failed to fetch events' })
				: api(url, res);
		const log = vi.spyOn(console, 'error').mockImplementation(() => {});
		const feed = createEventsFeed('events', first, { base });
		await feed.load();
		await feed.ensure({ startDate: '2027-03-01', endDate: '2027-03-31' });
		expect(feed.$state.get()).toMatchObject({ status: 'loaded', loadingMore: false, range: first });
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([2]);
		expect(log).toHaveBeenCalledWith('Failed to load more events', expect.any(Error));
	});

	it('ends in the error state with the reason when the first load fails', async () => {
		handler = (_url, res) => json(res, 502, { error: 'Failed to fetch community events' });
		vi.spyOn(console, 'error').mockImplementation(() => {});
		const feed = createEventsFeed('community', first, { base });
		await feed.load();
		expect(feed.$state.get()).toMatchObject({
			status: 'error',
			error: 'Failed to fetch community events',
		});
		// The error is final: asking again does not refetch.
		const calls = requests.length;
		await feed.load();
		expect(requests.length).toBe(calls);
	});

	it('loads what the calendar asked for while the first load was running', async () => {
		handler = eventsApi([event(2, '2026-11-03'), event(4, '2027-04-01')]);
		const feed = createEventsFeed('events', first, { base });
		const loading = feed.load();
		await feed.ensure({ startDate: '2027-04-01', endDate: '2027-04-30' });
		await loading;
		expect(feed.$state.get().events.map((e) => e.EventId)).toEqual([2, 4]);
	});
});

describe('the /events-list view store', () => {
	it('clears the type filter when the source switches', () => {
		const view = createListView('2026-11-22');
		view.toggleType('Networking');
		view.selectDay('2026-11-25');
		view.selectDay('2026-11-25');
		expect(view.$view.get()).toMatchObject({ mode: 'month', types: ['Networking'] });
		view.switchSource('community');
		expect(view.$view.get()).toMatchObject({ source: 'community', types: [], mode: 'month' });
	});
});

describe('the featured event', () => {
	it('comes from /api/event-details with the event_details cache version', async () => {
		const gala = event(41036, '2027-01-23', { EventType: 'Signature Event' });
		handler = (url, res) =>
			url.pathname === '/api/cache-version' ? json(res, 200, { version: 3 }) : json(res, 200, gala);
		expect(await fetchFeaturedEvent(41036, base)).toMatchObject({ EventId: 41036 });
		const call = requests.find((u) => u.pathname === '/api/event-details')!;
		expect(Object.fromEntries(call.searchParams)).toEqual({ eventId: '41036', v: '3' });
	});

	it('is null, with a warning, when it fails to load or is closed', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		handler = (_url, res) => json(res, 404, { error: 'Event not found' });
		expect(await fetchFeaturedEvent(1, base)).toBeNull();
		expect(warn).toHaveBeenCalledWith('Failed to load the featured event', expect.any(Error));
		handler = (_url, res) => json(res, 200, event(2, '2027-01-01', { Closed: true }));
		expect(await fetchFeaturedEvent(2, base)).toBeNull();
	});
});
