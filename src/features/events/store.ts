import { atom, type ReadableAtom } from 'nanostores';
import type { CacheVersionType } from '../../lib/cache-versions.ts';
import {
	clearTypes,
	initialView,
	missingSide,
	selectDay,
	setMode,
	shiftMonth,
	shiftView,
	showMonth,
	switchSource,
	toggleType,
	type EventSource,
	type ListView,
	type ViewMode,
} from './calendar.ts';
import {
	dropClosed,
	extendRange,
	loadMoreRange,
	mergeEvents,
	type DateRange,
	type Event,
} from './events.ts';

// Browser state of the calendar pages. Each page has one island, which creates what it needs;
// the factories take the API origin so tests can run them against a real local server.

export interface FeedState {
	status: 'loading' | 'loaded' | 'error';
	events: Event[];
	/** The days the events were loaded for; null until the first load. */
	range: DateRange | null;
	/** Why the first load failed. */
	error: string | null;
	/** A load-more fetch is running. */
	loadingMore: boolean;
}

export interface FeedOptions {
	/** Origin of /api, '' in the browser. */
	base?: string;
}

export const EVENT_SOURCES = {
	events: { path: '/api/events', version: 'events', failure: 'Failed to fetch events' },
	community: {
		path: '/api/community-events',
		version: 'community_events',
		failure: 'Failed to fetch community events',
	},
} as const satisfies Record<string, { path: string; version: CacheVersionType; failure: string }>;

// The events responses are kept for five minutes, so going back from an event to the
// calendar shows it at once. Keyed by URL, which carries ?v=: a cache purge is never hidden.
const CACHE_MS = 5 * 60_000;
const CACHE_PREFIX = 'chamber:events:';

function readCache(url: string): unknown {
	try {
		const raw = globalThis.sessionStorage?.getItem(CACHE_PREFIX + url);
		if (!raw) return undefined;
		const { at, body } = JSON.parse(raw) as { at: number; body: unknown };
		return Date.now() - at < CACHE_MS ? body : undefined;
	} catch {
		return undefined;
	}
}

function writeCache(url: string, body: unknown): void {
	try {
		const storage = globalThis.sessionStorage;
		if (!storage) return;
		// Expired answers go first, so the session's storage does not fill up with old ranges.
		for (const key of Object.keys(storage)) {
			if (key.startsWith(CACHE_PREFIX) && readCache(key.slice(CACHE_PREFIX.length)) === undefined) {
				storage.removeItem(key);
			}
		}
		storage.setItem(CACHE_PREFIX + url, JSON.stringify({ at: Date.now(), body }));
	} catch {
		// Full or unavailable storage only costs a refetch next time.
	}
}

const versions = new Map<string, Promise<number | undefined>>();

/** What the page's own script started before the island loaded (events-prefetch.js). */
interface Prefetch {
	path: string;
	type: string;
	version: Promise<number | undefined>;
	answer: Promise<{ url: string; body: Promise<unknown> }>;
	/** Its events answer was handed over (once: a later call for the same URL fetches). */
	taken?: boolean;
}

declare global {
	interface Window {
		chamberEventsPrefetch?: Prefetch;
	}
}

function prefetched(): Prefetch | undefined {
	return globalThis.window?.chamberEventsPrefetch;
}

/** The page's prefetched events answer for exactly this URL, or undefined. */
async function takePrefetched(url: string, base: string): Promise<unknown> {
	const prefetch = prefetched();
	if (base !== '' || !prefetch || prefetch.taken) return undefined;
	const answer = await prefetch.answer;
	if (answer.url !== url || prefetch.taken) return undefined;
	prefetch.taken = true;
	return answer.body;
}

/**
 * The current cache version of a resource type, passed as ?v= so the CDN's copy is replaced the
 * moment an admin refreshes the cache. Without an answer the calls go without v.
 */
function cacheVersion(type: CacheVersionType, base = ''): Promise<number | undefined> {
	const key = `${base}|${type}`;
	let version = versions.get(key);
	const prefetch = prefetched();
	if (!version && base === '' && prefetch?.type === type) {
		version = prefetch.version;
		versions.set(key, version);
	}
	if (!version) {
		version = fetch(`${base}/api/cache-version?type=${encodeURIComponent(type)}`)
			.then(async (res) => {
				if (!res.ok) return undefined;
				const body = (await res.json()) as { version?: unknown };
				return typeof body.version === 'number' ? body.version : undefined;
			})
			.catch(() => undefined);
		versions.set(key, version);
	}
	return version;
}

function hasResult(body: unknown): boolean {
	return Array.isArray((body as { Result?: unknown } | null | undefined)?.Result);
}

