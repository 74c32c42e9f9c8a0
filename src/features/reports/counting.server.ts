import { createHmac, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { DAILY_COUNTS_PER_ADDRESS, utcDay, type StatEvent } from './reports.ts';

/**
 * The counting rules of /api/stats that need the server (docs/reports.md#what-is-not-counted):
 * bots by their user agent, repeats from the same address within 30 minutes, and an address's
 * daily allowance. Nothing here is ever written anywhere: the salt and the hashes live in this
 * process's memory for one UTC day.
 */

/** A count from the same address for the same business and kind is ignored this long. */
export const REPEAT_WINDOW_MS = 30 * 60_000;

/**
 * The most distinct (address, business, kind) keys kept at once: an instance answering more
 * visitors than that within 30 minutes forgets the oldest, and may count one of their repeats
 * again (about 100 bytes a key, so at most about 20 MB).
 */
const REPEAT_KEYS_MAX = 200_000;

/** The most addresses whose daily count is kept at once (the oldest are forgotten first). */
const ADDRESS_KEYS_MAX = 100_000;

/**
 * A request with no user agent, or one the `isbot` list (a maintained list of crawlers,
 * previewers, monitors and HTTP libraries) recognises: not counted.
 */
export function isBotAgent(userAgent: string | null | undefined): boolean {
	return !userAgent || isbot(userAgent);
}

/**
 * Drops repeats and what is over an address's allowance: an event counts when no event of the
 * same business and kind came from the same address in the last 30 minutes (counted or not, a
 * repeat does not extend the window), whatever search words it carries (words that changed from
 * one event to the next would otherwise make every view new), and while the address has counted
 * fewer than DAILY_COUNTS_PER_ADDRESS events this UTC day. Addresses are kept only as an HMAC
 * under a random salt made for the UTC day; at the first event of a new day the salt and every
 * hash are dropped, so nothing links two days.
 */
export class RepeatFilter {
	private day = '';
	private salt: Buffer = Buffer.alloc(0);
	/** Hash of (address, business, kind) → when it was last counted (ms). */
	private readonly seen = new LRUCache<string, number>({ max: REPEAT_KEYS_MAX });
	/** Hash of the address → how many of its events counted today. */
	private readonly counted = new LRUCache<string, number>({ max: ADDRESS_KEYS_MAX });

	private readonly now: () => number;

	constructor(now: () => number = Date.now) {
		this.now = now;
	}

	private hash(text: string): string {
		return createHmac('sha256', this.salt).update(text).digest('base64');
	}

	/** The events of a batch from `address` that count; `address` is never stored as it is. */
	admit(address: string, events: readonly StatEvent[]): StatEvent[] {
		const now = this.now();
		const day = utcDay(new Date(now));
		if (day !== this.day) {
			this.day = day;
			this.salt = randomBytes(32);
			this.seen.clear();
			this.counted.clear();
		}
		const addressKey = this.hash(address);
		let counted = this.counted.get(addressKey) ?? 0;
		const admitted: StatEvent[] = [];
		for (const event of events) {
			if (counted >= DAILY_COUNTS_PER_ADDRESS) break;
			const key = this.hash(`${address}\n${event.business}\n${event.kind}`);
			const last = this.seen.get(key);
			if (last !== undefined && now - last < REPEAT_WINDOW_MS) continue;
			this.seen.set(key, now);
			admitted.push(event);
			counted += 1;
		}
		this.counted.set(addressKey, counted);
		return admitted;
	}

	/** How many (address, business, kind) keys are held (for tests and the benchmark). */
	get size(): number {
		return this.seen.size;
	}
}
