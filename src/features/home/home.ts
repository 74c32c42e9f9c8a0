import type { FeaturedBusinesses } from '../config/config.ts';

/**
 * The home page's rules (docs/behaviour.md#home). Pure and tiny: the search form's script ships
 * this module to the browser.
 */

/**
 * Where the hero search goes: /search with q (trimmed, only if non-empty), category (only if not
 * 'all' or empty) and page=1.
 */
export function heroSearchHref(query: string, category: string): string {
	const params = new URLSearchParams();
	const q = query.trim();
	if (q) params.set('q', q);
	if (category && category !== 'all') params.set('category', category);
	params.set('page', '1');
	return `/search?${params}`;
}

export const NEW_MEMBERS_HREF = '/search?newMembers=true&page=1';

/**
 * 'View All {affiliation} Members' under the affiliation strategy, when an affiliation is set and
 * the button is not switched off; null otherwise.
 */
export function viewAllButton(
	featured: Pick<FeaturedBusinesses, 'strategy' | 'affiliation' | 'showViewAllButton'>,
): { label: string; href: string } | null {
	const { strategy, affiliation, showViewAllButton } = featured;
	if (strategy !== 'affiliation' || !affiliation || showViewAllButton === false) return null;
	return {
		label: `View All ${affiliation} Members`,
		href: `/search?${new URLSearchParams({ affiliation })}`,
	};
}

/**
 * The page embeds the featured candidates for the browser to pick from: at most this much JSON,
 * so the home page stays under the 300 KB page budget at any chamber size (500 candidates of
 * real listings with long descriptions would not).
 */
export const FEATURED_EMBED_MAX_BYTES = 120 * 1024;

/**
 * The candidates that fit in `maxBytes` of JSON, in their order (the database's random sample,
 * new every build), so the pick stays random while the page stays small.
 */
export function candidatesWithin<T>(
	candidates: readonly T[],
	maxBytes = FEATURED_EMBED_MAX_BYTES,
): T[] {
	const encoder = new TextEncoder();
	const kept: T[] = [];
	let bytes = 2;
	for (const candidate of candidates) {
		bytes += encoder.encode(JSON.stringify(candidate)).length + 1;
		if (bytes > maxBytes) break;
		kept.push(candidate);
	}
	return kept;
}
