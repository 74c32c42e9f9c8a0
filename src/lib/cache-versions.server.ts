import type { SupabaseClient } from './database.ts';
import type { CacheVersionType } from './cache-versions.ts';

/*
 * Apart from the directory's reads: the configuration reads its version on every function's
 * first call, and the directory's module carries the HTML tokenizer.
 */

/** The cache version of one resource type; 1 when none was ever recorded. */
export async function getCacheVersion(
	client: SupabaseClient,
	tenantId: string,
	type: CacheVersionType,
): Promise<number> {
	const { data, error } = await client
		.from('cache_versions')
		.select('version')
		.eq('tenant_id', tenantId)
		.eq('type', type)
		.maybeSingle();
	if (error) {
		throw new Error(`Failed to fetch cache version for ${type}: ${error.message}`, {
			cause: error,
		});
	}
	return data ? Number(data.version) : 1;
}
