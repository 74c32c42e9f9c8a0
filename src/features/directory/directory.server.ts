import type { Args, Row, SupabaseClient } from '../../lib/database.ts';
import type { ChamberConfig } from '../config/config.ts';
import {
	toBusiness,
	type Business,
	type BusinessCardRecord,
	type BusinessListQuery,
	type BusinessListResult,
	type BusinessLocations,
} from './directory.ts';
import { dropBlankNames, isInternalId, keepAffiliation } from './rules.ts';
import { answerDistance, distanceQuery, type DistanceQuery } from '../geo/geo.ts';
import { distanceUnitOf } from '../geo/rules.ts';

/**
 * The directory's reads, all through supabase-js and all scoped to one tenant.
 * Sorting, filtering and paging happen in SQL (search_businesses and directory_page,
 * 20261121000001_baseline_directory.sql); this module maps records to the display model.
 */

export interface CategoryCount {
	name: string;
	count: number;
}

export type FilterType = 'cities' | 'counties' | 'zips' | 'affiliations';
export const FILTER_TYPES: readonly FilterType[] = ['cities', 'counties', 'zips', 'affiliations'];

export interface FilterOption {
	name: string;
	count: number;
}

/** A banner of the home page's carousel, as listBanners reads it. */
export type Banner = Pick<
	Row<'banners'>,
	'id' | 'banner_name' | 'image_url' | 'navigate_url' | 'target' | 'alternate_text'
>;

/** Bulk reads go in batches of this many rows. */
const BATCH_SIZE = 1000;
/** The featured fetch reads at most this many candidates. */
const FEATURED_CANDIDATES = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Categories of a tenant with their business counts, most popular first; blank names dropped. */
export async function listCategories(
	client: SupabaseClient,
	tenantId: string,
): Promise<CategoryCount[]> {
	const { data, error } = await client.rpc('list_categories', { p_tenant_id: tenantId });
	if (error) throw new Error(`Failed to fetch categories: ${error.message}`, { cause: error });
	return dropBlankNames(data).map((c) => ({
		name: c.name,
		count: Number(c.count),
	}));
}

/** The distance part of a list query, in the chamber's unit unless the query names one. */
function listDistanceQuery(
	query: Pick<BusinessListQuery, 'near' | 'radius' | 'bounds' | 'unit'>,
	config: ChamberConfig,
): DistanceQuery | null {
	return distanceQuery(query, distanceUnitOf(config.contact.country));
}

/**
 * One page of the directory in any of the nine sorts, with the total number of matches; near a
 * point or in a map's area, nearest first, each business with its distance.
 */
export async function listBusinesses(
	client: SupabaseClient,
	tenantId: string,
	query: BusinessListQuery,
	config: ChamberConfig,
	today: Date = new Date(),
): Promise<BusinessListResult> {
	const area = listDistanceQuery(query, config);
	if (area) return listBusinessesNear(client, tenantId, query, area, config, today);
	const filters: Args<'count_businesses_with_category'> = {
		p_tenant_id: tenantId,
		p_search_query: query.searchQuery ?? null,
		p_category: query.category ?? null,
		p_city: query.city ?? null,
		p_county: query.county ?? null,
		p_zip: query.zip ?? null,
		p_affiliation: query.affiliation ?? null,
		p_new_members_only: query.newMembersOnly,
	};
	const { data, error } = await client.rpc('search_businesses', {
		...filters,
		p_sort: query.sortBy ?? config.searchPage.defaultSort,
		p_hierarchy: config.searchPage.membershipHierarchy,
		p_seed: query.randomSeed,
		p_limit: query.pageSize,
		p_offset: (query.page - 1) * query.pageSize,
	});
	if (error) throw new Error(`Failed to fetch businesses: ${error.message}`, { cause: error });
	const rows = data;
	let total = rows[0] ? Number(rows[0].total) : 0;
	// A page past the end has no row to carry the total.
	if (rows.length === 0 && query.page > 1) total = await countBusinesses(client, filters);
	return {
		businesses: rows.map((row) => toBusiness(row.card, config, today)),
		total,
		totalPages: Math.ceil(total / query.pageSize),
	};
}

