import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { listMembershipLevels } from '../../src/features/directory/directory.server.ts';
import { cachedJson, handleJson, parseQuery, versionParam } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/membership-levels' };

const querySchema = z.object({ v: versionParam });

export default handleJson('membership-levels', ['GET'], async (req) => {
	parseQuery(querySchema, req);
	const tenant = await getCurrentTenant();
	const levels = await listMembershipLevels(getAnonClient(), tenant.id);
	return cachedJson(levels, { tags: [tenant.slug, `${tenant.slug}:businesses`] });
});
