import type { WritableAtom } from 'nanostores';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Agenda, type AgendaProps } from './EventsAgenda.tsx';
import type { Event } from './events.ts';
import { createEventsFeed, createListView, type FeedState } from './store.ts';

// What /events-list renders for a loaded calendar, per configuration (the switches are set at
// build time, so the demo's end-to-end tests see only one combination).

const range = { startDate: '2026-08-22', endDate: '2027-02-22' };

function event(EventId: number, EventName: string, EventType: string): Event {
	return {
		EventId,
		EventName,
		EventType,
		EventTypeColor: '#2563eb',
		StartDateTimeUtc: '2026-11-22T15:00:00.000Z',
		EndDateTimeUtc: '2026-11-22T16:30:00.000Z',
		StartDate: '2026-11-22',
		EndDate: '2026-11-22',
		StartTime: '9:00 AM',
		EndTime: '10:30 AM',
		TimeZone: { Abbreviation: 'CST', Name: 'America/Chicago' },
		Venue: 'Cedarbrook Civic Center',
		Closed: false,
	} as Event;
}

function render(props: Partial<AgendaProps>, events: Event[]): string {
	const feeds = {
		events: createEventsFeed('events', range),
		community: createEventsFeed('community', range),
	};
	const loaded: FeedState = { status: 'loaded', events, range, error: null, loadingMore: false };
	(feeds.events.$state as WritableAtom<FeedState>).set(loaded);
	(feeds.community.$state as WritableAtom<FeedState>).set(loaded);
	return renderToStaticMarkup(
		createElement(Agenda, {
			eventsLabel: 'Chamber Events',
			communityLabel: 'Around Town',
			showEvents: true,
			showCommunity: true,
			showFilters: true,
			featuredEventId: null,
			...props,
			today: '2026-11-22',
			store: createListView('2026-11-22', props.showEvents === false ? 'community' : 'events'),
			feeds,
		}),
	);
}

const events = [
	event(1, 'Coffee Connections', 'Networking'),
	event(2, 'Lunch & Learn', 'Education'),
];

describe('the /events-list island', () => {
	it("lists the selected day's events under its header, with both tabs", () => {
		const html = render({}, events);
		expect(html).toContain('EVENTS FOR NOV 22');
		expect(html).toContain('href="/events/1/coffee-connections"');
		expect(html).toContain('Sunday, November 22, 2026');
		expect(html).toContain('9:00 AM – 10:30 AM CST');
		expect(html).toContain('Cedarbrook Civic Center');
		expect(html.match(/role="tab"/g)).toHaveLength(2);
		expect(html).toContain('>Around Town</button>');
	});

	it('leaves out the community tab when community events are switched off', () => {
		const html = render({ showCommunity: false }, events);
		expect(html.match(/role="tab"/g)).toHaveLength(1);
		expect(html).not.toContain('Around Town');
	});

	it('shows only the community tab, selected, when chamber events are switched off', () => {
		const html = render({ showEvents: false }, events);
		expect(html.match(/role="tab"/g)).toHaveLength(1);
		expect(html).not.toContain('Chamber Events');
		expect(html).toMatch(/aria-selected="true"[^>]*>Around Town<\/button>/);
		expect(html).toContain('href="/api/events.ics?source=community"');
	});

	it('shows the type filters, uppercase, unless they are switched off', () => {
		const html = render({}, events);
		expect(html).toContain('EVENT FILTERS:');
		expect(html).toContain('EDUCATION');
		expect(html).toContain('NETWORKING');
		expect(html).toContain('Clear Filters');
		expect(render({ showFilters: false }, events)).not.toContain('EVENT FILTERS:');
	});

	it("says 'No event types available' when no event has a type", () => {
		const html = render({}, [event(3, 'Open House', '')]);
		expect(html).toContain('No event types available');
	});

	it('names an empty day', () => {
		expect(render({}, [])).toContain('No events found for the selected day.');
	});
});
