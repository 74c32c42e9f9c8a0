import type { ChamberConfig } from '../config/config.ts';
import type { AgendaProps } from './EventsAgenda.tsx';

// What the three calendar pages take from the configuration: titles and descriptions (from the
// chamber's name, city and state), the disclaimer, and the /events-list switches.

export type CalendarPage = 'events' | 'events-list' | 'community-events';

export interface PageMeta {
	path: string;
	/** The h1, also the page title (the layout appends the chamber name). */
	heading: string;
	description: string;
}

type MetaSource = Pick<ChamberConfig, 'name' | 'city' | 'state' | 'content'>;

function place(config: MetaSource): string {
	return [config.city, config.state].filter(Boolean).join(', ');
}

/** 'the Cedar Valley Chamber of Commerce', without doubling a leading 'The'. */
function chamberNoun(name: string): string {
	return /^the\s/i.test(name) ? name : `the ${name}`;
}

export function calendarPageMeta(config: MetaSource, page: CalendarPage): PageMeta {
	const where = place(config);
	const near = where ? ` in ${where}` : '';
	const chamber = chamberNoun(config.name);
	switch (page) {
		case 'events':
			return {
				path: '/events',
				heading: config.content.eventsTabLabel || 'Events',
				description: `Upcoming events of ${chamber}${near}: networking, education and member events in a calendar or a list.`,
			};
		case 'events-list':
			return {
				path: '/events-list',
				heading: 'Events Calendar',
				description: `The events calendar of ${chamber}${near}: chamber and community events by day, week or month.`,
			};
		case 'community-events':
			return {
				path: '/community-events',
				heading: 'Community Events Calendar',
				description: `Community events${near}, collected by ${chamber}.`,
			};
	}
}

/** The /community-events disclaimer, naming the chamber. */
export function communityDisclaimer(name: string): string {
	return `Events in the 'Community' category are not hosted or endorsed by ${chamberNoun(name)}.`;
}

/** The /events-list island's settings: tab labels and the feature switches. */
export function agendaProps(config: Pick<ChamberConfig, 'content' | 'features'>): AgendaProps {
	const { content, features } = config;
	return {
		eventsLabel: content.eventsTabLabel,
		communityLabel: content.communityEventsTabLabel,
		showEvents: features.showEvents !== false,
		showCommunity: features.showCommunityEvents !== false,
		showFilters: features.showEventFilters !== false,
		featuredEventId: features.showFeaturedEvent ? features.featuredEventId : null,
	};
}
