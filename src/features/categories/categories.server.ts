import { toCardBusiness, type CardBusiness } from '../business/business.ts';
import { listCategories } from '../directory/directory.server.ts';
import { getSite, getSiteBusinesses } from '../site/site.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { categoryPages, type CategoryPage, type CategoryPageSlice } from './categories.ts';

// A type alias, not an interface: Astro's page props need an index signature.
export type CategoryListing = {
	page: CategoryPage;
	/** The category's businesses by name, as cards. */
	businesses: CardBusiness[];
};

/** What one page of a category renders: its slice of the category's businesses. */
export type CategoryListingPage = {
	page: CategoryPage;
	slice: CategoryPageSlice;
	/** Businesses in the whole category. */
	total: number;
	/** This page's businesses. */
	businesses: CardBusiness[];
};

let listings: Promise<CategoryListing[]> | undefined;

/** Every category page of the build with its businesses, read once per build. */
export function listCategoryListings(): Promise<CategoryListing[]> {
	listings ??= (async () => {
		const { tenant } = await getSite();
		const [categories, businesses] = await Promise.all([
			listCategories(getAnonClient(), tenant.id),
			getSiteBusinesses(),
		]);
		return categoryPages(categories).map((page) => ({
			page,
			businesses: businesses
				.filter((business) => business.categories.includes(page.name))
				.map(toCardBusiness),
		}));
	})();
	return listings;
}
