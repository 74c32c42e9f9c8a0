/**
 * GoTrue's per-IP request limits (internal/api/middleware.go limitHandler): a fixed window per
 * client address, in the service's memory, as GoTrue keeps them per instance.
 */
export interface WindowLimit {
	/** Requests allowed per window. */
	limit: number;
	windowSeconds: number;
}

export class RequestLimiter {
	readonly #windows = new Map<string, { start: number; count: number }>();
	readonly #limit: WindowLimit;
	readonly #now: () => number;

	constructor(limit: WindowLimit, now: () => number = Date.now) {
		this.#limit = limit;
		this.#now = now;
	}

	/** Counts a request from `key`; false when its window is full. */
	take(key: string): boolean {
		const now = this.#now();
		const windowMs = this.#limit.windowSeconds * 1000;
		let window = this.#windows.get(key);
		if (!window || now - window.start >= windowMs) {
			window = { start: now, count: 0 };
			this.#windows.set(key, window);
			// Windows that have ended are dropped as they are met, so memory stays bounded by the
			// number of addresses seen within one window.
			if (this.#windows.size > 1000) {
				for (const [k, w] of this.#windows) if (now - w.start >= windowMs) this.#windows.delete(k);
			}
		}
		if (window.count >= this.#limit.limit) return false;
		window.count += 1;
		return true;
	}
}
