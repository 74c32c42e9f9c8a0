import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { FILTER_TYPES, listFilterOptions } from '../../src/features/directory/directory.server.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/filter-options' };

const optionalText = z
	.string()
	.trim()
	.max(200)
	.optional()
	.transform((v) => v || undefined);

const querySchema = z.object({
	type: z.enum(FILTER_TYPES, { error: `Expected type to be one of ${FILTER_TYPES.join(', ')}` }),
	category: optionalText,
	search: optionalText,
});

export default handleJson('filter-options', ['GET'], async (req) => {
	const { type, category, search } = parseQuery(querySchema, req);
	const tenant = await getCurrentTenant();
	const served = await withLastGoodAnswer(
		`filter-options:${JSON.stringify([type, category, search])}`,
		() => listFilterOptions(getAnonClient(), tenant.id, type, { category, search }),
	);
	return servedJson(served, {
		tags: [tenant.slug, `${tenant.slug}:businesses`],
		fresh: 300,
		stale: 3600,
		vary: ['type', 'category', 'search'],
	});
});
