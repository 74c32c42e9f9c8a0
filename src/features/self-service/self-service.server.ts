import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '../../lib/database.ts';
import { BadRequest, HttpError, ipRateKey, type AnsweredFirst } from '../../lib/http.server.ts';
import { takeRateLimit, takeRateLimits } from '../../lib/rate-limit.server.ts';
import {
	createForwardingAuthClient,
	getAnonClient,
	getServiceClient,
	readClientEnv,
	type ClientEnv,
} from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { writeLogoObject } from '../admin/logos/logos.server.ts';
import { businessLogoObjectName, type LogoFormat } from '../admin/logos/logos.ts';
import type { AdminSession } from '../auth/auth.server.ts';
import { getCachedChamberConfig, getChamberConfig } from '../config/config.server.ts';
import { memberCacheTags } from '../members/members.server.ts';
import { describeIssues } from '../members/members.ts';
import { refusal } from '../members/refusal.server.ts';
import { businessChangeImpact } from '../publish/policy.ts';
import { listWaiting, profilesOnDemand } from '../publish/policy.server.ts';
import { collectChange, purgeTenantCache } from '../publish/publish.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import {
	fieldLabel,
	listingPath,
	MEMBER_PUBLISH_INTERVAL_SECONDS,
	memberPublishBucket,
	parseMemberChanges,
	SIGN_IN_ADDRESS_LIMITS,
	SIGN_IN_BUSINESS_LIMITS,
	type MemberListing,
	type MemberRequestList,
	type SubmitResult,
} from './self-service.ts';
import type { MemberSession } from './member-session.server.ts';

/**
 * Members updating their own listing, on the server. A member's calls run with the member's own
 * token (supabase-js as the user), so the database's member checks (is_business_member,
 * submit_member_changes) judge each one; staff decide requests with theirs
 * (approve_member_submission applies a request through save_business). Only the sign-in request,
 * which no one is signed in for yet, and the count of a member's immediate publishes use the
 * service role.
 */

// --- Sign-in --------------------------------------------------------------------------------------

