import { z } from 'zod';
import type { Row } from '../../lib/database.ts';
import { categoryDisplaySchema } from './sections/category-display.ts';
import { colorsSchema } from './sections/colors.ts';
import { contactSchema } from './sections/contact.ts';
import { contentSchema } from './sections/content.ts';
import { featuredBusinessesSchema } from './sections/featured-businesses.ts';
import { EDITOR_FEATURE_KEYS, featuresSchema } from './sections/features.ts';
import { fontsSchema } from './sections/fonts.ts';
import { footerLabelsSchema } from './sections/footer-labels.ts';
import { logoSchema } from './sections/logo.ts';
import { membershipLevelsSchema } from './sections/membership-levels.ts';
import { menuItemSchema, menuSubItemSchema, navigationSchema } from './sections/navigation.ts';
import { membershipTierSchema, searchPageSchema } from './sections/search-page.ts';
import { servicesSchema } from './sections/services.ts';
import { socialSchema } from './sections/social.ts';
import { textColorsSchema } from './sections/text-colors.ts';
import { urlsSchema } from './sections/urls.ts';
import {
	CATEGORY_COUNT,
	EVENTS_CALENDARS,
	type EventsCalendar,
	FEATURED_COUNT,
	FILTER_VALUES,
	FONT_CHOICES,
	type FilterValue,
	type FontChoice,
	MEMBER_CATEGORY_COUNT,
	MEMBER_FIELD_CHOICES,
	type MemberFieldChoice,
	PUBLISH_WINDOWS,
	type PublishWindow,
	SLUG,
	TIME_ZONES,
	type TimeZone,
	URL_KEYS,
	type UrlKey,
	describeValue,
	label,
	optionalInteger,
	stateCode,
	text,
} from './sections/fields.ts';

// Chamber configuration: one per tenant. Pure logic, no I/O.
//
// Each section's schema is a file of its own in sections/ (a comment per field, the choices and
// field helpers in sections/fields.ts); this file assembles them into the configuration, parses
// it, and maps it to the database's row.
//
// Every section has defaults so a config holding only `name` and `slug` parses to a complete
// config. Sections use `.prefault({})` so the empty object still runs through the field schemas
// (their defaults, transforms and checks); list defaults use factories so no parsed config shares
// an array with another one.

// What the sections define, for the modules that read the configuration.
export {
	CATEGORY_COUNT,
	EDITOR_FEATURE_KEYS,
	EVENTS_CALENDARS,
	FEATURED_COUNT,
	FILTER_VALUES,
	FONT_CHOICES,
	MEMBER_CATEGORY_COUNT,
	MEMBER_FIELD_CHOICES,
	PUBLISH_WINDOWS,
	TIME_ZONES,
	URL_KEYS,
	categoryDisplaySchema,
	colorsSchema,
	contactSchema,
	contentSchema,
	featuredBusinessesSchema,
	featuresSchema,
	fontsSchema,
	footerLabelsSchema,
	navigationSchema,
	searchPageSchema,
	socialSchema,
	textColorsSchema,
	urlsSchema,
};
export type {
	EventsCalendar,
	FilterValue,
	FontChoice,
	MemberFieldChoice,
	PublishWindow,
	TimeZone,
	UrlKey,
};

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
