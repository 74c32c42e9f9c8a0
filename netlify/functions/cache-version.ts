import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { getCacheVersion } from '../../src/lib/cache-versions.server.ts';
import { CACHE_VERSION_TYPES } from '../../src/lib/cache-versions.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/cache-version' };

const querySchema = z.object({
	type: z.enum(CACHE_VERSION_TYPES, {
		error: `Expected type to be one of ${CACHE_VERSION_TYPES.join(', ')}`,
	}),
});

export default handleJson('cache-version', ['GET'], async (req) => {
	const { type } = parseQuery(querySchema, req);
	const tenant = await getCurrentTenant();
	const served = await withLastGoodAnswer(`cache-version:${type}`, async () => ({
		version: await getCacheVersion(getAnonClient(), tenant.id, type),
	}));
	// Short-lived: a bumped version must reach visitors within a minute.
	return servedJson(served, {
		tags: [tenant.slug, `${tenant.slug}:cache-version`],
		fresh: 60,
		stale: 60,
		vary: ['type'],
	});
});
