import { differenceInCalendarDays, isValid, parseISO } from 'date-fns';
import { decodeHTML } from 'entities';
import { z } from 'zod';
import {
	SORT_LABELS,
	SORT_VALUES,
	type ChamberConfig,
	type MembershipTier,
	type SortValue,
} from '../config/config.ts';

/**
 * The public directory's pure rules (spec 01 §3, §5, §9): one implementation each, shared by
 * the build, the functions and the islands. No I/O here.
 *
 * The description sanitiser lives in ./sanitize.ts: it needs a DOM (jsdom on the server), which
 * costs most of a second to load, and no island importing these rules should pay for it.
 */

// --- Records as the database views return them --------------------------------------------------

/** One row of business_cards_view / business_detail_view (spec 01 §3, business card record). */
export interface BusinessCardRecord {
	tenant_id: string;
	id: string;
	report_name: string;
	city: string;
	county: string;
	zip: string;
	address1: string;
	address2: string;
	state: string;
	work_phone: string;
	website: string;
	email: string;
	featured: boolean;
	categories: string[];
	membership_rank: number | null;
	membership_level_name: string;
	member_since: { member_since_date: string; member_since_year: number }[];
	member_since_year: number | null;
	weblink_profile_id: string;
	main_related_profile_name: string;
	listings: {
		description: string;
		short_description: string;
		categories: string[];
		active: boolean;
		primary_listing: boolean;
	}[];
	social_media: { platform: string; url: string }[] | string;
	profile_affiliations: {
		icon: string;
		icon_text: string;
		icon_url: string;
		aff_code: string;
		aff_name: string;
		list_available_on_website: boolean;
		profile_id: string;
		member_count: number;
	}[];
	web_content: { content_type: string; content_title: string; full_url: string; rel_url: string }[];
	logo_url: string;
}

// --- The display model (spec 01 §3) ---------------------------------------------------------------

export interface BusinessAddress {
	street: string;
	street2: string;
	city: string;
	state: string;
	zip: string;
}

export interface BusinessBadge {
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
	email: string;
	phone: string;
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
}

// --- The business list call -------------------------------------------------------------------------

export const PAGE_SIZE = 24;
export const NEW_MEMBER_DAYS = 90;
export const DEFAULT_RANDOM_SEED = 0.5;

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
	/** Used only when it is a number from 0 to 1 (spec 01 §5); anything else means the default. */
	randomSeed: z
		.string()
		.optional()
		.transform((v) => {
			const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
			return Number.isFinite(n) && n >= 0 && n <= 1 ? n : DEFAULT_RANDOM_SEED;
		}),
});

export type BusinessListQuery = z.output<typeof businessListQuerySchema>;

export interface BusinessListResult {
	businesses: Business[];
	total: number;
	totalPages: number;
}

export type { SortValue };

// --- Text and URL rules -----------------------------------------------------------------------------

/** '/business/{id}/{slug}': lowercase, each run of non-alphanumerics one hyphen, none at the edges. */
export function slugify(name: string): string {
	return name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

/** Website addresses without an http or https prefix get https:// (spec 01 §5); '' stays ''. */
export function withHttps(url: string): string {
	const value = url.trim();
	if (value === '') return '';
	return /^https?:\/\//i.test(value) ? value : `https://${value.replace(/^\/+/, '')}`;
}

/** HTML (a listing description) as plain text: tags dropped, entities decoded, spaces collapsed. */
export function plainText(html: string): string {
	const withoutTags = html
		.replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, ' ')
		.replace(/<!--[\s\S]*?-->/g, ' ')
		.replace(/<[^>]*>/g, ' ');
	return decodeHTML(withoutTags).replace(/\s+/g, ' ').trim();
}

// Membership-system bookkeeping groups that must never show as member groups (spec 01 §5).
const HIDDEN_AFFILIATION_WORDS = [
	'all profiles',
	'member profiles',
	'mem type',
	'mem -',
	'admin',
	'sync',
	'verification',
	'confirmation',
];

/** Whether an affiliation may be shown: not blank, and not one of the system's internal groups. */
export function keepAffiliation(name: string | null | undefined): boolean {
	const value = (name ?? '').trim().toLowerCase();
	return value !== '' && !HIDDEN_AFFILIATION_WORDS.some((word) => value.includes(word));
}

/** Drops options and categories whose name is blank (spec 01 §5). */
export function dropBlankNames<T extends { name: string | null | undefined }>(
	list: readonly T[],
): T[] {
	return list.filter((item) => (item.name ?? '').trim() !== '');
}

/** An identifier with a hyphen is the internal id (a uuid); otherwise the weblink profile id. */
export function isInternalId(id: string): boolean {
	return id.includes('-');
}

// --- Membership ---------------------------------------------------------------------------------------

/** The last resort of the rank rule (spec 01 §9), first keyword found wins, in this order. */
export const MEMBERSHIP_KEYWORD_RANKS: readonly { keyword: string; rank: number }[] = [
	{ keyword: 'board', rank: 6 },
	{ keyword: 'untethered', rank: 5 },
	{ keyword: 'trustee', rank: 4 },
	{ keyword: 'chairman', rank: 3 },
	{ keyword: 'executive', rank: 2 },
	{ keyword: 'corporate', rank: 2 },
	{ keyword: 'business', rank: 1 },
];

/**
 * Sort rank of a membership level (spec 01 §9): the rank given on the profile; else the
 * configured hierarchy by exact name, then by partial name (the level name contains a tier's
 * name; the longest such tier wins, so 'Gold Executive Partner' is 'Executive Partner', not
 * 'Executive'); else by keyword; else 0. Names compare case-insensitively, ignoring edge spaces.
 * The SQL function public.membership_rank implements the same rule for the search sorts.
 */
