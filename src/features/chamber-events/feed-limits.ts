// What one read of a calendar feed may be: one place for the reader, the panel and the docs
// (docs/events.md#for-operators). The database holds the counts too (add_event_feed, apply_event_feed).

export const FEED_LIMITS = {
	/** The most of a feed's answer read; a larger one fails the read (its events stay). */
	bytes: 5 * 1024 * 1024,
	/** How long a feed's address gets to answer, body included. */
	timeoutMs: 15_000,
	/** The feeds one chamber reads. */
	feeds: 10,
	/** The events one read brings (a series counts once). */
	events: 2000,
	/** How far back and ahead a feed's events and a series' dates are read. */
	pastDays: 365,
	aheadDays: 730,
	/** How often the schedule reads every feed (the scheduled function's config holds the same). */
	scheduleMinutes: 30,
} as const;
