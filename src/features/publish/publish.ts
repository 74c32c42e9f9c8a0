import { format } from 'date-fns/format';
import { isSameDay } from 'date-fns/isSameDay';
import { z } from 'zod';
import type { ChamberConfig } from '../config/config.ts';
import { wallTimeSchema } from './schedule.ts';

// Publishing: a save asks for a build of the chamber's pre-rendered site;
// the `publishes` table follows each build (queued → building → live | failed). Pure logic and
// the zod schemas shared by the functions, the local build server and the panel's status piece.

export type PublishState = 'queued' | 'building' | 'live' | 'failed';

/** The panel polls this often while a build is queued or running … */
export const POLL_ACTIVE_MS = 3000;
/** … and this often otherwise (someone else's save starts a build too). */
export const POLL_IDLE_MS = 60_000;
/** Configurations kept for the history (the newest live publishes). */
export const HISTORY_SIZE = 20;

/** A publish as the functions answer it (GET /api/publish-status, POST /api/publish). */
export interface PublishView {
	id: number;
	state: PublishState;
	/** What caused it, e.g. 'Content saved'. */
	reason: string;
	/** The e-mail of the user whose save requested it (null: the server side). */
	requestedBy: string | null;
	requestedAt: string;
	/** Saves this build carries (saves made while it was queued joined it). */
	requests: number;
	startedAt: string | null;
	finishedAt: string | null;
	error: string | null;
	deployId: string | null;
}

/** A row of `publishes` as PostgREST returns it (without the snapshot). */
export interface PublishRow {
	id: number | string;
	tenant_id: string;
	state: PublishState;
	reason: string;
	requested_by_email: string | null;
	requested_at: string;
	requests: number;
	started_at: string | null;
	finished_at: string | null;
	error: string | null;
	deploy_id: string | null;
}

export const PUBLISH_COLUMNS =
	'id, tenant_id, state, reason, requested_by_email, requested_at, requests, started_at, finished_at, error, deploy_id';

export function toPublishView(row: PublishRow): PublishView {
	return {
		id: Number(row.id),
		state: row.state,
		reason: row.reason,
		requestedBy: row.requested_by_email,
		requestedAt: row.requested_at,
		requests: row.requests,
		startedAt: row.started_at,
		finishedAt: row.finished_at,
		error: row.error,
		deployId: row.deploy_id,
	};
}

export function isActive(state: PublishState): boolean {
	return state === 'queued' || state === 'building';
}

// --- What the panel says ----------------------------------------------------------------------

export type PublishStatusView =
	| { kind: 'none' }
	| { kind: 'publishing'; text: 'Publishing…'; detail: string }
	| { kind: 'live'; text: string }
	| { kind: 'failed'; text: string };

/** 'Live since 14:32' today, 'Live since Nov 3, 14:32' on another day (the browser's time). */
function liveSinceText(finishedAt: string, now: Date): string {
	const at = new Date(finishedAt);
	return isSameDay(at, now)
		? `Live since ${format(at, 'HH:mm')}`
		: `Live since ${format(at, 'MMM d, HH:mm')}`;
}

/**
 * The status line for the newest publishes (newest first): any publish queued or building means
 * 'Publishing…'; else the newest finished one says live or failed. A failure followed by a
 * successful build is over: the site is live.
 */
export function publishStatus(publishes: readonly PublishView[], now: Date): PublishStatusView {
	const active = publishes.find((p) => isActive(p.state));
	if (active) {
		return {
			kind: 'publishing',
			text: 'Publishing…',
			detail: active.state === 'queued' ? 'Waiting for the build to start' : 'Building the site',
		};
	}
	const last = publishes[0];
	if (!last) return { kind: 'none' };
	if (last.state === 'failed') {
		return { kind: 'failed', text: `Publish failed: ${last.error ?? 'unknown reason'}` };
	}
	return { kind: 'live', text: liveSinceText(last.finishedAt ?? last.requestedAt, now) };
}

// --- Build titles: how a Netlify deploy names its publish -------------------------------------

const TITLE_MARKER = /\[publish (\d{1,18}) of ([a-z0-9][a-z0-9-]{0,99})\]\s*$/;

/**
 * The build hook's `trigger_title`, which Netlify shows as the deploy's title and sends back in
 * its deploy notifications: the chamber, the reason and the user, and a marker naming the
 * publish, so a notification finds its row (the build hook answers no deploy id).
 */
export function buildTitle(options: {
	tenantName: string;
	tenantSlug: string;
	reason: string;
	requestedBy: string | null;
	publishId: number;
}): string {
	const reason = options.reason.trim() || 'Publish';
	const by = options.requestedBy ? ` by ${options.requestedBy}` : '';
	return `${options.tenantName.slice(0, 80)}: ${reason.slice(0, 80)}${by} [publish ${options.publishId} of ${options.tenantSlug}]`;
}