function tooMany(wait: number): HttpError {
	const minutes = Math.max(1, Math.ceil(wait / 60));
	return new HttpError(
		429,
		`Too many sign-in requests from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
		{ 'Retry-After': String(wait) },
	);
}

/**
 * Asks for a business's sign-in link. Only the limits are checked before answering (the
 * visitor's address: 429; the business: silently, nothing is sent past it); looking the business
 * and its address up, making its user and sending the link happen after the answer (`later`,
 * Netlify's waitUntil), so the answer and its time are the same whether the business exists,
 * has an address on file, or has the feature on.
 */
export async function requestSignInLink(
	businessId: string,
	{ clientIp, siteUrl, later }: AnsweredFirst,
	env: ClientEnv = readClientEnv(),
): Promise<void> {
	const service = getServiceClient(env);
	const address = `member-link-ip:${ipRateKey(clientIp)}`;
	const wait = await takeRateLimits(
		service,
		SIGN_IN_ADDRESS_LIMITS.map((l) => ({ bucket: address, ...l })),
	);
	if (wait > 0) throw tooMany(wait);
	const business = `member-link-business:${businessId.toLowerCase()}`;
	const businessWait = await takeRateLimits(
		service,
		SIGN_IN_BUSINESS_LIMITS.map((l) => ({ bucket: business, ...l })),
	);
	if (businessWait > 0) return;
	later(
		sendSignInLink(service, businessId.toLowerCase(), clientIp, siteUrl, env).catch(
			(error: unknown) => {
				// Logged without the address: nothing of a member's address leaves the server.
				console.error(`[members] no sign-in link was sent: ${(error as Error).message}`);
			},
		),
	);
}

async function sendSignInLink(
	service: SupabaseClient,
	businessId: string,
	clientIp: string,
	siteUrl: string,
	env: ClientEnv,
): Promise<void> {
	const tenant = await getCurrentTenant();
	const { data: profile, error } = await service
		.from('profiles')
		.select('id, report_name, removed_at')
		.eq('id', businessId)
		.eq('tenant_id', tenant.id)
		.maybeSingle();
	if (error) throw new Error(`Reading the business failed: ${error.message}`);
	if (!profile || profile.removed_at) return;
	const settings = await service.rpc('member_update_settings', { p_tenant_id: tenant.id });
	if (settings.error) throw new Error(`Reading the settings failed: ${settings.error.message}`);
	if (!settings.data.enabled) return;
	const onFile = await service.rpc('business_address_on_file', { p_profile_id: businessId });
	if (onFile.error) throw new Error(`Reading the address failed: ${onFile.error.message}`);
	const email = onFile.data;
	if (!email) return;

	const config = await getChamberConfig(service, tenant.id);
	const metadata = {
		chamber_name: config.name,
		chamber_color: config.colors.primary,
		business_name: profile.report_name,
	};
	// The member's user, made through the Auth admin API the first time (as GoTrue makes users).
	const created = await service.auth.admin.createUser({
		email,
		email_confirm: true,
		user_metadata: metadata,
	});
	if (created.error && created.error.code !== 'email_exists') {
		throw new Error(`Creating the member's user failed: ${created.error.message}`);
	}
	const bound = await service.rpc('bind_business_member', {
		p_tenant_id: tenant.id,
		p_business_id: businessId,
		p_email: email,
	});
	if (bound.error) throw new Error(`Binding the member failed: ${bound.error.message}`);
	const userId = bound.data;
	if (!userId) return;
	if (created.error) {
		// An existing user: the e-mail names this chamber and business (GoTrue's template reads
		// the user's metadata).
		const updated = await service.auth.admin.updateUserById(userId, {
			email_confirm: true,
			user_metadata: metadata,
		});
		if (updated.error)
			throw new Error(`Updating the member's user failed: ${updated.error.message}`);
	}
	const { error: otpError } = await createForwardingAuthClient(clientIp, env).auth.signInWithOtp({
		email,
		options: {
			shouldCreateUser: false,
			emailRedirectTo: new URL(listingPath(businessId), siteUrl).href,
		},
	});
	// GoTrue's one e-mail per minute: a link is on its way already.
	if (otpError && otpError.status !== 429) {
		throw new Error(`The identity service sent no link: ${otpError.message}`);
	}
}

/** The business must be one of this deployment's chamber (a member of another signs in there). */
async function businessOfThisChamber(businessId: string): Promise<TenantRow> {
	const tenant = await getCurrentTenant();
	const { data, error } = await getServiceClient()
		.from('profiles')
		.select('id')
		.eq('id', businessId)
		.eq('tenant_id', tenant.id)
		.maybeSingle();
	if (error) throw new Error(`Reading the business failed: ${error.message}`);
	if (!data) throw new HttpError(404, 'No such business in this directory');
	return tenant;
}

export async function getMemberListing(
	session: MemberSession,
	businessId: string,
): Promise<MemberListing> {
	await businessOfThisChamber(businessId);
	const { data, error } = await session.client.rpc('member_listing', {
		p_business_id: businessId,
	});
	if (error) throw refusal(error, 'Reading the listing');
	return data;
}

/** When the member's saved live changes are on the site at the latest, or null (read as the member). */
export async function memberWaiting(
	session: MemberSession,
	businessId: string,
): Promise<{ dueAt: string } | null> {
	const tenant = await businessOfThisChamber(businessId);
	const [first] = await listWaiting(session.client, tenant.id, { businessId, sources: ['member'] });
	return first ? { dueAt: first.dueAt } : null;
}

/**
 * A member's changes: checked with the Members tab's schema and the chamber's member rules, then
 * submitted as the member (live fields saved, the rest its pending request). Live fields wait for
 * the chamber's publish window (collected as the member: collect_publish), so a member's save
 * makes no build of its own; fields only its profile shows, where profiles are rendered on
 * demand, are live at once through a purge of the business's cache tags, at most once per
 * MEMBER_PUBLISH_INTERVAL_SECONDS per member (a save within it waits for the window too). A
 * listing that is not on the site publishes nothing.
 */
