import { DEFAULT_RANDOM_SEED, usableRandomSeed, type SortValue } from '../directory/rules.ts';
import { DEFAULT_RADIUS, nearParam } from '../geo/rules.ts';
import type { Position } from '../geo/position.ts';

/**
 * The search page's state and its URL (docs/behaviour.md#search): every filter, the page and the
 * sort live in the query string, so a reload, a shared link and the back button all restore
 * the same listing. Pure, with no runtime import of directory.ts or config.ts (see business.ts
 * for why): the search island ships this module to the browser. Pagination and the seed rule are
 * the directory's, from rules.ts.
 */

const TEXT_FILTERS = ['category', 'city', 'county', 'zip', 'affiliation'] as const;

export interface SearchState {
	q: string;
	category: string;
	city: string;
	county: string;
	zip: string;
	affiliation: string;
	newMembers: boolean;
	page: number;
	sort: SortValue;
	/** The results as a list or on a map (the list stays under the map). */
	view: 'list' | 'map';
	/** 'Search this area': the map's area as south,west,north,east; '' for none. */
	area: string;
	/**
	 * 'Near me': the visitor's position, rounded; null when not asked. Never in the address bar:
	 * it goes out with the search request only (docs/behaviour.md#near-me).
	 */
	near: Position | null;
	/** How far from `near`, in the chamber's unit. */
	radius: number;
}

export const EMPTY_FILTERS: Omit<SearchState, 'sort'> = {
	q: '',
	category: '',
	city: '',
	county: '',
	zip: '',
	affiliation: '',
	newMembers: false,
	page: 1,
	view: 'list',
	area: '',
	near: null,
	radius: DEFAULT_RADIUS,
};

export interface SortOption {
	value: SortValue;
	label: string;
}

/** What the query string may hold, read leniently: anything unusable falls back to the default. */
export function parseSearchParams(
	params: URLSearchParams,
	sorts: { defaultSort: SortValue; available: readonly SortValue[] },
): SearchState {
	const text = (key: string) => (params.get(key) ?? '').trim().slice(0, 200);
	const page = Number(params.get('page'));
	const sort = params.get('sort') as SortValue | null;
	return {
		q: text('q'),
		category: text('category'),
		city: text('city'),
		county: text('county'),
		zip: text('zip'),
		affiliation: text('affiliation'),
		newMembers: params.get('newMembers') === 'true',
		page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
		sort: sort && sorts.available.includes(sort) ? sort : sorts.defaultSort,
		view: params.get('view') === 'map' ? 'map' : 'list',
		area: areaOf(params.get('area')),
		near: null,
		radius: DEFAULT_RADIUS,
	};
}

/**
 * A map's area from the address bar: south,west,north,east as the map writes them, south below
 * north and west of east; '' for anything else.
 */
function areaOf(value: string | null): string {
	const [south = 0, west = 0, north = 0, east = 0] = (value ?? '').split(',').map(Number);
	return /^[-\d.]+(,[-\d.]+){3}$/.test(value ?? '') &&
		-90 <= south &&
		south < north &&
		north <= 90 &&
		-180 <= west &&
		west < east &&
		east <= 180
		? value!
		: '';
}

/** The query string of a state; defaults are left out so the plain listing stays at /search. */
export function toSearchParams(state: SearchState, defaultSort: SortValue): URLSearchParams {
	const params = new URLSearchParams();
	if (state.q) params.set('q', state.q);
	for (const key of TEXT_FILTERS) if (state[key]) params.set(key, state[key]);
	if (state.newMembers) params.set('newMembers', 'true');
	if (state.sort !== defaultSort) params.set('sort', state.sort);
	if (state.area) params.set('area', state.area);
	if (state.page > 1) params.set('page', String(state.page));
	if (state.view === 'map') params.set('view', 'map');
	return params;
}

export function searchUrl(state: SearchState, defaultSort: SortValue): string {
	const query = toSearchParams(state, defaultSort).toString();
	return query ? `/search?${query}` : '/search';
}

/** The same search; a position is the same while it is the same found one (the store keeps it). */
export function sameSearch(a: SearchState, b: SearchState): boolean {
	return (Object.keys(a) as (keyof SearchState)[]).every((key) => a[key] === b[key]);
}

/** A search by distance (near the visitor or in a map's area): nearest first, whatever the sort. */
export function byDistance(state: SearchState): boolean {
	return state.near !== null || state.area !== '';
}

/**
 * The query both the list's and the map's requests share: the search, its filters, the area.
 * Distances come back in the chamber's unit, the API's default.
 */
function searchQuery(state: SearchState): URLSearchParams {
	const params = new URLSearchParams();
	if (state.q) params.set('searchQuery', state.q);
	for (const key of TEXT_FILTERS) if (state[key]) params.set(key, state[key]);
	if (state.newMembers) params.set('newMembersOnly', 'true');
	if (state.near) {
		params.set('near', nearParam(state.near));
		params.set('radius', String(state.radius));
	}
	if (state.area) params.set('bounds', state.area);
	return params;
}

/** GET /api/business-locations for a state: every match's place, for the map. */
export function locationsApiUrl(state: SearchState): string {
	const query = searchQuery(state).toString();
	return query ? `/api/business-locations?${query}` : '/api/business-locations';
}

export function isRandomSort(sort: SortValue): boolean {
	return sort === 'random' || sort.endsWith('Random');
}

/** GET /api/businesses for a state. */
export function businessesApiUrl(state: SearchState, pageSize: number, randomSeed: number): string {
	const params = new URLSearchParams({ page: String(state.page), pageSize: String(pageSize) });
	for (const [key, value] of searchQuery(state)) params.set(key, value);
	params.set('sortBy', state.sort);
	if (isRandomSort(state.sort)) params.set('randomSeed', String(randomSeed));
	return `/api/businesses?${params}`;
}

export const FILTER_OPTION_TYPES = {
	city: 'cities',
	county: 'counties',
	zip: 'zips',
	affiliation: 'affiliations',
} as const;
export type PanelFilter = keyof typeof FILTER_OPTION_TYPES;

export const FILTER_LABELS: Record<PanelFilter, { label: string; all: string; chip: string }> = {
	city: { label: 'City', all: 'All Cities', chip: 'City' },
	county: { label: 'County', all: 'All Counties', chip: 'County' },
	zip: { label: 'Zip Code', all: 'All Zip Codes', chip: 'Zip' },
	affiliation: { label: 'Member Group', all: 'All Member Groups', chip: 'Member Group' },
};

export const RANDOM_SEED_KEY = 'chamber.directory.randomSeed';

/**
 * The session's random seed: a stored value is used only if it is a number
 * from 0 to 1, otherwise the default 0.5 (usableRandomSeed). A session without one gets a fresh
 * seed, so random orders differ between visitors but stay put while one visitor pages through
 * them.
 */
export function sessionSeed(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): number {
	try {
		const stored = storage?.getItem(RANDOM_SEED_KEY);
		if (stored === null || stored === undefined) {
			const seed = Math.random();
			storage?.setItem(RANDOM_SEED_KEY, String(seed));
			return storage ? seed : DEFAULT_RANDOM_SEED;
		}
		return usableRandomSeed(stored);
	} catch {
		// Storage can be switched off or full; the default still gives a stable order.
		return DEFAULT_RANDOM_SEED;
	}
}
