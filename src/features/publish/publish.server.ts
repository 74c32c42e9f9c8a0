import { purgeCache } from '@netlify/functions';
import type { PostgrestError } from '@supabase/supabase-js';
import type { Row, SupabaseClient } from '../../lib/database.ts';
import { z } from 'zod';
import { HttpError } from '../../lib/http.server.ts';
import { getServiceClient, readClientEnv } from '../../lib/supabase.server.ts';
import type { AdminSession } from '../auth/auth.server.ts';
import {
	configFromRow,
	configToRow,
	type ChamberConfig,
	type StoredChamberConfigRow,
} from '../config/config.ts';
import {
	buildTitle,
	deployPhase,
	diffConfigs,
	HISTORY_SIZE,
	isActive,
	netlifyDeploySchema,
	PUBLISH_COLUMNS,
	publishFromTitle,
	toPublishView,
	type DeployEvent,
	type HistoryEntry,
	type NetlifyDeploy,
	type PublishRow,
	type PublishView,
} from './publish.ts';
import {
	DEFAULT_MONTHLY_BUDGET,
	MAX_MONTHLY_BUDGET,
	NETLIFY_CREDITS,
	type ChangeSource,
} from './policy.ts';

/**
 * Publishing on the server: a save requests a build (coalesced in the database, request_publish),
 * the build service is asked for it (Netlify's build hook, or the local server's), the tenant's
 * CDN entries are purged, and the build's reports move the `publishes` row along.
 */

// An empty variable is an unset one (Netlify's UI and .env files leave them empty).
const optional = <T extends z.ZodType>(schema: T) =>
	z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const publishEnvSchema = z.object({
	/** Netlify's build hook of this site (POST starts a build), or the local server's own. */
	NETLIFY_BUILD_HOOK_URL: optional(z.url({ protocol: /^https?$/ })),
	/** Token for Netlify's purge API; Netlify sets it in its functions. */
	NETLIFY_PURGE_API_TOKEN: optional(z.string().min(1)),
	/** The Netlify site's id (purge and deploys API). */
	SITE_ID: optional(z.string().min(1)),
	/** Netlify's API (tests point it at a stand-in). */
	NETLIFY_API_URL: optional(z.url({ protocol: /^https?$/ })).transform(
		(v) => v ?? 'https://api.netlify.com',
	),
	/** A personal access token: lets the status read Netlify's deploys when a notification is late. */
	NETLIFY_AUTH_TOKEN: optional(z.string().min(1)),
	/** The JWS secret of the deploy notifications sent to /api/deploy-notifications. */
	NETLIFY_DEPLOY_NOTIFICATION_SECRET: optional(z.string().min(16)),
	/** How long the build hook gets to answer (default 5000 ms); then the publish fails with why. */
	BUILD_HOOK_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(60_000)).transform(
		(v) => v ?? 5000,
	),
	/**
	 * npm start's list of the publishes its local builder holds (set by npm start itself): a
	 * publish request fails the others that are still queued or building, whose build is gone.
	 */
	LOCAL_BUILDS_URL: optional(z.url({ protocol: /^https?$/ })),
	/** How long Netlify's API gets to answer (default 5000 ms). */
	NETLIFY_API_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(60_000)).transform(
		(v) => v ?? 5000,
	),
	/**
	 * Publishes (production deploys) the chamber may make in a month, 1 to 1000; default 40
	 * (DEFAULT_MONTHLY_BUDGET: 600 of the Personal plan's 1,000 Netlify credits).
	 */
	PUBLISH_MONTHLY_BUDGET: optional(
		z.coerce
			.number({ error: 'Expected a whole number of publishes' })
			.int({ error: 'Expected a whole number of publishes' })
			.min(1)
			.max(MAX_MONTHLY_BUDGET),
	).transform((v) => v ?? DEFAULT_MONTHLY_BUDGET),
});

export type PublishEnv = z.output<typeof publishEnvSchema>;

export function readPublishEnv(env: NodeJS.ProcessEnv = process.env): PublishEnv {
	const parsed = publishEnvSchema.safeParse(env);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(`Invalid publishing settings: ${issue?.path.join('.')}: ${issue?.message}`);
	}
	return parsed.data;
}

// --- Reading ----------------------------------------------------------------------------------

