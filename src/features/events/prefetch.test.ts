import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dayKey, prefetchRange } from './calendar.ts';
import { LOAD_MORE_MONTHS } from './events.ts';
import { EVENT_SOURCES, fetchEvents } from './store.ts';

// The calendar pages' inline script (events-prefetch.js) and the island's store, run together
// against a real HTTP server answering like the events API: the island must take the page's
// answer instead of asking again, whatever the visitor's date.

const source = await readFile(new URL('events-prefetch.js', import.meta.url), 'utf8');
const EVENTS = [{ EventId: 1, EventName: 'Coffee Connections', Closed: false }];

let server: Server;
let requests: string[];
let failEvents: number;

beforeEach(async () => {
	requests = [];
	failEvents = 0;
	server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		requests.push(`${url.pathname}${url.search}`);
		res.setHeader('content-type', 'application/json');
		if (url.pathname === '/api/cache-version') return res.end(JSON.stringify({ version: 7 }));
		if (failEvents-- > 0) {
			res.statusCode = 502;
			return res.end(JSON.stringify({ error: 'Failed to fetch events' }));
		}
		res.end(JSON.stringify({ Result: EVENTS }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const realFetch = globalThis.fetch;
	// In the browser both ask this site: relative URLs, here resolved against the test server.
	vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
		realFetch(new URL(url, origin), init),
	);
	vi.stubGlobal('window', {});
	vi.stubGlobal('document', {
		currentScript: {
			dataset: {
				path: EVENT_SOURCES.events.path,
				type: EVENT_SOURCES.events.version,
				months: String(LOAD_MORE_MONTHS),
			},
		},
	});
});

afterEach(async () => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
	await new Promise((resolve) => server.close(resolve));
});

/** The page's script at a given local time, then the island's first load. */
async function pageThenIsland(now: Date) {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(now);
	new Function(source)();
	const prefetch = (window as { chamberEventsPrefetch?: { answer: Promise<unknown> } })
		.chamberEventsPrefetch;
	expect(prefetch).toBeDefined();
	await prefetch!.answer;
	return fetchEvents('events', prefetchRange(dayKey(new Date())));
}

describe("the calendar page's events prefetch", () => {
	// Month ends and a leap day, where adding months clamps the day.
	for (const now of [
		new Date(2026, 10, 25, 9, 30),
		new Date(2026, 0, 31, 23, 59),
		new Date(2026, 2, 31, 0, 1),
		new Date(2024, 1, 29, 12),
		new Date(2026, 11, 31, 18),
	]) {
		it(`asks what the island asks first, once, on ${dayKey(now)}`, async () => {
			await expect(pageThenIsland(now)).resolves.toEqual(EVENTS);
			const range = prefetchRange(dayKey(now));
			expect(requests).toEqual([
				'/api/cache-version?type=events',
				`/api/events?v=7&startDate=${range.startDate}&endDate=${range.endDate}`,
			]);
		});
	}

	it('leaves a failed answer to the island, which asks again', async () => {
		failEvents = 1;
		await expect(pageThenIsland(new Date(2026, 10, 25, 9))).resolves.toEqual(EVENTS);
		expect(requests.filter((r) => r.startsWith('/api/events?'))).toHaveLength(2);
	});

	it('hands its answer over once: a later load of the same range asks the server', async () => {
		const now = new Date(2026, 10, 25, 9);
		await pageThenIsland(now);
		await fetchEvents('events', prefetchRange(dayKey(now)));
		expect(requests.filter((r) => r.startsWith('/api/events?'))).toHaveLength(2);
	});
});
