import { z } from 'zod';
import { MAX_LENGTH, label, safeUrl } from './fields.ts';

export const menuSubItemSchema = z.object({
	/** Link text. */
	label: label('Expected a menu label'),
	/** URL key (e.g. 'aboutUrl'), internal path or full URL; default ''. */
	url: safeUrl(),
	/** Internal (same-site) link rather than a new-tab external one; default false. */
	isInternal: z.boolean().default(false),
});

export const menuItemSchema = z.object({
	/** Stable id used as the React key and by the menu editor. */
	id: label('Expected a menu item id'),
	/** Menu text. */
	label: label('Expected a menu label'),
	/** link | dropdown; default 'link'. */
	type: z.enum(['link', 'dropdown']).default('link'),
	/** URL key, internal path or full URL; '' for dropdowns; default ''. */
	url: safeUrl(),
	/** Internal (same-site) link rather than a new-tab external one; default false. */
	isInternal: z.boolean().default(false),
	/** Sub-items of a dropdown; absent for links. */
	items: z.array(menuSubItemSchema).max(MAX_LENGTH.items).optional(),
});

export const navigationSchema = z.object({
	/** Header menu; default Home, Directory, Events and an About dropdown (aboutUrl, teamUrl, boardUrl). */
	menuItems: z
		.array(menuItemSchema)
		.max(MAX_LENGTH.items)
		.prefault(() => [
			{ id: 'home', label: 'Home', type: 'link', url: '/', isInternal: true },
			{ id: 'directory', label: 'Directory', type: 'link', url: '/search', isInternal: true },
			// The real events path follows content.defaultEventsCalendar and is resolved at render time.
			{ id: 'events', label: 'Events', type: 'link', url: '/events', isInternal: true },
			{
				id: 'about',
				label: 'About',
				type: 'dropdown',
				url: '',
				isInternal: false,
				items: [
					{ label: 'About Us', url: 'aboutUrl', isInternal: false },
					{ label: 'Our Team', url: 'teamUrl', isInternal: false },
					{ label: 'Board of Directors', url: 'boardUrl', isInternal: false },
				],
			},
		]),
});
