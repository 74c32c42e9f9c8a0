import { z } from 'zod';
import type { ChamberConfig } from '../config/config.ts';
import {
	PAGE_SIZE,
	SORT_VALUES,
	isNewMember,
	keepAffiliation,
	membershipRank,
	rewriteLegacyLogo,
	slugify,
	usableRandomSeed,
	withHttps,
} from './rules.ts';
import { plainText } from './text.ts';
import {
	boundsParamSchema,
	nearParamSchema,
	radiusParamSchema,
	unitParamSchema,
} from '../geo/geo.ts';
import type { OpeningHours } from '../business/hours/opening-hours.ts';

/**
 * The public directory's records and display model, and the query of its list call.
 * No I/O here. This module builds zod schemas, so islands must not import it at run time: the
 * rules and constants live in ./rules.ts, which has no zod.
 *
 * The description sanitiser lives in ./sanitize.ts (sanitize-html and its parser): no island
 * importing these rules should pay for it.
 */

// --- Records as the database views return them --------------------------------------------------

/** One row of business_cards_view / business_detail_view (the schema's types). */
export type { BusinessCardRecord } from '../../lib/database.ts';
import type { BusinessCardRecord } from '../../lib/database.ts';

// --- The display model ---------------------------------------------------------------------------

export interface BusinessAddress {
	street: string;
	street2: string;
	city: string;
	state: string;
	zip: string;
}

interface BusinessBadge {
	icon: string;
	iconText: string;
	iconUrl: string;
	affCode: string;
}

export interface Business {
	/** Internal id (a uuid, so it contains a hyphen). */
	id: string;
	/** The membership system's profile id (digits). */
	weblinkProfileId: string;
	name: string;
	/** slugify(name), for /business/{id}/{slug}. */
	slug: string;
	/** Short description as plain text (tags stripped). */
	description: string;
	/** Rich description HTML, unsanitised: sanitise when rendering (sanitizeDescription). */
	longDescription: string;
	logo: string;
	/** Logo URL after the legacy-host rewrite; '' when there is none. */
	logoUrl: string;
	/** With an https:// prefix added when it had no scheme; '' when none. */
	website: string;
	/**
	 * Whether 'Send Message' can reach the business. Its e-mail address is never public: the
	 * contact function reads it by the business's id.
	 */
	acceptsMessages: boolean;
	phone: string;
	/** Opening hours; null or absent when the business gives none. */
	hours?: OpeningHours | null;
	mainContactName: string;
	address: BusinessAddress;
	county: string;
	categories: string[];
	featured: boolean;
	/** Lowercase platform → url; the string 'None' when the feed says so. */
	socialMedia: Record<string, string> | 'None';
	/** Default 'Member'. */
	membershipLevel: string;
	membershipRank?: number;
	/** Year as text, '' when unknown. */
	memberSince: string;
	membership: { level: string; since: string };
	isNewMember: boolean;
	badges: BusinessBadge[];
	/** Where the business is, in degrees; both null while nobody has placed it. */
	latitude: number | null;
	longitude: number | null;
	/** How far from the point (or the area's middle) a distance search asked about, in its unit. */
	distance?: number;
}

// --- The business list call -------------------------------------------------------------------------

const optionalText = z
	.string()
	.trim()
	.max(200)
	.optional()
	.transform((v) => (v ? v : undefined));

/** Query of GET /api/businesses (strings from the URL, coerced). */
export const businessListQuerySchema = z.object({
	page: z.coerce.number().int().min(1).max(10_000).default(1),
	pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
	searchQuery: optionalText,
	category: optionalText,
	city: optionalText,
	county: optionalText,
	zip: optionalText,
	affiliation: optionalText,
	newMembersOnly: z
		.enum(['true', 'false'])
		.optional()
		.transform((v) => v === 'true'),
	sortBy: z.enum(SORT_VALUES).optional(),
	/** Used only when it is a number from 0 to 1; anything else means the default. */
	randomSeed: z.string().optional().transform(usableRandomSeed),
	/**
	 * A distance search: `latitude,longitude` (rounded to three decimals), nearest first; the sort
	 * is then distance, whatever sortBy says.
	 */
	near: nearParamSchema.optional(),
	/** With near: how far, in `unit` (default 10). */
	radius: radiusParamSchema.optional(),
	/** mi or km; default the chamber's (its country's). */
	unit: unitParamSchema.optional(),
	/** A map's area, `south,west,north,east`: only businesses inside, nearest its middle first. */
	bounds: boundsParamSchema.optional(),
});