export function membershipRank(
	levelName: string | null | undefined,
	givenRank: number | null | undefined,
	hierarchy: readonly MembershipTier[],
): number {
	if (typeof givenRank === 'number' && Number.isFinite(givenRank)) return givenRank;
	const level = (levelName ?? '').trim().toLowerCase();
	if (level === '') return 0;
	const tiers = hierarchy.map((t) => ({ name: t.name.trim().toLowerCase(), rank: t.rank }));
	const exact = tiers.find((t) => t.name === level);
	if (exact) return exact.rank;
	let partial: { name: string; rank: number } | undefined;
	for (const tier of tiers) {
		if (tier.name !== '' && level.includes(tier.name)) {
			if (!partial || tier.name.length > partial.name.length) partial = tier;
		}
	}
	if (partial) return partial.rank;
	return MEMBERSHIP_KEYWORD_RANKS.find((k) => level.includes(k.keyword))?.rank ?? 0;
}

/** A member is new when the member-since date is within 90 days of today (spec 01 §4). */
export function isNewMember(memberSinceDate: string | null | undefined, today: Date): boolean {
	if (!memberSinceDate) return false;
	const since = parseISO(memberSinceDate);
	if (!isValid(since)) return false;
	return differenceInCalendarDays(today, since) <= NEW_MEMBER_DAYS;
}

/** The website is never linked for the level Business Partner (spec 01 §2, §5). */
export function canLinkWebsite(business: Pick<Business, 'membershipLevel'>): boolean {
	return business.membershipLevel.trim().toLowerCase() !== 'business partner';
}

/** A phone or a website, plus a street address (spec 01 §9, featured businesses). */
export function completeProfile(
	business: Pick<Business, 'phone' | 'website' | 'address'>,
): boolean {
	const has = (value: string) => value.trim() !== '';
	return (has(business.phone) || has(business.website)) && has(business.address.street);
}

/** The badge text: 'Member Since {year}' when the configuration says year, else the level. */
export function badgeLabel(
	business: Pick<Business, 'membershipLevel' | 'memberSince'>,
	memberBadgeDisplay: ChamberConfig['features']['memberBadgeDisplay'],
): string {
	if (memberBadgeDisplay === 'year' && business.memberSince !== '') {
		return `Member Since ${business.memberSince}`;
	}
	return business.membershipLevel;
}

// --- Logos --------------------------------------------------------------------------------------------

/**
 * Image hosts of the membership system's earlier platforms (WebLink Connect, then GrowthZone /
 * ChamberMaster). Logos still pointing there are served by the chamber's own member site today,
 * under the same path, so their host is swapped for the origin of urls.eventRegistrationBaseUrl.
 * A host matches itself and its subdomains.
 */
export const LEGACY_LOGO_HOSTS: readonly string[] = [
	'weblinkconnect.com',
	'weblink.com',
	'growthzoneapp.com',
	'growthzonecms.com',
	'chambermaster.com',
];

function isLegacyHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	return LEGACY_LOGO_HOSTS.some((legacy) => host === legacy || host.endsWith(`.${legacy}`));
}

/** Rewrites a logo URL on a legacy host to the chamber's external host; others stay as they are. */
export function rewriteLegacyLogo(url: string, config: Pick<ChamberConfig, 'urls'>): string {
	const value = url.trim();
	if (!/^https?:\/\//i.test(value)) return value;
	let parsed: URL;
	let target: URL;
	try {
		parsed = new URL(value);
		target = new URL(config.urls.eventRegistrationBaseUrl);
	} catch {
		return value;
	}
	if (!isLegacyHost(parsed.hostname) || !/^https?:$/.test(target.protocol)) return value;
	return `${target.origin}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

// --- Lists --------------------------------------------------------------------------------------------

/** Page buttons (spec 01 §9): all pages up to 7; else first, last, current ± 1 and ellipses. */
export function paginationModel(current: number, totalPages: number): (number | 'ellipsis')[] {
	const last = Math.max(0, Math.floor(totalPages));
	if (last <= 7) return Array.from({ length: last }, (_, i) => i + 1);
	const page = Math.min(Math.max(1, Math.floor(current)), last);
	const shown = new Set([1, last, page - 1, page, page + 1].filter((p) => p >= 1 && p <= last));
	const model: (number | 'ellipsis')[] = [];
	let previous = 0;
	for (const p of [...shown].sort((a, b) => a - b)) {
		if (p - previous > 1) model.push('ellipsis');
		model.push(p);
		previous = p;
	}
	return model;
}

export function sortLabel(sort: SortValue): string {
	return SORT_LABELS[sort];
}

/** Shuffles (Fisher-Yates with the given random source) and takes `count`. */
export function pickFeatured<T>(
	candidates: readonly T[],
	count: number,
	random: () => number = Math.random,
): T[] {
	const pool = [...candidates];
	for (let i = pool.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
	}
	return pool.slice(0, Math.max(0, count));
}

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

/** The icon of a category tile (spec 01 §2 Home). */
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

/** A business card record as the pages show it (spec 01 §3 display model). */
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
		email: record.email ?? '',
		phone: record.work_phone ?? '',
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
	};
}

/** The text of an affiliation badge: its icon text, else the affiliation's name. */
export function affiliationLabel(affiliation: { icon_text: string; aff_name: string }): string {
	return affiliation.icon_text.trim() || affiliation.aff_name.trim();
}
