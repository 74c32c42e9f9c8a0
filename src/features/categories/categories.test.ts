import { describe, expect, it } from 'vitest';
import { CATEGORY_ICON_KEYS } from '../directory/directory.ts';
import { iconSvg } from '../site/icons.server.ts';
import {
	CATEGORY_ICONS,
	CATEGORY_PAGE_SIZE,
	businessCountLabel,
	categoryPageCount,
	categoryPageLabel,
	categoryPagePaths,
	categoryPageSlices,
	categoryPages,
	categorySearchHref,
	categoryTiles,
} from './categories.ts';

const categories = [
	{ name: 'Retail', count: 40 },
	{ name: 'Banking', count: 19 },
	{ name: 'Legal Services', count: 16 },
	{ name: 'Accounting', count: 19 },
	{ name: 'Zoos', count: 1 },
];

describe('categoryTiles', () => {
	it('takes the most popular first, ties by name', () => {
		expect(
			categoryTiles(categories, { count: 4, sortBy: 'popularity' }).map((c) => c.name),
		).toEqual(['Retail', 'Accounting', 'Banking', 'Legal Services']);
	});

	it('or the first ones alphabetically', () => {
		expect(
			categoryTiles(categories, { count: 4, sortBy: 'alphabetical' }).map((c) => c.name),
		).toEqual(['Accounting', 'Banking', 'Legal Services', 'Retail']);
	});

	it('shows them all when there are fewer than the count', () => {
		expect(categoryTiles(categories, { count: 8, sortBy: 'popularity' })).toHaveLength(5);
	});
});

describe('tile texts and links', () => {
	it('counts businesses, singular for one', () => {
		expect(businessCountLabel(1)).toBe('1 business');
		expect(businessCountLabel(0)).toBe('0 businesses');
		expect(businessCountLabel(16)).toBe('16 businesses');
	});

	it('links a tile to the search for its category, page 1', () => {
		expect(categorySearchHref('Accounting & Tax Preparation')).toBe(
			'/search?category=Accounting+%26+Tax+Preparation&page=1',
		);
	});
});

describe('categoryPages', () => {
	it('gives every category its own path, even when two names share a slug', () => {
		const pages = categoryPages([
			{ name: 'Food, Drink', count: 2 },
			{ name: 'Legal Services', count: 3 },
			{ name: 'Food & Drink', count: 5 },
		]);
		expect(pages.map((p) => [p.name, p.path])).toEqual([
			['Food & Drink', '/category/food-drink/'],
			['Food, Drink', '/category/food-drink-2/'],
			['Legal Services', '/category/legal-services/'],
		]);
	});
});

describe('category icons', () => {
	it('draws an existing icon for every key categoryIcon can return', async () => {
		for (const key of CATEGORY_ICON_KEYS) {
			await expect(iconSvg(CATEGORY_ICONS[key]), key).resolves.toMatch(/^<svg .*<\/svg>$/s);
		}
	});
});

describe('category pages of 48 businesses', () => {
	it('one page up to 48, then one more per 48', () => {
		expect(CATEGORY_PAGE_SIZE).toBe(48);
		expect([0, 1, 48, 49, 96, 97, 50_000].map(categoryPageCount)).toEqual([1, 1, 1, 2, 2, 3, 1042]);
		expect(categoryPagePaths({ slug: 'retail', count: 100 })).toEqual([
			'/category/retail/',
			'/category/retail/2/',
			'/category/retail/3/',
		]);
	});

	it('each slice knows its businesses and its neighbours', () => {
		const [first, second, last] = categoryPageSlices('retail', 100);
		expect(first).toEqual({
			number: 1,
			count: 3,
			path: '/category/retail/',
			prev: null,
			next: '/category/retail/2/',
			start: 0,
			end: 48,
		});
		expect(second).toMatchObject({ prev: '/category/retail/', next: '/category/retail/3/' });
		expect(last).toMatchObject({ start: 96, end: 100, next: null, prev: '/category/retail/2/' });
		expect(categoryPageSlices('zoos', 0)).toEqual([
			{ number: 1, count: 1, path: '/category/zoos/', prev: null, next: null, start: 0, end: 0 },
		]);
	});

	it('says which page and which businesses, with thousands grouped', () => {
		const slices = categoryPageSlices('retail', 12_345);
		expect(categoryPageLabel(slices[1]!, 12_345)).toBe('Page 2 of 258: businesses 49–96 of 12,345');
		expect(categoryPageLabel(categoryPageSlices('zoos', 3)[0]!, 3)).toBeNull();
		expect(businessCountLabel(12_345)).toBe('12,345 businesses');
	});
});
