import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import ICAL from 'ical.js';
import { isTimeZone } from '../../lib/time-zone.ts';
import { FEED_LIMITS } from './feed-limits.ts';
import { plainTextHtml } from './plain-html.ts';
import { MAX_DATES, type SeriesDate } from './recurrence.ts';

// A calendar feed's text (RFC 5545, as Google Calendar and Outlook export it) read with ical.js
// into the events the database's apply_event_feed takes: one per UID, a series with its dates
// (RRULE and RDATE expanded by ical.js, EXDATE dates cancelled, RECURRENCE-ID instances as the
// date's own changes or cancellation), every time on the event's wall clock. Never parsed by
// hand: ical.js reads the text (line folding, escaping, parameters), the time zones (the feed's
// own VTIMEZONE blocks, or IANA names) and the rules. Server only (ical.js is not for islands).

/** The fields of a feed's event, named as chamber_events' columns. */
interface FeedFields {
	name: string;
	/** HTML (a plain-text description is escaped, its lines kept); sanitised when shown. */
	description: string;
	time_zone: string;
	all_day: boolean;
	/** 'yyyy-mm-ddThh:mm' on the event's wall clock (a series: its first date). */
	starts_local: string;
	ends_local: string;
	rrule: string | null;
	/** LOCATION, whole: the map and directions are asked for it. */
	venue: string;
	/** The first of CATEGORIES. */
	event_type: string;
	/** URL, when it is an http(s) address. */
	registration_url: string;
}

interface FeedEvent {
	uid: string;
	fields: FeedFields;
	/** A series' dates in the window read (null for a one-off event). */
	dates: SeriesDate[] | null;
}

/** An event of the feed that is not imported, and why (the preview lists them). */
export interface SkippedEvent {
	uid: string;
	name: string;
	reason: string;
}

export interface ParsedFeed {
	/** X-WR-CALNAME, the name the calendar gives itself ('' when none). */
	name: string;
	events: FeedEvent[];
	skipped: SkippedEvent[];
}

/** The text is not a calendar ical.js can read: the message is for the chamber's admins. */
export class FeedFormatError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'FeedFormatError';
	}
}

export interface ParseOptions {
	/** The chamber's zone: floating times, and times in a zone that is not an IANA name's. */
	zone: string;
	now: Date;
}

const RRULE_TEXT = /^FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)(;[A-Z]+=[A-Za-z0-9,:+-]+)*$/;
const HTML_TAG = /<\/?[a-z][^>]*>/i;
/** At most this many rule iterations per series: a daily rule over 50 years, then it stops. */
const MAX_ITERATIONS = 20_000;