/** The chamber's newest publishes, newest first (RLS: the chamber's staff). */
export async function listPublishes(
	client: SupabaseClient,
	tenantId: string,
	limit = 5,
): Promise<PublishView[]> {
	const { data, error } = await client
		.from('publishes')
		.select(PUBLISH_COLUMNS)
		.eq('tenant_id', tenantId)
		.order('id', { ascending: false })
		.limit(limit)
		.overrideTypes<PublishRow[], { merge: false }>();
	if (error) throw new Error(`Failed to list publishes: ${error.message}`, { cause: error });
	return data.map(toPublishView);
}

export async function getPublish(client: SupabaseClient, id: number): Promise<PublishView | null> {
	const { data, error } = await client
		.from('publishes')
		.select(PUBLISH_COLUMNS)
		.eq('id', id)
		.maybeSingle<PublishRow>();
	if (error) throw new Error(`Failed to read publish ${id}: ${error.message}`, { cause: error });
	return data ? toPublishView(data) : null;
}

/**
 * Fails the chamber's publishes that reported nothing for longer than the database's
 * `publish_silence_limit()`. `now` injects the clock (honoured for the service role only).
 */
export async function expirePublishes(
	client: SupabaseClient,
	tenantId: string,
	now?: Date,
): Promise<number> {
	const { data, error } = await client.rpc('expire_publishes', {
		p_tenant_id: tenantId,
		p_now: now?.toISOString() ?? null,
	});
	if (error) throw new Error(`Failed to expire publishes: ${error.message}`, { cause: error });
	return data;
}

// --- The build's reports (service role) ----------------------------------------------------------

/** The publish a build report answers with (a late or repeated report: unchanged, or none). */
function reported(
	fn: string,
	{ data, error }: { data: Row<'publishes'>[] | null; error: PostgrestError | null },
): PublishView | null {
	if (error) throw new Error(`${fn} failed: ${error.message}`, { cause: error });
	// The state column's check holds it to the publish states.
	const row = data?.[0] as PublishRow | undefined;
	return row ? toPublishView(row) : null;
}

/** A queued publish's build started; a late or repeated report changes nothing. */
export async function startPublish(
	service: SupabaseClient,
	id: number,
	deployId: string | null,
): Promise<PublishView | null> {
	const answer = await service.rpc('start_publish', { p_publish_id: id, p_deploy_id: deployId });
	return reported('start_publish', answer);
}

/** A publish's build ended; a late or repeated report changes nothing. */
export async function finishPublish(
	service: SupabaseClient,
	id: number,
	outcome: { state: 'live' } | { state: 'failed'; error: string },
	deployId: string | null = null,
): Promise<PublishView | null> {
	const answer = await service.rpc('finish_publish', {
		p_publish_id: id,
		p_state: outcome.state,
		p_error: outcome.state === 'failed' ? outcome.error : null,
		p_deploy_id: deployId,
	});
	return reported('finish_publish', answer);
}

async function markDispatched(service: SupabaseClient, id: number): Promise<void> {
	const { error } = await service.rpc('mark_publish_dispatched', { p_publish_id: id });
	if (error)
		throw new Error(`Failed to record the build request: ${error.message}`, { cause: error });
}

// --- Requesting a publish ------------------------------------------------------------------------

export interface PublishRequest {
	/**
	 * supabase-js as the user whose change this is (AdminSession.client): the database takes the
	 * requester from that token. The service client stands for the server side.
	 */
	client: SupabaseClient;
	tenantId: string;
	/** What caused it, e.g. 'Content saved' (the build's title names it). */
	reason: string;
	/** CDN cache tags to purge (default: the tenant's, i.e. every function answer of it). */
	purgeTags?: string[];
	/**
	 * The person saw what a publish past the month's budget costs and confirmed it; without it a
	 * new build at the budget is refused (BudgetReachedError).
	 */
	confirmCost?: boolean;
	/** The clock (honoured by the database for the service role only: tests, bench:month). */
	now?: Date;
}

export interface PublishRequestResult {
	publish: PublishView;
	/** false: the change joined a build that was already queued. */
	created: boolean;
	/** The month's publishes with this one, and the budget. */
	usage: { used: number; budget: number };
}

interface RequestPublishRow {
	publish_id: number | string;
	created: boolean;
	tenant_slug: string;
	tenant_name: string;
	requested_by_email: string | null;
	used: number;
	budget: number;
	budget_warning: boolean;
}

/**
 * A new build the month's budget has no room for, unconfirmed: 409 `{error, budget: {used,
 * budget, cost}}`, which the panel answers with the confirmation that names the cost.
 */
