import type { SupabaseClient } from '../../../lib/database.ts';
import { BadRequest, HttpError } from '../../../lib/http.server.ts';
import type { RefreshableCacheType } from '../../../lib/cache-versions.ts';

/**
 * Bumps one cache version of a chamber with the user's own client: bump_cache_version (migration
 * 030) lets admins and super_admins only, adds one, and records the purge under the token's
 * e-mail. Answers the new version.
 */
export async function bumpCacheVersion(
	client: SupabaseClient,
	tenantId: string,
	type: RefreshableCacheType,
): Promise<number> {
	const { data, error } = await client.rpc('bump_cache_version', {
		p_tenant_id: tenantId,
		p_type: type,
	});
	if (error) {
		if (error.code === '42501') throw new HttpError(403, error.message);
		if (error.code === '22023') throw new BadRequest(error.message);
		throw new Error(`Failed to bump the ${type} cache version: ${error.message}`, {
			cause: error,
		});
	}
	return Number(data);
}
