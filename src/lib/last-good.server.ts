import { LRUCache } from 'lru-cache';
import { cacheHeaders, isUnavailable, type CacheOptions } from './http.server.ts';

/**
 * The read functions' fallback: per function instance, the last good answer of each request (by
 * key: the resource and its query), the least recently used dropped first. When the database or
 * an events source does not answer, a request answered before gets that answer again, marked
 * stale, instead of an error.
 */

export const LAST_GOOD_MAX_ENTRIES = 500;

const kept = new LRUCache<string, { value: unknown; at: Date }>({ max: LAST_GOOD_MAX_ENTRIES });

/** How many answers this instance keeps (for tests and diagnostics). */
export function lastGoodSize(): number {
	return kept.size;
}

export function rememberGood(key: string, value: unknown): void {
	kept.set(key, { value, at: new Date() });
}

export function lastGoodOf<T>(key: string): { value: T; staleSince: Date } | undefined {
	const entry = kept.get(key);
	return entry ? { value: entry.value as T, staleSince: entry.at } : undefined;
}

/** An answer, and since when it is stale when it came from the fallback. */
export interface Served<T> {
	value: T;
	staleSince?: Date;
}

/**
 * Loads `key`'s answer and keeps it. When the load fails because a service did not answer
 * (isUnavailable), the last good answer is served instead; any other failure, or a failure with
 * nothing kept, is thrown (the function answers 503 or 500).
 */
export async function withLastGoodAnswer<T>(
	key: string,
	load: () => Promise<T>,
): Promise<Served<T>> {
	try {
		const value = await load();
		rememberGood(key, value);
		return { value };
	} catch (error) {
		const previous = isUnavailable(error) ? lastGoodOf<T>(key) : undefined;
		if (!previous) throw error;
		console.error(
			`[last-good] ${key}: serving the answer of ${previous.staleSince.toISOString()}: ${error instanceof Error ? error.message : error}`,
		);
		return previous;
	}
}

/** How long the CDN may keep an answer served from the fallback before asking again. */
const STALE_FRESH_SECONDS = 60;

/** Cache headers for an answer; one served from the fallback is marked stale and kept briefly. */
export function servedHeaders(
	served: { staleSince?: Date },
	options: CacheOptions,
	staleHeader = 'X-Stale-Since',
): Record<string, string> {
	const stale = served.staleSince;
	if (!stale) return cacheHeaders(options);
	return {
		...cacheHeaders({ ...options, fresh: STALE_FRESH_SECONDS }),
		Warning: '110 - "Response is Stale"',
		[staleHeader]: stale.toISOString(),
	};
}

/** servedHeaders() on a JSON answer. */
export function servedJson(served: Served<unknown>, options: CacheOptions): Response {
	return Response.json(served.value, { headers: servedHeaders(served, options) });
}
