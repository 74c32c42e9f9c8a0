import { toCardBusiness, type CardBusiness } from '../business/business.ts';
import {
	listBanners,
	listCategories,
	listFeaturedCandidates,
	type Banner,
	type CategoryCount,
} from '../directory/directory.server.ts';
import type { Site } from '../site/site.server.ts';
import { candidatesWithin } from './home.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';

/**
 * What the home page reads at build time. A failed read does not fail the build: it is logged
 * and the page shows that section's failure state.
 */
export interface HomeData {
	categories: CategoryCount[];
	/** null when the candidates could not be read: the section shows its error text. */
	featured: CardBusiness[] | null;
	/** Empty when banners could not be read: the carousel is hidden (as when switched off). */
	banners: Banner[];
}

async function orFallback<T>(what: string, read: () => Promise<T>, fallback: T): Promise<T> {
	try {
		return await read();
	} catch (error) {
		console.error(`[home] ${what} could not be read; the page is built without them:`, error);
		return fallback;
	}
}

export async function getHomeData({ tenant, config }: Site): Promise<HomeData> {
	const client = getAnonClient();
	const [categories, featured, banners] = await Promise.all([
		orFallback('categories', () => listCategories(client, tenant.id), []),
		orFallback(
			'featured businesses',
			async () =>
				candidatesWithin(
					(await listFeaturedCandidates(client, tenant.id, config)).map(toCardBusiness),
				),
			null,
		),
		orFallback('banners', () => listBanners(client, tenant.id), []),
	]);
	return { categories, featured, banners };
}
