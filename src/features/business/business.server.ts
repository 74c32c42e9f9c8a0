import type { SupabaseClient } from '../../lib/database.ts';
import type { ChamberConfig } from '../config/config.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { getBusiness } from '../directory/directory.server.ts';
import type { Business } from '../directory/directory.ts';
import { getSite, getSiteBusinesses } from '../site/site.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { prerenderedProfilesMax } from './prerender.ts';

export { DEFAULT_PRERENDERED_PROFILES_MAX, prerenderedProfilesMax } from './prerender.ts';

/**
 * The profiles the build pre-renders, and the config: every published business of the build's
 * tenant, or none when there are more than prerenderedProfilesMax().
 */
export async function listProfiles(): Promise<{ config: ChamberConfig; businesses: Business[] }> {
	const [{ config }, businesses] = await Promise.all([getSite(), getSiteBusinesses()]);
	return { config, businesses: businesses.length <= prerenderedProfilesMax() ? businesses : [] };
}

/** Where the not-found view is pre-rendered; served with status 404 for unknown profiles. */
export const NOT_FOUND_PATH = '/business-not-found/';
/** The view of a listing that left the site (unpublished or removed): served with 410 Gone. */
export const GONE_PATH = '/business-gone/';
export const ERROR_PATH = '/business-error/';

/**
 * The on-demand profile of a business (src/routes/profile-on-demand.astro). Visitors do not see
 * this address: the business-legacy function answers the profile's own address with it.
 */
export function onDemandProfilePath(id: string): string {
	return `/business-page/${encodeURIComponent(id)}/`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the on-demand profile shows: the business, or why there is none. */
export type ProfileLookup =
	{ kind: 'found'; business: Business } | { kind: 'not-found' } | { kind: 'failed' };

/**
 * Everything the on-demand profile needs, read as a visitor would (anon, so only published
 * businesses): the tenant, its configuration and the business of an internal id (a uuid).
 */
export async function getProfilePageData(
	id: string | undefined,
): Promise<{ tenant: TenantRow; config: ChamberConfig; lookup: ProfileLookup }> {
	const client = getAnonClient();
	const tenant = await getCurrentTenant(client);
	const config = await getCachedChamberConfig(client, tenant.id);
	if (!id || !UUID.test(id)) return { tenant, config, lookup: { kind: 'not-found' } };
	try {
		const business = await getBusiness(client, tenant.id, id, config);
		return {
			tenant,
			config,
			lookup: business ? { kind: 'found', business } : { kind: 'not-found' },
		};
	} catch (error) {
		console.error('[business-page]', error);
		return { tenant, config, lookup: { kind: 'failed' } };
	}
}

/**
 * Whether an id or membership-system id names a business of the chamber that is no longer on the
 * site (unpublished or removed): its addresses answer 410 Gone, not 404 (business_gone).
 */
export async function isBusinessGone(
	client: SupabaseClient,
	tenantId: string,
	key: string,
): Promise<boolean> {
	if (!UUID.test(key) && !/^\d+$/.test(key)) return false;
	const { data, error } = await client.rpc('business_gone', { p_tenant_id: tenantId, p_key: key });
	if (error)
		throw new Error(`Failed to look up business ${key}: ${error.message}`, { cause: error });
	return data === true;
}

/**
 * CDN cache tags of an on-demand profile: the tenant (every publish purges it), its businesses
 * (as the business functions tag their answers) and the business itself, when there is one.
 */
export function profileCacheTags(tenantSlug: string, id?: string): string[] {
	const tags = [tenantSlug, `${tenantSlug}:businesses`];
	return id ? [...tags, `${tenantSlug}:business:${id}`] : tags;
}
