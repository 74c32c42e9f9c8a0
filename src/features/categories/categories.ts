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
	return `${count} ${count === 1 ? 'business' : 'businesses'}`;
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
