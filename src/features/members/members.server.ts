import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import { getAnonClient, getServiceClient } from '../../lib/supabase.server.ts';
import { writeLogoObject } from '../admin/logos/logos.server.ts';
import { businessLogoObjectName, type LogoFormat } from '../admin/logos/logos.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { geocodesAddresses } from '../geo/geocoder-settings.server.ts';
import { businessChangeImpact, type ChangeSource, type PageImpact } from '../publish/policy.ts';
import { publishChange, type PublishOutcome } from '../publish/policy.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { auditHistory, chamberOf, recordId } from '../versioned/versioned.server.ts';
import type {
	BusinessChanges,
	BusinessField,
	HistoryEntry,
	MemberDetail,
	MemberListQuery,
	MemberListResult,
	NewBusiness,
	Saved,
} from './members.ts';
import { refusal } from './refusal.server.ts';

/**
 * The Members tab's data: every read and write through the signed-in user's supabase-js client,
 * so the database's own checks (save_business and its neighbours, 20261121000005_baseline_members.sql)
 * judge each call as they would a direct one; their refusals become the API's statuses.
 */

const NOT_FOUND = 'No such business in this chamber';

function businessId(id: string | undefined): string {
	return recordId(id, NOT_FOUND);
}

export { chamberOf };

export async function listMembers(
	client: SupabaseClient,
	tenantId: string,
	query: MemberListQuery,
): Promise<MemberListResult> {
	const { data, error } = await client.rpc('admin_list_businesses', {
		p_tenant_id: tenantId,
		p_query: query.q ?? null,
		p_status: query.status ?? null,
		p_level: query.level ?? null,
		p_category: query.category ?? null,
		p_limit: query.pageSize,
		p_offset: (query.page - 1) * query.pageSize,
	});
	if (error) throw refusal(error, 'Listing the members');
	return { businesses: data.businesses, total: Number(data.total) };
}