export class BudgetReachedError extends HttpError {
	readonly used: number;
	readonly budget: number;
	constructor(used: number, budget: number) {
		super(
			409,
			`This month's ${budget} publishes are used: publishing now costs ${NETLIFY_CREDITS.deploy} more Netlify credits. Send confirm: true to publish anyway.`,
			{},
			{ budget: { used, budget, cost: NETLIFY_CREDITS.deploy } },
		);
		this.name = 'BudgetReachedError';
		this.used = used;
		this.budget = budget;
	}
}

/** The month's figures a PT402 refusal carries (its detail), or null for any other error. */
function budgetRefusal(error: PostgrestError): BudgetReachedError | null {
	if (error.code !== 'PT402') return null;
	try {
		const detail = z
			.object({ used: z.number().int(), budget: z.number().int() })
			.parse(JSON.parse(error.details ?? ''));
		return new BudgetReachedError(detail.used, detail.budget);
	} catch {
		return new BudgetReachedError(0, 0);
	}
}

const budgetsSet = new Map<string, number>();

/**
 * The deployment's budget (PUBLISH_MONTHLY_BUDGET) into the database, which counts and enforces
 * it: once per function instance and chamber, and again when the variable changes.
 */
export async function syncPublishBudget(
	tenantId: string,
	env: PublishEnv = readPublishEnv(),
	service: SupabaseClient = getServiceClient(),
): Promise<void> {
	if (budgetsSet.get(tenantId) === env.PUBLISH_MONTHLY_BUDGET) return;
	const { error } = await service.rpc('set_publish_budget', {
		p_tenant_id: tenantId,
		p_publishes: env.PUBLISH_MONTHLY_BUDGET,
	});
	if (error)
		throw new Error(`Failed to set the publish budget: ${error.message}`, { cause: error });
	budgetsSet.set(tenantId, env.PUBLISH_MONTHLY_BUDGET);
}

/** Calls the build hook for a publish the database queued, and records the answer. */
export async function dispatchBuild(
	service: SupabaseClient,
	tenantId: string,
	row: {
		publishId: number;
		tenantName: string;
		tenantSlug: string;
		reason: string;
		requestedBy: string | null;
	},
	env: PublishEnv,
): Promise<void> {
	const title = buildTitle({
		tenantName: row.tenantName,
		tenantSlug: row.tenantSlug,
		reason: row.reason,
		requestedBy: row.requestedBy,
		publishId: row.publishId,
	});
	const failure = await callBuildHook(title, env);
	if (failure) await finishPublish(service, row.publishId, { state: 'failed', error: failure });
	else {
		await markDispatched(service, row.publishId);
		await cancelSupersededDeploys(service, tenantId, row.publishId, env);
	}
}

/**
 * Every accepted change calls this (update-config, a logo upload, a bump of the `categories`
 * cache, a restore, 'Publish now'): it queues a build or joins the one already queued, asks the
 * build service for a new one, and purges the tenant's CDN entries so the functions answer with
 * the new configuration at once. A build service that cannot be reached fails the publish with
 * its reason (the panel says so and offers Retry); the change itself stays saved.
 */
export async function requestPublish(
	request: PublishRequest,
	env: PublishEnv = readPublishEnv(),
): Promise<PublishRequestResult> {
	// A publish whose build died (a server that crashed) would otherwise take this request in.
	await failStalePublishes(request.tenantId, env).catch((error: unknown) => {
		console.error('[publish] could not check for stale publishes:', error);
	});
	const service = getServiceClient();
	await syncPublishBudget(request.tenantId, env, service);
	const { data, error } = await request.client.rpc('request_publish', {
		p_tenant_id: request.tenantId,
		p_reason: request.reason,
		p_confirm_cost: request.confirmCost ?? false,
		...(request.now ? { p_now: request.now.toISOString() } : {}),
	});
	if (error) {
		if (error.code === '42501') throw new HttpError(403, 'You cannot publish this chamber.');
		const refusal = budgetRefusal(error);
		if (refusal) throw refusal;
		throw new Error(`Failed to request a publish: ${error.message}`, { cause: error });
	}
	const row = (data as RequestPublishRow[])[0];
	if (!row) throw new Error('request_publish answered no row');
	const id = Number(row.publish_id);

	await purgeTenantCache(request.purgeTags ?? [row.tenant_slug], env);

	if (row.created) {
		await dispatchBuild(
			service,
			request.tenantId,
			{
				publishId: id,
				tenantName: row.tenant_name,
				tenantSlug: row.tenant_slug,
				reason: request.reason,
				requestedBy: row.requested_by_email,
			},
			env,
		);
	}
	const publish = await getPublish(service, id);
	if (!publish) throw new Error(`Publish ${id} vanished`);
	return { publish, created: row.created, usage: { used: row.used, budget: row.budget } };
}

