import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import {
	feedDays,
	googleFeed,
	GOOGLE_UIDS,
	outlookFeed,
	OUTLOOK_UIDS,
} from '../../../tests/support/calendar-feeds.ts';
import { FeedFormatError, parseFeed } from './ical-feed.ts';

const NOW = new Date('2027-02-10T15:00:00Z');
const day = (d: Date) => format(d, 'yyyy-MM-dd');

describe("a Google Calendar feed's events", () => {
	const feed = parseFeed(googleFeed({ now: NOW }), { zone: 'America/New_York', now: NOW });
	const byUid = (uid: string) => feed.events.find((e) => e.uid === uid);
	const d = feedDays(NOW);

	it('names the calendar and leaves out what is outside the window', () => {
		expect(feed.name).toBe('Cedar Valley Chamber');
		expect(feed.events.map((e) => e.uid).sort()).toEqual(
			[GOOGLE_UIDS.networking, GOOGLE_UIDS.ribbon, GOOGLE_UIDS.expo].sort(),
		);
		expect(feed.skipped).toEqual([]);
	});

	it('reads a weekly series in its TZID with its EXDATE cancelled and its moved instance', () => {
		const series = byUid(GOOGLE_UIDS.networking)!;
		expect(series.fields).toMatchObject({
			name: 'Evening Networking',
			time_zone: 'America/Chicago',
			all_day: false,
			starts_local: `${day(d.tuesdays[0]!)}T18:00`,
			ends_local: `${day(d.tuesdays[0]!)}T19:30`,
			venue: 'Cedar Valley Chamber, 100 Main St, Cedar Falls, IA 50613, USA',
		});
		expect(series.fields.rrule).toMatch(/^FREQ=WEEKLY;/);
		expect(series.fields.rrule).toContain('COUNT=6');
		// The folded, escaped description, its HTML kept for the sanitiser.
		expect(series.fields.description).toContain('Coffee, introductions');
		expect(series.fields.description).toContain('<a href="https://cedarvalley.example.org/join">');
		const dates = series.dates!;
		expect(dates.map((x) => x.key)).toEqual(d.tuesdays.map(day));
		expect(dates.every((x) => x.start.endsWith('T18:00'))).toBe(true);
		expect(dates[2]).toMatchObject({ cancelled: true });
		expect(dates[3]).toMatchObject({
			cancelled: false,
			changes: {
				name: 'Breakfast Networking',
				starts_local: `${day(d.tuesdays[3]!)}T07:30`,
				ends_local: `${day(d.tuesdays[3]!)}T09:00`,
			},
		});
		expect(dates[0]!.cancelled).toBeUndefined();
	});

	it('reads a UTC one-off on the calendar’s wall clock, and an all-day event over two days', () => {
		expect(byUid(GOOGLE_UIDS.ribbon)!.fields).toMatchObject({
			time_zone: 'America/Chicago',
			starts_local: `${day(d.ribbon)}T11:30`,
			ends_local: `${day(d.ribbon)}T12:30`,
			rrule: null,
			description: '<p>Welcome Main Street Bakery to the chamber!</p>',
		});
		expect(byUid(GOOGLE_UIDS.ribbon)!.dates).toBeNull();
		expect(byUid(GOOGLE_UIDS.expo)!.fields).toMatchObject({
			all_day: true,
			starts_local: `${day(d.expo)}T00:00`,
			ends_local: `${day(addDays(d.expo, 1))}T23:59`,
		});
	});
});

describe('an Outlook feed’s events', () => {
	const feed = parseFeed(outlookFeed({ now: NOW }), { zone: 'America/Chicago', now: NOW });
	const d = feedDays(NOW);

	it('reads Windows zone names through the feed’s VTIMEZONE, in the chamber’s zone', () => {
		expect(feed.name).toBe('Chamber Board');
		const luncheon = feed.events.find((e) => e.uid === OUTLOOK_UIDS.luncheon)!;
		expect(luncheon.fields).toMatchObject({
			name: 'Board Luncheon',
			time_zone: 'America/Chicago',
			starts_local: `${day(d.thursdays[0]!)}T12:00`,
			ends_local: `${day(d.thursdays[0]!)}T13:30`,
			venue: 'Chamber Board Room',
		});
		expect(luncheon.fields.rrule).toMatch(/^FREQ=MONTHLY;/);
		const dates = luncheon.dates!;
		expect(dates.map((x) => x.key)).toEqual(d.thursdays.map(day));
		// Noon on the wall clock across the daylight-saving change in March.
		expect(dates.every((x) => x.start.endsWith('T12:00'))).toBe(true);
		expect(dates[1]).toMatchObject({
			changes: {
				venue: 'Cedar Falls Public Library, Room B',
				starts_local: `${day(d.thursdays[1]!)}T13:00`,
				ends_local: `${day(d.thursdays[1]!)}T14:30`,
			},
		});
		expect(dates[2]).toMatchObject({ cancelled: true });
	});

	it('reads an all-day event of one day', () => {
		const picnic = feed.events.find((e) => e.uid === OUTLOOK_UIDS.picnic)!;
		expect(picnic.fields).toMatchObject({
			name: 'Members’ Summer Picnic',
			all_day: true,
			starts_local: `${day(d.picnic)}T00:00`,
			ends_local: `${day(d.picnic)}T23:59`,
			description: '<p>Families welcome. Food trucks from noon.</p>',
		});
	});

	it('puts Outlook’s zone in another chamber’s wall clock as the same instants', () => {
		const east = parseFeed(outlookFeed({ now: NOW }), { zone: 'America/New_York', now: NOW });
		const luncheon = east.events.find((e) => e.uid === OUTLOOK_UIDS.luncheon)!;
		expect(luncheon.fields.time_zone).toBe('America/New_York');
		expect(luncheon.dates!.every((x) => x.start.endsWith('T13:00'))).toBe(true);
	});
});

describe('what is not a feed', () => {
	it('refuses an HTML page and a text ical.js cannot read', () => {
		expect(() => parseFeed('<!doctype html><p>Sign in</p>', { zone: 'UTC', now: NOW })).toThrow(
			FeedFormatError,
		);
		expect(() =>
			parseFeed('BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD\r\n', { zone: 'UTC', now: NOW }),
		).toThrow(FeedFormatError);
	});

	it('skips what the calendars cannot keep, saying why', () => {
		const text = [
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'BEGIN:VEVENT',
			'UID:hourly@example.org',
			'SUMMARY:Every hour',
			'DTSTART:20270301T090000Z',
			'RRULE:FREQ=HOURLY;COUNT=5',
			'END:VEVENT',
			'BEGIN:VEVENT',
			'SUMMARY:No id',
			'DTSTART:20270301T090000Z',
			'END:VEVENT',
			'END:VCALENDAR',
		].join('\r\n');
		expect(parseFeed(text, { zone: 'UTC', now: NOW }).skipped).toEqual([
			{ uid: '', name: 'No id', reason: 'it has no UID' },
			{ uid: 'hourly@example.org', name: 'Every hour', reason: 'it repeats more often than daily' },
		]);
	});
});
