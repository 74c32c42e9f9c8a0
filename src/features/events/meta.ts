import type { ChamberConfig } from '../config/config.ts';

// Titles and descriptions of the three calendar pages, from the chamber's name, city and state.

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
export function chamberNoun(name: string): string {
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
