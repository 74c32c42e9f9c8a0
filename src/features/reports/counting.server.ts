import { createHmac, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { utcDay, type StatEvent } from './reports.ts';

/**
 * The counting rules of /api/stats that need the server (docs/reports.md#what-is-not-counted):
 * bots by their user agent, and repeats from the same address within 30 minutes. Nothing here is
 * ever written anywhere: the salt and the hashes live in this process's memory for one UTC day.
 */

/** A count from the same address for the same business, kind and words is ignored this long. */
export const REPEAT_WINDOW_MS = 30 * 60_000;

/**
 * The most distinct (address, business, kind, words) keys kept at once: an instance answering
 * more visitors than that within 30 minutes forgets the oldest, and may count one of their
 * repeats again (about 100 bytes a key, so at most about 20 MB).
 */
export const REPEAT_KEYS_MAX = 200_000;

/**
 * A request with no user agent, or one the `isbot` list (a maintained list of crawlers,
 * previewers, monitors and HTTP libraries) recognises: not counted.
 */
export function isBotAgent(userAgent: string | null | undefined): boolean {
	return !userAgent || isbot(userAgent);
}

/**
 * Drops repeats: an event counts when no event of the same business, kind and words came from
 * the same address in the last 30 minutes (counted or not, a repeat does not extend the window).
 * Addresses are kept only as an HMAC under a random salt made for the UTC day; at the first
 * event of a new day the salt and every hash are dropped, so nothing links two days.
 */
export class RepeatFilter {
	private day = '';
	private salt: Buffer = Buffer.alloc(0);
	/** Hash → when it was last counted (ms). */
	private readonly seen = new LRUCache<string, number>({ max: REPEAT_KEYS_MAX });

	private readonly now: () => number;

	constructor(now: () => number = Date.now) {
		this.now = now;
	}

	/** The events of a batch from `address` that count; `address` is never stored as it is. */
	admit(address: string, events: readonly StatEvent[]): StatEvent[] {
		const now = this.now();
		const day = utcDay(new Date(now));
		if (day !== this.day) {
			this.day = day;
			this.salt = randomBytes(32);
			this.seen.clear();
		}
		return events.filter((event) => {
			const words = event.kind === 'view' ? (event.words ?? '') : '';
			const key = createHmac('sha256', this.salt)
				.update(`${address}\n${event.business}\n${event.kind}\n${words}`)
				.digest('base64');
			const counted = this.seen.get(key);
			if (counted !== undefined && now - counted < REPEAT_WINDOW_MS) return false;
			this.seen.set(key, now);
			return true;
		});
	}

	/** How many keys are held (for tests and the benchmark). */
	get size(): number {
		return this.seen.size;
	}
}