const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** A time's own wall clock, 'yyyy-mm-ddThh:mm'. */
function wallClock(time: ICAL.Time): string {
	const pad = (n: number, width = 2) => String(n).padStart(width, '0');
	return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}`;
}

function inZone(ms: number, zone: string): string {
	return format(new TZDate(ms, zone), LOCAL);
}

function isUtc(time: ICAL.Time): boolean {
	return time.zone?.tzid === 'UTC' || time.zone === ICAL.Timezone.utcTimezone;
}

/**
 * A time of the feed on `zone`'s wall clock. UTC times and times in one of the feed's own
 * VTIMEZONEs (Outlook's 'Eastern Standard Time') are instants ical.js computes; a TZID that is
 * an IANA name is that zone's wall clock; a floating time is the event's own wall clock.
 */
function localIn(time: ICAL.Time, tzid: string | null, zone: string): string {
	if (isUtc(time)) return inZone(time.toUnixTime() * 1000, zone);
	if (tzid && isTimeZone(tzid)) {
		if (tzid === zone) return wallClock(time);
		const instant = new TZDate(
			time.year,
			time.month - 1,
			time.day,
			time.hour,
			time.minute,
			0,
			tzid,
		).getTime();
		return inZone(instant, zone);
	}
	if (tzid && time.zone && time.zone.tzid === tzid) {
		return inZone(time.toUnixTime() * 1000, zone);
	}
	return wallClock(time);
}

/** 'yyyy-mm-dd' of an all-day value. */
function dayOf(time: ICAL.Time): string {
	return wallClock(time).slice(0, 10);
}

/** A text property, trimmed to the column's bound (NUL, which Postgres's text refuses, dropped). */
function text(value: unknown, max: number): string {
	return typeof value === 'string' ? value.replaceAll('\0', '').trim().slice(0, max) : '';
}

/** A description as HTML: a feed's HTML as it is (sanitised when shown), plain text escaped. */
function descriptionHtml(value: unknown): string {
	const raw = typeof value === 'string' ? value.trim() : '';
	return HTML_TAG.test(raw) ? raw.slice(0, 20_000) : plainTextHtml(raw);
}

function tzidOf(property: ICAL.Property | null): string | null {
	const tzid = property?.getParameter('tzid');
	return typeof tzid === 'string' && tzid ? tzid : Array.isArray(tzid) ? (tzid[0] ?? null) : null;
}

interface Span {
	start: string;
	end: string;
}

/** A start and end on the event's wall clock; all day: 00:00 of the first day, 23:59 of the last. */
function spanOf(
	start: ICAL.Time,
	end: ICAL.Time,
	tzids: { start: string | null; end: string | null },
	zone: string,
): Span {
	if (start.isDate) {
		const last = end.clone();
		// DTEND of an all-day event is the day after its last (RFC 5545 §3.6.1).
		if (end.compare(start) > 0) last.adjust(-1, 0, 0, 0);
		return { start: `${dayOf(start)}T00:00`, end: `${dayOf(last)}T23:59` };
	}
	const from = localIn(start, tzids.start, zone);
	const to = localIn(end, tzids.end ?? tzids.start, zone);
	return { start: from, end: to < from ? from : to };
}

interface Window {
	from: string;
	to: string;
}

/** The fields of a VEVENT that its instances may change on their own. */
function ownFields(component: ICAL.Component) {
	return {
		name: text(component.getFirstPropertyValue('summary'), 200),
		description: descriptionHtml(component.getFirstPropertyValue('description')),
		venue: text(component.getFirstPropertyValue('location'), 200),
	};
}

function cancelledStatus(component: ICAL.Component): boolean {
	return String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

/**
 * A series' dates in the window: the rule's (and RDATE's) from ical.js, EXDATE's as cancelled
 * dates, each RECURRENCE-ID instance's own fields and times as its date's changes.
 */
function seriesDates(
	event: ICAL.Event,
	master: FeedFields,
	exceptions: readonly ICAL.Component[],
	zone: string,
	window: Window,
): SeriesDate[] | string {
	const startProp = event.component.getFirstProperty('dtstart');
	const endProp = event.component.getFirstProperty('dtend');
	const tzids = { start: tzidOf(startProp), end: tzidOf(endProp) };
	const duration = event.duration;
	const dates = new Map<string, SeriesDate>();
	const span = (time: ICAL.Time): Span => {
		const end = time.clone();
		end.addDuration(duration);
		return spanOf(time, end, tzids, zone);
	};
	const iterator = event.iterator();
	for (let i = 0, next = iterator.next(); next; next = iterator.next(), i++) {
		if (i >= MAX_ITERATIONS) break;
		const { start, end } = span(next);
		if (start > window.to) break;
		if (end < window.from) continue;
		const key = start.slice(0, 10);
		if (dates.has(key)) return 'it repeats more than once a day';
		dates.set(key, { key, start, end });
	}
	// EXDATE: dates the series leaves out, shown here as cancelled dates.
	for (const property of event.component.getAllProperties('exdate')) {
		const exdateTzids = { start: tzidOf(property) ?? tzids.start, end: null };
		for (const value of property.getValues()) {
			if (!(value instanceof ICAL.Time)) continue;
			const time = value.clone();
			if (!time.isDate && startProp) {
				const first = startProp.getFirstValue();
				if (first instanceof ICAL.Time && first.isDate) time.isDate = true;
			}
			const until = time.clone();
			until.addDuration(duration);
			const { start, end } = spanOf(time, until, exdateTzids, zone);
			if (start > window.to || end < window.from) continue;
			const key = start.slice(0, 10);
			if (!dates.has(key)) dates.set(key, { key, start, end, cancelled: true });
		}
	}
	// RECURRENCE-ID: one instance with fields or times of its own, or cancelled.
	for (const exception of exceptions) {
		const idProp = exception.getFirstProperty('recurrence-id');
		const id = idProp?.getFirstValue();
		if (!(id instanceof ICAL.Time)) continue;
		const key = (
			id.isDate ? `${dayOf(id)}T00:00` : localIn(id, tzidOf(idProp) ?? tzids.start, zone)
		).slice(0, 10);
		const date = dates.get(key);
		if (!date) continue;
		if (cancelledStatus(exception)) {
			dates.set(key, { ...date, cancelled: true });
			continue;
		}
		const own = new ICAL.Event(exception);
		const moved = spanOf(
			own.startDate,
			own.endDate,
			{
				start: tzidOf(exception.getFirstProperty('dtstart')),
				end: tzidOf(exception.getFirstProperty('dtend')),
			},
			zone,
		);
		const fields = ownFields(exception);
		const changes: Record<string, string> = {};
		if (fields.name && fields.name !== master.name) changes.name = fields.name;
		if (fields.description && fields.description !== master.description) {
			changes.description = fields.description;
		}
		if (fields.venue !== master.venue) changes.venue = fields.venue;
		if (moved.start !== date.start) changes.starts_local = moved.start;
		if (moved.end !== date.end) changes.ends_local = moved.end;
		dates.set(key, { ...date, cancelled: false, changes });
	}
	return [...dates.values()].sort((a, b) => a.start.localeCompare(b.start)).slice(0, MAX_DATES);
}

/** The window read: the last FEED_LIMITS.pastDays and the next FEED_LIMITS.aheadDays, in `zone`. */
function windowOf(now: Date, zone: string): Window {
	const day = 86_400_000;
	return {
		from: inZone(now.getTime() - FEED_LIMITS.pastDays * day, zone),
		to: inZone(now.getTime() + FEED_LIMITS.aheadDays * day, zone),
	};
}

function readComponents(text: string): ICAL.Component {
	let parsed: unknown;
	try {
		parsed = ICAL.parse(text);
	} catch (error) {
		throw new FeedFormatError(
			`The address did not answer with a calendar (iCalendar) file: ${(error as Error).message}`,
		);
	}
	const first = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed[0] : parsed;
	const root = new ICAL.Component(first as unknown[]);
	if (root.name !== 'vcalendar') {
		throw new FeedFormatError('The address did not answer with a calendar (iCalendar) file');
	}
	return root;
}

/**
 * The feed's events in the window (the last year and the next two), or a FeedFormatError. Every
 * VTIMEZONE of the feed is known to ical.js while it reads the feed, and forgotten after it.
 */
export function parseFeed(source: string, options: ParseOptions): ParsedFeed {
	const root = readComponents(source);
	const calendarZone = root.getFirstPropertyValue('x-wr-timezone');
	const fallback =
		typeof calendarZone === 'string' && isTimeZone(calendarZone) ? calendarZone : options.zone;
	const registered: string[] = [];
	try {
		for (const component of root.getAllSubcomponents('vtimezone')) {
			const zone = new ICAL.Timezone(component);
			if (zone.tzid && !ICAL.TimezoneService.has(zone.tzid)) {
				ICAL.TimezoneService.register(zone);
				registered.push(zone.tzid);
			}
		}
		return readEvents(root, fallback, options.now);
	} finally {
		for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
	}
}

function readEvents(root: ICAL.Component, fallback: string, now: Date): ParsedFeed {
	const masters = new Map<string, ICAL.Component>();
	const exceptions = new Map<string, ICAL.Component[]>();
	const skipped: SkippedEvent[] = [];
	for (const component of root.getAllSubcomponents('vevent')) {
		const uid = text(component.getFirstPropertyValue('uid'), 500);
		const name = text(component.getFirstPropertyValue('summary'), 200);
		if (!uid) {
			skipped.push({ uid: '', name, reason: 'it has no UID' });
			continue;
		}
		if (component.hasProperty('recurrence-id')) {
			exceptions.set(uid, [...(exceptions.get(uid) ?? []), component]);
		} else if (masters.has(uid)) {
			skipped.push({ uid, name, reason: 'another event of the feed has its UID' });
		} else {
			masters.set(uid, component);
		}
	}

	const events: FeedEvent[] = [];
	for (const [uid, component] of masters) {
		const name = text(component.getFirstPropertyValue('summary'), 200) || '(No title)';
		// A cancelled event is one the feed no longer holds: cancelled here, if it was imported.
		if (cancelledStatus(component)) continue;
		const read = readEvent(uid, name, component, exceptions.get(uid) ?? [], fallback, now);
		if (typeof read === 'string') skipped.push({ uid, name, reason: read });
		else if (read) events.push(read);
	}
	if (events.length > FEED_LIMITS.events) {
		throw new FeedFormatError(
			`The feed has ${events.length.toLocaleString('en-US')} events in the last year and the next two; at most ${FEED_LIMITS.events.toLocaleString('en-US')} are read`,
		);
	}
	return { name: text(root.getFirstPropertyValue('x-wr-calname'), 200), events, skipped };
}

/** One VEVENT (with its instances) as a feed event; null outside the window; a reason to skip. */
function readEvent(
	uid: string,
	name: string,
	component: ICAL.Component,
	exceptions: readonly ICAL.Component[],
	fallback: string,
	now: Date,
): FeedEvent | string | null {
	const startProp = component.getFirstProperty('dtstart');
	if (!startProp) return 'it has no start (DTSTART)';
	let event: ICAL.Event;
	try {
		event = new ICAL.Event(component);
	} catch (error) {
		return `ical.js cannot read it (${(error as Error).message})`;
	}
	const startTzid = tzidOf(startProp);
	const zone = startTzid && isTimeZone(startTzid) ? startTzid : fallback;
	const window = windowOf(now, zone);
	const span = spanOf(
		event.startDate,
		event.endDate,
		{ start: startTzid, end: tzidOf(component.getFirstProperty('dtend')) },
		zone,
	);
	const own = ownFields(component);
	const url = text(component.getFirstPropertyValue('url'), 2000);
	const categories = component.getFirstProperty('categories')?.getValues() ?? [];
	const fields: FeedFields = {
		name,
		description: own.description,
		time_zone: zone,
		all_day: event.startDate.isDate,
		starts_local: span.start,
		ends_local: span.end,
		rrule: null,
		venue: own.venue,
		event_type: text(categories[0], 60),
		registration_url: /^https?:\/\/\S+$/i.test(url) ? url : '',
	};
	const recur = component.getFirstPropertyValue('rrule');
	if (!(recur instanceof ICAL.Recur)) {
		if (span.end < window.from || span.start > window.to) return null;
		return { uid, fields, dates: null };
	}
	if (!['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(recur.freq)) {
		return 'it repeats more often than daily';
	}
	const rule = recur.toString();
	if (rule.length > 500 || !RRULE_TEXT.test(rule)) return 'its repeat rule cannot be kept';
	fields.rrule = rule;
	const dates = seriesDates(event, fields, exceptions, zone, window);
	if (typeof dates === 'string') return dates;
	if (dates.length === 0) return null;
	return { uid, fields, dates };
}
