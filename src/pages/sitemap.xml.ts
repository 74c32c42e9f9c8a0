import type { APIRoute } from 'astro';
import { profilePath } from '../features/business/business.ts';
import { listCategoryListings } from '../features/categories/categories.server.ts';
import { sitemapXml } from '../features/site/discovery.ts';
import { getSiteBusinesses } from '../features/site/site.server.ts';

export const GET: APIRoute = async ({ site }) => {
	const [listings, businesses] = await Promise.all([listCategoryListings(), getSiteBusinesses()]);
	const paths = [
		'/',
		'/search',
		'/category/',
		...listings.map(({ page }) => page.path),
		...businesses.map((business) => profilePath(business)),
	];
	return new Response(sitemapXml(paths.map((path) => new URL(path, site).href)), {
		headers: { 'Content-Type': 'application/xml; charset=utf-8' },
	});
};
