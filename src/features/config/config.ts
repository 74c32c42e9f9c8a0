import { z } from 'zod';
import { SORT_VALUES } from '../directory/rules.ts';
import type { Row } from '../../lib/database.ts';

// Chamber configuration: one per tenant. Pure logic, no I/O.
//
// Every section has defaults so a config holding only `name` and `slug` parses to a complete
// config. Sections use `.prefault({})` so the empty object still runs through the field schemas
// (their defaults, transforms and checks); list defaults use factories so no parsed config shares
// an array with another one.

// --- Constants ---------------------------------------------------------------------------------

/** The 20 fonts offered in the admin Fonts tab (docs/behaviour.md#chamber-configuration). */
export const FONT_CHOICES = [
	'Inter',
	'Roboto',
	'Open Sans',
	'Lato',
	'Montserrat',
	'Poppins',
	'Raleway',
	'Nunito',
	'Playfair Display',
	'Merriweather',
	'Source Sans Pro',
	'Oswald',
	'PT Sans',
	'Rubik',
	'Work Sans',
	'Quicksand',
	'Ubuntu',
	'Barlow',
	'DM Sans',
	'Manrope',
] as const;
export type FontChoice = (typeof FONT_CHOICES)[number];

/**
 * The time zones a chamber can be in (IANA names): the United States' and its territories'. Staff
 * enter dates in their chamber's zone, e.g. 'Publish at…'.
 */
export const TIME_ZONES = [
	'America/New_York',
	'America/Detroit',
	'America/Indiana/Indianapolis',
	'America/Chicago',
	'America/Denver',
	'America/Boise',
	'America/Phoenix',
	'America/Los_Angeles',
	'America/Anchorage',
	'Pacific/Honolulu',
	'America/Puerto_Rico',
	'Pacific/Guam',
] as const;
export type TimeZone = (typeof TIME_ZONES)[number];

/** Search-page filters that can be switched on. */
export const FILTER_VALUES = ['city', 'county', 'zip', 'affiliation'] as const;
export type FilterValue = (typeof FILTER_VALUES)[number];

/**
 * The fields of its listing a member may be let change from /members/listing (the tenant file's
 * names): the descriptions, web content, phone, opening hours, website, social links, logo and
 * categories. Everything else (name, address, level …) stays with staff.
 */
export const MEMBER_FIELD_CHOICES = [
	'listings',
	'web_content',
	'work_phone',
	'hours',
	'website',
	'social_media',
	'logo_url',
	'categories',
] as const;
export type MemberFieldChoice = (typeof MEMBER_FIELD_CHOICES)[number];

/** How many categories a member may choose when the chamber sets no other limit. */
export const MEMBER_CATEGORY_COUNT = { min: 1, max: 50, fallback: 3 } as const;

/**
 * How often the changes that wait for a publish (members' own saves, syncs, imports) go live
 * together: at most one publish in each such window, its marks counted from midnight on the
 * chamber's clock. Interval texts Postgres reads as they are (public.publish_window()).
 */
export const PUBLISH_WINDOWS = [
	'15min',
	'30min',
	'1h',
	'2h',
	'3h',
	'4h',
	'6h',
	'12h',
	'24h',
] as const;
export type PublishWindow = (typeof PUBLISH_WINDOWS)[number];

export const EVENTS_CALENDARS = ['events', 'community-events', 'events-list'] as const;
export type EventsCalendar = (typeof EVENTS_CALENDARS)[number];

/** The 20 URL keys; navigation items may name one instead of a URL. */
export const URL_KEYS = [
	'mainWebsite',
	'joinUrl',
	'aboutUrl',
	'teamUrl',
	'presidentUrl',
	'boardUrl',
	'eventsUrl',
	'networkingUrl',
	'newsUrl',
	'advocacyUrl',
	'privacyUrl',
	'businessResourcesUrl',
	'workforceUrl',
	'communityGuideUrl',
	'communityMapUrl',
	'jobBoardUrl',
	'committeesUrl',
	'annualReportUrl',
	'contactUrl',
	'eventRegistrationBaseUrl',
] as const;
export type UrlKey = (typeof URL_KEYS)[number];

/**
 * The longest values a configuration takes: every page carries the chamber's texts, so a 3 MB
 * tagline would make every page 3 MB. The database refuses longer ones too (config_rules).
 */
const MAX_LENGTH = {
	/** Names, labels, titles and other one-line texts. */
	short: 200,
	/** Paragraphs: taglines, the why-join text, meta descriptions. */
	long: 1000,
	/** URLs and paths. */
	url: 2000,
	/** Menu items, sub-items and level lists. */
	items: 50,
} as const;

export const FEATURED_COUNT = { min: 1, max: 6, fallback: 2 } as const;
export const CATEGORY_COUNT = { min: 4, max: 40, fallback: 8 } as const;