export async function submitMemberChanges(
	session: MemberSession,
	businessId: string,
	body: { version: number; changes: Record<string, unknown> },
	now: () => Date = () => new Date(),
): Promise<SubmitResult> {
	const tenant = await businessOfThisChamber(businessId);
	const listing = await getMemberListing(session, businessId);
	const parsed = parseMemberChanges(
		body.changes,
		listing.settings,
		listing.categoryChoices,
		listing.business.categories ?? [],
	);
	if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
	const { data, error } = await session.client.rpc('submit_member_changes', {
		p_business_id: businessId,
		p_changes: parsed.changes,
		p_version: body.version,
	});
	if (error) throw refusal(error, 'Submitting the changes');
	const result = data;
	let published = false;
	let publishAfter: string | null = null;
	let liveBy: string | null = null;
	let held = false;
	if (result.live.length > 0) {
		const config = await getCachedChamberConfig(getAnonClient(), tenant.id);
		const onSite = listing.business.published === true;
		const impact = businessChangeImpact({
			fields: result.live,
			publishedBefore: onSite,
			publishedAfter: onSite,
			cardsShowDescription: config.features.showBusinessShortDescription,
		});
		const tags = memberCacheTags(tenant.slug, businessId);
		if (impact === 'profile' && (await profilesOnDemand(tenant.id))) {
			// A purge makes the profile show it at once: at most once in the interval per member,
			// counted in the database, so across every function instance.
			const service = getServiceClient();
			const wait = await takeRateLimit(service, {
				bucket: memberPublishBucket(session.userId),
				limit: 1,
				windowSeconds: MEMBER_PUBLISH_INTERVAL_SECONDS,
			});
			if (wait > 0) publishAfter = new Date(now().getTime() + wait * 1000).toISOString();
			else {
				await purgeTenantCache(tags);
				published = true;
			}
		}
		if (impact !== 'none' && !published) {
			const waiting = await collectChange({
				client: session.client,
				tenantId: tenant.id,
				source: 'member',
				summary: `${listing.business.report_name}: ${result.live.map((f) => fieldLabel(f)).join(', ')}`,
				businessId,
				purgeTags: tags,
			});
			held = waiting.held;
			liveBy = waiting.held ? null : waiting.dueAt;
		}
	}
	return {
		live: result.live,
		version: result.version,
		submission: result.submission,
		published,
		publishAfter,
		liveBy,
		held,
	};
}

/**
 * A member's logo, checked and stored as the Members tab's are (prepareLogo, the chamber's folder
 * of the public `logos` bucket), once the database says the member may change its logo. The
 * listing uses it when the request with it is approved (or at once, when logos go live).
 */
export async function storeMemberLogo(
	session: MemberSession,
	businessId: string,
	logo: { format: LogoFormat; body: Uint8Array },
): Promise<string> {
	const tenant = await businessOfThisChamber(businessId);
	const listing = await getMemberListing(session, businessId);
	if (!listing.settings.fields.includes('logo_url')) {
		throw new HttpError(403, 'Members of this chamber cannot change their logo.');
	}
	return writeLogoObject(
		getServiceClient(),
		businessLogoObjectName(tenant.id, businessId, logo.format, randomUUID()),
		logo,
	);
}

// --- Staff: the Requests tab --------------------------------------------------------------------------

export async function listMemberRequests(
	session: AdminSession,
	tenant: TenantRow,
): Promise<MemberRequestList> {
	const { data, error } = await session.client.rpc('member_requests', { p_tenant_id: tenant.id });
	if (error) throw refusal(error, 'Reading the requests');
	return { requests: data.requests, count: Number(data.count) };
}

export async function countMemberRequests(
	session: AdminSession,
	tenant: TenantRow,
): Promise<number> {
	const { data, error } = await session.client.rpc('member_request_count', {
		p_tenant_id: tenant.id,
	});
	if (error) throw refusal(error, 'Counting the requests');
	return Number(data);
}
