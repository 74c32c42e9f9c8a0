import { z } from 'zod';
import { REFRESHABLE_CACHE_TYPES, type RefreshableCacheType } from '../../../lib/cache-versions.ts';
import type { Row } from '../../../lib/database.ts';

// The Cache tab: the four resource types an admin may refresh, how the
// tab names them, and what a refresh purges. Pure logic: the function, the tab and the tests share it.

/** The cards' titles (docs/behaviour.md#cache-tab). */
export const CACHE_LABELS: Readonly<Record<RefreshableCacheType, string>> = {
	events: 'Chamber Events',
	community_events: 'Community Events',
	event_details: 'Event Details',
	categories: 'Categories',
};

/** What the CDN keeps them for, shown on each card. */
export const CACHE_DURATION_TEXT = 'Cached for 24 hours, served stale for 48 more while refreshing';

/** Rows of 'Cache Refresh History'. */
export const CACHE_HISTORY_SIZE = 15;
/** How long the tab shows a refresh's success. */
export const CACHE_SUCCESS_MS = 5_000;
/** … and its failure. */
export const CACHE_ERROR_MS = 8_000;
export const CACHE_REFRESH_FAILED = 'Failed to refresh cache';

/** POST /api/admin/increment-cache-version's body. */
export const incrementCacheVersionBodySchema = z.object({
	/** One of REFRESHABLE_CACHE_TYPES. */
	resourceType: z.enum(REFRESHABLE_CACHE_TYPES, {
		error: `resourceType must be one of ${REFRESHABLE_CACHE_TYPES.join(', ')}`,
	}),
	/** The chamber's slug (a super_admin's panel of another chamber); default this deployment's. */
	chamber: z.string({ error: 'chamber must be a chamber slug' }).trim().min(1).optional(),
});

/**
 * The CDN cache tags a bump purges: the resource's own answers (the functions tag them
 * `{tenant}:{type}`) and the short-lived version lookup, so visitors get the new version at once.
 */
export function cachePurgeTags(tenantSlug: string, type: RefreshableCacheType): string[] {
	return [`${tenantSlug}:${type}`, `${tenantSlug}:cache-version`];
}

/**
 * Categories are pre-rendered into the pages (the home page's cards, /category/…), so refreshing
 * them also publishes the site; events are read by the browser from the functions.
 */
export function refreshPublishes(type: RefreshableCacheType): boolean {
	return type === 'categories';
}

/** A row of cache_purge_log as the tab shows it. */
export type CachePurgeLogRow = Pick<
	Row<'cache_purge_log'>,
	'id' | 'user_email' | 'purge_type' | 'created_at'
>;

/** How a purge type reads in the history: the card's title, or the stored type as it is. */
export function purgeTypeLabel(type: string): string {
	return (CACHE_LABELS as Record<string, string>)[type] ?? type;
}