export type BusinessListQuery = z.output<typeof businessListQuerySchema>;

export interface BusinessListResult {
	businesses: Business[];
	total: number;
	totalPages: number;
	/** The unit of each business's `distance`: only for a distance search (near or bounds). */
	distanceUnit?: 'mi' | 'km';
}

/**
 * The map's points of a search (GET /api/business-locations, directory_locations): how many
 * businesses match, how many of those have a location, and those as four lists of the same
 * length, the i-th entry of each one business.
 */
export interface BusinessLocations {
	total: number;
	located: number;
	ids: string[];
	names: string[];
	latitudes: number[];
	longitudes: number[];
}

// --- Descriptions -----------------------------------------------------------------------------------

// --- Category icons -----------------------------------------------------------------------------------

export const CATEGORY_ICON_KEYS = [
	'legal',
	'accounting',
	'medical',
	'dental',
	'banking',
	'insurance',
	'real-estate',
	'construction',
	'automotive',
	'technology',
	'marketing',
	'restaurants',
	'hotels',
	'retail',
	'education',
	'fitness',
	'manufacturing',
	'transport',
	'association',
	'government',
	'church',
	'entertainment',
	'sports',
	'golf',
	'museum',
	'music',
	'photography',
	'cleaning',
	'security',
	'storage',
	'waste',
	'pets',
	'travel',
	'water',
	'utilities',
	'chamber',
	'maps',
	'newspapers',
	'youth-sports',
	'default',
] as const;
export type CategoryIconKey = (typeof CATEGORY_ICON_KEYS)[number];

const EXACT_CATEGORY_ICONS: Readonly<Record<string, CategoryIconKey>> = {
	'chamber of commerce': 'chamber',
	maps: 'maps',
	newspapers: 'newspapers',
	'youth sports': 'youth-sports',
};

/**
 * Keyword → icon, tried in this order; the first keyword found in the name wins. More specific
 * words come before the general ones they contain ('dental' before 'medical' synonyms, 'golf'
 * before 'sports'). Short keywords are matched as whole words so 'auto' does not hit
 * 'autograph' and 'law' does not hit 'lawn'.
 */
const CATEGORY_ICON_KEYWORDS: readonly [CategoryIconKey, readonly string[]][] = [
	['legal', ['legal', 'attorney', 'lawyer', 'law']],
	['accounting', ['accounting', 'accountant', 'bookkeeping', 'tax', 'cpa']],
	['dental', ['dental', 'dentist', 'orthodont']],
	[
		'medical',
		['medical', 'health', 'clinic', 'hospital', 'physician', 'doctor', 'chiropract', 'pharmac'],
	],
	['banking', ['banking', 'bank', 'credit union', 'financial', 'finance', 'mortgage']],
	['insurance', ['insurance']],
	['real-estate', ['real estate', 'realtor', 'realty', 'property']],
	[
		'construction',
		['construction', 'contractor', 'builder', 'plumbing', 'roofing', 'electric', 'hvac', 'remodel'],
	],
	['automotive', ['automotive', 'auto', 'car', 'tire', 'vehicle']],
	['technology', ['technology', 'tech', 'software', 'computer', 'internet', 'it services']],
	['marketing', ['marketing', 'advertising', 'media', 'design', 'printing']],
	[
		'restaurants',
		[
			'restaurants',
			'restaurant',
			'food',
			'dining',
			'catering',
			'cafe',
			'bakery',
			'bar',
			'brewery',
			'coffee',
		],
	],
	['hotels', ['hotels', 'hotel', 'lodging', 'motel', 'inn', 'bed & breakfast']],
	['golf', ['golf']],
	['youth-sports', ['youth sports']],
	['sports', ['sports', 'sport', 'recreation']],
	['fitness', ['fitness', 'gym', 'yoga', 'wellness']],
	['retail', ['retail', 'shop', 'store', 'boutique', 'shopping']],
	[
		'education',
		['education', 'school', 'college', 'university', 'training', 'child care', 'childcare'],
	],
	['manufacturing', ['manufacturing', 'industrial', 'factory']],
	['transport', ['transport', 'transportation', 'trucking', 'logistics', 'shipping', 'moving']],
	['association', ['association', 'nonprofit', 'non-profit', 'organization', 'club', 'foundation']],
	['government', ['government', 'city of', 'county']],
	['church', ['church', 'worship', 'religious', 'ministry']],
	['entertainment', ['entertainment', 'theater', 'theatre', 'event', 'arts']],
	['museum', ['museum', 'gallery', 'history']],
	['music', ['music']],
	['photography', ['photography', 'photo']],
	['cleaning', ['cleaning', 'janitorial', 'maid']],
	['security', ['security', 'alarm']],
	['storage', ['storage']],
	['waste', ['waste', 'recycling', 'disposal']],
	['pets', ['pets', 'pet', 'veterinar', 'animal', 'grooming']],
	['travel', ['travel', 'tourism', 'visitor']],
	['water', ['water']],
	['utilities', ['utilities', 'utility', 'energy', 'gas']],
];