/**
 * The publish a deploy title names, and its chamber's slug, or null (a deploy someone else
 * started). Publish ids are per database, which many chambers share: the chamber tells whose.
 */
export function publishFromTitle(
	title: string | null | undefined,
): { id: number; chamber: string } | null {
	const match = title ? TITLE_MARKER.exec(title) : null;
	return match?.[1] && match[2] ? { id: Number(match[1]), chamber: match[2] } : null;
}

/**
 * Where a Netlify deploy state puts its publish. Netlify's deploy states: new, pending_review,
 * accepted, enqueued (waiting), building, uploading, uploaded, preparing, prepared, processing,
 * processed (on its way), ready (live), error, rejected (failed).
 */
export function deployPhase(state: string): PublishState {
	switch (state) {
		case 'ready':
			return 'live';
		case 'error':
		case 'rejected':
			return 'failed';
		case 'new':
		case 'pending_review':
		case 'accepted':
		case 'enqueued':
			return 'queued';
		default:
			return 'building';
	}
}

// --- History: what changed between two published configurations -------------------------------

export interface ConfigChange {
	/** The section in the configuration's (and audit_log's) naming: identity, colors, content … */
	section: string;
	/** The key within the section; for identity the top-level field. */
	field: string;
	before: unknown;
	after: unknown;
}

const IDENTITY_FIELDS = ['name', 'slug', 'city', 'state', 'foundedYear'] as const;

// Both sides are parsed by the same zod schema, so equal values serialise to the same JSON
// (object keys come out in the schema's order).
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Field-by-field differences between two configurations, named as the audit log names them:
 * identity fields, then every key of every section that changed (a list such as the menu
 * items is one field).
 */
export function diffConfigs(before: ChamberConfig, after: ChamberConfig): ConfigChange[] {
	const changes: ConfigChange[] = [];
	for (const field of IDENTITY_FIELDS) {
		if (!same(before[field], after[field])) {
			changes.push({ section: 'identity', field, before: before[field], after: after[field] });
		}
	}
	for (const section of Object.keys(after) as (keyof ChamberConfig)[]) {
		if ((IDENTITY_FIELDS as readonly string[]).includes(section)) continue;
		const a = (before[section] ?? {}) as Record<string, unknown>;
		const b = (after[section] ?? {}) as Record<string, unknown>;
		for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
			if (!same(a[field], b[field])) {
				changes.push({ section, field, before: a[field], after: b[field] });
			}
		}
	}
	return changes;
}

/** A value of a change, for people: text as it is, anything else as compact JSON. */
export function describeChangeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	if (typeof value === 'string') return value;
	return JSON.stringify(value);
}

export interface HistoryEntry {
	id: number;
	/** When it went live. */
	publishedAt: string;
	requestedBy: string | null;
	reason: string;
	/** What it changed against the configuration published before it. */
	changes: (ConfigChange & { changedBy: string[] })[];
	/** The oldest kept configuration: nothing older to compare with. */
	baseline: boolean;
}

// --- Request bodies and queries -----------------------------------------------------------------

/**
 * POST /api/publish: an optional reason ('Publish now' when left out), and `confirm` once the
 * person saw what a publish past the month's budget costs.
 */
export const publishBodySchema = z.object({
	reason: z.string().trim().max(120, { error: 'The reason is at most 120 characters' }).optional(),
	confirm: z.boolean({ error: 'Expected confirm to be true or false' }).optional(),
});

/** GET /api/publish-status?limit= (default 5, at most 20). */
export const publishStatusQuerySchema = z.object({
	limit: z.coerce.number({ error: 'Expected a number' }).int().min(1).max(HISTORY_SIZE).default(5),
});

/** POST /api/publish-restore: at once, or `at` a date and time on the chamber's clock. */
export const restoreBodySchema = z.object({
	publishId: z.coerce
		.number({ error: 'Expected the id of a publish' })
		.int({ error: 'Expected the id of a publish' })
		.positive({ error: 'Expected the id of a publish' }),
	at: wallTimeSchema.optional(),
});

// --- Netlify's deploy notifications -------------------------------------------------------------

/**
 * A deploy as Netlify's API and deploy notifications carry it (snake_case; open-api `deploy`).
 * Only what publishing reads is required; the rest passes.
 */
export const netlifyDeploySchema = z.looseObject({
	id: z.string().min(1).max(100),
	site_id: z.string().min(1),
	state: z.string().min(1),
	title: z.string().nullish(),
	error_message: z.string().nullish(),
	created_at: z.string(),
	published_at: z.string().nullish(),
	context: z.string().nullish(),
});
export type NetlifyDeploy = z.output<typeof netlifyDeploySchema>;

/** The body of an event-triggered function (deploy-building, -succeeded, -failed). */
export const deployEventBodySchema = z.object({
	payload: netlifyDeploySchema,
	site: z.looseObject({ id: z.string().optional(), name: z.string().optional() }),
});

export type DeployEvent = 'deploy-building' | 'deploy-succeeded' | 'deploy-failed';
