import { z } from 'zod';
import type { Row } from '../../lib/database.ts';
import { CALENDARS } from './chamber-events.ts';
import type { SkippedEvent } from './ical-feed.ts';

// The chamber's calendar feeds in the Events tab and /api/admin/event-feeds: the address an admin
// gives (webcal:// is https://), what the list shows, what a read answers. Pure: the panel, the
// function and the tests share it. The reader is feeds.server.ts; the rules of a read are
// apply_event_feed's.

/**
 * An address as the chamber reads it: `webcal://` and `webcals://` (what Google Calendar's and
 * Outlook's subscribe links use) are `https://`; only http(s) addresses without credentials.
 * Null when it is not one.
 */
export function feedAddress(input: string): string | null {
	const trimmed = input.trim().replace(/^webcals?:\/\//i, 'https://');
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return null;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
	if (url.username || url.password || !url.hostname) return null;
	return url.href;
}

/** POST /api/admin/event-feeds: a new feed, previewed at once. */
export const feedAddSchema = z.object({
	/** The feed's address: https://…, or webcal://… as calendars offer it. */
	url: z
		.string({ error: 'url: the feed’s address is needed' })
		.trim()
		.max(2000, { error: 'url: at most 2000 characters' })
		.transform((value, ctx) => {
			const address = feedAddress(value);
			if (!address || address.length > 2000) {
				ctx.addIssue({
					code: 'custom',
					message: 'url: expected a calendar’s address, https://… or webcal://…',
				});
				return z.NEVER;
			}
			return address;
		}),
	/** Which calendar its events go to. */
	calendar: z.enum(CALENDARS, { error: 'calendar: chamber or community' }).default('chamber'),
	/** What the tab calls it; blank: the name the calendar gives itself. */
	name: z.string().trim().max(200, { error: 'name: at most 200 characters' }).default(''),
});
export type FeedAdd = z.output<typeof feedAddSchema>;

/** A feed as the tab lists it: its row (admins read event_feeds under row-level security). */
export type FeedRow = Pick<
	Row<'event_feeds'>,
	| 'id'
	| 'url'
	| 'name'
	| 'created_at'
	| 'created_by'
	| 'last_read_at'
	| 'last_ok_at'
	| 'last_error'
	| 'error_since'
	| 'event_count'
> & {
	calendar: (typeof CALENDARS)[number];
	/** preview: added, not read into the calendars yet; active: read on the schedule. */
	state: 'preview' | 'active';
};

export const FEED_COLUMNS =
	'id, url, calendar, name, state, created_at, created_by, last_read_at, last_ok_at, last_error, error_since, event_count';

/** One event a read adds, changes, cancels or keeps as staff changed it. */
interface FeedChange {
	uid: string;
	name: string;
	change: 'added' | 'updated' | 'cancelled' | 'kept';
	/** Its next date, 'yyyy-mm-ddThh:mm' on its wall clock. */
	start: string | null;
	/** What an update changes (a field, or 'dates'). */
	fields: string[];
	/** Fields left as staff changed them, where the feed has another value. */
	kept: string[];
}

/** apply_event_feed's answer. */
export interface FeedApplied {
	added: number;
	updated: number;
	cancelled: number;
	unchanged: number;
	events: FeedChange[];
}

/** add_event_feed's answer. */
export interface FeedAdded {
	id: string;
}

/** remove_event_feed's answer: the feed, and how many events went with it. */
export interface FeedRemoved {
	id: string;
	events: number;
}

/** record_event_feed_error's answer: whether to e-mail the admins now, and since when it fails. */
export interface FeedErrorRecorded {
	notify: boolean;
	errorSince: string;
}

/** What reading a feed answers: the changes (a preview's or a read's), or why it failed. */
export interface FeedRead {
	feedId: string;
	/** A preview: nothing was written. */
	dryRun: boolean;
	/** The name the calendar gives itself (X-WR-CALNAME). */
	calendarName: string;
	result: FeedApplied | null;
	/** Events of the feed not imported, and why. */
	skipped: SkippedEvent[];
	/** Why the read failed (the feed's events stay as they were). */
	error: string | null;
}

/** 'The preview: 4 to add, 1 to change, 0 to cancel.' */
export function describeRead(read: Pick<FeedRead, 'dryRun' | 'result'>): string {
	const r = read.result;
	if (!r) return '';
	const n = (count: number, word: string) => `${count} ${word}`;
	return read.dryRun
		? `Reading it would add ${n(r.added, r.added === 1 ? 'event' : 'events')}, change ${r.updated} and cancel ${r.cancelled}.`
		: `Read: ${n(r.added, 'added')}, ${n(r.updated, 'changed')}, ${n(r.cancelled, 'cancelled')}, ${n(r.unchanged, 'unchanged')}.`;
}

/** The e-mail that tells a chamber's admins a feed stopped working (the first failure, then daily). */
export function feedFailureMail(
	chamber: { name: string; siteUrl: string },
	feed: { name: string; url: string },
	failure: { error: string; since: string },
): { subject: string; text: string } {
	const name = feed.name || 'a calendar feed';
	const since = new Date(failure.since).toUTCString();
	return {
		subject: `${chamber.name}: the calendar feed ${feed.name ? `“${feed.name}” ` : ''}cannot be read`,
		text: [
			`The ${chamber.name} website could not read ${name} since ${since}:`,
			'',
			`  ${failure.error}`,
			'',
			'Its events stay on the calendars as the last good read left them; the site tries again every 30 minutes.',
			`Check the address (${hostOf(feed.url)}) in the admin panel, tab Events, Calendar feeds: ${chamber.siteUrl.replace(/\/+$/, '')}/chamber-config-v2`,
			'',
			'You get this e-mail once a day while the feed cannot be read.',
		].join('\n'),
	};
}

/** A feed's host only: its path may be a secret address. */
function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return 'the feed';
	}
}