/** GET /api/events or /api/community-events, optionally for a range; closed events dropped. */
export async function fetchEvents(
	source: EventSource,
	range: DateRange | null,
	base = '',
): Promise<Event[]> {
	const { path, version, failure } = EVENT_SOURCES[source];
	const params = new URLSearchParams();
	const v = await cacheVersion(version, base);
	if (v !== undefined) params.set('v', String(v));
	if (range) {
		params.set('startDate', range.startDate);
		params.set('endDate', range.endDate);
	}
	const query = params.size ? `?${params}` : '';
	const url = `${base}${path}${query}`;
	let body = readCache(url);
	if (body === undefined) {
		body = await takePrefetched(url, base);
		if (!hasResult(body)) {
			const res = await fetch(url).catch((cause: unknown) => {
				throw new Error(failure, { cause });
			});
			if (!res.ok) throw new Error(failure, { cause: res.status });
			body = await res.json().catch(() => null);
		}
		if (hasResult(body)) writeCache(url, body);
	}
	const result = (body as { Result?: unknown } | null)?.Result;
	if (!Array.isArray(result)) throw new Error('No events found in response');
	return dropClosed(result as Event[]);
}

export interface EventsFeed {
	$state: ReadableAtom<FeedState>;
	/** The first load (once, however often it is asked for). */
	load(): Promise<void>;
	/** Loads three more months on the side a wanted range sticks out of, one fetch at a time. */
	ensure(wanted: DateRange): Promise<void>;
}

export function createEventsFeed(
	source: EventSource,
	firstRange: DateRange,
	options: FeedOptions = {},
): EventsFeed {
	const base = options.base ?? '';
	const $state = atom<FeedState>({
		status: 'loading',
		events: [],
		range: null,
		error: null,
		loadingMore: false,
	});
	let wanted: DateRange | null = null;
	let running: Promise<void> | null = null;

	let first: Promise<void> | null = null;

	function load(): Promise<void> {
		first ??= loadFirst();
		return first;
	}

	async function loadFirst(): Promise<void> {
		try {
			const events = await fetchEvents(source, firstRange, base);
			$state.set({ ...$state.get(), status: 'loaded', events, range: firstRange });
		} catch (error) {
			console.error('Failed to load events', error);
			$state.set({
				...$state.get(),
				status: 'error',
				error: error instanceof Error ? error.message : 'Failed to load events',
			});
			return;
		}
		if (wanted) await ensure(wanted);
	}

	async function loadMore(): Promise<void> {
		try {
			for (;;) {
				const state = $state.get();
				if (state.status !== 'loaded' || !state.range || !wanted) return;
				const side = missingSide(state.range, wanted);
				if (!side) return;
				const more = loadMoreRange(state.range, side);
				if (!state.loadingMore) $state.set({ ...state, loadingMore: true });
				const events = await fetchEvents(source, more, base);
				const now = $state.get();
				$state.set({
					...now,
					events: mergeEvents(now.events, events),
					range: extendRange(state.range, more),
				});
			}
		} catch (error) {
			// The calendar keeps what it has; the next navigation tries again.
			console.error('Failed to load more events', error);
		} finally {
			if ($state.get().loadingMore) $state.set({ ...$state.get(), loadingMore: false });
		}
	}

	function ensure(range: DateRange): Promise<void> {
		wanted = range;
		running ??= loadMore().finally(() => {
			running = null;
		});
		return running;
	}

	return { $state, load, ensure };
}

// --- /events-list view -------------------------------------------------------------------------

export interface ListViewStore {
	$view: ReadableAtom<ListView>;
	selectDay(day: string): void;
	showMonth(): void;
	setMode(mode: ViewMode): void;
	shift(step: 1 | -1): void;
	shiftMonth(step: 1 | -1): void;
	switchSource(source: EventSource): void;
	toggleType(type: string): void;
	clearTypes(): void;
}

export function createListView(today: string, source: EventSource = 'events'): ListViewStore {
	const $view = atom<ListView>(initialView(today, source));
	const update = (change: (view: ListView) => ListView) => $view.set(change($view.get()));
	return {
		$view,
		selectDay: (day) => update((v) => selectDay(v, day)),
		showMonth: () => update(showMonth),
		setMode: (mode) => update((v) => setMode(v, mode)),
		shift: (step) => update((v) => shiftView(v, step)),
		shiftMonth: (step) => update((v) => shiftMonth(v, step)),
		switchSource: (next) => update((v) => switchSource(v, next)),
		toggleType: (type) => update((v) => toggleType(v, type)),
		clearTypes: () => update(clearTypes),
	};
}

// --- Featured event ----------------------------------------------------------------------------

/**
 * The featured event from /api/event-details, or null: a failed load only hides the card, with a
 * warning.
 */
export async function fetchFeaturedEvent(eventId: number, base = ''): Promise<Event | null> {
	try {
		const params = new URLSearchParams({ eventId: String(eventId) });
		const v = await cacheVersion('event_details', base);
		if (v !== undefined) params.set('v', String(v));
		const res = await fetch(`${base}/api/event-details?${params}`);
		if (!res.ok) throw new Error(`Failed to load event details (${res.status})`);
		const event = (await res.json()) as Event | null;
		if (!event || typeof event !== 'object' || event.Closed) return null;
		return event;
	} catch (error) {
		console.warn('Failed to load the featured event', error);
		return null;
	}
}
