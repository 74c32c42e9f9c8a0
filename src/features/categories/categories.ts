import type { CategoryDisplay } from '../config/config.ts';
import type { CategoryIconKey } from '../directory/directory.ts';
import { slugify } from '../directory/rules.ts';
import type { CategoryCount } from '../directory/directory.server.ts';

/** Home category tiles and the crawlable category pages (docs/behaviour.md#home). */

/** The home tiles: `count` categories, most popular first or alphabetically. */
export function categoryTiles<T extends CategoryCount>(
	categories: readonly T[],
	display: Pick<CategoryDisplay, 'count' | 'sortBy'>,
): T[] {
	const sorted = [...categories].sort((a, b) =>
		display.sortBy === 'alphabetical'
			? a.name.localeCompare(b.name)
			: b.count - a.count || a.name.localeCompare(b.name),
	);
	return sorted.slice(0, display.count);
}

/** 'N businesses', singular for one. */
export function businessCountLabel(count: number): string {
	return `${count.toLocaleString('en-US')} ${count === 1 ? 'business' : 'businesses'}`;
}

/** A tile's target: the search filtered by the category, page 1. */
export function categorySearchHref(name: string): string {
	return `/search?${new URLSearchParams({ category: name, page: '1' })}`;
}

export interface CategoryPage extends CategoryCount {
	slug: string;
	/** /category/{slug}/ */
	path: string;
}

/**
 * One page per category. Two names with the same slug ('Food & Drink', 'Food, Drink') get
 * '-2', '-3' … in name order, so every category keeps a page and paths never change with counts.
 */
export function categoryPages(categories: readonly CategoryCount[]): CategoryPage[] {
	const used = new Map<string, number>();
	return [...categories]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map((category) => {
			const base = slugify(category.name) || 'category';
			const seen = used.get(base) ?? 0;
			used.set(base, seen + 1);
			const slug = seen === 0 ? base : `${base}-${seen + 1}`;
			return { ...category, slug, path: `/category/${slug}/` };
		});
}

/** Businesses per category page: a page stays small at any chamber size (a card is ~2 KB). */
export const CATEGORY_PAGE_SIZE = 48;

/** How many pages a category of `count` businesses has (one, even when empty). */
export function categoryPageCount(count: number): number {
	return Math.max(1, Math.ceil(count / CATEGORY_PAGE_SIZE));
}

/** /category/{slug}/ for the first page, /category/{slug}/{n}/ for the others. */
export function categoryPagePath(slug: string, page: number): string {
	return page <= 1 ? `/category/${slug}/` : `/category/${slug}/${page}/`;
}

/** Every page's path of a category, in order. */
export function categoryPagePaths(page: Pick<CategoryPage, 'slug' | 'count'>): string[] {
	return Array.from({ length: categoryPageCount(page.count) }, (_, i) =>
		categoryPagePath(page.slug, i + 1),
	);
}

/** One page of a category: where it is, its neighbours and which businesses it shows. */
export interface CategoryPageSlice {
	/** 1-based. */
	number: number;
	count: number;
	path: string;
	prev: string | null;
	next: string | null;
	/** Index of its first business in the category's list (0-based) and one past its last. */
	start: number;
	end: number;
}

/** The pages of a category of `total` businesses. */
export function categoryPageSlices(slug: string, total: number): CategoryPageSlice[] {
	const count = categoryPageCount(total);
	return Array.from({ length: count }, (_, i) => {
		const number = i + 1;
		return {
			number,
			count,
			path: categoryPagePath(slug, number),
			prev: number > 1 ? categoryPagePath(slug, number - 1) : null,
			next: number < count ? categoryPagePath(slug, number + 1) : null,
			start: i * CATEGORY_PAGE_SIZE,
			end: Math.min(total, number * CATEGORY_PAGE_SIZE),
		};
	});
}

/** 'Page 2 of 26: businesses 49–96 of 1,234', or null for a category that fits on one page. */
export function categoryPageLabel(slice: CategoryPageSlice, total: number): string | null {
	if (slice.count <= 1) return null;
	const n = (value: number) => value.toLocaleString('en-US');
	return `Page ${n(slice.number)} of ${n(slice.count)}: businesses ${n(slice.start + 1)}–${n(slice.end)} of ${n(total)}`;
}

/** The Tabler icon drawn for each category icon key. */
export const CATEGORY_ICONS: Readonly<Record<CategoryIconKey, string>> = {
	legal: 'gavel',
	accounting: 'calculator',
	medical: 'stethoscope',
	dental: 'dental',
	banking: 'building-bank',
	insurance: 'shield-check',
	'real-estate': 'home',
	construction: 'hammer',
	automotive: 'car',
	technology: 'device-laptop',
	marketing: 'speakerphone',
	restaurants: 'tools-kitchen-2',
	hotels: 'bed',
	retail: 'shopping-bag',
	education: 'school',
	fitness: 'barbell',
	manufacturing: 'building-factory-2',
	transport: 'truck',
	association: 'users-group',
	government: 'building-monument',
	church: 'building-church',
	entertainment: 'masks-theater',
	sports: 'ball-football',
	golf: 'golf',
	museum: 'building-arch',
	music: 'music',
	photography: 'camera',
	cleaning: 'spray',
	security: 'lock',
	storage: 'box',
	waste: 'trash',
	pets: 'paw',
	travel: 'plane',
	water: 'droplet',
	utilities: 'bolt',
	chamber: 'briefcase',
	maps: 'map',
	newspapers: 'news',
	'youth-sports': 'ball-baseball',
	default: 'building-store',
};
