import { describe, expect, it } from 'vitest';
import { DEFAULT_RANDOM_SEED } from '../directory/rules.ts';
import {
	EMPTY_FILTERS,
	RANDOM_SEED_KEY,
	businessesApiUrl,
	locationsApiUrl,
	parseSearchParams,
	searchUrl,
	sessionSeed,
	toSearchParams,
	type SearchState,
} from './search.ts';

const sorts = {
	defaultSort: 'membershipHighToLow',
	available: ['nameAsc', 'nameDesc', 'membershipHighToLow', 'random'],
} as const;
const base: SearchState = { ...EMPTY_FILTERS, sort: 'membershipHighToLow' };

function memoryStorage(initial: Record<string, string> = {}) {
	const data = new Map(Object.entries(initial));
	return {
		getItem: (key: string) => data.get(key) ?? null,
		setItem: (key: string, value: string) => void data.set(key, value),
		data,
	};
}

describe('the search URL', () => {
	it('reads every parameter of the query string', () => {
		const params = new URLSearchParams(
			'q=pizza&category=Restaurants&city=Cedarbrook&county=Linn&zip=52901&affiliation=Women+in+Business&newMembers=true&page=3&sort=nameDesc&area=41.9,-91.7,42.05,-91.6&view=map',
		);
		expect(parseSearchParams(params, sorts)).toEqual({
			q: 'pizza',
			category: 'Restaurants',
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52901',
			affiliation: 'Women in Business',
			newMembers: true,
			page: 3,
			sort: 'nameDesc',
			view: 'map',
			area: '41.9,-91.7,42.05,-91.6',
			near: null,
			radius: 10,
		});
	});

	it.each([
		['page=0', { page: 1 }],
		['page=-2', { page: 1 }],
		['page=2.5', { page: 1 }],
		['page=abc', { page: 1 }],
		['newMembers=yes', { newMembers: false }],
		['sort=listingPositionHighToLow', { sort: 'membershipHighToLow' }],
		['sort=bogus', { sort: 'membershipHighToLow' }],
		['q=%20%20trimmed%20', { q: 'trimmed' }],
		['view=satellite', { view: 'list' }],
		['area=42,-91,41,-92', { area: '' }],
		['area=41,-91,north,-90', { area: '' }],
		['area=-91,0,0,1', { area: '' }],
		['area=41..5,-91,42,-90', { area: '' }],
		['area=41,-91,42,-90,1', { area: '' }],
	])('falls back to the default for %s', (query, expected) => {
		expect(parseSearchParams(new URLSearchParams(query), sorts)).toEqual({ ...base, ...expected });
	});

	it('leaves defaults out, so the plain listing is /search', () => {
		expect(searchUrl(base, 'membershipHighToLow')).toBe('/search');
		expect(searchUrl({ ...base, page: 1, sort: 'nameAsc' }, 'membershipHighToLow')).toBe(
			'/search?sort=nameAsc',
		);
	});

	it('round-trips every state through the query string', () => {
		const state: SearchState = {
			q: 'coffee & tea',
			category: 'Restaurants',
			city: 'Maple Ridge',
			county: 'Linn',
			zip: '52910',
			affiliation: 'Young Professionals',
			newMembers: true,
			page: 4,
			sort: 'random',
			view: 'map',
			area: '41.9,-91.7,42.05,-91.6',
			near: null,
			radius: 10,
		};
		const params = toSearchParams(state, 'membershipHighToLow');
		expect(parseSearchParams(new URLSearchParams(params.toString()), sorts)).toEqual(state);
	});

	it('never puts the visitor’s position in the address', () => {
		const near = { ...base, near: { latitude: 41.977, longitude: -91.666 }, radius: 5 };
		expect(searchUrl(near, 'membershipHighToLow')).toBe('/search');
	});
});

describe('businessesApiUrl', () => {
	it('asks for one page of 24 with the filters and the sort', () => {
		const url = new URL(
			businessesApiUrl(
				{ ...base, q: 'pizza', city: 'Cedarbrook', newMembers: true, page: 2 },
				24,
				0.3,
			),
			'http://x',
		);
		expect(url.pathname).toBe('/api/businesses');
		expect(Object.fromEntries(url.searchParams)).toEqual({
			page: '2',
			pageSize: '24',
			searchQuery: 'pizza',
			city: 'Cedarbrook',
			newMembersOnly: 'true',
			sortBy: 'membershipHighToLow',
		});
	});

	it('sends the position and the radius of a search near the visitor', () => {
		const state = { ...base, near: { latitude: 41.977, longitude: -91.666 }, radius: 5 };
		const url = new URL(businessesApiUrl(state, 24, 0.3), 'http://x');
		expect(Object.fromEntries(url.searchParams)).toEqual({
			page: '1',
			pageSize: '24',
			near: '41.977,-91.666',
			radius: '5',
			sortBy: 'membershipHighToLow',
		});
		expect(locationsApiUrl(state)).toBe('/api/business-locations?near=41.977%2C-91.666&radius=5');
	});

	it('asks the map for the same search, without page or sort', () => {
		expect(locationsApiUrl({ ...base, category: 'Bakeries', page: 3 })).toBe(
			'/api/business-locations?category=Bakeries',
		);
		expect(locationsApiUrl({ ...base, area: '41.9,-91.7,42.05,-91.6' })).toBe(
			'/api/business-locations?bounds=41.9%2C-91.7%2C42.05%2C-91.6',
		);
	});

	it('sends the seed only with random sorts', () => {
		const random = new URL(businessesApiUrl({ ...base, sort: 'random' }, 24, 0.3), 'http://x');
		expect(random.searchParams.get('randomSeed')).toBe('0.3');
		const shuffled = new URL(
			businessesApiUrl({ ...base, sort: 'listingPositionLowToHighRandom' }, 24, 0.3),
			'http://x',
		);
		expect(shuffled.searchParams.get('randomSeed')).toBe('0.3');
	});
});

describe('sessionSeed', () => {
	it('uses a stored seed from 0 to 1', () => {
		expect(sessionSeed(memoryStorage({ [RANDOM_SEED_KEY]: '0.25' }))).toBe(0.25);
		expect(sessionSeed(memoryStorage({ [RANDOM_SEED_KEY]: '0' }))).toBe(0);
		expect(sessionSeed(memoryStorage({ [RANDOM_SEED_KEY]: '1' }))).toBe(1);
	});

	it.each(['1.5', '-0.1', 'abc', '', 'NaN', 'Infinity'])(
		'falls back to 0.5 for the stored value %j',
		(stored) => {
			expect(sessionSeed(memoryStorage({ [RANDOM_SEED_KEY]: stored }))).toBe(DEFAULT_RANDOM_SEED);
		},
	);

	it('draws and keeps a seed for a session that has none', () => {
		const storage = memoryStorage();
		const seed = sessionSeed(storage);
		expect(seed).toBeGreaterThanOrEqual(0);
		expect(seed).toBeLessThanOrEqual(1);
		expect(storage.data.get(RANDOM_SEED_KEY)).toBe(String(seed));
		expect(sessionSeed(storage)).toBe(seed);
	});

	it('uses 0.5 when storage is unavailable or throws', () => {
		expect(sessionSeed(undefined)).toBe(DEFAULT_RANDOM_SEED);
		const broken = {
			getItem: () => {
				throw new Error('SecurityError');
			},
			setItem: () => {},
		};
		expect(sessionSeed(broken)).toBe(DEFAULT_RANDOM_SEED);
	});
});
