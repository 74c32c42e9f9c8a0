import { z } from 'zod';

// The choices the sections offer and the field helpers they are built from: each helper brings
// its maximum length and its error messages.

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
export const MAX_LENGTH = {
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

export const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const STATE = /^[A-Za-z]{0,2}$/;

const COUNTRY = /^[A-Za-z]{2}$/;

const TILE_URL = /^https:\/\/[^\s"'<>\\]+$/;

// Injected into script URLs, so only the characters real ids use are allowed.
export const TOKEN = /^[A-Za-z0-9_-]*$/;

export const DOMAIN = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)?$/;

/** A short, quoted rendering of an offending value for error messages. */
export function describeValue(value: unknown): string {
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
export const tooLong = (max: number) => ({
	error: (iss: { input?: unknown }) =>
		`Expected at most ${max} characters, received ${typeof iss.input === 'string' ? iss.input.length : 'more'}`,
	abort: true,
});

export const text = (fallback: string, max: number = MAX_LENGTH.short) =>
	z.string().trim().max(max, tooLong(max)).default(fallback);

/** A required one-line text: a name or a label. */
export const label = (error: string) =>
	z.string().trim().min(1, { error }).max(MAX_LENGTH.short, tooLong(MAX_LENGTH.short));

export const hexColour = (fallback: string) =>
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

export const safeUrl = () =>
	z
		.string()
		.trim()
		.max(MAX_LENGTH.url, tooLong(MAX_LENGTH.url))
		.regex(SAFE_URL, {
			error: (iss) =>
				`Expected a URL, URL key or path without a script or data scheme, received ${describeValue(iss.input)}`,
		})
		.default('');

export const stateCode = () =>
	z
		.string()
		.trim()
		.max(2, tooLong(2))
		.regex(STATE, {
			error: (iss) => `Expected a 2-letter state code, received ${describeValue(iss.input)}`,
		})
		.transform((s) => s.toUpperCase())
		.default('');

export const countryCode = () =>
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
export const tileUrl = () =>
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

export const levelNames = (fallback: readonly string[]) =>
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
export const countWithFallback = (range: { min: number; max: number; fallback: number }) =>
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
export const optionalInteger = (what: string) => {
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

export const uniqueList = <T extends string>(
	values: readonly [T, ...T[]],
	fallback: readonly T[],
) =>
	z
		.array(z.enum(values))
		.max(MAX_LENGTH.items)
		.transform((list) => [...new Set(list)])
		.default(() => [...fallback]);
