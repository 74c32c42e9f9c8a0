import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import type { ChamberConfig, MembershipTier } from '../config/config.ts';
import type { Business } from './directory.ts';

/**
 * The public directory's rules and constants, each implemented once, for the
 * build, the functions and the islands alike. Pure, and free of zod: directory.ts and config.ts
 * build zod schemas at load time that no bundler can drop (~28 KB gzipped, more than an
 * island's whole script budget leaves), so this module takes only types from them. Keep it that
 * way: no runtime import of a zod-bearing module here (the search e2e spec weighs the islands).
 */

// --- Constants -----------------------------------------------------------------------------------

/** Businesses per page of the search listing; pages start at 1. */
export const PAGE_SIZE = 24;
/** A member is new within this many days of their member-since date. */
export const NEW_MEMBER_DAYS = 90;
/** The random orders' seed when none (or no usable one) is given. */
export const DEFAULT_RANDOM_SEED = 0.5;

/** Every directory sort the search page understands. */
export const SORT_VALUES = [
	'nameAsc',
	'nameDesc',
	'membershipHighToLow',
	'membershipLowToHigh',
	'listingPositionHighToLow',
	'listingPositionLowToHigh',
	'listingPositionHighToLowRandom',
	'listingPositionLowToHighRandom',
	'random',
] as const;
export type SortValue = (typeof SORT_VALUES)[number];

export const SORT_LABELS: Readonly<Record<SortValue, string>> = {
	nameAsc: 'Name A-Z',
	nameDesc: 'Name Z-A',
	membershipHighToLow: 'Membership Level (High to Low)',
	membershipLowToHigh: 'Membership Level (Low to High)',
	listingPositionHighToLow: 'Premium First',
	listingPositionLowToHigh: 'Basic First',
	listingPositionHighToLowRandom: 'Premium First, Randomized',
	listingPositionLowToHighRandom: 'Basic First, Randomized',
	random: 'Random',
};

export function sortLabel(sort: SortValue): string {
	return SORT_LABELS[sort];
}

/**
 * A random seed (stored for the session, or sent as randomSeed) is used only when it is a number
 * from 0 to 1; anything else, missing or blank means DEFAULT_RANDOM_SEED.
 */
export function usableRandomSeed(value: string | null | undefined): number {
	const n =
		value === null || value === undefined || value.trim() === '' ? Number.NaN : Number(value);
	return Number.isFinite(n) && n >= 0 && n <= 1 ? n : DEFAULT_RANDOM_SEED;
}

// --- Text and URL rules -------------------------------------------------------------------------

/** '/business/{id}/{slug}': lowercase, each run of non-alphanumerics one hyphen, none at the edges. */
export function slugify(name: string): string {
	return name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

/** Website addresses without an http or https prefix get https://; '' stays ''. */
export function withHttps(url: string): string {
	const value = url.trim();
	if (value === '') return '';
	return /^https?:\/\//i.test(value) ? value : `https://${value.replace(/^\/+/, '')}`;
}

// Membership-system bookkeeping groups that must never show as member groups.
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

/** Drops options and categories whose name is blank. */
export function dropBlankNames<T extends { name: string | null | undefined }>(
	list: readonly T[],
): T[] {
	return list.filter((item) => (item.name ?? '').trim() !== '');
}

/** An identifier with a hyphen is the internal id (a uuid); otherwise the weblink profile id. */
export function isInternalId(id: string): boolean {
	return id.includes('-');
}

// --- Membership ---------------------------------------------------------------------------------

/** The last resort of the rank rule, first keyword found wins, in this order. */
const MEMBERSHIP_KEYWORD_RANKS: readonly { keyword: string; rank: number }[] = [
	{ keyword: 'board', rank: 6 },
	{ keyword: 'untethered', rank: 5 },
	{ keyword: 'trustee', rank: 4 },
	{ keyword: 'chairman', rank: 3 },
	{ keyword: 'executive', rank: 2 },
	{ keyword: 'corporate', rank: 2 },
	{ keyword: 'business', rank: 1 },
];

/**
 * Sort rank of a membership level: the rank given on the profile; else the
 * configured hierarchy by exact name, then by partial name (the level name contains a tier's
 * name; the longest such tier wins, so 'Gold Executive Partner' is 'Executive Partner', not
 * 'Executive'); else by keyword; else 0. Names compare case-insensitively, ignoring edge spaces.
 * The SQL function public.membership_rank implements the same rule for the search sorts
 * (membership-rank.cases.ts holds both to the same answers).
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

/** A member is new when the member-since date is within 90 days of today. */
export function isNewMember(memberSinceDate: string | null | undefined, today: Date): boolean {
	if (!memberSinceDate) return false;
	const since = parseISO(memberSinceDate);
	if (!isValid(since)) return false;
	return differenceInCalendarDays(today, since) <= NEW_MEMBER_DAYS;
}

/** The website is never linked for the level Business Partner. */
export function canLinkWebsite(business: Pick<Business, 'membershipLevel'>): boolean {
	return business.membershipLevel.trim().toLowerCase() !== 'business partner';
}

/** A phone or a website, plus a street address (docs/behaviour.md#featured-businesses). */
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

// --- Logos --------------------------------------------------------------------------------------

/**
 * Image hosts of the membership system's earlier platforms (WebLink Connect, then GrowthZone /
 * ChamberMaster). Logos still pointing there are served by the chamber's own member site today,
 * under the same path, so their host is swapped for the origin of urls.eventRegistrationBaseUrl.
 * A host matches itself and its subdomains.
 */
const LEGACY_LOGO_HOSTS: readonly string[] = [
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

// --- Lists --------------------------------------------------------------------------------------

/** Page buttons: all pages up to 7; else first, last, current ± 1 and ellipses. */
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

/**
 * The featured pick: shuffles the candidates (Fisher-Yates with the given random
 * source) and takes `count`; the home island picks afresh on every visit.
 */
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