/** A change collected for the window's publish: live on the site by `dueAt` at the latest. */
export interface WaitingAnswer {
	/** Its row of waiting_changes (a business's later saves update the same one). */
	id: number;
	dueAt: string;
	/** It waits for the daily publish: the month's budget is used. */
	daily: boolean;
	/**
	 * The budget and its reserve of daily publishes are used: only a publish staff confirm takes
	 * it, so `dueAt` is no promise.
	 */
	held: boolean;
}

export interface CollectRequest {
	/** As the person whose change it is (a member, a staff member), or the service client. */
	client: SupabaseClient;
	tenantId: string;
	source: ChangeSource;
	/** What it changed, for people (the Requests tab, History). */
	summary: string;
	/** The business a member changed. */
	businessId?: string | null;
	/** CDN cache tags to purge now, so the functions' answers show it at once. */
	purgeTags?: string[];
	/** The clock (honoured by the database for the service role only). */
	now?: Date;
}

const collectedRow = z.object({
	waiting_id: z.union([z.number(), z.string()]),
	due_at: z.string(),
	daily: z.boolean(),
	held: z.boolean(),
});

/** Collects a change for the window's publish; answers when it is live at the latest. */
export async function collectChange(
	request: CollectRequest,
	env: PublishEnv = readPublishEnv(),
): Promise<WaitingAnswer> {
	await syncPublishBudget(request.tenantId, env);
	const { data, error } = await request.client.rpc('collect_publish', {
		p_tenant_id: request.tenantId,
		p_source: request.source,
		p_summary: request.summary.slice(0, 200),
		p_business_id: request.businessId ?? undefined,
		...(request.now ? { p_now: request.now.toISOString() } : {}),
	});
	if (error) {
		if (error.code === '42501') throw new HttpError(403, 'You cannot publish this chamber.');
		throw new Error(`Failed to collect the change: ${error.message}`, { cause: error });
	}
	const row = collectedRow.parse((data as unknown[])[0]);
	if (request.purgeTags?.length) await purgeTenantCache(request.purgeTags, env);
	return {
		id: Number(row.waiting_id),
		dueAt: new Date(row.due_at).toISOString(),
		daily: row.daily,
		held: row.held,
	};
}

/**
 * A newer publish supersedes the build under way: that build's site would be stale the moment it
 * went live. With a token (NETLIFY_AUTH_TOKEN) the chamber's running deploy is cancelled through
 * Netlify's deploys API (open-api cancelSiteDeploy: POST /api/v1/deploys/{deploy_id}/cancel, no
 * body, 201 with the deploy; it stops the deploy's build too), so at most one build's minutes are
 * spent on a configuration already replaced, and the newer build starts sooner. Its publish is
 * failed as cancelled. Without a token, or when Netlify refuses, the build runs to its end as
 * before. Local builds (`local-…` deploys) are stopped by the local publisher itself. Answers the
 * ids of the publishes cancelled.
 */
async function cancelSupersededDeploys(
	service: SupabaseClient,
	tenantId: string,
	newerId: number,
	env: PublishEnv = readPublishEnv(),
): Promise<number[]> {
	if (!env.NETLIFY_AUTH_TOKEN) return [];
	const { data, error } = await service
		.from('publishes')
		.select('id, deploy_id')
		.eq('tenant_id', tenantId)
		.eq('state', 'building')
		.lt('id', newerId)
		.not('deploy_id', 'is', null)
		.overrideTypes<{ id: number | string; deploy_id: string }[], { merge: false }>();
	if (error) {
		console.error('[publish] reading the builds under way failed:', error);
		return [];
	}
	const cancelled: number[] = [];
	for (const row of data.filter((r) => !r.deploy_id.startsWith('local-'))) {
		const url = new URL(
			`/api/v1/deploys/${encodeURIComponent(row.deploy_id)}/cancel`,
			env.NETLIFY_API_URL,
		);
		try {
			const response = await fetch(url, {
				method: 'POST',
				headers: { Authorization: `Bearer ${env.NETLIFY_AUTH_TOKEN}` },
				signal: AbortSignal.timeout(10_000),
			});
			await response.body?.cancel();
			if (!response.ok) {
				console.error(`[publish] cancelling deploy ${row.deploy_id}: HTTP ${response.status}`);
				continue;
			}
		} catch (cancelError) {
			console.error(`[publish] cancelling deploy ${row.deploy_id} failed:`, cancelError);
			continue;
		}
		const id = Number(row.id);
		await finishPublish(
			service,
			id,
			{ state: 'failed', error: `Cancelled: publish ${newerId} supersedes it.` },
			row.deploy_id,
		);
		cancelled.push(id);
	}
	return cancelled;
}

