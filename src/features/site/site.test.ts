import { describe, expect, it } from 'vitest';
import { chamberConfigSchema, type ChamberConfigInput } from '../config/config.ts';
import {
	cardSettings,
	chamberSocialLinks,
	navigationEntries,
	quickLinks,
	resourceLinks,
} from './site.ts';

const config = (input: Partial<ChamberConfigInput> = {}) =>
	chamberConfigSchema.parse({ slug: 'demo', name: 'Demo Chamber', ...input });

describe('navigationEntries', () => {
	it('resolves URL keys, keeps internal paths and marks external links', () => {
		const entries = navigationEntries(
			config({
				urls: { newsUrl: 'https://demo.example/news', aboutUrl: 'demo.example/about' },
				navigation: {
					menuItems: [
						{ id: 'dir', label: 'Directory', type: 'link', url: '/search', isInternal: true },
						{ id: 'news', label: 'News', type: 'link', url: 'newsUrl', isInternal: false },
						{
							id: 'about',
							label: 'About',
							type: 'dropdown',
							items: [
								{ label: 'About Us', url: 'aboutUrl' },
								{ label: 'Team', url: 'teamUrl' },
							],
						},
					],
				},
			}),
		);
		expect(entries).toEqual([
			{ type: 'link', id: 'dir', label: 'Directory', href: '/search', external: false },
			{
				type: 'link',
				id: 'news',
				label: 'News',
				href: 'https://demo.example/news',
				external: true,
			},
			{
				type: 'dropdown',
				id: 'about',
				label: 'About',
				// teamUrl is not configured: the item is left out rather than linking nowhere.
				items: [{ label: 'About Us', href: 'https://demo.example/about', external: true }],
			},
		]);
	});

	it('drops links that do not resolve and dropdowns left empty', () => {
		const entries = navigationEntries(
			config({
				navigation: {
					menuItems: [
						{ id: 'a', label: 'Advocacy', type: 'link', url: 'advocacyUrl' },
						{
							id: 'b',
							label: 'More',
							type: 'dropdown',
							items: [{ label: 'X', url: 'jobBoardUrl' }],
						},
						{ id: 'c', label: 'Home', type: 'link', url: '/', isInternal: true },
					],
				},
			}),
		);
		expect(entries.map((e) => e.label)).toEqual(['Home']);
	});

	it.each([
		['events', '/events'],
		['community-events', '/community-events'],
		['events-list', '/events-list'],
	] as const)('sends the default Events item to the %s calendar', (calendar, path) => {
		const entries = navigationEntries(config({ content: { defaultEventsCalendar: calendar } }));
		const events = entries.find((e) => e.label === 'Events');
		expect(events).toMatchObject({ type: 'link', href: path, external: false });
	});

	it('keeps explicit calendar links inside a dropdown as configured', () => {
		const entries = navigationEntries(
			config({
				content: { defaultEventsCalendar: 'community-events' },
				navigation: {
					menuItems: [
						{
							id: 'events',
							label: 'Events',
							type: 'dropdown',
							items: [{ label: 'Chamber Events', url: '/events', isInternal: true }],
						},
					],
				},
			}),
		);
		expect(entries[0]).toMatchObject({ items: [{ href: '/events' }] });
	});
});

describe('footer links', () => {
	it('shows a social icon only for each configured network, named for the chamber', () => {
		const links = chamberSocialLinks(
			config({
				social: { facebook: 'https://facebook.com/demo', youtube: 'https://youtube.com/@demo' },
			}),
		);
		expect(links).toEqual([
			{
				network: 'facebook',
				href: 'https://facebook.com/demo',
				external: true,
				label: 'Demo Chamber on Facebook',
			},
			{
				network: 'youtube',
				href: 'https://youtube.com/@demo',
				external: true,
				label: 'Demo Chamber on YouTube',
			},
		]);
		expect(chamberSocialLinks(config())).toEqual([]);
	});

	it.each([
		['events', '/events'],
		['community-events', '/community-events'],
		['events-list', '/events-list'],
	] as const)('Quick Links: Events goes to the %s calendar', (calendar, path) => {
		const links = quickLinks(
			config({
				content: { defaultEventsCalendar: calendar },
				urls: { joinUrl: 'https://demo.example/join' },
			}),
		);
		expect(links).toEqual([
			{ label: 'Directory Home', href: '/', external: false },
			{ label: 'Search Directory', href: '/search', external: false },
			{ label: 'Events', href: path, external: false },
			{ label: 'Join the Chamber', href: 'https://demo.example/join', external: true },
		]);
	});

	it('Resources: the four links with the default or configured labels', () => {
		const urls = {
			businessResourcesUrl: 'https://demo.example/sb',
			workforceUrl: 'https://demo.example/wf',
			communityGuideUrl: 'https://demo.example/cg',
			jobBoardUrl: 'https://demo.example/jobs',
		};
		expect(resourceLinks(config({ urls })).map((l) => [l.label, l.href])).toEqual([
			['Small Business Resources', urls.businessResourcesUrl],
			['Workforce Resources', urls.workforceUrl],
			['Community Guide', urls.communityGuideUrl],
			['Job Board', urls.jobBoardUrl],
		]);
		const custom = resourceLinks(
			config({ urls, footerLabels: { workforceLabel: 'Careers', jobBoardLabel: 'Jobs' } }),
		);
		expect(custom.map((l) => l.label)).toEqual([
			'Small Business Resources',
			'Careers',
			'Community Guide',
			'Jobs',
		]);
		expect(resourceLinks(config({ urls: { workforceUrl: urls.workforceUrl } }))).toEqual([
			{ label: 'Workforce Resources', href: urls.workforceUrl, external: true },
		]);
	});
});

describe('cardSettings', () => {
	it('passes the badge and description switches to the cards', () => {
		expect(
			cardSettings(
				config({
					features: {
						memberBadgeDisplay: 'year',
						showMembershipLevels: false,
						showBusinessShortDescription: true,
					},
				}),
			),
		).toEqual({
			memberBadgeDisplay: 'year',
			showMembershipLevels: false,
			showBusinessShortDescription: true,
		});
	});
});
