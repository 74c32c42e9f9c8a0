import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { nextThursday } from 'date-fns/nextThursday';
import { nextTuesday } from 'date-fns/nextTuesday';
import { startOfMonth } from 'date-fns/startOfMonth';
import { addMonths } from 'date-fns/addMonths';

/**
 * Calendar feeds as Google Calendar and Outlook (Microsoft 365, "Publish a calendar") export
 * them, written from their real shapes (RFC 5545 and what each vendor adds): CRLF line ends,
 * lines folded at 75 octets, escaped commas and newlines, X-WR-CALNAME / X-WR-TIMEZONE, a
 * VTIMEZONE per zone used (Google's IANA names with X-LIC-LOCATION, Outlook's Windows names
 * with rules from 1601), UTC one-off events (Google), all-day VALUE=DATE events, weekly and
 * monthly RRULEs with an EXDATE and a RECURRENCE-ID instance, Outlook's X-MICROSOFT-CDO-*
 * properties and long UIDs. Dates are relative to `today` in Chicago, so the feeds stay in the
 * window a read takes; and a stand-in server that serves them over HTTP as the vendors do.
 */

const FEED_ZONE = 'America/Chicago';

/** The vendors' line: content lines folded at 75 octets, CRLF (RFC 5545 §3.1). */
function fold(line: string): string {
	const bytes = Buffer.from(line, 'utf8');
	if (bytes.length <= 75) return line;
	const parts: string[] = [];
	let start = 0;
	let width = 75;
	while (start < bytes.length) {
		let end = Math.min(start + width, bytes.length);
		// Never split a UTF-8 sequence.
		while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
		parts.push(bytes.subarray(start, end).toString('utf8'));
		start = end;
		width = 74;
	}
	return parts.join('\r\n ');
}

function calendar(lines: string[]): string {
	return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** 'yyyyMMdd' of a Chicago day. */
const ymd = (day: Date) => format(day, 'yyyyMMdd');

/** Today in Chicago, at midnight there. */
function chicagoToday(now: Date): Date {
	const local = new TZDate(now.getTime(), FEED_ZONE);
	return new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), FEED_ZONE);
}

/** The days a feed's events fall on, from `now`. */
export function feedDays(now = new Date()) {
	const today = chicagoToday(now);
	const tuesday = nextTuesday(addDays(today, 6));
	// The first Thursday of next month, and of the month after it.
	const thursday = (months: number) => {
		const first = startOfMonth(addMonths(today, months));
		return first.getDay() === 4 ? first : nextThursday(first);
	};
	return {
		/** A weekly series' dates (Tuesdays). */
		tuesdays: [0, 1, 2, 3, 4, 5].map((w) => addDays(tuesday, 7 * w)),
		/** A monthly series' first Thursdays. */
		thursdays: [1, 2, 3, 4].map(thursday),
		ribbon: addDays(today, 10),
		expo: addDays(today, 20),
		picnic: addDays(today, 30),
		past: addDays(today, -500),
	};
}

export const GOOGLE_UIDS = {
	networking: '5n3k9d2o8c4f1h7j6l0m2p4q6r@google.com',
	ribbon: '1a2b3c4d5e6f7g8h9i0j1k2l3m@google.com',
	expo: '7q8w9e0r1t2y3u4i5o6p7a8s9d@google.com',
	old: '0z9x8c7v6b5n4m3l2k1j0h9g8f@google.com',
} as const;

export interface GoogleFeedOptions {
	now?: Date;
	/** The ribbon cutting's title (a change the next read brings). */
	ribbonTitle?: string;
	/** Leave the expo out (deleted in Google Calendar). */
	withoutExpo?: boolean;
}

