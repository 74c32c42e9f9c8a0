import { profilePath } from '../business/business.ts';
import { listCategoryListings } from '../categories/categories.server.ts';
import { categoryPagePaths } from '../categories/categories.ts';
import { getSiteBusinesses } from './site.server.ts';

let paths: Promise<string[]> | undefined;

/**
 * Every address the sitemap lists, read once per build: home, search, the category list, every
 * page of every category, every business profile.
 */
export function sitemapPaths(): Promise<string[]> {
	paths ??= (async () => {
		const [listings, businesses] = await Promise.all([listCategoryListings(), getSiteBusinesses()]);
		return [
			'/',
			'/search',
			'/category/',
			...listings.flatMap(({ page, businesses: listed }) =>
				categoryPagePaths({ slug: page.slug, count: listed.length }),
			),
			...businesses.map((business) => profilePath(business)),
		];
	})();
	return paths;
}
