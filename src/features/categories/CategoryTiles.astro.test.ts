import { describe, expect, it } from 'vitest';
import { render } from '../site/render.test-helpers.ts';
import CategoryTiles from './CategoryTiles.astro';
import { categoryTiles } from './categories.ts';

const categories = [
	{ name: 'Legal Services', count: 16 },
	{ name: 'Zoo', count: 1 },
	{ name: 'Restaurants & Catering', count: 30 },
	{ name: 'Chamber of Commerce', count: 2 },
	{ name: 'Beekeeping', count: 3 },
];

describe('CategoryTiles', () => {
	it('shows each tile with its icon, name and count, linking to the search', async () => {
		const tiles = categoryTiles(categories, { count: 4, sortBy: 'alphabetical' });
		const { getAllByRole, getByRole } = await render(CategoryTiles, {
			title: 'Popular Categories',
			tiles,
			total: categories.length,
		});
		expect(getByRole('heading', { level: 2, name: 'Popular Categories' })).toBeTruthy();
		const links = getAllByRole('link').filter((a) => a.classList.contains('tile'));
		expect(
			links.map((a) => [
				a.querySelector('[data-icon]')?.getAttribute('data-icon'),
				a.textContent?.replace(/\s+/g, ' ').trim(),
				a.getAttribute('href'),
			]),
		).toEqual([
			['default', 'Beekeeping 3 businesses', '/search?category=Beekeeping&page=1'],
			[
				'chamber',
				'Chamber of Commerce 2 businesses',
				'/search?category=Chamber+of+Commerce&page=1',
			],
			['legal', 'Legal Services 16 businesses', '/search?category=Legal+Services&page=1'],
			[
				'restaurants',
				'Restaurants & Catering 30 businesses',
				'/search?category=Restaurants+%26+Catering&page=1',
			],
		]);
		for (const link of links) expect(link.querySelector('svg')).not.toBeNull();
		expect(getByRole('link', { name: 'View New Members' }).getAttribute('href')).toBe(
			'/search?newMembers=true&page=1',
		);
		expect(getByRole('link', { name: 'Browse all 5 categories' }).getAttribute('href')).toBe(
			'/category/',
		);
	});

	it("says '1 business' for a category of one", async () => {
		const { getByText } = await render(CategoryTiles, {
			title: 'Popular Categories',
			tiles: [{ name: 'Zoo', count: 1 }],
			total: 1,
		});
		expect(getByText('1 business')).toBeTruthy();
	});
});
