import type { ChamberConfig } from '../config/config.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { listAllBusinesses } from '../directory/directory.server.ts';
import type { Business } from '../directory/directory.ts';
import type { TenantRow } from '../tenants/tenants.server.ts';
import { getAnonClient, getServiceClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';

export interface Site {
	tenant: TenantRow;
	config: ChamberConfig;
}

let site: Promise<Site> | undefined;

/** What every page of a build needs: the tenant and its configuration, read once per build. */
export function getSite(): Promise<Site> {
	site ??= (async () => {
		const client = getServiceClient();
		const tenant = await getCurrentTenant(client);
		return { tenant, config: await getChamberConfig(client, tenant.id) };
	})();
	return site;
}

let businesses: Promise<Business[]> | undefined;

/** Every business of the tenant, read once per build (category pages, sitemap, profiles). */
export function getSiteBusinesses(): Promise<Business[]> {
	businesses ??= getSite().then(({ tenant, config }) =>
		listAllBusinesses(getAnonClient(), tenant.id, config),
	);
	return businesses;
}
