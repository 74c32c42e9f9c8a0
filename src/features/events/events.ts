import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import type { ChamberConfig } from '../config/config.ts';
import { safeHttpUrl, safeLinkWithHttp } from '../../lib/url.ts';
import { eventSlug } from './paths.ts';
import type { EventItem, EventRecord } from '../tenants/tenant-file.ts';

export type { EventRecord };

// Chamber and community events in the shape of the membership system (WebLink Connect "Atlas"),
// and the pure rules every events page and function shares. No I/O here.
//
// The calendar islands ship this module, so it stays light: no zod (the row schema is in
// source-schema.ts, for the server), dates and times through Intl rather than date-fns' format
// and @date-fns/tz, and date-fns arithmetic imported function by function.

// --- Types -------------------------------------------------------------------------------------

export type { EventItem };

/**
 * What only the chamber's own events say (the Events tab's, its feeds', approved submissions'):
 * the membership system's shape has no cancelled state (closed events are dropped), no summary
 * and no image. Absent from every other source's events.
 */
export type OwnEventFields = {
	/** Cancelled, still listed: the calendars mark it, its page and calendar file say so. */
	Cancelled?: boolean;
	/** One plain line for lists and the page's description. */
	Summary?: string;
	/** The event's featured image (http(s)). */
	ImageUrl?: string;
};

/**
 * One event as a source returns it: the tenant file's event (same field names and types), plus
 * whatever other fields the source sends, kept untouched.
 */
export type Event = EventRecord & OwnEventFields & { [field: string]: unknown };

// --- Slugs, paths and registration -------------------------------------------------------------

export { eventPath, eventSlug } from './paths.ts';

/**
 * Where 'Register Now' goes when the event has no SpecialRegistrationUrl: the event's public
 * registration page on the membership system, {eventRegistrationBaseUrl}/atlas/events/{slug}-{id}/register
 * (the shape WebLink Connect uses for its public event pages). '' when no base URL is configured.
 */