/** A public Google Calendar's basic.ics. */
export function googleFeed(options: GoogleFeedOptions = {}): string {
	const d = feedDays(options.now);
	const [first, , third, fourth] = d.tuesdays;
	const ribbonStart = new TZDate(
		d.ribbon.getFullYear(),
		d.ribbon.getMonth(),
		d.ribbon.getDate(),
		11,
		30,
		FEED_ZONE,
	);
	const utc = (date: Date) => `${format(new TZDate(date.getTime(), 'UTC'), "yyyyMMdd'T'HHmmss")}Z`;
	const lines = [
		'BEGIN:VCALENDAR',
		'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
		'VERSION:2.0',
		'CALSCALE:GREGORIAN',
		'METHOD:PUBLISH',
		'X-WR-CALNAME:Cedar Valley Chamber',
		'X-WR-TIMEZONE:America/Chicago',
		'X-WR-CALDESC:Networking\\, ribbon cuttings and the expo of the Cedar Valley Chamber of Commerce.',
		'BEGIN:VTIMEZONE',
		'TZID:America/Chicago',
		'X-LIC-LOCATION:America/Chicago',
		'BEGIN:DAYLIGHT',
		'TZOFFSETFROM:-0600',
		'TZOFFSETTO:-0500',
		'TZNAME:CDT',
		'DTSTART:19700308T020000',
		'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
		'END:DAYLIGHT',
		'BEGIN:STANDARD',
		'TZOFFSETFROM:-0500',
		'TZOFFSETTO:-0600',
		'TZNAME:CST',
		'DTSTART:19701101T020000',
		'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
		'END:STANDARD',
		'END:VTIMEZONE',
		// A weekly series with one date deleted (EXDATE) and one moved and retitled (its instance).
		'BEGIN:VEVENT',
		`DTSTART;TZID=America/Chicago:${ymd(first!)}T180000`,
		`DTEND;TZID=America/Chicago:${ymd(first!)}T193000`,
		'RRULE:FREQ=WEEKLY;WKST=SU;COUNT=6;BYDAY=TU',
		`EXDATE;TZID=America/Chicago:${ymd(third!)}T180000`,
		'DTSTAMP:20261201T120000Z',
		`UID:${GOOGLE_UIDS.networking}`,
		'CREATED:20261101T150000Z',
		'DESCRIPTION:Coffee\\, introductions and a two-minute pitch from each guest.\\n\\nBring b' +
			'usiness cards. Members and guests welcome: <a href="https://cedarvalley.example.org/join">join the chamber</a>.',
		'LAST-MODIFIED:20261115T093000Z',
		'LOCATION:Cedar Valley Chamber\\, 100 Main St\\, Cedar Falls\\, IA 50613\\, USA',
		'SEQUENCE:2',
		'STATUS:CONFIRMED',
		'SUMMARY:Evening Networking',
		'TRANSP:OPAQUE',
		'END:VEVENT',
		'BEGIN:VEVENT',
		`DTSTART;TZID=America/Chicago:${ymd(fourth!)}T073000`,
		`DTEND;TZID=America/Chicago:${ymd(fourth!)}T090000`,
		'DTSTAMP:20261201T120000Z',
		`UID:${GOOGLE_UIDS.networking}`,
		`RECURRENCE-ID;TZID=America/Chicago:${ymd(fourth!)}T180000`,
		'CREATED:20261101T150000Z',
		'DESCRIPTION:',
		'LAST-MODIFIED:20261120T101500Z',
		'LOCATION:Cedar Valley Chamber\\, 100 Main St\\, Cedar Falls\\, IA 50613\\, USA',
		'SEQUENCE:3',
		'STATUS:CONFIRMED',
		'SUMMARY:Breakfast Networking',
		'TRANSP:OPAQUE',
		'END:VEVENT',
		// Google exports a one-off timed event in UTC.
		'BEGIN:VEVENT',
		`DTSTART:${utc(ribbonStart)}`,
		`DTEND:${utc(new Date(ribbonStart.getTime() + 3_600_000))}`,
		'DTSTAMP:20261201T120000Z',
		`UID:${GOOGLE_UIDS.ribbon}`,
		'CREATED:20261110T120000Z',
		'DESCRIPTION:Welcome Main Street Bakery to the chamber!',
		'LAST-MODIFIED:20261110T120000Z',
		'LOCATION:Main Street Bakery\\, 214 Main St\\, Cedar Falls\\, IA 50613',
		'SEQUENCE:0',
		'STATUS:CONFIRMED',
		`SUMMARY:${options.ribbonTitle ?? 'Ribbon Cutting: Main Street Bakery'}`,
		'TRANSP:OPAQUE',
		'END:VEVENT',
		// A two-day all-day event: DTEND is the day after its last.
		...(options.withoutExpo
			? []
			: [
					'BEGIN:VEVENT',
					`DTSTART;VALUE=DATE:${ymd(d.expo)}`,
					`DTEND;VALUE=DATE:${ymd(addDays(d.expo, 2))}`,
					'DTSTAMP:20261201T120000Z',
					`UID:${GOOGLE_UIDS.expo}`,
					'CREATED:20261001T120000Z',
					'DESCRIPTION:Two days of exhibitors\\, talks and the business awards.',
					'LAST-MODIFIED:20261001T120000Z',
					'LOCATION:UNI-Dome\\, 2501 Hudson Rd\\, Cedar Falls\\, IA 50614',
					'SEQUENCE:0',
					'STATUS:CONFIRMED',
					'SUMMARY:Spring Business Expo',
					'TRANSP:TRANSPARENT',
					'END:VEVENT',
				]),
		// Long past: outside the window a read takes.
		'BEGIN:VEVENT',
		`DTSTART;VALUE=DATE:${ymd(d.past)}`,
		`DTEND;VALUE=DATE:${ymd(addDays(d.past, 1))}`,
		'DTSTAMP:20261201T120000Z',
		`UID:${GOOGLE_UIDS.old}`,
		'SUMMARY:Annual Meeting (long ago)',
		'END:VEVENT',
		'END:VCALENDAR',
	];
	return calendar(lines);
}

