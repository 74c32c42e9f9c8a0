import { z } from 'zod';
import { EVENTS_CALENDARS, MAX_LENGTH, text } from './fields.ts';

// The events tab labels and the default calendar have the product's own defaults; the other texts
// below are neutral, chamber-agnostic copy for a chamber that has not written its own.
export const contentSchema = z.object({
	/** Home hero title; default 'Discover Local Businesses' (chosen). */
	heroTitle: text('Discover Local Businesses'),
	/** Home hero subtitle; default 'Search our directory of chamber member businesses' (chosen). */
	heroSubtitle: text('Search our directory of chamber member businesses', MAX_LENGTH.long),
	/** Footer tagline under the chamber name; default 'Supporting local business and our community' (chosen). */
	footerTagline: text('Supporting local business and our community', MAX_LENGTH.long),
	/** Text after the copyright year and name; default 'All rights reserved.' (chosen). */
	copyrightText: text('All rights reserved.'),
	/** Home featured-businesses heading; default 'Featured Businesses' (chosen). */
	featuredTitle: text('Featured Businesses'),
	/** Home popular-categories heading; default 'Popular Categories' (chosen). */
	categoriesTitle: text('Popular Categories'),
	/** Why-join block heading; default 'Why Join the Chamber?' (chosen). */
	whyJoinTitle: text('Why Join the Chamber?'),
	/** Why-join block text; default: a short generic membership pitch (chosen). */
	whyJoinText: text(
		'Membership connects your business with local customers, partners and community leaders, and gives you a voice in the issues that shape our local economy.',
		MAX_LENGTH.long,
	),
	/** Why-join button label; default 'Join Today' (chosen, matches the header button). */
	whyJoinButtonText: text('Join Today'),
	/** Search page title; default 'Business Directory' (the /search route's purpose). */
	directoryTitle: text('Business Directory'),
	/** Business profile promo box title; default 'Grow Your Business' (chosen). */
	sidebarTitle: text('Grow Your Business'),
	/** Business profile promo box tagline; default 'Join the chamber and connect with the local business community' (chosen). */
	sidebarTagline: text(
		'Join the chamber and connect with the local business community',
		MAX_LENGTH.long,
	),
	/** Business profile promo box button label; default 'Become a Member' (chosen). */
	sidebarButtonText: text('Become a Member'),
	/** Label of the chamber events tab; default 'Events'. */
	eventsTabLabel: text('Events'),
	/** Label of the community events tab; default 'Community Events'. */
	communityEventsTabLabel: text('Community Events'),
	/** Which calendar the Events links open: events | community-events | events-list; default 'events'. */
	defaultEventsCalendar: z.enum(EVENTS_CALENDARS).default('events'),
	/** Meta description for pages without their own; default ''. */
	metaDescription: text('', MAX_LENGTH.long),
	/** Meta keywords; default ''. */
	metaKeywords: text('', MAX_LENGTH.long),
});
