import { z } from 'zod';
import { SORT_VALUES, type SortValue } from '../config/config.ts';

/**
 * The public directory's pure rules (spec 01 §3, §5, §9): one implementation each, shared by
 * the build, the functions and the islands. No I/O here.
 *
 * CONTRACT NOTE (foundation): the types and signatures below are what pages, islands and
 * functions code against. Bodies marked TODO are filled in by the directory data work (issue 3).
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