export const OUTLOOK_UIDS = {
	luncheon:
		'040000008200E00074C5B7101A82E00800000000B0A7E5C2A1D5DA01000000000000000010000000E1C0F6A9B3D1E2478F5A6B7C8D9E0F10',
	picnic:
		'040000008200E00074C5B7101A82E0080000000070F2D3C4B5A6DA01000000000000000010000000A9B8C7D6E5F4A3B2C1D0E9F8A7B6C5D4',
} as const;

export interface OutlookFeedOptions {
	now?: Date;
	/** The luncheon's room (a change the next read brings). */
	luncheonRoom?: string;
}

/** A calendar published from Outlook (Microsoft 365): its calendar.ics. */
export function outlookFeed(options: OutlookFeedOptions = {}): string {
	const d = feedDays(options.now);
	const [first, second, third, fourth] = d.thursdays;
	const cdo = (allDay: boolean, type: number) => [
		'X-MICROSOFT-CDO-APPT-SEQUENCE:0',
		'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
		'X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY',
		`X-MICROSOFT-CDO-ALLDAYEVENT:${allDay ? 'TRUE' : 'FALSE'}`,
		'X-MICROSOFT-CDO-IMPORTANCE:1',
		`X-MICROSOFT-CDO-INSTTYPE:${type}`,
		'X-MICROSOFT-DONOTFORWARDMEETING:FALSE',
		'X-MICROSOFT-DISALLOW-COUNTER:FALSE',
	];
	const until = addDays(fourth!, 1);
	const lines = [
		'BEGIN:VCALENDAR',
		'METHOD:PUBLISH',
		'PRODID:Microsoft Exchange Server 2010',
		'VERSION:2.0',
		'X-WR-CALNAME:Chamber Board',
		'BEGIN:VTIMEZONE',
		'TZID:Central Standard Time',
		'BEGIN:STANDARD',
		'DTSTART:16010101T020000',
		'TZOFFSETFROM:-0500',
		'TZOFFSETTO:-0600',
		'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11',
		'END:STANDARD',
		'BEGIN:DAYLIGHT',
		'DTSTART:16010101T020000',
		'TZOFFSETFROM:-0600',
		'TZOFFSETTO:-0500',
		'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3',
		'END:DAYLIGHT',
		'END:VTIMEZONE',
		// The board's luncheon on the first Thursday of each month, one cancelled, one moved.
		'BEGIN:VEVENT',
		'DESCRIPTION:Agenda: the budget\\, the new members\\, the summer events.\\n',
		`RRULE:FREQ=MONTHLY;UNTIL=${ymd(until)}T180000Z;INTERVAL=1;BYDAY=1TH;WKST=SU`,
		`EXDATE;TZID=Central Standard Time:${ymd(third!)}T120000`,
		`UID:${OUTLOOK_UIDS.luncheon}`,
		'SUMMARY:Board Luncheon',
		`DTSTART;TZID=Central Standard Time:${ymd(first!)}T120000`,
		`DTEND;TZID=Central Standard Time:${ymd(first!)}T133000`,
		'CLASS:PUBLIC',
		'PRIORITY:5',
		'DTSTAMP:20261201T120000Z',
		'TRANSP:OPAQUE',
		'STATUS:CONFIRMED',
		'SEQUENCE:0',
		`LOCATION:${options.luncheonRoom ?? 'Chamber Board Room'}`,
		...cdo(false, 1),
		'END:VEVENT',
		'BEGIN:VEVENT',
		'DESCRIPTION:Agenda: the budget\\, the new members\\, the summer events.\\n',
		`UID:${OUTLOOK_UIDS.luncheon}`,
		`RECURRENCE-ID;TZID=Central Standard Time:${ymd(second!)}T120000`,
		'SUMMARY:Board Luncheon',
		`DTSTART;TZID=Central Standard Time:${ymd(second!)}T130000`,
		`DTEND;TZID=Central Standard Time:${ymd(second!)}T143000`,
		'CLASS:PUBLIC',
		'PRIORITY:5',
		'DTSTAMP:20261201T120000Z',
		'TRANSP:OPAQUE',
		'STATUS:CONFIRMED',
		'SEQUENCE:1',
		'LOCATION:Cedar Falls Public Library\\, Room B',
		...cdo(false, 3),
		'END:VEVENT',
		'BEGIN:VEVENT',
		'DESCRIPTION:Families welcome. Food trucks from noon.\\n',
		`UID:${OUTLOOK_UIDS.picnic}`,
		'SUMMARY:Members\u2019 Summer Picnic',
		`DTSTART;VALUE=DATE:${ymd(d.picnic)}`,
		`DTEND;VALUE=DATE:${ymd(addDays(d.picnic, 1))}`,
		'CLASS:PUBLIC',
		'PRIORITY:5',
		'DTSTAMP:20261201T120000Z',
		'TRANSP:TRANSPARENT',
		'STATUS:CONFIRMED',
		'SEQUENCE:0',
		'LOCATION:Overman Park',
		...cdo(true, 0),
		'END:VEVENT',
		'END:VCALENDAR',
	];
	return calendar(lines);
}

