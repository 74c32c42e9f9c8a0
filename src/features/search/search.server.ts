import type { ChamberConfig } from '../config/config.ts';
import { toCardBusiness, type CardBusiness } from '../business/business.ts';
import { listBusinesses, listCategories } from '../directory/directory.server.ts';
import { businessListQuerySchema } from '../directory/directory.ts';
import { PAGE_SIZE, sortLabel } from '../directory/rules.ts';
import { cardSettings } from '../site/site.ts';
import { distanceUnitOf } from '../geo/rules.ts';
import { mapTiles } from '../geo/tiles.ts';
import type { TenantRow } from '../tenants/tenants.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import type { SearchDirectoryProps } from './SearchDirectory.tsx';

/**
 * Everything the search island needs, read at build time: the configuration it shows (and no
 * more of it), the categories, and the first page of the default listing, so the page has
 * results before any script runs. That page's cards are rendered by the page as static HTML
 * (`cards`, passed to the island as children): hydrating 24 cards cost a phone more main-thread
 * time than anything else on the page, and they need no script until the visitor searches.
 */
export async function getSearchDirectoryProps(
	tenant: TenantRow,
	config: ChamberConfig,
): Promise<{
	island: Omit<SearchDirectoryProps, 'mapScript' | 'nearScript'>;
	cards: CardBusiness[];
}> {
	const client = getAnonClient();
	const { searchPage, features } = config;
	const query = businessListQuerySchema.parse({ sortBy: searchPage.defaultSort });
	const first = await listBusinesses(client, tenant.id, query, config);
	const categories = await listCategories(client, tenant.id);
	const cards = first.businesses.map(toCardBusiness);
	const island: Omit<SearchDirectoryProps, 'mapScript' | 'nearScript'> = {
		title: config.content.directoryTitle,
		categories: categories.map((c) => c.name),
		filters: searchPage.showFilters ? searchPage.availableFilters : [],
		sorts: searchPage.showSortDropdown
			? searchPage.availableSorts.map((value) => ({ value, label: sortLabel(value) }))
			: [],
		defaultSort: searchPage.defaultSort,
		availableSorts: searchPage.availableSorts,
		showNewMembersFilter: features.showNewMembersFilter,
		settings: cardSettings(config),
		initialPage: {
			businesses: [],
			total: first.total,
			totalPages: first.totalPages,
			prerendered: cards.length > 0,
		},
		pageSize: PAGE_SIZE,
		unit: distanceUnitOf(config.contact.country),
		showMap: features.showMap,
		showNearMe: features.showNearMe,
		tiles: mapTiles(config, process.env),
	};
	return { island, cards };
}
