import type { Config } from '@netlify/functions';
import { listBanners } from '../../src/features/directory/directory.server.ts';
import { cachedJson, handleJson } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/banners' };

export default handleJson('banners', ['GET'], async () => {
	const tenant = await getCurrentTenant();
	const banners = await listBanners(getAnonClient(), tenant.id);
	return cachedJson(banners, { tags: [tenant.slug, `${tenant.slug}:banners`] });
});
