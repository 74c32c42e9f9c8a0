import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicSupabase } from '../auth/browser.ts';
import type { ChamberConfig } from '../config/config.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { listAllBusinesses } from '../directory/directory.server.ts';
import type { Business } from '../directory/directory.ts';
import type { TenantRow } from '../tenants/tenants.server.ts';
import { getAnonClient, getServiceClient, readClientEnv } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';

export interface Site {
	tenant: TenantRow;
	config: ChamberConfig;
}

let site: Promise<Site> | undefined;

/**
 * A logo path on this site (e.g. '/logos/lakeside/logo.svg', as the generator fills it in) that no
 * file in public/ answers would show a broken image: it is left out, so the header shows the
 * chamber's name until a logo is uploaded or shipped. Addresses elsewhere (uploaded logos in
 * storage, another site) are kept as they are.
 */
export function withExistingLogos(config: ChamberConfig, publicDir: string): ChamberConfig {
	const logo = { ...config.logo };
	for (const kind of ['standard', 'stacked', 'favicon'] as const) {
		const path = logo[kind];
		if (!path.startsWith('/') || path.startsWith('//')) continue;
		const file = join(publicDir, decodeURIComponent(path.split(/[?#]/)[0]!));
		if (!file.startsWith(publicDir + '/') || !existsSync(file)) {
			console.warn(`Logo ${kind} ${path} is no file of the site (public${path}): left out`);
			logo[kind] = '';
		}
	}
	return { ...config, logo };
}

/** What every page of a build needs: the tenant and its configuration, read once per build. */
export function getSite(): Promise<Site> {
	site ??= (async () => {
		const client = getServiceClient();
		const tenant = await getCurrentTenant(client);
		const config = await getChamberConfig(client, tenant.id);
		return { tenant, config: withExistingLogos(config, join(process.cwd(), 'public')) };
	})();
	return site;
}

/** What the admin pages' islands reach Supabase with from the browser: the URL and public key. */
export function publicSupabase(): PublicSupabase {
	const { SUPABASE_URL, SUPABASE_ANON_KEY } = readClientEnv();
	return { url: SUPABASE_URL, anonKey: SUPABASE_ANON_KEY };
}

let businesses: Promise<Business[]> | undefined;

/** Every business of the tenant, read once per build (category pages, sitemap, profiles). */
export function getSiteBusinesses(): Promise<Business[]> {
	businesses ??= getSite().then(({ tenant, config }) =>
		listAllBusinesses(getAnonClient(), tenant.id, config),
	);
	return businesses;
}
