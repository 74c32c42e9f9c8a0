import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { listCategories } from '../../src/features/directory/directory.server.ts';
import { handleJson, parseQuery, versionParam } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/categories' };

const querySchema = z.object({ v: versionParam });

export default handleJson('categories', ['GET'], async (req) => {
	parseQuery(querySchema, req);
	const tenant = await getCurrentTenant();
	const served = await withLastGoodAnswer('categories', () =>
		listCategories(getAnonClient(), tenant.id),
	);
	return servedJson(served, { tags: [tenant.slug, `${tenant.slug}:categories`] });
});