// --- Field helpers -----------------------------------------------------------------------------

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
// Config values end up in href/src attributes; script-capable schemes and control characters
// (which browsers strip inside a scheme, e.g. "java\tscript:") are refused at the gate.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SAFE_URL = /^(?![a-z0-9+.-]*script:|data:)[^\u0000-\u001f\u007f]*$/i;
const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const STATE = /^[A-Za-z]{0,2}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const TILE_URL = /^https:\/\/[^\s"'<>\\]+$/;
// Injected into script URLs, so only the characters real ids use are allowed.
const TOKEN = /^[A-Za-z0-9_-]*$/;
const DOMAIN = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)?$/;

/** A short, quoted rendering of an offending value for error messages. */
function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (typeof value === 'string') {
		const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
		return JSON.stringify(shown);
	}
	if (value === null || typeof value === 'number' || typeof value === 'boolean') {
		return String(value);
	}
	return Array.isArray(value) ? 'a list' : `a value of type ${typeof value}`;
}

// abort: a value that is too long gets this one message, not the pattern's too.
const tooLong = (max: number) => ({
	error: (iss: { input?: unknown }) =>
		`Expected at most ${max} characters, received ${typeof iss.input === 'string' ? iss.input.length : 'more'}`,
	abort: true,
});

const text = (fallback: string, max: number = MAX_LENGTH.short) =>
	z.string().trim().max(max, tooLong(max)).default(fallback);

/** A required one-line text: a name or a label. */
const label = (error: string) =>
	z.string().trim().min(1, { error }).max(MAX_LENGTH.short, tooLong(MAX_LENGTH.short));

const hexColour = (fallback: string) =>
	z
		.string({
			error: (iss) => `Expected a hex colour like #0d3e63, received ${describeValue(iss.input)}`,
		})
		.trim()
		.max(7, tooLong(7))
		.regex(HEX_COLOUR, {
			error: (iss) => `Expected a hex colour like #0d3e63, received ${describeValue(iss.input)}`,
		})
		.default(fallback);

const safeUrl = () =>
	z
		.string()
		.trim()
		.max(MAX_LENGTH.url, tooLong(MAX_LENGTH.url))
		.regex(SAFE_URL, {
			error: (iss) =>
				`Expected a URL, URL key or path without a script or data scheme, received ${describeValue(iss.input)}`,
		})
		.default('');

const stateCode = () =>
	z
		.string()
		.trim()
		.max(2, tooLong(2))
		.regex(STATE, {
			error: (iss) => `Expected a 2-letter state code, received ${describeValue(iss.input)}`,
		})
		.transform((s) => s.toUpperCase())
		.default('');

const countryCode = () =>
	z
		.string()
		.trim()
		.max(2, tooLong(2))
		.regex(COUNTRY, {
			error: (iss) =>
				`Expected a 2-letter country code such as US, received ${describeValue(iss.input)}`,
		})
		.transform((s) => s.toUpperCase())
		.default('US');

/**
 * A map tile service's address template: https, with {z}, {x} and {y} (and optionally {s} or
 * {r}), as raster tile services document theirs; '' for the default.
 */
const tileUrl = () =>
	z
		.string()
		.trim()
		.max(MAX_LENGTH.url, tooLong(MAX_LENGTH.url))
		.refine(
			(value) =>
				value === '' ||
				(TILE_URL.test(value) && ['{z}', '{x}', '{y}'].every((part) => value.includes(part))),
			{
				error: (iss) =>
					`Expected a tile address like https://tile.example.org/{z}/{x}/{y}.png, received ${describeValue(iss.input)}`,
			},
		)
		.default('');

const levelNames = (fallback: readonly string[]) =>
	z
		.array(label('Expected a membership level name'))
		.max(MAX_LENGTH.items)
		// Level names are compared case-insensitively, so they are kept lowercase.
		.transform((names) => [...new Set(names.map((n) => n.toLowerCase()))])
		.default(() => [...fallback]);

/**
 * An integer setting from an admin number input. Anything out of range or not a number falls
 * back instead of failing (featured count 1-6 falls back to 2, categories 4-40 to 8).
 */
const countWithFallback = (range: { min: number; max: number; fallback: number }) =>
	z
		.union([z.number(), z.string().max(20), z.null()])
		.optional()
		.transform((value) => {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			return typeof n === 'number' && Number.isInteger(n) && n >= range.min && n <= range.max
				? n
				: range.fallback;
		})
		.catch(range.fallback);

