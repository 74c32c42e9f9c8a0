import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { businessListQuerySchema } from '../../src/features/directory/directory.ts';
import { listBusinessLocations } from '../../src/features/directory/directory.server.ts';
import { cachedJson, handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/business-locations' };

/** The map's points: the same query as /api/businesses, every match at once (no page, no sort). */
const querySchema = businessListQuerySchema.omit({
	page: true,
	pageSize: true,
	sortBy: true,
	randomSeed: true,
});

export default handleJson('business-locations', ['GET'], async (req) => {
	const query = { ...businessListQuerySchema.parse({}), ...parseQuery(querySchema, req) };
	const client = getAnonClient();
	const tenant = await getCurrentTenant();
	const chamber = await getCachedChamberConfig(client, tenant.id);
	const answer = await listBusinessLocations(client, tenant.id, query, chamber);
	if (query.near) {
		// A visitor's position (rounded by the page): used for this answer only. Neither the CDN nor
		// the browser keeps it, and nothing logs the query.
		return Response.json(answer, { headers: { 'Cache-Control': 'private, no-store' } });
	}
	// Not among the last good answers: a large chamber's points are megabytes per search.
	return cachedJson(answer, {
		tags: [tenant.slug, `${tenant.slug}:businesses`],
		fresh: 300,
		stale: 3600,
		vary: Object.keys(querySchema.shape),
	});
});
