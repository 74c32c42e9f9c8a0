import { describe, expect, it } from 'vitest';
import { parseConfig, type ChamberConfigInput } from '../config/config.ts';
import { agendaProps, calendarPageMeta, communityDisclaimer } from './pages.ts';

const config = (extra: Partial<ChamberConfigInput> = {}) =>
	parseConfig(
		{
			name: 'Cedar Valley Chamber of Commerce',
			slug: 'demo',
			city: 'Cedarbrook',
			state: 'ia',
			...extra,
		},
		'test',
	);

describe('calendar page metadata', () => {
	it('titles each page and describes it with the chamber, city and state', () => {
		const events = calendarPageMeta(config(), 'events');
		expect(events).toMatchObject({ path: '/events', heading: 'Events' });
		expect(events.description).toContain('the Cedar Valley Chamber of Commerce in Cedarbrook, IA');
		expect(calendarPageMeta(config(), 'events-list')).toMatchObject({
			path: '/events-list',
			heading: 'Events Calendar',
		});
		const community = calendarPageMeta(config(), 'community-events');
		expect(community).toMatchObject({
			path: '/community-events',
			heading: 'Community Events Calendar',
		});
		expect(community.description).toBe(
			'Community events in Cedarbrook, IA, collected by the Cedar Valley Chamber of Commerce.',
		);
	});

	it('uses the configured events label and leaves out a missing place', () => {
		const meta = calendarPageMeta(
			config({ city: '', state: '', content: { eventsTabLabel: 'Chamber Events' } }),
			'events',
		);
		expect(meta.heading).toBe('Chamber Events');
		expect(meta.description).toBe(
			'Upcoming events of the Cedar Valley Chamber of Commerce: networking, education and member events in a calendar or a list.',
		);
		for (const page of ['events', 'events-list', 'community-events'] as const) {
			expect(calendarPageMeta(config(), page).description.length).toBeLessThanOrEqual(160);
		}
	});

	it('names the chamber in the community disclaimer without doubling "the"', () => {
		expect(communityDisclaimer('Cedar Valley Chamber of Commerce')).toBe(
			"Events in the 'Community' category are not hosted or endorsed by the Cedar Valley Chamber of Commerce.",
		);
		expect(communityDisclaimer('The Riverside Chamber')).toMatch(
			/endorsed by The Riverside Chamber\.$/,
		);
	});
});

describe('/events-list settings', () => {
	it('passes the tab labels and defaults: community tab and filters on, no featured card', () => {
		expect(agendaProps(config())).toEqual({
			eventsLabel: 'Events',
			communityLabel: 'Community Events',
			showEvents: true,
			showCommunity: true,
			showFilters: true,
			featuredEventId: null,
		});
	});

	it('follows the feature switches', () => {
		const props = agendaProps(
			config({
				content: { eventsTabLabel: 'Chamber Events', communityEventsTabLabel: 'Around Town' },
				features: {
					showCommunityEvents: false,
					showEventFilters: false,
					showFeaturedEvent: true,
					featuredEventId: 41036,
				},
			}),
		);
		expect(props).toEqual({
			eventsLabel: 'Chamber Events',
			communityLabel: 'Around Town',
			showEvents: true,
			showCommunity: false,
			showFilters: false,
			featuredEventId: 41036,
		});
	});

	it('shows the featured card only when it is switched on and an event is chosen', () => {
		const off = config({ features: { showFeaturedEvent: false, featuredEventId: 41036 } });
		expect(agendaProps(off).featuredEventId).toBeNull();
		const unset = config({ features: { showFeaturedEvent: true, featuredEventId: '' } });
		expect(agendaProps(unset).featuredEventId).toBeNull();
	});
});
