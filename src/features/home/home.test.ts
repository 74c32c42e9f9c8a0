import { describe, expect, it } from 'vitest';
import { heroSearchHref, viewAllButton } from './home.ts';

describe('heroSearchHref', () => {
	it.each([
		['', 'all', '/search?page=1'],
		['   ', 'all', '/search?page=1'],
		['  bakery  ', 'all', '/search?q=bakery&page=1'],
		['', 'Legal Services', '/search?category=Legal+Services&page=1'],
		[' tax ', 'Accounting & Tax', '/search?q=tax&category=Accounting+%26+Tax&page=1'],
		['pizza', '', '/search?q=pizza&page=1'],
	])('q %j and category %j go to %s', (q, category, href) => {
		expect(heroSearchHref(q, category)).toBe(href);
	});
});

describe('viewAllButton', () => {
	it('shows under the affiliation strategy with an affiliation set', () => {
		expect(
			viewAllButton({
				strategy: 'affiliation',
				affiliation: 'Young Professionals',
				showViewAllButton: true,
			}),
		).toEqual({
			label: 'View All Young Professionals Members',
			href: '/search?affiliation=Young+Professionals',
		});
	});

	it.each([
		{ strategy: 'membership', affiliation: 'Young Professionals', showViewAllButton: true },
		{ strategy: 'random', affiliation: 'Young Professionals', showViewAllButton: true },
		{ strategy: 'affiliation', affiliation: undefined, showViewAllButton: true },
		{ strategy: 'affiliation', affiliation: 'Young Professionals', showViewAllButton: false },
	] as const)('is hidden for %j', (featured) => {
		expect(viewAllButton(featured)).toBeNull();
	});
});
