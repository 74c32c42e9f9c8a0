import type { Config } from '@netlify/functions';
import { listBanners } from '../../src/features/directory/directory.server.ts';
import { handleJson } from '../../src/lib/http.server.ts';
import { servedJson, withLastGoodAnswer } from '../../src/lib/last-good.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/banners' };

export default handleJson('banners', ['GET'], async () => {
	const tenant = await getCurrentTenant();
	const served = await withLastGoodAnswer('banners', () => listBanners(getAnonClient(), tenant.id));
	return servedJson(served, { tags: [tenant.slug, `${tenant.slug}:banners`] });
});