// --- The stand-in ----------------------------------------------------------------------------------

type FeedMode = 'ok' | 'error500' | 'notCalendar' | 'tooLarge' | 'slow';

export interface FeedStandin {
	url: string;
	/** What GET {path} answers (text/calendar). */
	serve(path: string, body: string): void;
	setMode(mode: FeedMode): void;
	/** The paths asked for, in order. */
	requests: string[];
	close(): Promise<void>;
}

/**
 * Serves feeds as Google and Outlook do: 200 text/calendar; charset=UTF-8, the body as it is;
 * unknown paths 404. Modes make it fail: a 500, an HTML page, a body past the read's cap, or an
 * answer that never finishes.
 */
export async function startFeedStandin(): Promise<FeedStandin> {
	const feeds = new Map<string, string>();
	let mode: FeedMode = 'ok';
	const requests: string[] = [];
	const server: Server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://standin').pathname;
		requests.push(path);
		if (mode === 'error500') {
			res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server Error</h1>');
			return;
		}
		if (mode === 'notCalendar') {
			res
				.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
				.end('<!doctype html><title>Sign in</title><p>Sign in to see this calendar.</p>');
			return;
		}
		if (mode === 'slow') {
			res.writeHead(200, { 'content-type': 'text/calendar; charset=UTF-8' });
			res.write('BEGIN:VCALENDAR\r\n');
			return; // never ends
		}
		const body = feeds.get(path);
		if (body === undefined) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
			return;
		}
		const text = mode === 'tooLarge' ? body + `X-PADDING:${'x'.repeat(6 * 1024 * 1024)}\r\n` : body;
		res
			.writeHead(200, {
				'content-type': 'text/calendar; charset=UTF-8',
				'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
			})
			.end(text);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		serve: (path, body) => void feeds.set(path, body),
		setMode: (next) => {
			mode = next;
		},
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
