import { describe, expect, it } from 'vitest';
import {
	candidatesWithin,
	FEATURED_EMBED_MAX_BYTES,
	heroSearchHref,
	viewAllButton,
} from './home.ts';

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

describe('the featured candidates the home page embeds', () => {
	it('are as many as fit the page budget’s share, in the random order they came in', () => {
		const candidates = Array.from({ length: 500 }, (_, i) => ({
			id: `id-${i}`,
			description: 'A long listing description. '.repeat(20),
		}));
		const kept = candidatesWithin(candidates);
		expect(kept.length).toBeGreaterThan(100);
		expect(kept.length).toBeLessThan(500);
		expect(kept).toEqual(candidates.slice(0, kept.length));
		expect(JSON.stringify(kept).length).toBeLessThanOrEqual(FEATURED_EMBED_MAX_BYTES);
		expect(candidatesWithin(candidates.slice(0, 3))).toHaveLength(3);
	});
});
