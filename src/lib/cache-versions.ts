/**
 * The resources that carry a cache version (`public.cache_versions.type`). Reads send the current
 * version as `?v=`, so a bumped version is a new cache key at once (docs/behaviour.md#cache-versions).
 * No zod and no server code: islands read it too. The database keeps the same list (the check on
 * cache_versions.type, the versions the import creates, bump_cache_version);
 * tests/db/admin-permissions.test.ts holds them to this one.
 */
export const CACHE_VERSION_TYPES = [
	'config',
	'categories',
	'events',
	'community_events',
	'event_details',
] as const;
export type CacheVersionType = (typeof CACHE_VERSION_TYPES)[number];

/** What staff refresh from the Cache tab, in its order; `config` follows the configuration's own changes. */
export const REFRESHABLE_CACHE_TYPES = [
	'events',
	'community_events',
	'event_details',
	'categories',
] as const satisfies readonly CacheVersionType[];
export type RefreshableCacheType = (typeof REFRESHABLE_CACHE_TYPES)[number];
