import { z } from 'zod';
import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import { getAnonClient, getServiceClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { prerenderedProfilesMax } from '../business/prerender.ts';
import {
	BudgetReachedError,
	collectChange,
	dispatchBuild,
	getPublish,
	purgeTenantCache,
	readPublishEnv,
	requestPublish,
	syncPublishBudget,
	type PublishEnv,
	type WaitingAnswer,
} from './publish.server.ts';
import type { PublishView } from './publish.ts';
import type { ChangeSource, PageImpact, PublishUsage, WaitingChange } from './policy.ts';

export type { WaitingAnswer } from './publish.server.ts';

/**
 * The publish policy on the server: a change is published at once (staff), collected for the
 * window's publish (members, syncs, imports), live at once through a purge of its profile (a
 * field only the profile shows, where profiles are rendered on demand), or not published at all
 * (it alters no page). The database judges the window and the budget (policy.ts, the migration
 * "Publishing within a budget").
 */

/** What became of a change: nothing to publish, live at once, publishing, or waiting. */
export type PublishOutcome =
	| { kind: 'none' }
	| { kind: 'purged' }
	| { kind: 'publishing'; publish: PublishView }
	| { kind: 'waiting'; waiting: WaitingAnswer };

export interface ChangeRequest {
	client: SupabaseClient;
	tenantId: string;
	/** Who made it: staff publish at once, the others wait for the window. */
	origin: ChangeSource;
	/** What caused it (the build's title, the waiting change's summary). */
	reason: string;
	/** What it alters (default: pages of the site). */
	impact?: PageImpact;
	businessId?: string | null;
	/** CDN cache tags to purge (default: the tenant's). */
	purgeTags?: string[];
	/** For staff: the person confirmed the cost of a publish past the month's budget. */
	confirmCost?: boolean;
	/**
	 * For staff, at the budget without confirmCost: 'wait' (default) collects the change for the
	 * daily publish; 'refuse' throws the BudgetReachedError (the panel then asks).
	 */
	atBudget?: 'wait' | 'refuse';
	now?: Date;
}

let onDemandCache: { tenantId: string; max: number; at: number; value: boolean } | null = null;
/** How long a function instance trusts its count of the chamber's published businesses. */
const ON_DEMAND_TTL_MS = 60_000;

/**
 * Whether the chamber's profiles are rendered on demand (and kept by the CDN under their
 * business's tag) rather than pre-rendered: more published businesses than
 * PRERENDERED_PROFILES_MAX, the rule the build applies (listProfiles).
 */
export async function profilesOnDemand(tenantId: string, now = Date.now()): Promise<boolean> {
	const max = prerenderedProfilesMax();
	if (max === 0) return true;
	if (
		onDemandCache?.tenantId === tenantId &&
		onDemandCache.max === max &&
		now - onDemandCache.at < ON_DEMAND_TTL_MS
	) {
		return onDemandCache.value;
	}
	const { count, error } = await getAnonClient()
		.from('profiles')
		.select('id', { count: 'exact', head: true })
		.eq('tenant_id', tenantId)
		.eq('published', true);
	if (error) throw new Error(`Failed to count the businesses: ${error.message}`, { cause: error });
	const value = (count ?? 0) > max;
	onDemandCache = { tenantId, max, at: now, value };
	return value;
}

/**
 * Publishes a change as the policy says, for this deployment's chamber (a super_admin's change
 * to another chamber is that chamber's deployment's to publish: 'none' here).
 */
export async function publishChange(
	change: ChangeRequest,
	env: PublishEnv = readPublishEnv(),
): Promise<PublishOutcome> {
	const current = await getCurrentTenant();
	if (current.id !== change.tenantId) return { kind: 'none' };
	const impact = change.impact ?? 'site';
	if (impact === 'none') return { kind: 'none' };
	if (impact === 'profile' && (await profilesOnDemand(change.tenantId))) {
		// The profile is rendered on demand and kept by the CDN under its tags: a purge is enough.
		await purgeTenantCache(change.purgeTags ?? [current.slug], env);
		return { kind: 'purged' };
	}
	if (change.origin === 'staff' || change.origin === 'scheduled') {
		try {
			const { publish } = await requestPublish(
				{
					client: change.client,
					tenantId: change.tenantId,
					reason: change.reason,
					purgeTags: change.purgeTags,
					confirmCost: change.confirmCost,
					now: change.now,
				},
				env,
			);
			return { kind: 'publishing', publish };
		} catch (error) {
			if (!(error instanceof BudgetReachedError) || change.atBudget === 'refuse') throw error;
		}
	}
	const waiting = await collectChange(
		{
			client: change.client,
			tenantId: change.tenantId,
			source: change.origin,
			summary: change.reason,
			// A member's change is its business's; the others are the chamber's.
			businessId: change.origin === 'member' ? change.businessId : null,
			purgeTags: change.purgeTags ?? [current.slug],
			now: change.now,
		},
		env,
	);
	return { kind: 'waiting', waiting };
}

/** The fields an answer carries for an outcome: the publish it started, or when it is live. */
export function outcomeAnswer(outcome: PublishOutcome): {
	publish: PublishView | null;
	waiting: WaitingAnswer | null;
} {
	return {
		publish: outcome.kind === 'publishing' ? outcome.publish : null,
		waiting: outcome.kind === 'waiting' ? outcome.waiting : null,
	};
}

const windowRow = z.object({
	publish_id: z.union([z.number(), z.string()]),
	created: z.boolean(),
	tenant_slug: z.string(),
	tenant_name: z.string(),
	changes: z.number().int(),
});

/**
 * The scheduled function's window publish: when the database says the waiting changes' mark is
 * near (fire_publish_window), one build for all of them. `now` injects the clock.
 */
export async function fireWindow(
	tenantId: string,
	options: { now?: Date; service?: SupabaseClient; env?: PublishEnv } = {},
): Promise<PublishView | null> {
	const service = options.service ?? getServiceClient();
	const env = options.env ?? readPublishEnv();
	await syncPublishBudget(tenantId, env, service);
	const { data, error } = await service.rpc('fire_publish_window', {
		p_tenant_id: tenantId,
		p_now: (options.now ?? new Date()).toISOString(),
	});
	if (error)
		throw new Error(`Failed to fire the window's publish: ${error.message}`, { cause: error });
	const found = (data as unknown[])[0];
	if (!found) return null;
	const row = windowRow.parse(found);
	const id = Number(row.publish_id);
	if (row.created) {
		await purgeTenantCache([row.tenant_slug], env);
		await dispatchBuild(
			service,
			tenantId,
			{
				publishId: id,
				tenantName: row.tenant_name,
				tenantSlug: row.tenant_slug,
				reason: `Waiting changes: ${row.changes}`,
				requestedBy: null,
			},
			env,
		);
	}
	return getPublish(service, id);
}

const usageSchema = z.object({
	month: z.string(),
	used: z.number().int(),
	budget: z.number().int(),
	warnAt: z.number().int(),
	warned: z.boolean(),
	atBudget: z.boolean(),
	ceiling: z.number().int(),
	waiting: z.number().int(),
	liveBy: z.string().nullable(),
	daily: z.boolean(),
});

/** The chamber's month (publish_usage), with the caller's token: its staff only. */
export async function readUsage(
	client: SupabaseClient,
	tenantId: string,
	now?: Date,
): Promise<PublishUsage> {
	const { data, error } = await client.rpc('publish_usage', {
		p_tenant_id: tenantId,
		...(now ? { p_now: now.toISOString() } : {}),
	});
	if (error) {
		if (error.code === '42501') throw new HttpError(403, 'You have no role in this chamber.');
		throw new Error(`Failed to read the month's publishes: ${error.message}`, { cause: error });
	}
	const usage = usageSchema.parse(data);
	return { ...usage, liveBy: usage.liveBy ? new Date(usage.liveBy).toISOString() : null };
}

interface WaitingRow {
	id: number | string;
	source: ChangeSource;
	summary: string;
	business_id: string | null;
	requested_by_email: string | null;
	created_at: string;
	due_at: string;
	daily: boolean;
}

/** The changes waiting for a publish, soonest first (RLS: the chamber's staff; a member its own). */
export async function listWaiting(
	client: SupabaseClient,
	tenantId: string,
	options: { businessId?: string; sources?: ChangeSource[] } = {},
): Promise<WaitingChange[]> {
	let query = client
		.from('waiting_changes')
		.select('id, source, summary, business_id, requested_by_email, created_at, due_at, daily')
		.eq('tenant_id', tenantId)
		.eq('state', 'waiting');
	if (options.businessId) query = query.eq('business_id', options.businessId);
	if (options.sources) query = query.in('source', options.sources);
	const { data, error } = await query
		.order('due_at', { ascending: true })
		.order('id', { ascending: true })
		.limit(200)
		.overrideTypes<WaitingRow[], { merge: false }>();
	if (error)
		throw new Error(`Failed to list the waiting changes: ${error.message}`, { cause: error });
	return data.map((row) => ({
		id: Number(row.id),
		source: row.source,
		summary: row.summary,
		businessId: row.business_id,
		requestedBy: row.requested_by_email,
		createdAt: row.created_at,
		dueAt: new Date(row.due_at).toISOString(),
		daily: row.daily,
	}));
}
