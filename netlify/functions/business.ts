import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { getBusiness } from '../../src/features/directory/directory.server.ts';
import { handleJson, jsonError, parseQuery } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/business' };

const querySchema = z.object({
	id: z
		.string({ error: 'Expected the id of a business' })
		.trim()
		.min(1, { error: 'Expected the id of a business' })
		.max(200),
	// Carried over from the search page for the profile's breadcrumb; it does not change the answer.
	category: z.string().max(200).optional(),
});

export default handleJson('business', ['GET'], async (req) => {
	const { id } = parseQuery(querySchema, req);
	const client = getAnonClient();
	const tenant = await getCurrentTenant();
	const served = await withLastGoodAnswer(`business:${id}`, async () => {
		const chamber = await getCachedChamberConfig(client, tenant.id);
		return getBusiness(client, tenant.id, id, chamber);
	});
	if (!served.value) return jsonError(404, 'Business not found');
	return servedJson(served, {
		tags: [tenant.slug, `${tenant.slug}:businesses`],
		fresh: 300,
		stale: 3600,
		vary: ['id'],
	});
});