function registrationUrl(
	event: Pick<Event, 'EventId' | 'EventName' | 'SpecialRegistrationUrl'>,
	registrationBaseUrl: string,
): string {
	// Checked here too, not only by the source schema: a javascript: link must never reach an href.
	const special = safeHttpUrl(event.SpecialRegistrationUrl);
	if (special) return special;
	const base = registrationBaseUrl.trim().replace(/\/+$/, '');
	if (!/^https?:\/\//i.test(base)) return '';
	return `${base}/atlas/events/${eventSlug(event.EventName)}-${event.EventId}/register`;
}

export type RegistrationState =
	{ state: 'hidden' } | { state: 'passed' } | { state: 'open'; url: string };

/**
 * Hidden when registration is disabled (or there is nowhere to register); 'passed'
 * once the end is before now (an event ending this very instant is still open); else open.
 */
export function registrationState(
	event: Pick<
		Event,
		'EventId' | 'EventName' | 'SpecialRegistrationUrl' | 'DisableRegistration' | 'EndDateTimeUtc'
	>,
	now: Date,
	registrationBaseUrl: string,
): RegistrationState {
	if (event.DisableRegistration) return { state: 'hidden' };
	if (Date.parse(event.EndDateTimeUtc) < now.getTime()) return { state: 'passed' };
	const url = registrationUrl(event, registrationBaseUrl);
	return url ? { state: 'open', url } : { state: 'hidden' };
}

// --- Prices, sponsors, attendees ---------------------------------------------------------------

const usd = new Intl.NumberFormat('en-US', {
	style: 'currency',
	currency: 'USD',
	minimumFractionDigits: 0,
	maximumFractionDigits: 0,
});

/** Whole US dollars; 0 is 'Free'. */
export function formatPrice(amount: number): string {
	return amount === 0 ? 'Free' : usd.format(amount);
}

/** Only public items are ever shown. */
export function publicItems<T extends Pick<EventItem, 'IsPublic'>>(items: readonly T[]): T[] {
	return items.filter((item) => item.IsPublic);
}

/** 'Free', '$25' or '$25 – $100' over the public items; null when none is public. */
export function priceRange(
	items: readonly Pick<EventItem, 'IsPublic' | 'UnitPrice'>[],
): string | null {
	const prices = publicItems(items).map((item) => item.UnitPrice);
	if (prices.length === 0) return null;
	const low = Math.min(...prices);
	const high = Math.max(...prices);
	const [from, to] = [formatPrice(low), formatPrice(high)];
	return from === to ? from : `${from} – ${to}`;
}

/**
 * Sponsor websites and logos often come without a scheme: http:// is added, and
 * anything that is then not an http(s) URL (javascript:, data:) becomes ''.
 */
export function withHttp(url: string): string {
	return safeLinkWithHttp(url);
}

export interface AttendeeGroup {
	registrationId: number;
	/** The registering organisation. */
	name: string;
	attendees: { name: string; title: string }[];
}

/** Companies attending: one group per registration, in the order they registered. */
export function attendeeGroups(event: Pick<Event, 'Attendees'>): AttendeeGroup[] {
	const groups = new Map<number, AttendeeGroup>();
	for (const a of event.Attendees) {
		let group = groups.get(a.RegistrationId);
		if (!group) {
			const name = a.RegistrationOrgName || a.OrgName || `${a.FName} ${a.LName}`.trim();
			group = { registrationId: a.RegistrationId, name, attendees: [] };
			groups.set(a.RegistrationId, group);
		}
		const name = `${a.FName} ${a.LName}`.trim();
		if (name) group.attendees.push({ name, title: a.Title });
	}
	return [...groups.values()];
}

type AttendeeFields = Pick<
	Event,
	'ShowAttendeeDetail' | 'AttendingAttendees' | 'AttendeeDetailThreshold' | 'Attendees'
>;

/**
 * Companies Attending is listed only when the event shows attendee detail and at least the
 * threshold are attending, and there is someone to list.
 */
export function showAttendees(event: AttendeeFields): boolean {
	return attendeesArePublic(event) && event.Attendees.length > 0;
}

/** Whether the event's settings let attendee names be shown at all. */
function attendeesArePublic(
	event: Pick<Event, 'ShowAttendeeDetail' | 'AttendingAttendees' | 'AttendeeDetailThreshold'>,
): boolean {
	return event.ShowAttendeeDetail && event.AttendingAttendees >= event.AttendeeDetailThreshold;
}

/**
 * What the public API answers for an event: the fields the pages use, by name (a field a source
 * adds is never passed on), only public ticket items, and attendees (names, titles,
 * organisations) only when the event's settings let them be shown.
 */
export function publicEvent(event: Event): EventRecord & OwnEventFields {
	return {
		...ownFields(event),
		EventId: event.EventId,
		EventName: event.EventName,
		Descr: event.Descr,
		StartDateTimeUtc: event.StartDateTimeUtc,
		EndDateTimeUtc: event.EndDateTimeUtc,
		StartDate: event.StartDate,
		EndDate: event.EndDate,
		StartTime: event.StartTime,
		EndTime: event.EndTime,
		TimeZone: {
			Abbreviation: event.TimeZone.Abbreviation,
			...(event.TimeZone.Name ? { Name: event.TimeZone.Name } : {}),
		},
		Venue: event.Venue,
		Address1: event.Address1,
		Address2: event.Address2,
		City: event.City,
		State: event.State,
		Zip: event.Zip,
		EventType: event.EventType,
		EventTypeColor: event.EventTypeColor,
		FeaturedEvent: event.FeaturedEvent,
		Closed: event.Closed,
		DisableRegistration: event.DisableRegistration,
		SpecialRegistrationUrl: safeHttpUrl(event.SpecialRegistrationUrl)
			? event.SpecialRegistrationUrl
			: '',
		RegistrationStartDate: event.RegistrationStartDate,
		RegistrationEndDate: event.RegistrationEndDate,
		SendQuestionsToEmail: event.SendQuestionsToEmail,
		ShowAttendeeDetail: event.ShowAttendeeDetail,
		AttendeeDetailThreshold: event.AttendeeDetailThreshold,
		AttendingAttendees: event.AttendingAttendees,
		Attendees: attendeesArePublic(event)
			? event.Attendees.map((a) => ({
					AttendeeId: a.AttendeeId,
					RegistrationId: a.RegistrationId,
					RegistrationOrgName: a.RegistrationOrgName,
					OrgName: a.OrgName,
					// What each person bought is nothing the pages show.
					ItemsDisplay: '',
					FName: a.FName,
					LName: a.LName,
					Title: a.Title,
				}))
			: [],
		Items: publicItems(event.Items).map((item) => ({
			ItemId: item.ItemId,
			ItemName: item.ItemName,
			Descr: item.Descr,
			UnitPrice: item.UnitPrice,
			IsPublic: item.IsPublic,
			AttendeesForItem: item.AttendeesForItem,
			Sold: item.Sold,
			MaxQuantity: item.MaxQuantity,
		})),
		Sponsors: event.Sponsors.map((sponsor) => ({
			SponserId: sponsor.SponserId,
			SponsorName: sponsor.SponsorName,
			SponsorLogoUrl: withHttp(sponsor.SponsorLogoUrl),
			SponsorWebsite: withHttp(sponsor.SponsorWebsite),
			SponsorMessage: sponsor.SponsorMessage,
			HideSponsorOrgName: sponsor.HideSponsorOrgName,
		})),
	};
}

/** The own events' fields an event has (none for the membership system's and the file's). */
function ownFields(event: Event): OwnEventFields {
	return {
		...(typeof event.Cancelled === 'boolean' ? { Cancelled: event.Cancelled } : {}),
		...(event.Summary ? { Summary: event.Summary } : {}),
		...(event.ImageUrl && safeHttpUrl(event.ImageUrl) ? { ImageUrl: event.ImageUrl } : {}),
	};
}

/** Whether an event is cancelled (only the chamber's own events can be). */
export function isCancelled(event: Pick<Event, 'Cancelled'>): boolean {
	return event.Cancelled === true;
}

/** N of '{N} attending' in the detail header, or null when it is not shown. */
export function attendingHeaderCount(
	event: Omit<AttendeeFields, 'Attendees'>,
	config: { features: Pick<ChamberConfig['features'], 'showEventAttendeeCountInHeader'> },
): number | null {
	const count = event.AttendingAttendees;
	const shown =
		event.ShowAttendeeDetail &&
		count > 0 &&
		count >= event.AttendeeDetailThreshold &&
		config.features.showEventAttendeeCountInHeader !== false;
	return shown ? count : null;
}

// --- Time zones and labels ---------------------------------------------------------------------

// When a source gives only the abbreviation, the US zone it names; DST then follows the date.
const ZONE_BY_ABBREVIATION: Readonly<Record<string, string>> = {
	EST: 'America/New_York',
	EDT: 'America/New_York',
	CST: 'America/Chicago',
	CDT: 'America/Chicago',
	MST: 'America/Denver',
	MDT: 'America/Denver',
	PST: 'America/Los_Angeles',
	PDT: 'America/Los_Angeles',
	AKST: 'America/Anchorage',
	AKDT: 'America/Anchorage',
	HST: 'Pacific/Honolulu',
	UTC: 'UTC',
	GMT: 'UTC',
};

/**
 * The IANA zone an event's local times are in: TimeZone.Name, else from its abbreviation. A name
 * is one the runtime knows: every source's events pass parseSourceEvent, which drops any other.
 */
export function eventTimeZone(event: Pick<Event, 'TimeZone'>): string | null {
	const named = event.TimeZone.Name;
	if (named) return named;
	return ZONE_BY_ABBREVIATION[event.TimeZone.Abbreviation.toUpperCase()] ?? null;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of a zone at an instant, and the zone's abbreviation then ('CST', 'CDT'). */
function wallClock(instant: string | Date, timeZone: string) {
	let zoneFormat = zoneFormats.get(timeZone);
	if (!zoneFormat) {
		zoneFormat = new Intl.DateTimeFormat('en-US', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
			timeZoneName: 'short',
		});
		zoneFormats.set(timeZone, zoneFormat);
	}
	const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
	for (const part of zoneFormat.formatToParts(new Date(instant))) parts[part.type] = part.value;
	const hour = Number(parts.hour);
	return {
		/** 'yyyy-MM-dd'. */
		day: `${parts.year}-${parts.month}-${parts.day}`,
		/** 'h:mm a', e.g. '5:30 PM' and '12:00 AM'. */
		time: `${hour % 12 || 12}:${parts.minute} ${hour < 12 ? 'AM' : 'PM'}`,
		/** 'HH:mm:ss'. */
		clock: `${parts.hour}:${parts.minute}:${parts.second}`,
		zone: parts.timeZoneName ?? '',
	};
}

/** 'yyyy-MM-dd' of an instant in a zone. */
export function localDay(instant: string | Date, timeZone: string): string {
	return wallClock(instant, timeZone).day;
}

type TimeFields = Pick<
	Event,
	| 'StartDateTimeUtc'
	| 'EndDateTimeUtc'
	| 'StartDate'
	| 'EndDate'
	| 'StartTime'
	| 'EndTime'
	| 'TimeZone'
>;

interface LocalTimes {
	startDay: string;
	endDay: string;
	startTime: string;
	endTime: string;
	startZone: string;
	endZone: string;
}

/** The local dates, times and abbreviations, computed in the event's zone when it is known. */
function localTimes(event: TimeFields): LocalTimes {
	const zone = eventTimeZone(event);
	if (!zone) {
		const abbr = event.TimeZone.Abbreviation;
		return {
			startDay: event.StartDate || event.StartDateTimeUtc.slice(0, 10),
			endDay: event.EndDate || event.EndDateTimeUtc.slice(0, 10),
			startTime: event.StartTime,
			endTime: event.EndTime,
			startZone: abbr,
			endZone: abbr,
		};
	}
	const start = wallClock(event.StartDateTimeUtc, zone);
	const end = wallClock(event.EndDateTimeUtc, zone);
	return {
		startDay: start.day,
		endDay: end.day,
		startTime: start.time,
		endTime: end.time,
		startZone: start.zone,
		endZone: end.zone,
	};
}

/** All-day events run from 12:00 AM to 11:59 PM local time (the tenant file's convention). */
export function isAllDay(event: TimeFields): boolean {
	const t = localTimes(event);
	return t.startTime === '12:00 AM' && t.endTime === '11:59 PM';
}

/**
 * A 'yyyy-MM-dd' day as a Date at local midnight, which date-fns' calendar arithmetic (in local
 * time) keeps on whole days in any visitor's zone.
 */
function dayDate(day: string): Date {
	const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
	return new Date(y, m - 1, d);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'yyyy-MM-dd' of a Date's local calendar day. */
const isoDay = (date: Date) =>
	`${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

// Labels read a day as UTC midnight in UTC, so they never depend on the visitor's zone.
const WEEKDAY_DATE = new Intl.DateTimeFormat('en-US', {
	timeZone: 'UTC',
	weekday: 'long',
	month: 'long',
	day: 'numeric',
	year: 'numeric',
});

/** 'Saturday, March 15, 2027', or without the year 'Saturday, March 15'. */
function weekdayDate(day: string, withYear = true): string {
	const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
	const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
	for (const part of WEEKDAY_DATE.formatToParts(Date.UTC(y, m - 1, d))) {
		parts[part.type] = part.value;
	}
	const date = `${parts.weekday}, ${parts.month} ${parts.day}`;
	return withYear ? `${date}, ${parts.year}` : date;
}

/** 'Saturday, March 15, 2027' for one 'yyyy-MM-dd' day. */
export function longDate(day: string): string {
	return weekdayDate(day);
}

/**
 * 'Saturday, March 15, 2027', or a range when the event ends on another local day:
 * 'Friday, March 30 – Sunday, April 1, 2027' (the year on both sides when they differ).
 */
export function dateRangeLabel(event: TimeFields): string {
	const { startDay, endDay } = localTimes(event);
	if (startDay === endDay) return longDate(startDay);
	const sameYear = startDay.slice(0, 4) === endDay.slice(0, 4);
	const from = weekdayDate(startDay, !sameYear);
	return `${from} – ${longDate(endDay)}`;
}

/**
 * '5:30 PM – 10:00 PM CST' in the event's zone; both abbreviations when a daylight-saving change
 * falls inside the event ('9:00 AM CDT – 4:00 PM CST'); 'All Day' for all-day events.
 */
export function timeLabel(event: TimeFields): string {
	const t = localTimes(event);
	if (t.startTime === '12:00 AM' && t.endTime === '11:59 PM') return 'All Day';
	const suffix = (zone: string) => (zone ? ` ${zone}` : '');
	if (t.startZone !== t.endZone) {
		return `${t.startTime}${suffix(t.startZone)} – ${t.endTime}${suffix(t.endZone)}`;
	}
	return `${t.startTime} – ${t.endTime}${suffix(t.endZone)}`;
}

// --- Lists, ranges, days -----------------------------------------------------------------------

/** Closed events are dropped from every list and detail view. */
export function dropClosed<T extends Pick<Event, 'Closed'>>(events: readonly T[]): T[] {
	return events.filter((event) => !event.Closed);
}

function byStart(a: Event, b: Event): number {
	return a.StartDateTimeUtc.localeCompare(b.StartDateTimeUtc) || a.EventId - b.EventId;
}

/** Sorted by start, then id (a copy). */
export function sortByStart<T extends Event>(events: readonly T[]): T[] {
	return [...events].sort(byStart);
}

/** Both lists as one, without duplicate EventIds (the newer copy, from b, wins), sorted by start. */
export function mergeEvents<T extends Event>(a: readonly T[], b: readonly T[]): T[] {
	const byId = new Map<number, T>();
	for (const event of [...a, ...b]) byId.set(event.EventId, event);
	return sortByStart([...byId.values()]);
}

/** Inclusive range of calendar days, 'yyyy-MM-dd', as /api/events takes it. */
export interface DateRange {
	startDate: string;
	endDate: string;
}

/** Prefetch and load-more window. */
export const LOAD_MORE_MONTHS = 3;

/** What /api/events answers without a range: 3 months back to 6 months ahead of `today`. */
export function defaultRange(today: string): DateRange {
	const day = dayDate(today);
	return { startDate: isoDay(addMonths(day, -3)), endDate: isoDay(addMonths(day, 6)) };
}

/** The next range to fetch: three more months just before or just after what is loaded. */
export function loadMoreRange(loaded: DateRange, direction: 'before' | 'after'): DateRange {
	if (direction === 'before') {
		const start = dayDate(loaded.startDate);
		return {
			startDate: isoDay(addMonths(start, -LOAD_MORE_MONTHS)),
			endDate: isoDay(addDays(start, -1)),
		};
	}
	const end = dayDate(loaded.endDate);
	return {
		startDate: isoDay(addDays(end, 1)),
		endDate: isoDay(addMonths(end, LOAD_MORE_MONTHS)),
	};
}

/** Whether every day from `from` to `to` is loaded. */
export function rangeCovers(loaded: DateRange, from: string, to: string = from): boolean {
	return loaded.startDate <= from && to <= loaded.endDate;
}

/** The loaded range after adding an adjacent one. */
export function extendRange(loaded: DateRange, added: DateRange): DateRange {
	return {
		startDate: added.startDate < loaded.startDate ? added.startDate : loaded.startDate,
		endDate: added.endDate > loaded.endDate ? added.endDate : loaded.endDate,
	};
}

/** The instants a day range spans: from startDate 00:00 UTC to the end of endDate (UTC). */
export function rangeInstants(range: DateRange): { start: Date; end: Date } {
	return {
		start: new Date(`${range.startDate}T00:00:00.000Z`),
		end: new Date(`${range.endDate}T23:59:59.999Z`),
	};
}

/** The local days an event covers in a zone; one ending exactly at midnight ends the day before. */
export function eventDays(
	event: Pick<Event, 'StartDateTimeUtc' | 'EndDateTimeUtc'>,
	timeZone: string,
): { first: string; last: string } {
	const first = localDay(event.StartDateTimeUtc, timeZone);
	const end = new Date(event.EndDateTimeUtc);
	const endsAtMidnight =
		wallClock(end, timeZone).clock === '00:00:00' &&
		end.getUTCMilliseconds() === 0 &&
		end.getTime() > Date.parse(event.StartDateTimeUtc);
	const last = endsAtMidnight
		? localDay(new Date(end.getTime() - 1), timeZone)
		: localDay(end, timeZone);
	return { first, last };
}

/**
 * The events on one local day ('yyyy-MM-dd') in a zone, sorted by start: multi-day events appear
 * on each of their days, all-day events on theirs.
 */
export function eventsOnDay<T extends Event>(
	events: readonly T[],
	day: string,
	timeZone: string,
): T[] {
	return events
		.filter((event) => {
			const { first, last } = eventDays(event, timeZone);
			return first <= day && day <= last;
		})
		.sort(byStart);
}
