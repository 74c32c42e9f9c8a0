import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { bumpCacheVersion } from '../../src/features/admin/cache/cache.server.ts';
import {
	cachePurgeTags,
	incrementCacheVersionBodySchema,
	refreshPublishes,
} from '../../src/features/admin/cache/cache.ts';
import { outcomeAnswer, publishChange } from '../../src/features/publish/policy.server.ts';
import { purgeTenantCache } from '../../src/features/publish/publish.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { handleJson, HttpError, parseJsonBody } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/admin/increment-cache-version' };

/**
 * The Cache tab's refresh: `{resourceType}` (and optionally `chamber`, a slug) →
 * `{newVersion}`, admin and super_admin (an editor gets 403, from here and from the database).
 * The bump runs with the user's token; this deployment's CDN entries of that resource are purged,
 * and a `categories` refresh also publishes the site, whose pages carry the categories.
 */
export default handleJson('admin-increment-cache-version', ['POST'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const body = await parseJsonBody(incrementCacheVersionBodySchema, req);
	const current = await getCurrentTenant();
	const tenant =
		body.chamber && body.chamber !== current.slug
			? await getTenantBySlugOrNull(session.client, body.chamber)
			: current;
	if (!tenant) throw new HttpError(404, `No chamber "${body.chamber}"`);
	const newVersion = await bumpCacheVersion(session.client, tenant.id, body.resourceType);

	// Each deployment serves (and purges, and builds) its own chamber only.
	let answer: ReturnType<typeof outcomeAnswer> = { publish: null, waiting: null };
	if (tenant.id === current.id) {
		const tags = cachePurgeTags(tenant.slug, body.resourceType);
		if (refreshPublishes(body.resourceType)) {
			answer = outcomeAnswer(
				await publishChange({
					client: session.client,
					tenantId: tenant.id,
					origin: 'staff',
					reason: 'Categories cache refreshed',
					purgeTags: tags,
				}),
			);
		} else {
			await purgeTenantCache(tags);
		}
	}
	return Response.json({ newVersion, ...answer }, { headers: { 'Cache-Control': 'no-store' } });
});