/** POSTs the build hook as Netlify documents it; answers the failure to show, or null. */
async function callBuildHook(title: string, env: PublishEnv): Promise<string | null> {
	if (!env.NETLIFY_BUILD_HOOK_URL) {
		return 'No build service is configured (NETLIFY_BUILD_HOOK_URL is not set).';
	}
	const url = new URL(env.NETLIFY_BUILD_HOOK_URL);
	url.searchParams.set('trigger_title', title);
	try {
		const response = await fetch(url, {
			method: 'POST',
			signal: AbortSignal.timeout(env.BUILD_HOOK_TIMEOUT_MS),
		});
		await response.body?.cancel();
		if (response.ok) return null;
		console.error(`[publish] the build hook answered ${response.status}`);
		return `The build service refused the request (HTTP ${response.status}).`;
	} catch (error) {
		console.error('[publish] the build hook could not be reached:', error);
		return 'The build service could not be reached.';
	}
}

/**
 * Purges CDN entries by cache tag through Netlify's purge API (`@netlify/functions`' purgeCache).
 * Without a token (locally there is no CDN) there is nothing to purge. A failed purge is logged,
 * not thrown: the change is saved and its build requested; entries expire on their own.
 */
export async function purgeTenantCache(
	tags: string[],
	env: PublishEnv = readPublishEnv(),
): Promise<boolean> {
	if (!env.NETLIFY_PURGE_API_TOKEN || tags.length === 0) return false;
	try {
		// purgeCache takes no signal: the save does not wait on it past the API's deadline.
		const purge = purgeCache({
			tags,
			token: env.NETLIFY_PURGE_API_TOKEN,
			siteID: env.SITE_ID,
			apiURL: env.NETLIFY_API_URL,
		});
		purge.catch(() => {});
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(new Error(`no answer within ${env.NETLIFY_API_TIMEOUT_MS} ms`)),
				env.NETLIFY_API_TIMEOUT_MS,
			);
		});
		await Promise.race([purge, late]).finally(() => clearTimeout(timer));
		return true;
	} catch (error) {
		console.error(`[publish] purging ${tags.join(', ')} failed:`, error);
		return false;
	}
}

// --- Netlify's deploy notifications --------------------------------------------------------------

export type DeployEventOutcome =
	{ applied: true; publish: PublishView } | { applied: false; reason: string };

/**
 * A deploy notification moves its publish along: deploy-building → building, deploy-succeeded →
 * live, deploy-failed → failed. The publish is the one the deploy's title names (buildTitle), and
 * only when it is this deployment's chamber's (TENANT), as the title says and the publish's own
 * row confirms: a deploy of another chamber's site never moves this chamber's publishes. Deploys
 * of another site, or that no publish started (a git push), are left alone.
 */
export async function applyDeployEvent(
	event: DeployEvent,
	deploy: NetlifyDeploy,
	env: PublishEnv = readPublishEnv(),
	service: SupabaseClient = getServiceClient(),
	chamber: string = readClientEnv().TENANT,
): Promise<DeployEventOutcome> {
	if (env.SITE_ID && deploy.site_id !== env.SITE_ID) {
		return { applied: false, reason: 'a deploy of another site' };
	}
	const named = publishFromTitle(deploy.title);
	if (named === null) return { applied: false, reason: 'a deploy no publish started' };
	if (named.chamber !== chamber || (await publishChamber(service, named.id)) !== chamber) {
		return { applied: false, reason: 'a deploy of another chamber' };
	}
	const id = named.id;
	if (event === 'deploy-failed') {
		const error = deploy.error_message?.trim() || 'The deploy failed on Netlify.';
		const publish = await finishPublish(service, id, { state: 'failed', error }, deploy.id);
		return publish ? { applied: true, publish } : { applied: false, reason: 'an unknown publish' };
	}
	// A build whose start notification was lost still starts (and keeps its configuration).
	let publish = await startPublish(service, id, deploy.id);
	if (event === 'deploy-succeeded') {
		publish = await finishPublish(service, id, { state: 'live' }, deploy.id);
	}
	return publish ? { applied: true, publish } : { applied: false, reason: 'an unknown publish' };
}