/** number | numeric string | '' | null, with '' meaning "not set" (featuredEventId). */
const optionalInteger = (what: string) => {
	const error = (iss: { input?: unknown }) =>
		`Expected ${what} or nothing, received ${describeValue(iss.input)}`;
	return z
		.union(
			[
				z.number({ error }).int({ error }).nonnegative({ error }),
				z.string({ error }).trim().max(20, { error }).regex(/^\d*$/, { error }),
				z.null({ error }),
			],
			{ error },
		)
		.transform((v) => (v === null || v === '' ? null : Number(v)))
		.default(null);
};

const uniqueList = <T extends string>(values: readonly [T, ...T[]], fallback: readonly T[]) =>
	z
		.array(z.enum(values))
		.max(MAX_LENGTH.items)
		.transform((list) => [...new Set(list)])
		.default(() => [...fallback]);

// --- Section schemas ---------------------------------------------------------------------------

// primaryDark is a darker shade of the primary blue and secondary the amber between the two
// lighter and darker ambers.
export const colorsSchema = z.object({
	/** Main brand colour (header, buttons); default #0d3e63. */
	primary: hexColour('#0d3e63'),
	/** Lighter brand shade for hovers and accents; default #5fa6d7. */
	primaryLight: hexColour('#5fa6d7'),
	/** Darker brand shade for pressed states and dark bands; default #082a44 (chosen). */
	primaryDark: hexColour('#082a44'),
	/** Accent colour (call-to-action highlights); default #F59E0B (chosen). */
	secondary: hexColour('#F59E0B'),
	/** Lighter accent shade; default #FBBF24. */
	secondaryLight: hexColour('#FBBF24'),
	/** Darker accent shade; default #D97706. */
	secondaryDark: hexColour('#D97706'),
});

const logoSchema = z.object({
	/** Standard (wide) logo URL for the header; default ''. */
	standard: safeUrl(),
	/** Stacked logo URL used on mobile; default ''. */
	stacked: safeUrl(),
	/** Favicon URL; default ''. */
	favicon: safeUrl(),
});

const fontChoice = z
	.enum(FONT_CHOICES, {
		error: (iss) =>
			`Expected one of the ${FONT_CHOICES.length} supported fonts (${FONT_CHOICES.join(', ')}), received ${describeValue(iss.input)}`,
	})
	.default('Inter');

export const fontsSchema = z.object({
	/** Font family for headings, one of FONT_CHOICES; default Inter. */
	heading: fontChoice,
	/** Font family for body text, one of FONT_CHOICES; default Inter. */
	body: fontChoice,
});

export const textColorsSchema = z.object({
	/** Heading text on light backgrounds; default #1a202c. */
	heading: hexColour('#1a202c'),
	/** Body text on light backgrounds; default #374151. */
	body: hexColour('#374151'),
	/** Link text; default #0d3e63. */
	link: hexColour('#0d3e63'),
	/** Link text on hover; default #5fa6d7. */
	linkHover: hexColour('#5fa6d7'),
	/** Heading text on dark backgrounds; default #ffffff. */
	onDarkHeading: hexColour('#ffffff'),
	/** Body text on dark backgrounds; default #e5e7eb. */
	onDarkBody: hexColour('#e5e7eb'),
});

