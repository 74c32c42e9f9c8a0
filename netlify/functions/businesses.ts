import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { businessListQuerySchema } from '../../src/features/directory/directory.ts';
import { listBusinesses } from '../../src/features/directory/directory.server.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/businesses' };

export default handleJson('businesses', ['GET'], async (req) => {
	const query = parseQuery(businessListQuerySchema, req);
	const client = getAnonClient();
	const tenant = await getCurrentTenant();
	if (query.near) {
		// A visitor's position (rounded by the page): used for this answer only. Neither the CDN,
		// the browser nor the last good answers keep it, and nothing logs the query.
		const chamber = await getCachedChamberConfig(client, tenant.id);
		const answer = await listBusinesses(client, tenant.id, query, chamber);
		return Response.json(answer, { headers: { 'Cache-Control': 'private, no-store' } });
	}
	const served = await withLastGoodAnswer(`businesses:${JSON.stringify(query)}`, async () => {
		const chamber = await getCachedChamberConfig(client, tenant.id);
		return listBusinesses(client, tenant.id, query, chamber);
	});
	return servedJson(served, {
		tags: [tenant.slug, `${tenant.slug}:businesses`],
		fresh: 300,
		stale: 3600,
		vary: Object.keys(businessListQuerySchema.shape),
	});
});
