import { describe, expect, it } from 'vitest';
import {
	ConfigError,
	FONT_CHOICES,
	MEMBER_FIELD_CHOICES,
	URL_KEYS,
	chamberConfigSchema,
	configFromRow,
	configToRow,
	calendarOn,
	eventsLanding,
	eventsPath,
	parseConfig,
	repairConfig,
	resolveUrl,
} from './config.ts';
import type { ChamberConfig, EventsCalendar, Urls } from './config.ts';
import { PLACEHOLDER_CONFIG } from './placeholder.ts';
import { themeCss } from './theme.ts';

const minimal = () => chamberConfigSchema.parse({ slug: 'demo', name: 'Demo Chamber' });

function errorOf(fn: () => unknown): ConfigError {
	try {
		fn();
	} catch (error) {
		if (error instanceof ConfigError) return error;
		throw error;
	}
	throw new Error('expected a ConfigError');
}

describe('defaults', () => {
	it('completes a config holding only name and slug', () => {
		const c = minimal();
		expect(c.name).toBe('Demo Chamber');
		expect(c.slug).toBe('demo');
		expect(c.city).toBe('');
		expect(c.state).toBe('');
		expect(c.foundedYear).toBeNull();
	});

	it('colours', () => {
		expect(minimal().colors).toEqual({
			primary: '#0d3e63',
			primaryLight: '#5fa6d7',
			primaryDark: expect.stringMatching(/^#[0-9a-fA-F]{6}$/),
			secondary: expect.stringMatching(/^#[0-9a-fA-F]{6}$/),
			secondaryLight: '#FBBF24',
			secondaryDark: '#D97706',
		});
	});

	it('logo, contact, social, services are empty, but for the country (the United States)', () => {
		const c = minimal();
		expect(c.logo).toEqual({ standard: '', stacked: '', favicon: '' });
		expect(c.contact).toEqual({
			address: '',
			addressLine2: '',
			city: '',
			state: '',
			zip: '',
			country: 'US',
			phone: '',
			timeZone: '',
			email: '',
		});
		expect(c.social).toEqual({
			facebook: '',
			twitter: '',
			linkedin: '',
			instagram: '',
			youtube: '',
		});
		expect(c.services).toEqual({
			googleAnalyticsId: '',
			recaptchaSiteKey: '',
			mapTileUrl: '',
			mapAttribution: '',
			emailDomain: '',
		});
	});

	it('fonts default to Inter and the 20 choices are offered', () => {
		expect(minimal().fonts).toEqual({ heading: 'Inter', body: 'Inter' });
		expect(FONT_CHOICES).toHaveLength(20);
		expect(FONT_CHOICES).toContain('Playfair Display');
		expect(FONT_CHOICES).toContain('Manrope');
	});

	it('text colours', () => {
		expect(minimal().textColors).toEqual({
			heading: '#1a202c',
			body: '#374151',
			link: '#0d3e63',
			linkHover: '#5fa6d7',
			onDarkHeading: '#ffffff',
			onDarkBody: '#e5e7eb',
		});
	});

	it('urls: all 20 keys, empty', () => {
		const { urls } = minimal();
		expect(URL_KEYS).toHaveLength(20);
		expect(Object.keys(urls).sort()).toEqual([...URL_KEYS].sort());
		expect(Object.values(urls).every((v) => v === '')).toBe(true);
	});

	it('footer labels', () => {
		expect(minimal().footerLabels).toEqual({
			businessResourcesLabel: 'Small Business Resources',
			workforceLabel: 'Workforce Resources',
			communityGuideLabel: 'Community Guide',
			jobBoardLabel: 'Job Board',
		});
	});

	it('content', () => {
		const { content } = minimal();
		expect(content.eventsTabLabel).toBe('Events');
		expect(content.communityEventsTabLabel).toBe('Community Events');
		expect(content.defaultEventsCalendar).toBe('events');
		expect(content.directoryTitle).toBe('Business Directory');
		expect(Object.keys(content).sort()).toEqual(
			[
				'heroTitle',
				'heroSubtitle',
				'footerTagline',
				'copyrightText',
				'featuredTitle',
				'categoriesTitle',
				'whyJoinTitle',
				'whyJoinText',
				'whyJoinButtonText',
				'directoryTitle',
				'sidebarTitle',
				'sidebarTagline',
				'sidebarButtonText',
				'eventsTabLabel',
				'communityEventsTabLabel',
				'defaultEventsCalendar',
				'metaDescription',
				'metaKeywords',
			].sort(),
		);
		for (const key of ['heroTitle', 'heroSubtitle', 'whyJoinTitle', 'whyJoinText'] as const) {
			expect(content[key]).not.toBe('');
		}
	});

	it('features', () => {
		expect(minimal().features).toEqual({
			showEvents: true,
			showCommunityEvents: true,
			showNewMembersFilter: true,
			showMembershipLevels: true,
			showBanners: true,
			showEventFilters: true,
			showFeaturedEvent: false,
			featuredEventId: null,
			showBusinessShortDescription: false,
			showEventAttendeeCountInHeader: true,
			memberBadgeDisplay: 'level',
			businessDetailLayout: 'classic',
			showMap: true,
			showNearMe: true,
			showMainContact: false,
			memberUpdates: false,
			memberFields: [...MEMBER_FIELD_CHOICES],
			memberLiveFields: ['hours'],
			memberEditorsApprove: false,
			memberMaxCategories: 3,
			publishWindow: '1h',
		});
	});

	it('membership levels', () => {
		expect(minimal().membershipLevels).toEqual({
			featured: ['trustee'],
			canLinkWebsite: [
				'trustee',
				'chairman',
				'executive partner',
				'executive',
				'corporate',
				'corporate partner',
			],
		});
	});

	it('featured businesses', () => {
		expect(minimal().featuredBusinesses).toEqual({
			strategy: 'membership',
			count: 2,
			membershipLevels: ['trustee', 'chairman'],
			requireCompleteProfile: true,
			showViewAllButton: true,
		});
	});

	it('category display', () => {
		expect(minimal().categoryDisplay).toEqual({ count: 8, sortBy: 'popularity' });
	});

	it('search page', () => {
		expect(minimal().searchPage).toEqual({
			defaultSort: 'membershipHighToLow',
			availableSorts: [
				'nameAsc',
				'nameDesc',
				'membershipHighToLow',
				'membershipLowToHigh',
				'random',
			],
			showSortDropdown: true,
			showFilters: true,
			availableFilters: ['city', 'county', 'zip'],
			membershipHierarchy: [
				{ name: 'Trustee', rank: 10 },
				{ name: 'Chairman', rank: 9 },
				{ name: 'Executive Partner', rank: 8 },
				{ name: 'Executive', rank: 7 },
				{ name: 'Corporate Partner', rank: 6 },
				{ name: 'Corporate', rank: 5 },
				{ name: 'Business Partner', rank: 4 },
				{ name: 'Member', rank: 3 },
			],
		});
	});

	it('navigation', () => {
		const items = minimal().navigation.menuItems;
		expect(items.map((i) => [i.label, i.type, i.url])).toEqual([
			['Home', 'link', '/'],
			['Directory', 'link', '/search'],
			['Events', 'link', '/events'],
			['About', 'dropdown', ''],
		]);
		expect(items[3]?.items?.map((i) => i.url)).toEqual(['aboutUrl', 'teamUrl', 'boardUrl']);
	});

	it('fills missing nested fields of a given section', () => {
		const c = chamberConfigSchema.parse({
			slug: 'demo',
			name: 'Demo',
			colors: { primary: '#112233' },
			features: { showBanners: false },
			navigation: { menuItems: [{ id: 'x', label: 'X', url: '/x' }] },
		});
		expect(c.colors.primary).toBe('#112233');
		expect(c.colors.primaryLight).toBe('#5fa6d7');
		expect(c.features.showBanners).toBe(false);
		expect(c.features.showEventFilters).toBe(true);
		expect(c.navigation.menuItems).toEqual([
			{ id: 'x', label: 'X', type: 'link', url: '/x', isInternal: false },
		]);
	});

	it('never shares default lists between parsed configs', () => {
		const a = minimal();
		a.searchPage.membershipHierarchy.push({ name: 'Extra', rank: 1 });
		a.navigation.menuItems[3]?.items?.push({ label: 'X', url: '/x', isInternal: true });
		const b = minimal();
		expect(b.searchPage.membershipHierarchy).toHaveLength(8);
		expect(b.navigation.menuItems[3]?.items).toHaveLength(3);
	});
});

describe('placeholder', () => {
	it('is complete and carries the placeholder values', () => {
		expect(PLACEHOLDER_CONFIG.name).toBe('Chamber of Commerce');
		expect(PLACEHOLDER_CONFIG.searchPage.membershipHierarchy).toEqual([
			{ name: 'Trustee', rank: 4 },
			{ name: 'Chairman', rank: 3 },
			{ name: 'Executive', rank: 2 },
			{ name: 'Business Partner', rank: 1 },
		]);
		expect(PLACEHOLDER_CONFIG.membershipLevels.featured).toEqual(['trustee', 'chairman']);
		expect(PLACEHOLDER_CONFIG.membershipLevels.canLinkWebsite).toEqual([
			'trustee',
			'chairman',
			'executive',
			'corporate',
		]);
		expect(PLACEHOLDER_CONFIG.featuredBusinesses.count).toBe(2);
		expect(PLACEHOLDER_CONFIG.featuredBusinesses.membershipLevels).toEqual(['trustee', 'chairman']);
		expect(PLACEHOLDER_CONFIG.categoryDisplay).toEqual({ count: 8, sortBy: 'popularity' });
		expect(PLACEHOLDER_CONFIG.searchPage.defaultSort).toBe('nameAsc');
		expect(PLACEHOLDER_CONFIG.colors.primary).toBe('#0d3e63');
		expect(parseConfig(PLACEHOLDER_CONFIG, 'placeholder')).toEqual(PLACEHOLDER_CONFIG);
	});

	it('cannot be mutated by a caller', () => {
		expect(Object.isFrozen(PLACEHOLDER_CONFIG.searchPage.membershipHierarchy)).toBe(true);
		expect(() => {
			(PLACEHOLDER_CONFIG.colors as { primary: string }).primary = '#000000';
		}).toThrow(TypeError);
	});
});

describe('count fall-backs', () => {
	const featured = (count: unknown) =>
		parseConfig({ slug: 'd', name: 'D', featuredBusinesses: { count } }, 't').featuredBusinesses
			.count;
	const categories = (count: unknown) =>
		parseConfig({ slug: 'd', name: 'D', categoryDisplay: { count } }, 't').categoryDisplay.count;

	it('keeps featured counts 1-6 and falls back to 2 otherwise', () => {
		expect(featured(1)).toBe(1);
		expect(featured(6)).toBe(6);
		expect(featured('4')).toBe(4);
		for (const bad of [0, 7, -1, 2.5, 'abc', '', null, true, {}, Number.NaN]) {
			expect(featured(bad)).toBe(2);
		}
	});

	it('keeps category counts 4-40 and falls back to 8 otherwise', () => {
		expect(categories(4)).toBe(4);
		expect(categories(40)).toBe(40);
		expect(categories('12')).toBe(12);
		for (const bad of [3, 41, 'many', '', null, [], 10.5]) expect(categories(bad)).toBe(8);
	});
});

describe('field rules', () => {
	it('uppercases countries and takes two letters only', () => {
		const parse = (country: string) =>
			chamberConfigSchema.safeParse({ name: 'X', slug: 'x', contact: { country } });
		expect(parse('ca').data?.contact.country).toBe('CA');
		expect(parse('USA').error?.issues[0]?.message).toBe(
			'Expected at most 2 characters, received 3',
		);
		expect(parse('').error?.issues[0]?.message).toBe(
			'Expected a 2-letter country code such as US, received ""',
		);
	});

	it('takes an https tile address with {z}, {x} and {y} only', () => {
		const parse = (mapTileUrl: string) =>
			chamberConfigSchema.safeParse({ name: 'X', slug: 'x', services: { mapTileUrl } });
		expect(parse('https://tiles.example.org/{z}/{x}/{y}.png').success).toBe(true);
		expect(parse('https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png').success).toBe(true);
		expect(parse('').success).toBe(true);
		for (const bad of [
			'http://tiles.example.org/{z}/{x}/{y}.png',
			'https://tiles.example.org/{z}/{x}.png',
			'javascript:alert(1)//{z}{x}{y}',
		]) {
			expect(parse(bad).error?.issues[0]?.message, bad).toMatch(/^Expected a tile address like/);
		}
	});

	it('uppercases states and limits them to 2 letters', () => {
		const c = parseConfig(
			{ slug: 'd', name: 'D', state: ' tx ', contact: { state: 'ca' } },
			'tenants/d.json',
		);
		expect(c.state).toBe('TX');
		expect(c.contact.state).toBe('CA');
		const error = errorOf(() => parseConfig({ slug: 'd', name: 'D', state: 'Texas' }, 't'));
		expect(error.issues.map((i) => i.path)).toEqual(['state']);
		expect(
			errorOf(() => parseConfig({ slug: 'd', name: 'D', contact: { state: 'TXX' } }, 't')).message,
		).toContain('contact.state');
	});

	it('turns an empty featuredEventId into null and numeric text into a number', () => {
		const id = (featuredEventId: unknown) =>
			parseConfig({ slug: 'd', name: 'D', features: { featuredEventId } }, 't').features
				.featuredEventId;
		expect(id('')).toBeNull();
		expect(id(null)).toBeNull();
		expect(id(undefined)).toBeNull();
		expect(id(1234)).toBe(1234);
		expect(id('1234')).toBe(1234);
		expect(() => id('abc')).toThrow(/features\.featuredEventId/);
	});

	it('accepts foundedYear as number, numeric text or empty', () => {
		const year = (foundedYear: unknown) =>
			parseConfig({ slug: 'd', name: 'D', foundedYear }, 't').foundedYear;
		expect(year(1905)).toBe(1905);
		expect(year('1905')).toBe(1905);
		expect(year('')).toBeNull();
	});

	it('restricts fonts to the list', () => {
		expect(() => parseConfig({ slug: 'd', name: 'D', fonts: { body: 'Comic Sans' } }, 't')).toThrow(
			/fonts\.body/,
		);
		expect(
			parseConfig({ slug: 'd', name: 'D', fonts: { heading: 'DM Sans' } }, 't').fonts.heading,
		).toBe('DM Sans');
	});

	it('refuses script URLs', () => {
		for (const url of [
			'javascript:alert(1)',
			'JavaScript:x',
			'java\tscript:x',
			'data:text/html,x',
		]) {
			expect(() => parseConfig({ slug: 'd', name: 'D', urls: { joinUrl: url } }, 't')).toThrow(
				/urls\.joinUrl/,
			);
		}
	});

	it('lowercases and deduplicates level names', () => {
		const c = parseConfig(
			{ slug: 'd', name: 'D', membershipLevels: { featured: ['Trustee', 'trustee', 'Chairman'] } },
			't',
		);
		expect(c.membershipLevels.featured).toEqual(['trustee', 'chairman']);
	});
});

describe('parseConfig errors', () => {
	it('names the path of a bad colour with the received value', () => {
		const error = errorOf(() =>
			parseConfig({ slug: 'demo', name: 'Demo', colors: { primary: 'blue' } }, 'tenants/demo.json'),
		);
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe('ConfigError');
		expect(error.source).toBe('tenants/demo.json');
		expect(error.message).toBe(
			'Invalid chamber configuration in tenants/demo.json:\n' +
				'  - colors.primary: Expected a hex colour like #0d3e63, received "blue"',
		);
	});

	it('lists every bad field on its own line', () => {
		const error = errorOf(() =>
			parseConfig(
				{
					name: 'Demo',
					textColors: { link: 42 },
					searchPage: { availableSorts: ['nameAsc', 'bogus'] },
					navigation: { menuItems: [{ id: 'a', label: '' }] },
				},
				'row of tenant x',
			),
		);
		expect(error.issues.map((i) => i.path)).toEqual([
			'slug',
			'textColors.link',
			'searchPage.availableSorts[1]',
			'navigation.menuItems[0].label',
		]);
		expect(error.message.split('\n')).toHaveLength(5);
		expect(error.message).toContain('  - slug: Required');
		expect(error.message).toContain('received "bogus"');
	});

	it('reports a non-object at the root', () => {
		expect(() => parseConfig('nope', 'x')).toThrow('(root)');
	});
});

describe('database rows', () => {
	const custom = (): ChamberConfig =>
		parseConfig(
			{
				slug: 'demo',
				name: 'Demo',
				city: 'Springfield',
				state: 'il',
				foundedYear: 1910,
				colors: { secondary: '#abc' },
				features: { featuredEventId: '77', showMainContact: true },
				featuredBusinesses: { strategy: 'affiliation', affiliation: 'Downtown', count: 4 },
				urls: { joinUrl: 'https://example.org/join' },
			},
			'test',
		);

	it('maps to snake_case columns keeping camelCase jsonb', () => {
		const row = configToRow(custom());
		expect(row.founded_year).toBe(1910);
		expect(row.text_colors.onDarkBody).toBe('#e5e7eb');
		expect(row.featured_businesses.affiliation).toBe('Downtown');
		expect(row.search_page.defaultSort).toBe('membershipHighToLow');
		expect(Object.keys(row)).not.toContain('tenant_id');
		expect(Object.keys(row)).toHaveLength(21);
	});

	it('round-trips through a row, also through JSON', () => {
		for (const c of [custom(), minimal(), PLACEHOLDER_CONFIG]) {
			expect(configFromRow(configToRow(c), 'row')).toEqual(c);
			const stored = { tenant_id: '00000000-0000-0000-0000-000000000000', ...configToRow(c) };
			expect(configFromRow(JSON.parse(JSON.stringify(stored)), 'row')).toEqual(c);
		}
	});

	it('treats NULL columns as unset', () => {
		const c = configFromRow(
			{ name: 'Demo', slug: 'demo', city: null, founded_year: null, colors: null, features: null },
			'row',
		);
		expect(c.city).toBe('');
		expect(c.foundedYear).toBeNull();
		expect(c.colors.primary).toBe('#0d3e63');
		expect(c.features.showBanners).toBe(true);
	});

	it('validates rows', () => {
		expect(() =>
			configFromRow(
				{ name: 'Demo', slug: 'demo', colors: { primary: 'red' } },
				'chamber_config demo',
			),
		).toThrow(/in chamber_config demo:\n {2}- colors\.primary/);
	});
});

describe('resolveUrl', () => {
	const urls: Urls = {
		...minimal().urls,
		joinUrl: 'https://example.org/join',
		aboutUrl: 'example.org/about',
	};

	it('resolves URL keys', () => {
		expect(resolveUrl('joinUrl', urls)).toBe('https://example.org/join');
		expect(resolveUrl('aboutUrl', urls)).toBe('https://example.org/about');
		expect(resolveUrl('teamUrl', urls)).toBe('');
	});

	it('passes internal paths and full URLs through', () => {
		expect(resolveUrl('/search', urls)).toBe('/search');
		expect(resolveUrl('/search?category=Legal', urls)).toBe('/search?category=Legal');
		expect(resolveUrl('#top', urls)).toBe('#top');
		expect(resolveUrl('https://other.org/x', urls)).toBe('https://other.org/x');
		expect(resolveUrl('mailto:info@example.org', urls)).toBe('mailto:info@example.org');
		expect(resolveUrl(' www.example.org ', urls)).toBe('https://www.example.org');
	});

	it('resolves unknown keys and unsafe schemes to an empty string', () => {
		expect(resolveUrl('', urls)).toBe('');
		expect(resolveUrl('unknownUrl', urls)).toBe('');
		expect(resolveUrl('javascript:alert(1)', urls)).toBe('');
		expect(resolveUrl('toString', urls)).toBe('');
	});
});

describe('eventsPath', () => {
	it('maps each calendar and falls back to /events', () => {
		expect(eventsPath('events')).toBe('/events');
		expect(eventsPath('community-events')).toBe('/community-events');
		expect(eventsPath('events-list')).toBe('/events-list');
		expect(eventsPath('other')).toBe('/events');
		expect(eventsPath(undefined)).toBe('/events');
	});
});

describe('events feature switches', () => {
	const features = (showEvents: boolean, showCommunityEvents: boolean) => ({
		showEvents,
		showCommunityEvents,
	});
	const landing = (calendar: EventsCalendar, showEvents: boolean, showCommunity: boolean) =>
		eventsLanding({
			content: { ...minimal().content, defaultEventsCalendar: calendar },
			features: { ...minimal().features, ...features(showEvents, showCommunity) },
		});

	it('builds /events-list while either area is on, the single-source pages with their own', () => {
		expect(calendarOn('events', features(true, false))).toBe(true);
		expect(calendarOn('events', features(false, true))).toBe(false);
		expect(calendarOn('community-events', features(true, false))).toBe(false);
		expect(calendarOn('community-events', features(false, true))).toBe(true);
		expect(calendarOn('events-list', features(false, true))).toBe(true);
		expect(calendarOn('events-list', features(true, false))).toBe(true);
		expect(calendarOn('events-list', features(false, false))).toBe(false);
	});

	it('leads Events links to the default calendar, else to the area still on, else nowhere', () => {
		expect(landing('events', true, true)).toBe('/events');
		expect(landing('community-events', true, true)).toBe('/community-events');
		expect(landing('events', false, true)).toBe('/community-events');
		expect(landing('community-events', true, false)).toBe('/events');
		expect(landing('events-list', false, true)).toBe('/events-list');
		expect(landing('events-list', false, false)).toBeNull();
		expect(landing('events', false, false)).toBeNull();
	});
});

describe('theme', () => {
	it('emits every custom property from the config', () => {
		const c = parseConfig(
			{
				slug: 'd',
				name: 'D',
				colors: { primary: '#112233' },
				textColors: { linkHover: '#abcdef' },
				fonts: { heading: 'Playfair Display', body: 'Open Sans' },
			},
			't',
		);
		const css = themeCss(c);
		expect(css.startsWith(':root {')).toBe(true);
		expect(css.trimEnd().endsWith('}')).toBe(true);
		expect(css).toContain('--color-primary: #112233;');
		expect(css).toContain('--color-primary-light: #5fa6d7;');
		expect(css).toContain('--color-primary-dark: ');
		expect(css).toContain('--color-secondary: ');
		expect(css).toContain('--color-secondary-light: #fbbf24;');
		expect(css).toContain('--color-secondary-dark: #d97706;');
		expect(css).toContain('--text-heading: #1a202c;');
		expect(css).toContain('--text-body: #374151;');
		expect(css).toContain('--text-link: #0d3e63;');
		// #abcdef reads at 1.7:1 on white: the site darkens it (theme.test.ts has the rule).
		expect(css).toMatch(/--text-link-hover: #[0-9a-f]{6};/);
		expect(css).not.toContain('--text-link-hover: #abcdef;');
		expect(css).toContain('--text-on-accent: #1a202c;');
		expect(css).toContain('--color-primary-text: #112233;');
		expect(css).toMatch(/--focus-ring: #[0-9a-f]{6};/);
		expect(css).toContain('--text-on-dark-heading: #ffffff;');
		expect(css).toContain('--text-on-dark-body: #e5e7eb;');
		expect(css).toMatch(/--font-heading: 'Playfair Display', [^;]*serif;/);
		expect(css).toMatch(/--font-body: 'Open Sans', [^;]*sans-serif;/);
		expect(css.match(/--[a-z-]+:/g)).toHaveLength(17);
	});

	it('refuses values that could break out of the style block', () => {
		const c = minimal();
		expect(() =>
			themeCss({ ...c, colors: { ...c.colors, primary: 'red;}</style><script>' } }),
		).toThrow(/colors\.primary/);
		expect(() => themeCss({ ...c, fonts: { ...c.fonts, body: "x'; }" as 'Inter' } })).toThrow(
			/fonts\.body/,
		);
	});
});

describe('repairConfig', () => {
	it('drops each invalid value for its default and names it', () => {
		const { config, issues } = repairConfig(
			{
				name: 'Cedar Valley',
				slug: 'demo',
				content: { heroTitle: { x: 1 }, heroSubtitle: 'Kept' },
				colors: { primary: 'red' },
				navigation: {
					menuItems: [
						{ id: 'a', label: 'A' },
						{ id: 'b', label: 42 },
					],
				},
			},
			'test',
		);
		expect(config.content.heroTitle).toBe('Discover Local Businesses');
		expect(config.content.heroSubtitle).toBe('Kept');
		expect(config.colors.primary).toBe('#0d3e63');
		// A menu item cannot go without its label: it goes whole.
		expect(config.navigation.menuItems.map((i) => i.id)).toEqual(['a']);
		expect(issues.map((i) => i.path)).toEqual([
			'colors.primary',
			'content.heroTitle',
			'navigation.menuItems[1].label',
		]);
	});

	it('cannot repair a configuration without a name', () => {
		expect(() => repairConfig({ slug: 'demo', name: 7 }, 'test')).toThrow(ConfigError);
	});
});

describe('services', () => {
	it('takes a Google Analytics measurement id, not a tag-manager container', () => {
		const parse = (googleAnalyticsId: string) =>
			chamberConfigSchema.safeParse({ name: 'X', slug: 'x', services: { googleAnalyticsId } })
				.success;
		expect(parse('G-ABC1234')).toBe(true);
		expect(parse('')).toBe(true);
		for (const id of ['GTM-ABC1234', 'UA-1234-1', 'G-', 'g-abc1234', 'G-ABC"><script>']) {
			expect(parse(id), id).toBe(false);
		}
	});
});