// A keyword starts a word; short ones must also end it (an optional plural aside).
const keywordPattern = (word: string) =>
	new RegExp(
		`(^|[^a-z])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${word.length <= 4 ? '(e?s)?($|[^a-z])' : ''}`,
	);

const CATEGORY_ICON_PATTERNS = CATEGORY_ICON_KEYWORDS.map(
	([key, words]) => [key, words.map(keywordPattern)] as const,
);

/** The icon of a category tile. */
export function categoryIcon(name: string): CategoryIconKey {
	const value = name.trim().toLowerCase();
	const exact = EXACT_CATEGORY_ICONS[value];
	if (exact) return exact;
	for (const [key, patterns] of CATEGORY_ICON_PATTERNS) {
		if (patterns.some((pattern) => pattern.test(value))) return key;
	}
	return 'default';
}

// --- The display model --------------------------------------------------------------------------------

type Listing = BusinessCardRecord['listings'][number];

/** The listing a profile shows: the active primary one, else the first active one. */
function mainListing(listings: readonly Listing[]): Listing | undefined {
	const active = listings.filter((l) => l.active);
	return active.find((l) => l.primary_listing) ?? active[0];
}

function socialMediaMap(links: BusinessCardRecord['social_media']): Business['socialMedia'] {
	if (typeof links === 'string') return 'None';
	const map: Record<string, string> = {};
	for (const link of links) {
		const platform = link.platform.trim().toLowerCase();
		if (platform !== '' && link.url.trim() !== '' && !(platform in map)) {
			map[platform] = link.url.trim();
		}
	}
	return map;
}

/** A business card record as the pages show it: the display model. */
export function toBusiness(
	record: BusinessCardRecord,
	config: ChamberConfig,
	today: Date,
): Business {
	const listing = mainListing(record.listings ?? []);
	const level = record.membership_level_name?.trim() || 'Member';
	const since = record.member_since?.[0];
	const sinceYear = record.member_since_year ?? since?.member_since_year ?? null;
	const memberSince = sinceYear ? String(sinceYear) : '';
	return {
		id: record.id,
		weblinkProfileId: record.weblink_profile_id,
		name: record.report_name,
		slug: slugify(record.report_name),
		description: plainText(listing?.short_description || listing?.description || ''),
		longDescription: listing?.description ?? '',
		logo: record.logo_url ?? '',
		logoUrl: rewriteLegacyLogo(record.logo_url ?? '', config),
		website: withHttps(record.website ?? ''),
		acceptsMessages: record.accepts_messages === true,
		phone: record.work_phone ?? '',
		hours: record.hours ?? null,
		mainContactName: record.main_related_profile_name ?? '',
		address: {
			street: record.address1 ?? '',
			street2: record.address2 ?? '',
			city: record.city ?? '',
			state: record.state ?? '',
			zip: record.zip ?? '',
		},
		county: record.county ?? '',
		categories: (record.categories ?? []).map((c) => c.trim()).filter((c) => c !== ''),
		featured: record.featured,
		socialMedia: socialMediaMap(record.social_media ?? []),
		membershipLevel: level,
		membershipRank: membershipRank(
			level,
			record.membership_rank,
			config.searchPage.membershipHierarchy,
		),
		memberSince,
		membership: { level, since: memberSince },
		isNewMember: isNewMember(since?.member_since_date, today),
		badges: (record.profile_affiliations ?? [])
			.filter((a) => a.list_available_on_website && keepAffiliation(a.aff_name))
			.map((a) => ({
				icon: a.icon,
				iconText: affiliationLabel(a),
				iconUrl: a.icon_url,
				affCode: a.aff_code,
			})),
		latitude: record.latitude ?? null,
		longitude: record.longitude ?? null,
	};
}

/** The text of an affiliation badge: its icon text, else the affiliation's name. */
export function affiliationLabel(affiliation: { icon_text: string; aff_name: string }): string {
	return affiliation.icon_text.trim() || affiliation.aff_name.trim();
}
