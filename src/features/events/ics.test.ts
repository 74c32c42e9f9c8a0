import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { localDateTime } from '../tenants/tenant-file.ts';
import type { Event } from './events.ts';
import { eventsToIcs, ICS_DESCRIPTION_MAX } from './ics.ts';
import { CHICAGO, sourceEvent } from './test-events.ts';

const options = { siteUrl: 'https://events.example.org', calendarName: 'Cedar Valley Events' };

function event(
	id: number,
	name: string,
	start: string,
	end: string,
	extra: Partial<Event> = {},
): Event {
	return sourceEvent({
		start,
		end,
		EventId: id,
		EventName: name,
		TimeZone: { Abbreviation: 'CDT', Name: CHICAGO },
		Venue: 'Grand Prairie Hotel',
		Address1: '1200 Lincoln Way',
		City: 'Cedarbrook',
		State: 'IA',
		Zip: '52902',
		...extra,
	});
}

function parse(text: string) {
	const calendar = new ICAL.Component(ICAL.parse(text));
	return {
		calendar,
		events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)),
	};
}

describe('calendar files', () => {
	const gala = event(
		41036,
		'Annual Gala & Awards Night',
		'2027-03-20T22:30:00.000Z',
		'2027-03-21T03:00:00.000Z',
		{ Descr: `<p>${'Dinner, music &amp; awards. '.repeat(40)}</p>`, EventType: 'Signature Event' },
	);
	const shopLocal = event(
		41030,
		'Shop Local Saturday',
		'2027-01-09T06:00:00.000Z',
		'2027-01-10T05:59:00.000Z',
	);

	it('parses back with a stable UID, the instant in UTC, the URL and the location', () => {
		const text = eventsToIcs([gala], options);
		const { calendar, events } = parse(text);
		expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Cedar Valley Events');
		expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
		const [parsed] = events;
		expect(parsed?.uid).toBe('event-41036@events.example.org');
		expect(parsed?.summary).toBe('Annual Gala & Awards Night');
		expect(parsed?.startDate.zone?.tzid).toBe('UTC');
		expect(parsed?.startDate.toJSDate().toISOString()).toBe('2027-03-20T22:30:00.000Z');
		expect(parsed?.endDate.toJSDate().toISOString()).toBe('2027-03-21T03:00:00.000Z');
		// 5:30 PM in Cedarbrook, after the March change.
		expect(localDateTime(parsed!.startDate.toJSDate(), CHICAGO).time).toBe('5:30 PM');
		expect(parsed?.location).toBe('Grand Prairie Hotel, 1200 Lincoln Way, Cedarbrook, IA 52902');
		expect(parsed?.component.getFirstPropertyValue('url')).toBe(
			'https://events.example.org/events/41036/annual-gala-awards-night',
		);
		// The same event gets the same UID in another file, so calendars update it in place.
		expect(parse(eventsToIcs([shopLocal, gala], options)).events[1]?.uid).toBe(parsed?.uid);
	});

	it('cuts the description, as plain text, to 500 characters', () => {
		const [parsed] = parse(eventsToIcs([gala], options)).events;
		const description = parsed?.description ?? '';
		expect([...description]).toHaveLength(ICS_DESCRIPTION_MAX);
		expect(description.startsWith('Dinner, music & awards.')).toBe(true);
		expect(description).not.toContain('<');
		expect(description.endsWith('…')).toBe(true);
	});

	it('writes all-day events as dates on the local day', () => {
		const [parsed] = parse(eventsToIcs([shopLocal], options)).events;
		expect(parsed?.startDate.isDate).toBe(true);
		expect(parsed?.startDate.toString()).toBe('2027-01-09');
		expect(parsed?.endDate.toString()).toBe('2027-01-10');
	});

	it('says a cancelled event (the chamber’s own) is cancelled: STATUS:CANCELLED', () => {
		const text = eventsToIcs(
			[
				event(900_000_001, 'Called Off', '2026-12-01T18:00:00Z', '2026-12-01T20:00:00Z', {
					Cancelled: true,
				}),
				event(900_000_002, 'On', '2026-12-02T18:00:00Z', '2026-12-02T20:00:00Z'),
			],
			options,
		);
		const statuses = parse(text).events.map((e) => e.component.getFirstPropertyValue('status'));
		expect(statuses).toEqual(['CANCELLED', 'CONFIRMED']);
	});

	it('makes a valid empty calendar when there are no events', () => {
		const { calendar, events } = parse(eventsToIcs([], options));
		expect(calendar.name).toBe('vcalendar');
		expect(events).toEqual([]);
	});
});