export const contactSchema = z.object({
	/** Street address shown in the footer; default ''. */
	address: text(''),
	/** Optional second address line; default ''. */
	addressLine2: text(''),
	/** City of the chamber office; default ''. */
	city: text(''),
	/** 2-letter state of the chamber office, uppercased; default ''. */
	state: stateCode(),
	/** ZIP code; default ''. */
	zip: text(''),
	/**
	 * The chamber's country, two letters (ISO 3166-1), uppercased: distances in miles or km by
	 * it, and the geocoder's country; default 'US'.
	 */
	country: countryCode(),
	/** Phone number; default ''. */
	phone: text(''),
	/**
	 * The chamber's time zone, for the dates staff enter ('Publish at…'); '' takes the usual one
	 * of the chamber's state (chamberTimeZone); default ''.
	 */
	timeZone: z
		.enum(['', ...TIME_ZONES], {
			error: (iss) =>
				`Expected a US time zone such as America/Chicago, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/** Optional public e-mail address; default ''. */
	email: z
		.union([
			z.literal(''),
			z
				.email({
					error: (iss) => `Expected an e-mail address, received ${describeValue(iss.input)}`,
				})
				.max(254, tooLong(254)),
		])
		.default(''),
});

export const socialSchema = z.object({
	/** Facebook page URL, icon shown only if set; default ''. */
	facebook: safeUrl(),
	/** Twitter/X profile URL, icon shown only if set; default ''. */
	twitter: safeUrl(),
	/** LinkedIn page URL, icon shown only if set; default ''. */
	linkedin: safeUrl(),
	/** Instagram profile URL, icon shown only if set; default ''. */
	instagram: safeUrl(),
	/** YouTube channel URL, icon shown only if set; default ''. */
	youtube: safeUrl(),
});

export const urlsSchema = z.object({
	/** The chamber's main website (logo link, fallback link target); default ''. */
	mainWebsite: safeUrl(),
	/** Membership application page (Join Today button); default ''. */
	joinUrl: safeUrl(),
	/** About-the-chamber page; default ''. */
	aboutUrl: safeUrl(),
	/** Staff/team page; default ''. */
	teamUrl: safeUrl(),
	/** President's page; default ''. */
	presidentUrl: safeUrl(),
	/** Board of directors page; default ''. */
	boardUrl: safeUrl(),
	/** External events page on the main website; default ''. */
	eventsUrl: safeUrl(),
	/** Networking page; default ''. */
	networkingUrl: safeUrl(),
	/** News page; default ''. */
	newsUrl: safeUrl(),
	/** Advocacy page; default ''. */
	advocacyUrl: safeUrl(),
	/** Privacy policy page (footer); default ''. */
	privacyUrl: safeUrl(),
	/** Footer resource link: small business resources; default ''. */
	businessResourcesUrl: safeUrl(),
	/** Footer resource link: workforce resources; default ''. */
	workforceUrl: safeUrl(),
	/** Footer resource link: community guide; default ''. */
	communityGuideUrl: safeUrl(),
	/** Community map page; default ''. */
	communityMapUrl: safeUrl(),
	/** Footer resource link: job board; default ''. */
	jobBoardUrl: safeUrl(),
	/** Committees page; default ''. */
	committeesUrl: safeUrl(),
	/** Annual report page; default ''. */
	annualReportUrl: safeUrl(),
	/** Contact page; default ''. */
	contactUrl: safeUrl(),
	/** Base of the external event registration site (also prefixes relative banner images); default ''. */
	eventRegistrationBaseUrl: safeUrl(),
});

export const footerLabelsSchema = z.object({
	/** Label of the businessResourcesUrl footer link; default 'Small Business Resources'. */
	businessResourcesLabel: text('Small Business Resources'),
	/** Label of the workforceUrl footer link; default 'Workforce Resources'. */
	workforceLabel: text('Workforce Resources'),
	/** Label of the communityGuideUrl footer link; default 'Community Guide'. */
	communityGuideLabel: text('Community Guide'),
	/** Label of the jobBoardUrl footer link; default 'Job Board'. */
	jobBoardLabel: text('Job Board'),
});

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

const servicesSchema = z.object({
	/**
	 * Google Analytics 4 measurement id (G-XXXXXXX); the script loads only when set; default ''.
	 * Only G- ids: a tag-manager container (GTM-) would run whatever its owner adds, site-wide, on
	 * the origin where staff sessions live.
	 */
	googleAnalyticsId: z
		.string()
		.trim()
		.max(30, tooLong(30))
		.regex(/^(?:G-[A-Z0-9]{4,20})?$/, {
			error: (iss) =>
				`Expected a Google Analytics measurement id like G-ABC123, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/** reCAPTCHA site key used by the contact form; default ''. */
	recaptchaSiteKey: z
		.string()
		.trim()
		.max(100, tooLong(100))
		.regex(TOKEN, {
			error: (iss) => `Expected a reCAPTCHA site key, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/**
	 * The maps' tiles: a raster tile service's https address with {z}/{x}/{y}; '' takes
	 * MAP_TILE_URL of the deployment, else OpenStreetMap's standard tiles; default ''.
	 */
	mapTileUrl: tileUrl(),
	/** The tile service's attribution, as its terms ask (plain text); default ''. */
	mapAttribution: text('', MAX_LENGTH.short),
	/** Domain outgoing e-mail is sent from; default ''. */
	emailDomain: z
		.string()
		.trim()
		.max(253, tooLong(253))
		.regex(DOMAIN, {
			error: (iss) => `Expected a domain like example.org, received ${describeValue(iss.input)}`,
		})
		.default(''),
});

export const featuresSchema = z.object({
	/** Show the chamber events calendar; default true. */
	showEvents: z.boolean().default(true),
	/** Show the community events calendar; default true. */
	showCommunityEvents: z.boolean().default(true),
	/** Offer the 'New Members Only' search filter; default true. */
	showNewMembersFilter: z.boolean().default(true),
	/** Show membership level badges; default true. */
	showMembershipLevels: z.boolean().default(true),
	/** Show the home banner carousel; default true. */
	showBanners: z.boolean().default(true),
	/** Show the event type filter box; default true. */
	showEventFilters: z.boolean().default(true),
	/** Show the featured event card; default false. */
	showFeaturedEvent: z.boolean().default(false),
	/** Event shown in the featured card, '' stored as null; default null. */
	featuredEventId: optionalInteger('an event id'),
	/** Show the short description on business cards; default false. */
	showBusinessShortDescription: z.boolean().default(false),
	/** Show '{N} attending' in the event detail header; default true. */
	showEventAttendeeCountInHeader: z.boolean().default(true),
	/** Business badge content: level (membership level) | year ('Member Since {year}'); default 'level'. */
	memberBadgeDisplay: z.enum(['level', 'year']).default('level'),
	/** Business profile layout: classic | modern; default 'classic'. */
	businessDetailLayout: z.enum(['classic', 'modern']).default('classic'),
	/** Offer the List | Map switch on the search page; default true. */
	showMap: z.boolean().default(true),
	/** Offer 'Near me' on the search page (search by distance from the visitor); default true. */
	showNearMe: z.boolean().default(true),
	/** Show the business's main contact name on its profile; default false. */
	showMainContact: z.boolean().default(false),
	/**
	 * Members update their own listing: profiles link to /members/sign-in and a member signs in
	 * by an e-mailed link to the address on file; default false.
	 */
	memberUpdates: z.boolean().default(false),
	/** The fields a member may change; default every one of MEMBER_FIELD_CHOICES. */
	memberFields: uniqueList(MEMBER_FIELD_CHOICES, MEMBER_FIELD_CHOICES),
	/** Of those, the ones that go live without review; default the opening hours (members know them best). */
	memberLiveFields: uniqueList(MEMBER_FIELD_CHOICES, ['hours']),
	/** Editors may approve and return members' requests too (else admins only); default false. */
	memberEditorsApprove: z.boolean().default(false),
	/** The most categories a member may choose, 1-50, anything else falls back to 3; default 3. */
	memberMaxCategories: countWithFallback(MEMBER_CATEGORY_COUNT),
	/**
	 * How often members' changes, syncs and imports are published together, one of
	 * PUBLISH_WINDOWS; default '1h' (a member's change is live within the hour, and a busy month
	 * stays within the deploy budget).
	 */
	publishWindow: z
		.enum(PUBLISH_WINDOWS, {
			error: (iss) =>
				`Expected one of ${PUBLISH_WINDOWS.join(', ')}, received ${describeValue(iss.input)}`,
		})
		.default('1h'),
});

/**
 * The display toggles of `features` an editor may change (Content tab): how content shows, not
 * which parts the site offers. The database holds the same list (public.editor_feature_keys) and
 * refuses editors every other change; tests/db/admin-permissions.test.ts keeps the two equal.
 */
export const EDITOR_FEATURE_KEYS = [
	'showBusinessShortDescription',
	'showEventAttendeeCountInHeader',
	'showFeaturedEvent',
	'featuredEventId',
] as const satisfies readonly (keyof z.output<typeof featuresSchema>)[];

const membershipLevelsSchema = z.object({
	/** Lowercase level names counted as featured; default ['trustee']. */
	featured: levelNames(['trustee']),
	/** Lowercase level names whose website is linked; default trustee, chairman, executive partner, executive, corporate, corporate partner. */
	canLinkWebsite: levelNames([
		'trustee',
		'chairman',
		'executive partner',
		'executive',
		'corporate',
		'corporate partner',
	]),
});

export const featuredBusinessesSchema = z.object({
	/** How home featured businesses are picked: membership | affiliation | random; default 'membership'. */
	strategy: z.enum(['membership', 'affiliation', 'random']).default('membership'),
	/** How many are shown, 1-6, anything else falls back to 2; default 2. */
	count: countWithFallback(FEATURED_COUNT),
	/** Lowercase level names eligible under the membership strategy; default ['trustee', 'chairman']. */
	membershipLevels: levelNames(['trustee', 'chairman']),
	/** Affiliation name used by the affiliation strategy, '' stored as unset; default unset. */
	affiliation: z
		.string()
		.trim()
		.max(MAX_LENGTH.short, tooLong(MAX_LENGTH.short))
		.optional()
		.transform((v) => (v ? v : undefined)),
	/** Only pick businesses with a phone or website plus an address; default true. */
	requireCompleteProfile: z.boolean().default(true),
	/** Show 'View All {affiliation} Members' under the affiliation strategy; default true. */
	showViewAllButton: z.boolean().default(true),
});

export const categoryDisplaySchema = z.object({
	/** Number of home category tiles, 4-40, anything else falls back to 8; default 8. */
	count: countWithFallback(CATEGORY_COUNT),
	/** Tile order: popularity (count descending) | alphabetical; default 'popularity'. */
	sortBy: z.enum(['popularity', 'alphabetical']).default('popularity'),
});

const membershipTierSchema = z.object({
	/** Membership level name as stored on profiles, e.g. 'Trustee'. */
	name: label('Expected a membership level name'),
	/** Sort rank, higher ranks first. */
	rank: z.number().int().nonnegative(),
});

const sortValue = z.enum(SORT_VALUES, {
	error: (iss) => `Expected one of ${SORT_VALUES.join(', ')}, received ${describeValue(iss.input)}`,
});

export const searchPageSchema = z.object({
	/** Initial sort of /search; default 'membershipHighToLow'. */
	defaultSort: sortValue.default('membershipHighToLow'),
	/** Sorts offered in the dropdown; default nameAsc, nameDesc, membershipHighToLow, membershipLowToHigh, random. */
	availableSorts: uniqueList(SORT_VALUES, [
		'nameAsc',
		'nameDesc',
		'membershipHighToLow',
		'membershipLowToHigh',
		'random',
	]),
	/** Show the 'Sort by' dropdown; default true. */
	showSortDropdown: z.boolean().default(true),
	/** Show the 'More Filters' panel; default true. */
	showFilters: z.boolean().default(true),
	/** Filters in the panel, subset of city | county | zip | affiliation; default city, county, zip. */
	availableFilters: uniqueList(FILTER_VALUES, ['city', 'county', 'zip']),
	/** Level ranking for sorting; default Trustee 10, Chairman 9, Executive Partner 8, Executive 7, Corporate Partner 6, Corporate 5, Business Partner 4, Member 3. */
	membershipHierarchy: z
		.array(membershipTierSchema)
		.max(MAX_LENGTH.items)
		.default(() => [
			{ name: 'Trustee', rank: 10 },
			{ name: 'Chairman', rank: 9 },
			{ name: 'Executive Partner', rank: 8 },
			{ name: 'Executive', rank: 7 },
			{ name: 'Corporate Partner', rank: 6 },
			{ name: 'Corporate', rank: 5 },
			{ name: 'Business Partner', rank: 4 },
			{ name: 'Member', rank: 3 },
		]),
});

const menuSubItemSchema = z.object({
	/** Link text. */
	label: label('Expected a menu label'),
	/** URL key (e.g. 'aboutUrl'), internal path or full URL; default ''. */
	url: safeUrl(),
	/** Internal (same-site) link rather than a new-tab external one; default false. */
	isInternal: z.boolean().default(false),
});

const menuItemSchema = z.object({
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

export const chamberConfigSchema = z.object({
	/** Chamber name shown in the header, footer and page titles; required. */
	name: label('Expected the chamber name'),
	/** Tenant slug (lowercase letters, digits, hyphens), also used in logo paths; required. */
	slug: z
		.string()
		.trim()
		.regex(SLUG, {
			error: (iss) =>
				`Expected a slug of lowercase letters, digits and hyphens, received ${describeValue(iss.input)}`,
		}),
	/** City of the chamber (page metadata); default ''. */
	city: text(''),
	/** 2-letter state of the chamber, uppercased; default ''. */
	state: stateCode(),
	/** Year the chamber was founded, '' stored as null; default null. */
	foundedYear: optionalInteger('a year'),
	/** Brand colours. */
	colors: colorsSchema.prefault({}),
	/** Logo URLs; default all ''. */
	logo: logoSchema.prefault({}),
	/** Heading and body fonts; default Inter. */
	fonts: fontsSchema.prefault({}),
	/** Text colours. */
	textColors: textColorsSchema.prefault({}),
	/** Footer contact block; default all ''. */
	contact: contactSchema.prefault({}),
	/** Social network links; default all ''. */
	social: socialSchema.prefault({}),
	/** URL library referenced by key from navigation and the footer; default all ''. */
	urls: urlsSchema.prefault({}),
	/** Footer resource link labels. */
	footerLabels: footerLabelsSchema.prefault({}),
	/** Page texts; see contentSchema for defaults. */
	content: contentSchema.prefault({}),
	/** Third-party service ids; default all ''. */
	services: servicesSchema.prefault({}),
	/** Feature switches. */
	features: featuresSchema.prefault({}),
	/** Featured and website-link membership levels. */
	membershipLevels: membershipLevelsSchema.prefault({}),
	/** Home featured-businesses rules. */
	featuredBusinesses: featuredBusinessesSchema.prefault({}),
	/** Home category tiles; default 8 by popularity. */
	categoryDisplay: categoryDisplaySchema.prefault({}),
	/** Search page settings. */
	searchPage: searchPageSchema.prefault({}),
	/** Header navigation menu. */
	navigation: navigationSchema.prefault({}),
});

export type ChamberConfigInput = z.input<typeof chamberConfigSchema>;
export type ChamberConfig = z.output<typeof chamberConfigSchema>;
export type Colors = z.output<typeof colorsSchema>;
export type Fonts = z.output<typeof fontsSchema>;
export type TextColors = z.output<typeof textColorsSchema>;
export type Contact = z.output<typeof contactSchema>;
export type Social = z.output<typeof socialSchema>;
export type Urls = z.output<typeof urlsSchema>;
export type FooterLabels = z.output<typeof footerLabelsSchema>;
export type Content = z.output<typeof contentSchema>;
export type Features = z.output<typeof featuresSchema>;
export type FeaturedBusinesses = z.output<typeof featuredBusinessesSchema>;
export type CategoryDisplay = z.output<typeof categoryDisplaySchema>;
export type MembershipTier = z.output<typeof membershipTierSchema>;
export type MenuSubItem = z.output<typeof menuSubItemSchema>;
export type MenuItem = z.output<typeof menuItemSchema>;

// --- Parsing -----------------------------------------------------------------------------------

export interface ConfigIssue {
	/** Dotted path such as 'colors.primary' or 'navigation.menuItems[2].label'; '' for the root. */
	path: string;
	message: string;
}

export class ConfigError extends Error {
	readonly source: string;
	readonly issues: readonly ConfigIssue[];

	constructor(source: string, issues: readonly ConfigIssue[]) {
		const lines = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`);
		super(`Invalid chamber configuration in ${source}:\n${lines.join('\n')}`);
		this.name = 'ConfigError';
		this.source = source;
		this.issues = issues;
	}
}

function formatPath(path: readonly PropertyKey[]): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out ? `.${String(key)}` : String(key);
	}
	return out;
}

function friendlyMessage(issue: z.core.$ZodIssue): string {
	// Only zod's own wording ("Invalid input: expected string, received undefined") is reworded;
	// messages written for a field are kept.
	const generic = issue.message.startsWith('Invalid input');
	if (generic && issue.code === 'invalid_type' && issue.input === undefined) return 'Required';
	if (generic && issue.code === 'invalid_type') {
		return `Expected ${issue.expected}, received ${describeValue(issue.input)}`;
	}
	if (issue.code === 'invalid_value' && !issue.message.includes('received')) {
		return `${issue.message}, received ${describeValue(issue.input)}`;
	}
	return issue.message;
}

/** Validates a chamber configuration; `source` names where it came from in the error message. */
export function parseConfig(input: unknown, source: string): ChamberConfig {
	const result = chamberConfigSchema.safeParse(input, { reportInput: true });
	if (result.success) return result.data;
	throw new ConfigError(
		source,
		result.error.issues.map((issue) => ({
			path: formatPath(issue.path),
			message: friendlyMessage(issue),
		})),
	);
}

/**
 * A configuration that does not validate, made usable again: each invalid value is dropped, so
 * its default takes its place (a required item that cannot do without it goes whole). `issues`
 * names what was wrong. Throws the ConfigError when nothing can be repaired (no name or slug).
 */
export function repairConfig(
	input: Record<string, unknown>,
	source: string,
): { config: ChamberConfig; issues: readonly ConfigIssue[] } {
	const draft = structuredClone(input);
	const dropped = new Set<string>();
	let first: ConfigError | undefined;
	for (let round = 0; round < 100; round++) {
		try {
			return { config: parseConfig(draft, source), issues: first?.issues ?? [] };
		} catch (error) {
			if (!(error instanceof ConfigError)) throw error;
			first ??= error;
			const result = chamberConfigSchema.safeParse(draft);
			if (result.success) continue;
			for (const issue of result.error.issues) {
				let path = issue.path;
				// A value already dropped that is still missing: its container goes instead.
				while (path.length > 0 && dropped.has(JSON.stringify(path))) path = path.slice(0, -1);
				// Without a name and a slug there is no chamber to show.
				const fatal =
					path.length === 0 || (path.length === 1 && ['name', 'slug'].includes(String(path[0])));
				if (fatal) throw first;
				dropped.add(JSON.stringify(path));
				removeAt(draft, path);
			}
		}
	}
	throw first ?? new ConfigError(source, [{ path: '', message: 'Could not be repaired' }]);
}

function removeAt(target: unknown, path: readonly PropertyKey[]): void {
	let node = target as Record<PropertyKey, unknown> | unknown[];
	for (const key of path.slice(0, -1)) {
		node = (node as Record<PropertyKey, unknown>)[key] as typeof node;
		if (node === null || typeof node !== 'object') return;
	}
	const last = path.at(-1)!;
	if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
	else delete (node as Record<PropertyKey, unknown>)[last];
}

// --- Database row mapping ----------------------------------------------------------------------

/** A row of chamber_config as the database has it (the schema's types). */
type ConfigTableRow = Row<'chamber_config'>;

/** A row as read from the database: any column may be missing, NULL or of an unexpected shape. */
export type StoredChamberConfigRow = { [K in keyof ConfigTableRow]?: unknown };

/** Each configuration key's chamber_config column: the one home of the camelCase↔snake_case map. */
export const CONFIG_COLUMNS = {
	name: 'name',
	slug: 'slug',
	city: 'city',
	state: 'state',
	foundedYear: 'founded_year',
	colors: 'colors',
	logo: 'logo',
	fonts: 'fonts',
	textColors: 'text_colors',
	contact: 'contact',
	social: 'social',
	urls: 'urls',
	footerLabels: 'footer_labels',
	content: 'content',
	services: 'services',
	features: 'features',
	membershipLevels: 'membership_levels',
	featuredBusinesses: 'featured_businesses',
	categoryDisplay: 'category_display',
	searchPage: 'search_page',
	navigation: 'navigation',
} as const satisfies { [K in keyof ChamberConfig]: keyof ConfigTableRow };

/** A configuration as chamber_config's columns hold it: each key under its column (snake_case),
 * a jsonb section's contents keeping their camelCase keys. */
export type ChamberConfigColumns = {
	[K in keyof ChamberConfig as (typeof CONFIG_COLUMNS)[K]]: ChamberConfig[K];
};

const CONFIG_ENTRIES = Object.entries(CONFIG_COLUMNS) as [
	keyof ChamberConfig,
	(typeof CONFIG_COLUMNS)[keyof ChamberConfig],
][];

export function configToRow(config: ChamberConfig): ChamberConfigColumns {
	return Object.fromEntries(
		CONFIG_ENTRIES.map(([key, column]) => [column, config[key]]),
	) as ChamberConfigColumns;
}

/** The configuration keys of a chamber_config row; a NULL column means "not configured". */
export function rowToConfigInput(row: StoredChamberConfigRow): Record<string, unknown> {
	return Object.fromEntries(
		CONFIG_ENTRIES.map(([key, column]) => [key, row[column] === null ? undefined : row[column]]),
	);
}

/** Maps a chamber_config row back to a validated config; NULL columns take their defaults. */
export function configFromRow(row: StoredChamberConfigRow, source: string): ChamberConfig {
	return parseConfig(rowToConfigInput(row), source);
}

// --- URL helpers -------------------------------------------------------------------------------

const URL_KEY_SET: ReadonlySet<string> = new Set(URL_KEYS);
const SAFE_SCHEME = /^(?:https?|mailto|tel):/i;
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BARE_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:[/?#].*)?$/i;

function isUrlKey(value: string): value is UrlKey {
	return URL_KEY_SET.has(value);
}

/**
 * Resolves a navigation target: a URL key ('joinUrl') becomes the configured URL, internal paths
 * ('/search', '#top', '?q=') and http(s)/mailto/tel URLs pass through, a bare host gets https://.
 * Anything else (an unknown key, another scheme) resolves to '' so the caller can hide the link.
 */
export function resolveUrl(urlOrKey: string, urls: Urls): string {
	const value = urlOrKey.trim();
	if (value === '') return '';
	if (isUrlKey(value)) {
		const target = urls[value].trim();
		// A configured URL is itself never a key; resolving once more only normalises it.
		return isUrlKey(target) ? '' : resolveUrl(target, urls);
	}
	if (/^[/#?]/.test(value)) return value;
	if (SAFE_SCHEME.test(value)) return value;
	if (ANY_SCHEME.test(value)) return '';
	if (BARE_HOST.test(value)) return `https://${value}`;
	return '';
}

type EventSwitches = Pick<ChamberConfig['features'], 'showEvents' | 'showCommunityEvents'>;

/**
 * Whether a calendar page exists: /events needs features.showEvents, /community-events
 * features.showCommunityEvents, and /events-list (both sources in tabs) either of them. A page
 * that is off is not built, so it answers 404.
 */
export function calendarOn(calendar: EventsCalendar, features: EventSwitches): boolean {
	switch (calendar) {
		case 'events':
			return features.showEvents;
		case 'community-events':
			return features.showCommunityEvents;
		case 'events-list':
			return features.showEvents || features.showCommunityEvents;
	}
}

/**
 * Where the Events links lead: the configured default calendar while it is on; a single-source
 * default whose area is switched off falls back to the other source's page; null when both areas
 * are off (the site has no events links at all).
 */
export function eventsLanding(config: Pick<ChamberConfig, 'content' | 'features'>): string | null {
	const { features } = config;
	const chosen = config.content.defaultEventsCalendar;
	if (calendarOn(chosen, features)) return eventsPath(chosen);
	if (features.showEvents) return eventsPath('events');
	if (features.showCommunityEvents) return eventsPath('community-events');
	return null;
}

/** The events page a visitor lands on for the configured default calendar. */
export function eventsPath(defaultEventsCalendar: string | null | undefined): string {
	switch (defaultEventsCalendar) {
		case 'community-events':
			return '/community-events';
		case 'events-list':
			return '/events-list';
		default:
			return '/events';
	}
}