/** The slug of the chamber a publish belongs to, or null for no such publish. */
async function publishChamber(service: SupabaseClient, id: number): Promise<string | null> {
	const { data, error } = await service
		.from('publishes')
		.select('tenants(slug)')
		.eq('id', id)
		.maybeSingle<{ tenants: { slug: string } | null }>();
	if (error) throw new Error(`Failed to read publish ${id}: ${error.message}`, { cause: error });
	return data?.tenants?.slug ?? null;
}

const lastReconcile = new Map<string, number>();
/** At most one look at Netlify's deploys per tenant and function instance in this time. */
const RECONCILE_INTERVAL_MS = 20_000;

/**
 * The fallback for notifications that are late or lost: with a token (NETLIFY_AUTH_TOKEN) and
 * SITE_ID, reads the site's newest deploys (GET /api/v1/sites/{site_id}/deploys) and applies the
 * state of each one a queued or building publish started. Called by the status function.
 */
export async function reconcileWithNetlify(
	tenantId: string,
	active: readonly Pick<PublishView, 'id' | 'state'>[],
	env: PublishEnv = readPublishEnv(),
	service: SupabaseClient = getServiceClient(),
	now: number = Date.now(),
	options: { force?: boolean } = {},
): Promise<boolean> {
	return (await readNetlifyDeploys(tenantId, active, env, service, now, options)) !== null;
}

/** The newest deploys of the site (20), or null when they could not be read. */
async function netlifyDeploys(env: PublishEnv): Promise<NetlifyDeploy[] | null> {
	try {
		const url = new URL(
			`/api/v1/sites/${encodeURIComponent(env.SITE_ID ?? '')}/deploys`,
			env.NETLIFY_API_URL,
		);
		url.searchParams.set('per_page', '20');
		const response = await fetch(url, {
			headers: { Authorization: `Bearer ${env.NETLIFY_AUTH_TOKEN}` },
			signal: AbortSignal.timeout(env.NETLIFY_API_TIMEOUT_MS),
		});
		if (!response.ok) throw new Error(`HTTP ${response.status}`);
		// A deploy that does not validate is skipped, not the whole list.
		const body = z.array(z.unknown()).parse(await response.json());
		return body.flatMap((d) => {
			const parsed = netlifyDeploySchema.safeParse(d);
			return parsed.success ? [parsed.data] : [];
		});
	} catch (error) {
		console.error('[publish] reading Netlify deploys failed:', error);
		return null;
	}
}

/**
 * reconcileWithNetlify's work: answers the deploys it read and applied (null when it read none:
 * no token, nothing waiting, asked too recently, or Netlify did not answer).
 */
async function readNetlifyDeploys(
	tenantId: string,
	active: readonly Pick<PublishView, 'id' | 'state'>[],
	env: PublishEnv,
	service: SupabaseClient,
	now: number,
	options: { force?: boolean },
): Promise<NetlifyDeploy[] | null> {
	if (!env.NETLIFY_AUTH_TOKEN || !env.SITE_ID) return null;
	const waiting = active.filter((p) => isActive(p.state));
	if (waiting.length === 0) return null;
	if (!options.force && now - (lastReconcile.get(tenantId) ?? 0) < RECONCILE_INTERVAL_MS) {
		return null;
	}
	lastReconcile.set(tenantId, now);
	const deploys = await netlifyDeploys(env);
	if (!deploys) return null;
	for (const publish of waiting) {
		// Newest first, as Netlify lists them: a retried build's latest deploy decides.
		const deploy = deploys.find((d) => publishFromTitle(d.title)?.id === publish.id);
		if (!deploy) continue;
		const phase = deployPhase(deploy.state);
		if (phase === 'queued') continue;
		const event =
			phase === 'live'
				? 'deploy-succeeded'
				: phase === 'failed'
					? 'deploy-failed'
					: 'deploy-building';
		if (event === 'deploy-building' && publish.state === 'building') continue;
		await applyDeployEvent(event, deploy, env, service);
	}
	return deploys;
}

// --- Publishes whose build is gone ---------------------------------------------------------------

/** Seconds a new publish may wait for its build service before a request may call it stale. */
const LOCAL_GRACE_MS = 15_000;
/** A build Netlify accepted appears in its deploys list within minutes, or never will. */
const NETLIFY_GRACE_MS = 10 * 60_000;

