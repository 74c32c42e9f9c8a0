import { describe, expect, it } from 'vitest';
import { CATEGORY_ICON_KEYS } from '../directory/directory.ts';
import { iconSvg } from '../site/icons.server.ts';
import {
	CATEGORY_ICONS,
	businessCountLabel,
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