export async function getMember(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<MemberDetail> {
	const { data, error } = await client.rpc('admin_business', {
		p_tenant_id: tenantId,
		p_business_id: businessId(id),
	});
	if (error) throw refusal(error, 'Reading the business');
	return data;
}

/**
 * The Members tab's listing: the business, and whether this site's geocoder looks its address up
 * (the chamber's country and GEOCODER decide), so a listing waiting for one that never comes says
 * to place the pin by hand.
 */
export async function getMemberForStaff(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<MemberDetail> {
	const member = await getMember(client, tenantId, id);
	// The listing opens whatever the configuration's state: unread, it says nothing of a geocoder.
	const chamber = await getCachedChamberConfig(getAnonClient(), tenantId).catch(() => null);
	if (!chamber) return member;
	return {
		...member,
		location: { ...member.location, geocoding: geocodesAddresses(chamber.contact.country) },
	};
}

export async function addMember(
	client: SupabaseClient,
	tenantId: string,
	business: NewBusiness,
): Promise<Saved> {
	const { data, error } = await client.rpc('save_business', {
		p_tenant_id: tenantId,
		p_business_id: null,
		p_changes: {
			...business.values,
			...(business.weblinkProfileId ? { weblink_profile_id: business.weblinkProfileId } : {}),
		},
		p_version: 0,
	});
	if (error) throw refusal(error, 'Adding the business');
	return data;
}

export async function saveMember(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	version: number,
	changes: BusinessChanges,
): Promise<Saved> {
	const { data, error } = await client.rpc('save_business', {
		p_tenant_id: tenantId,
		p_business_id: businessId(id),
		p_changes: changes,
		p_version: version,
	});
	if (error) throw refusal(error, 'Saving the business');
	return data;
}

/** A listing taken off the site (restorable for 30 days), or back from that. */
async function setRemoved(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	call: 'remove_business' | 'restore_business',
	what: string,
): Promise<Saved> {
	const { data, error } = await client.rpc(call, {
		p_tenant_id: tenantId,
		p_business_id: businessId(id),
	});
	if (error) throw refusal(error, what);
	return data;
}

export function removeMember(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<Saved> {
	return setRemoved(client, tenantId, id, 'remove_business', 'Removing the business');
}

export function restoreMember(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<Saved> {
	return setRemoved(client, tenantId, id, 'restore_business', 'Restoring the business');
}

/** The membership system's value of a field changed here, back in place. */
export async function takeSystemValue(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	field: BusinessField,
): Promise<Saved> {
	const { data, error } = await client.rpc('clear_business_override', {
		p_tenant_id: tenantId,
		p_business_id: businessId(id),
		p_field: field,
	});
	if (error) throw refusal(error, 'Taking the membership system’s value');
	return data;
}

/**
 * A listing's changes, newest first, from the audit log (row-level security: the chamber's
 * admins and super_admins read it).
 */
export async function memberHistory(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<HistoryEntry[]> {
	const entries = await auditHistory(client, tenantId, 'business_id', businessId(id), 'import');
	return entries.map((entry) => ({ ...entry, field: entry.field as HistoryEntry['field'] }));
}

/**
 * Stores a business's logo (prepared and checked by prepareLogo, as the chamber's logos are)
 * under the chamber's folder, after the database says, asked as the user, that they may change
 * this business's logo. Answers its public URL; the listing's logo_url is set by a save.
 */
export async function storeBusinessLogo(
	client: SupabaseClient,
	service: SupabaseClient,
	tenantId: string,
	id: string,
	logo: { format: LogoFormat; body: Uint8Array },
): Promise<string> {
	const { data: allowed, error } = await client.rpc('may_change_business_field', {
		p_tenant_id: tenantId,
		p_field: 'logo_url',
	});
	if (error) throw refusal(error, 'Checking logo rights');
	if (allowed !== true) throw new HttpError(403, 'You cannot change this business’s logo.');
	return writeLogoObject(
		service,
		businessLogoObjectName(tenantId, id, logo.format, randomUUID()),
		logo,
	);
}

/**
 * CDN cache tags a change of one business makes stale: its on-demand profile and every list
 * answer of the chamber's businesses and categories. Pre-rendered pages change with the build.
 */
export function memberCacheTags(tenantSlug: string, id: string): string[] {
	return [`${tenantSlug}:business:${id}`, `${tenantSlug}:businesses`, `${tenantSlug}:categories`];
}

/** Whether a business is on the site now (published and not removed), read as the server. */
export async function isOnSite(id: string): Promise<boolean> {
	const { data, error } = await getServiceClient()
		.from('profiles')
		.select('published')
		.eq('id', id)
		.maybeSingle<{ published: boolean }>();
	if (error) throw new Error(`Failed to read business ${id}: ${error.message}`, { cause: error });
	return data?.published === true;
}

/**
 * What a change of these fields of a business alters (policy.ts businessChangeImpact): nothing
 * while it stays off the site, its profile alone, or pages of the site.
 */
export async function businessImpact(
	tenantId: string,
	id: string,
	fields: readonly string[],
	publishedBefore: boolean,
): Promise<PageImpact> {
	const [publishedAfter, config] = await Promise.all([
		isOnSite(id),
		getCachedChamberConfig(getAnonClient(), tenantId),
	]);
	return businessChangeImpact({
		fields,
		publishedBefore,
		publishedAfter,
		cardsShowDescription: config.features.showBusinessShortDescription,
	});
}

/**
 * An accepted change of a business is published as the policy says (staff at once, a member's
 * with the window; nothing when no page shows it; a purge of the profile's tags when only its
 * profile shows it and profiles are rendered on demand), purging that business's tags.
 */
export function publishMemberChange(
	client: SupabaseClient,
	tenant: TenantRow,
	id: string,
	reason: string,
	options: { origin?: ChangeSource; impact?: PageImpact; now?: Date } = {},
): Promise<PublishOutcome> {
	return publishChange({
		client,
		tenantId: tenant.id,
		origin: options.origin ?? 'staff',
		reason,
		impact: options.impact,
		businessId: id,
		purgeTags: memberCacheTags(tenant.slug, id),
		now: options.now,
	});
}