interface ActiveRow {
	id: number | string;
	state: 'queued' | 'building';
	requested_at: string;
	dispatched_at: string | null;
	last_report_at: string;
}

/**
 * Fails the chamber's queued and building publishes whose build is gone, so that a new request
 * gets a build of its own instead of joining one that will never run: under `npm start`, those
 * its builder does not hold (LOCAL_BUILDS_URL); on Netlify with a token, those Netlify's deploys
 * list says ended (applied as their notifications would be) or does not know ten minutes after
 * the build hook accepted them. Without either, the 15-minute expiry still applies. Answers how
 * many were failed.
 */
async function failStalePublishes(
	tenantId: string,
	env: PublishEnv = readPublishEnv(),
	service: SupabaseClient = getServiceClient(),
	now: number = Date.now(),
): Promise<number> {
	if (!env.LOCAL_BUILDS_URL && !(env.NETLIFY_AUTH_TOKEN && env.SITE_ID)) return 0;
	const { data, error } = await service
		.from('publishes')
		.select('id, state, requested_at, dispatched_at, last_report_at')
		.eq('tenant_id', tenantId)
		.in('state', ['queued', 'building'])
		.overrideTypes<ActiveRow[], { merge: false }>();
	if (error) throw new Error(`Failed to read publishes: ${error.message}`, { cause: error });
	if (data.length === 0) return 0;
	const rows = data.map((row) => ({ ...row, id: Number(row.id) }));

	let stale: { id: number; error: string }[];
	if (env.LOCAL_BUILDS_URL) {
		const response = await fetch(env.LOCAL_BUILDS_URL, {
			signal: AbortSignal.timeout(env.BUILD_HOOK_TIMEOUT_MS),
		});
		if (!response.ok) throw new Error(`The local builder answered ${response.status}`);
		const { publishIds } = z
			.object({ publishIds: z.array(z.number()) })
			.parse(await response.json());
		const held = new Set(publishIds);
		stale = rows
			.filter((row) => !held.has(row.id) && now - Date.parse(row.last_report_at) > LOCAL_GRACE_MS)
			.map((row) => ({
				id: row.id,
				error: 'The local server has no build for this publish (it was restarted). Publish again.',
			}));
	} else {
		const deploys = await readNetlifyDeploys(tenantId, rows, env, service, now, { force: true });
		if (!deploys) return 0;
		stale = rows
			.filter(
				(row) =>
					row.dispatched_at !== null &&
					now - Date.parse(row.dispatched_at) > NETLIFY_GRACE_MS &&
					!deploys.some((d) => publishFromTitle(d.title)?.id === row.id),
			)
			.map((row) => ({ id: row.id, error: 'Netlify has no build for this publish.' }));
	}
	for (const row of stale) {
		await finishPublish(service, row.id, { state: 'failed', error: row.error });
	}
	if (stale.length) {
		console.error(`[publish] failed ${stale.length} publish(es) whose build is gone`);
	}
	return stale.length;
}

// --- History and restore ------------------------------------------------------------------------

interface SnapshotRow {
	id: number | string;
	reason: string;
	requested_by_email: string | null;
	started_at: string | null;
	finished_at: string;
	config_snapshot: StoredChamberConfigRow;
}

interface AuditRow {
	at: string;
	actor_email: string | null;
	section: string;
	field: string | null;
}

/**
 * The chamber's kept configurations (the newest 20 live publishes), each with what it changed
 * against the one before: a field-by-field diff of the two configurations, and who made each
 * change according to the audit log (rows between the two builds' starts). Read with the
 * caller's token: RLS lets admins and super_admins read the audit log.
 */