/** The filters of a list query as the distance search's arguments take them. */
function areaArgs(tenantId: string, query: BusinessListQuery, area: DistanceQuery) {
	return {
		p_tenant_id: tenantId,
		p_latitude: area.near?.latitude ?? null,
		p_longitude: area.near?.longitude ?? null,
		p_radius_km: area.radiusKm,
		p_bounds: area.bounds
			? [area.bounds.south, area.bounds.west, area.bounds.north, area.bounds.east]
			: null,
		p_search_query: query.searchQuery ?? null,
		p_category: query.category ?? null,
		p_city: query.city ?? null,
		p_county: query.county ?? null,
		p_zip: query.zip ?? null,
		p_affiliation: query.affiliation ?? null,
		p_new_members_only: query.newMembersOnly,
	};
}

async function listBusinessesNear(
	client: SupabaseClient,
	tenantId: string,
	query: BusinessListQuery,
	area: DistanceQuery,
	config: ChamberConfig,
	today: Date,
): Promise<BusinessListResult> {
	const { data, error } = await client.rpc('search_businesses_near', {
		...areaArgs(tenantId, query, area),
		p_limit: query.pageSize,
		p_offset: (query.page - 1) * query.pageSize,
	});
	if (error) throw new Error(`Failed to fetch businesses: ${error.message}`, { cause: error });
	const total = data[0] ? Number(data[0].total) : 0;
	const businesses = data.flatMap((row) =>
		row.card
			? [
					{
						...toBusiness(row.card, config, today),
						distance: answerDistance(Number(row.distance_km), area.unit),
					},
				]
			: [],
	);
	return {
		businesses,
		total,
		totalPages: Math.ceil(total / query.pageSize),
		distanceUnit: area.unit,
	};
}

/** Every matching business's place for the map (at most 100,000), with the matches' total. */
export async function listBusinessLocations(
	client: SupabaseClient,
	tenantId: string,
	query: BusinessListQuery,
	config: ChamberConfig,
): Promise<BusinessLocations> {
	const area = listDistanceQuery(query, config);
	const args = area
		? areaArgs(tenantId, query, area)
		: {
				p_tenant_id: tenantId,
				p_search_query: query.searchQuery ?? null,
				p_category: query.category ?? null,
				p_city: query.city ?? null,
				p_county: query.county ?? null,
				p_zip: query.zip ?? null,
				p_affiliation: query.affiliation ?? null,
				p_new_members_only: query.newMembersOnly,
			};
	const { data, error } = await client.rpc('directory_locations', args);
	if (error) {
		throw new Error(`Failed to fetch business locations: ${error.message}`, { cause: error });
	}
	return { ...data, total: Number(data.total), located: Number(data.located) };
}

async function countBusinesses(
	client: SupabaseClient,
	filters: Args<'count_businesses_with_category'>,
): Promise<number> {
	const { data, error } = await client.rpc('count_businesses_with_category', filters);
	if (error) throw new Error(`Failed to count businesses: ${error.message}`, { cause: error });
	return Number(data);
}

