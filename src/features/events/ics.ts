import { LRUCache } from 'lru-cache';
import { createEvents, type DateArray, type EventAttributes } from 'ics';
import { addDays } from 'date-fns/addDays';
import { eventPath, eventTimeZone, isAllDay, isCancelled, localDay, type Event } from './events.ts';
import { htmlToText } from '../directory/text.ts';
import { truncate } from './text.ts';

// Calendar files (RFC 5545) for 'Add to Calendar' and the subscribable feeds, made with the `ics`
// package. Timed events are written in UTC, so every calendar app places them right whatever its
// own zone; all-day events are written as dates, as the chamber's calendar shows them.

/** Calendar descriptions are cut to 500 characters. */
export const ICS_DESCRIPTION_MAX = 500;

export interface IcsOptions {
	/** Absolute origin of the site, e.g. https://events.example.org, for URLs and UIDs. */
	siteUrl: string;
	/** Calendar name shown by calendar apps (X-WR-CALNAME). */
	calendarName: string;
}

function dateArray(day: string): DateArray {
	const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
	return [y, m, d];
}

function locationLine(event: Event): string {
	const cityLine = [event.City, [event.State, event.Zip].filter(Boolean).join(' ')]
		.filter(Boolean)
		.join(', ');
	return [event.Venue, event.Address1, event.Address2, cityLine].filter(Boolean).join(', ');
}

/** The stable UID of an event: the same in every feed and download, so updates replace it. */
function eventUid(event: Pick<Event, 'EventId'>, siteUrl: string): string {
	return `event-${event.EventId}@${new URL(siteUrl).hostname}`;
}

function attributes(event: Event, options: IcsOptions): EventAttributes {
	const url = new URL(eventPath(event), options.siteUrl).href;
	const text = htmlToText(event.Descr);
	const common = {
		uid: eventUid(event, options.siteUrl),
		title: event.EventName,
		description: truncate(text, ICS_DESCRIPTION_MAX),
		url,
		// Calendar apps that hold the event mark it cancelled when they read the feed again.
		status: isCancelled(event) ? ('CANCELLED' as const) : ('CONFIRMED' as const),
		productId: 'chamber/events',
		calName: options.calendarName,
		...(locationLine(event) ? { location: locationLine(event) } : {}),
		...(event.EventType ? { categories: [event.EventType] } : {}),
	};
	const zone = eventTimeZone(event);
	if (zone && isAllDay(event)) {
		const lastDay = localDay(event.EndDateTimeUtc, zone);
		const dayAfter = localDay(addDays(new Date(`${lastDay}T12:00:00Z`), 1), 'UTC');
		return {
			...common,
			start: dateArray(localDay(event.StartDateTimeUtc, zone)),
			end: dateArray(dayAfter),
		};
	}
	return {
		...common,
		start: Date.parse(event.StartDateTimeUtc),
		startInputType: 'utc',
		startOutputType: 'utc',
		end: Date.parse(event.EndDateTimeUtc),
		endInputType: 'utc',
		endOutputType: 'utc',
	};
}

/** One VCALENDAR holding the events (none is a valid, empty calendar). */
/**
 * The last calendar files made, by their input: the feed is asked for far more often than its
 * events change, and the ics package validates every event each time (most of a request's work).
 */
const madeFiles = new LRUCache<string, string>({ max: 20 });

export function eventsToIcs(events: readonly Event[], options: IcsOptions): string {
	const key = JSON.stringify([events, options]);
	const made = madeFiles.get(key);
	if (made !== undefined) return made;
	const file = makeIcs(events, options);
	madeFiles.set(key, file);
	return file;
}

function makeIcs(events: readonly Event[], options: IcsOptions): string {
	const { error, value } = createEvents(
		events.map((event) => attributes(event, options)),
		{ calName: options.calendarName, productId: 'chamber/events', method: 'PUBLISH' },
	);
	if (error || value === null) {
		throw new Error('Failed to build the calendar file', { cause: error });
	}
	return value;
}