export async function listPublishHistory(
	client: SupabaseClient,
	tenantId: string,
): Promise<HistoryEntry[]> {
	const { data, error } = await client
		.from('publishes')
		.select('id, reason, requested_by_email, started_at, finished_at, config_snapshot')
		.eq('tenant_id', tenantId)
		.eq('state', 'live')
		.not('config_snapshot', 'is', null)
		.order('finished_at', { ascending: false })
		.order('id', { ascending: false })
		.limit(HISTORY_SIZE)
		.overrideTypes<SnapshotRow[], { merge: false }>();
	if (error)
		throw new Error(`Failed to read the publish history: ${error.message}`, { cause: error });

	const kept = data.flatMap((row) => {
		try {
			const config = configFromRow(row.config_snapshot, `publish ${row.id}`);
			return [{ row, config }];
		} catch (parseError) {
			console.warn(`[publish] snapshot of publish ${row.id} no longer validates:`, parseError);
			return [];
		}
	});
	const oldestStart = kept.at(-1)?.row.started_at;
	let audit: AuditRow[] = [];
	if (oldestStart) {
		const result = await client
			.from('audit_log')
			.select('at, actor_email, section, field')
			.eq('tenant_id', tenantId)
			// The configuration's rows; a chamber's businesses have their own history.
			.is('business_id', null)
			.gt('at', oldestStart)
			.order('at', { ascending: true })
			.overrideTypes<AuditRow[], { merge: false }>();
		if (result.error) {
			throw new Error(`Failed to read the audit log: ${result.error.message}`, {
				cause: result.error,
			});
		}
		audit = result.data;
	}

	return kept.map(({ row, config }, index): HistoryEntry => {
		const previous = kept[index + 1];
		const from = Date.parse(previous?.row.started_at ?? '') || 0;
		const to = Date.parse(row.started_at ?? row.finished_at);
		const changes = previous
			? diffConfigs(previous.config, config).map((change) => ({
					...change,
					changedBy: [
						...new Set(
							audit
								.filter(
									(a) =>
										Date.parse(a.at) > from &&
										Date.parse(a.at) <= to &&
										a.section === change.section &&
										(a.field === change.field || a.field === null) &&
										a.actor_email,
								)
								.map((a) => a.actor_email as string),
						),
					],
				}))
			: [];
		return {
			id: Number(row.id),
			publishedAt: row.finished_at,
			requestedBy: row.requested_by_email,
			reason: row.reason,
			changes,
			baseline: !previous,
		};
	});
}

/**
 * A configuration the chamber published and still keeps, as the row a save writes back (the slug
 * names the deployment and never changes), with when it went live (UTC, to the minute) for the
 * publish's or the schedule's reason.
 */
export async function readKeptConfig(
	client: SupabaseClient,
	tenantId: string,
	publishId: number,
): Promise<{ row: Omit<ReturnType<typeof configToRow>, 'slug'>; publishedAt: string }> {
	const { data, error } = await client
		.from('publishes')
		.select('state, finished_at, config_snapshot')
		.eq('id', publishId)
		.eq('tenant_id', tenantId)
		.maybeSingle<{
			state: string;
			finished_at: string | null;
			config_snapshot: StoredChamberConfigRow | null;
		}>();
	if (error)
		throw new Error(`Failed to read publish ${publishId}: ${error.message}`, { cause: error });
	if (!data) throw new HttpError(404, 'No such publish of this chamber.');
	if (data.state !== 'live' || !data.config_snapshot) {
		throw new HttpError(409, 'This configuration is no longer kept.');
	}
	const config: ChamberConfig = configFromRow(data.config_snapshot, `publish ${publishId}`);
	const { slug: _slug, ...row } = configToRow(config);
	const publishedAt = data.finished_at ? data.finished_at.slice(0, 16).replace('T', ' ') : '';
	return { row, publishedAt };
}

/**
 * Writes a kept configuration back as a save, with the caller's token (so the database's role
 * checks judge it exactly as a save from the panel), and publishes it.
 */
export async function restorePublishedConfig(
	session: Pick<AdminSession, 'client'>,
	tenantId: string,
	publishId: number,
): Promise<
	| (PublishRequestResult & { waiting: null })
	| { publish: null; created: false; usage: PublishRequestResult['usage']; waiting: WaitingAnswer }
> {
	const { row, publishedAt } = await readKeptConfig(session.client, tenantId, publishId);
	const update = await session.client
		.from('chamber_config')
		.update(row)
		.eq('tenant_id', tenantId)
		.select('tenant_id');
	if (update.error) {
		if (update.error.code === '42501') throw new HttpError(403, update.error.message);
		throw new Error(`Failed to restore the configuration: ${update.error.message}`, {
			cause: update.error,
		});
	}
	if (update.data.length === 0) throw new HttpError(403, 'You cannot change this chamber.');
	const reason = `Restored the configuration published ${publishedAt} UTC`.trim();
	try {
		return {
			...(await requestPublish({ client: session.client, tenantId, reason })),
			waiting: null,
		};
	} catch (error) {
		if (!(error instanceof BudgetReachedError)) throw error;
		// The month's budget is used: the restore is saved and waits for the daily publish.
		const waiting = await collectChange({
			client: session.client,
			tenantId,
			source: 'staff',
			summary: reason,
		});
		return {
			publish: null,
			created: false,
			usage: { used: error.used, budget: error.budget },
			waiting,
		};
	}
}