/** A value inside a PostgREST filter, quoted so commas, dots, parentheses and quotes stay text. */
function filterValue(value: string): string {
	return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * Every business of a tenant, by name, read in batches of 1000 (profile pages, sitemap). Each
 * batch starts after the last row of the one before (name, then id) rather than at an offset:
 * the database builds every skipped card record again for an offset, which made reading 50,000
 * businesses take minutes (docs/performance.md#benchbuild).
 */
export async function listAllBusinesses(
	client: SupabaseClient,
	tenantId: string,
	config: ChamberConfig,
	today: Date = new Date(),
	batchSize: number = BATCH_SIZE,
): Promise<Business[]> {
	const all: Business[] = [];
	let last: BusinessCardRecord | undefined;
	for (;;) {
		let request = client.from('business_cards_view').select('*').eq('tenant_id', tenantId);
		if (last) {
			const name = filterValue(last.report_name);
			request = request.or(
				`report_name.gt.${name},and(report_name.eq.${name},id.gt.${filterValue(last.id)})`,
			);
		}
		const { data, error } = await request.order('report_name').order('id').limit(batchSize);
		if (error) throw new Error(`Failed to fetch businesses: ${error.message}`, { cause: error });
		const records = data;
		for (const record of records) all.push(toBusiness(record, config, today));
		if (records.length < batchSize) return all;
		last = records.at(-1);
	}
}

/**
 * One business by internal id (a uuid), by weblink profile id (digits), or, for the deprecated
 * /business/{name} route, the first business whose name starts with the given text; null when
 * there is none.
 */
export async function getBusiness(
	client: SupabaseClient,
	tenantId: string,
	idOrName: string,
	config: ChamberConfig,
	today: Date = new Date(),
): Promise<Business | null> {
	const key = idOrName.trim();
	if (key === '') return null;
	const base = () => client.from('business_detail_view').select('*').eq('tenant_id', tenantId);
	let request;
	if (isInternalId(key) && UUID.test(key)) request = base().eq('id', key);
	else if (/^\d+$/.test(key)) request = base().eq('weblink_profile_id', key);
	else {
		const prefix = key.replace(/[\\%_]/g, (c) => `\\${c}`);
		request = base().ilike('report_name', `${prefix}%`).order('report_name').order('id');
	}
	const { data, error } = await request.limit(1);
	if (error) throw new Error(`Failed to fetch business: ${error.message}`, { cause: error });
	const record = data[0];
	return record ? toBusiness(record, config, today) : null;
}

/**
 * Up to 500 random businesses eligible for the home page's featured section under
 * config.featuredBusinesses; the home island picks `count` of them on each visit (pickFeatured).
 */
export async function listFeaturedCandidates(
	client: SupabaseClient,
	tenantId: string,
	config: ChamberConfig,
	today: Date = new Date(),
): Promise<Business[]> {
	const featured = config.featuredBusinesses;
	const { data, error } = await client.rpc('featured_business_candidates', {
		p_tenant_id: tenantId,
		p_strategy: featured.strategy,
		p_levels: featured.membershipLevels,
		p_affiliation: featured.affiliation ?? null,
		p_require_complete: featured.requireCompleteProfile,
		p_limit: FEATURED_CANDIDATES,
	});
	if (error) {
		throw new Error(`Failed to fetch featured businesses: ${error.message}`, { cause: error });
	}
	return data.map((record) => toBusiness(record, config, today));
}

/** Values of one search filter with their counts, within a category and search. */
export async function listFilterOptions(
	client: SupabaseClient,
	tenantId: string,
	type: FilterType,
	options: { category?: string; search?: string } = {},
): Promise<FilterOption[]> {
	const { data, error } = await client.rpc('get_filter_options', {
		p_tenant_id: tenantId,
		p_type: type,
		p_category: options.category ?? null,
		p_search_query: options.search ?? null,
	});
	if (error) throw new Error(`Failed to fetch ${type}: ${error.message}`, { cause: error });
	const list = dropBlankNames(data).map((o) => ({
		name: o.name,
		count: Number(o.count),
	}));
	return type === 'affiliations' ? list.filter((o) => keepAffiliation(o.name)) : list;
}

/** The tenant's active banners in carousel order. */
export async function listBanners(client: SupabaseClient, tenantId: string): Promise<Banner[]> {
	const { data, error } = await client
		.from('banners')
		.select('id, banner_name, image_url, navigate_url, target, alternate_text')
		.eq('tenant_id', tenantId)
		.eq('active', true)
		.order('position')
		.order('banner_name');
	if (error) throw new Error(`Failed to fetch banners: ${error.message}`, { cause: error });
	return data;
}
