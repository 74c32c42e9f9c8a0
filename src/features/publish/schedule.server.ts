import type { RowInsert, SupabaseClient } from '../../lib/database.ts';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import { getAnonClient, getServiceClient } from '../../lib/supabase.server.ts';
import type { AdminSession } from '../auth/auth.server.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { chamberTimeZone, zonedWallTimeToInstant } from '../config/time-zone.ts';
import { throwIfConflict } from '../conflicts/conflicts.server.ts';
import { ConfigChangeError, parseConfigChange } from '../admin/update-config.ts';
import {
	BudgetReachedError,
	collectChange,
	readKeptConfig,
	readPublishEnv,
	requestPublish,
	type PublishEnv,
	type WaitingAnswer,
} from './publish.server.ts';
import type { PublishView } from './publish.ts';
import {
	saveSummary,
	SCHEDULED_COLUMNS,
	toScheduledView,
	type ScheduledRow,
	type ScheduledView,
	writtenWithoutPublish,
} from './schedule.ts';

/**
 * Scheduled publishing on the server (the database's side: scheduled_publishes): storing a save or a restore to
 * go live later, listing and cancelling what is scheduled, and firing what is due.
 */

interface Tenant {
	id: string;
	slug: string;
}

/** A wall time on the chamber's clock to the instant, refused unless it is still to come. */
async function runAtFor(tenant: Tenant, at: string, now: Date): Promise<Date> {
	const config = await getCachedChamberConfig(getAnonClient(), tenant.id);
	const runAt = zonedWallTimeToInstant(at, chamberTimeZone(config));
	if (runAt.getTime() <= now.getTime()) {
		throw new BadRequest(
			`at: ${at} (${chamberTimeZone(config)}) has passed; choose a time to come`,
		);
	}
	return runAt;
}

async function insertScheduled(
	client: SupabaseClient,
	row: RowInsert<'scheduled_publishes'>,
): Promise<ScheduledView> {
	const { data, error } = await client
		.from('scheduled_publishes')
		.insert(row)
		.select(SCHEDULED_COLUMNS)
		.single<ScheduledRow>();
	if (error) {
		throwIfConflict(error);
		// The database's own refusals are written for the user (the role and value checks).
		if (error.code === '42501') throw new HttpError(403, error.message);
		if (error.code === '22023' || error.code === '23514') throw new BadRequest(error.message);
		throw new Error(`Failed to schedule: ${error.message}`, { cause: error });
	}
	return toScheduledView(data);
}

/**
 * 'Publish at…' on a save: the changes (update-config bodies, each with the version it was made
 * from) are validated as a save's are and stored with the user's token; the database tries them
 * as that user before it keeps them.
 */
export async function scheduleSave(
	session: Pick<AdminSession, 'client'>,
	tenant: Tenant,
	body: { at: string; changes: Record<string, unknown>[] },
	now: Date = new Date(),
): Promise<ScheduledView> {
	const writes = body.changes.map((change, index) => {
		try {
			const { write, version } = parseConfigChange({ ...change, chamber: tenant.slug });
			// Last write wins is for a save now; one that waits states what it was made from.
			if (version === null) {
				throw new ConfigChangeError(
					`Expected version, the version of ${write.section} the change was made from (config_versions)`,
				);
			}
			return { ...write, version };
		} catch (error) {
			if (error instanceof ConfigChangeError) {
				throw new BadRequest(`changes[${index}]: ${error.message}`);
			}
			throw error;
		}
	});
	const paths = writes.map((w) => w.path);
	if (new Set(paths).size !== paths.length) {
		throw new BadRequest('changes: each field at most once');
	}
	const runAt = await runAtFor(tenant, body.at, now);
	return insertScheduled(session.client, {
		tenant_id: tenant.id,
		run_at: runAt.toISOString(),
		kind: 'save',
		changes: writes.map(({ column, field, value, version, path }) => ({
			column,
			field,
			value,
			version,
			path,
		})),
		summary: saveSummary(paths),
	});
}

/** 'Publish at…' on a restore: the kept configuration is copied into the schedule. */
export async function scheduleRestore(
	session: Pick<AdminSession, 'client'>,
	tenant: Tenant,
	publishId: number,
	at: string,
	now: Date = new Date(),
): Promise<ScheduledView> {
	const { row, publishedAt } = await readKeptConfig(session.client, tenant.id, publishId);
	const runAt = await runAtFor(tenant, at, now);
	return insertScheduled(session.client, {
		tenant_id: tenant.id,
		run_at: runAt.toISOString(),
		kind: 'restore',
		snapshot: row,
		restore_of: publishId,
		summary: `Restore the configuration published ${publishedAt} UTC`,
	});
}

/**
 * The chamber's scheduled publishes for its staff (RLS): every one still waiting, soonest first,
 * then the newest `finished` that went live, failed or were cancelled.
 */
export async function listScheduled(
	client: SupabaseClient,
	tenantId: string,
	options: { finished?: number; finishedSince?: Date } = {},
): Promise<ScheduledView[]> {
	const waiting = await client
		.from('scheduled_publishes')
		.select(SCHEDULED_COLUMNS)
		.eq('tenant_id', tenantId)
		.eq('state', 'scheduled')
		.order('run_at', { ascending: true })
		.order('id', { ascending: true })
		.limit(100)
		.overrideTypes<ScheduledRow[], { merge: false }>();
	if (waiting.error) {
		throw new Error(`Failed to list scheduled publishes: ${waiting.error.message}`, {
			cause: waiting.error,
		});
	}
	let query = client
		.from('scheduled_publishes')
		.select(SCHEDULED_COLUMNS)
		.eq('tenant_id', tenantId)
		.neq('state', 'scheduled');
	if (options.finishedSince) query = query.gte('finished_at', options.finishedSince.toISOString());
	const finished = await query
		.order('finished_at', { ascending: false })
		.order('id', { ascending: false })
		.limit(options.finished ?? 20)
		.overrideTypes<ScheduledRow[], { merge: false }>();
	if (finished.error) {
		throw new Error(`Failed to list scheduled publishes: ${finished.error.message}`, {
			cause: finished.error,
		});
	}
	return withLaterPublishes(
		client,
		tenantId,
		[...waiting.data, ...finished.data].map(toScheduledView),
	);
}

/**
 * A change written at its time with no publish of its own went live with the first build that
 * started after it was written (a build reads the configuration when it starts): its liveAt is
 * when that build went live.
 */
async function withLaterPublishes(
	client: SupabaseClient,
	tenantId: string,
	scheduled: ScheduledView[],
): Promise<ScheduledView[]> {
	const written = scheduled.filter((s) => writtenWithoutPublish(s) && s.finishedAt);
	if (written.length === 0) return scheduled;
	const since = written.map((s) => s.finishedAt!).sort()[0]!;
	const { data, error } = await client
		.from('publishes')
		.select('started_at, finished_at')
		.eq('tenant_id', tenantId)
		.eq('state', 'live')
		.gte('started_at', since)
		.order('started_at', { ascending: true })
		.limit(100);
	if (error) throw new Error(`Failed to read the publishes: ${error.message}`, { cause: error });
	return scheduled.map((s) => {
		if (!written.includes(s)) return s;
		const live = data.find(
			(p) => p.started_at && Date.parse(p.started_at) >= Date.parse(s.finishedAt!),
		);
		return live?.finished_at ? { ...s, liveAt: live.finished_at } : s;
	});
}

/** Cancel: its author or an admin, while it waits (the database decides). */
export async function cancelScheduled(client: SupabaseClient, id: number): Promise<ScheduledView> {
	const { data, error } = await client.rpc('cancel_scheduled_publish', { p_id: id });
	if (error) {
		if (error.code === '42501') throw new HttpError(403, error.message);
		if (error.code === 'PT404') throw new HttpError(404, error.message);
		if (error.code === '22023') throw new HttpError(409, error.message);
		throw new Error(`Failed to cancel: ${error.message}`, { cause: error });
	}
	const row = (data as ScheduledRow[] | null)?.[0];
	if (!row) throw new HttpError(404, 'No such scheduled publish');
	return toScheduledView(row);
}

export interface FiredSchedules {
	/** What was due: published (written) or failed, with the reason. */
	fired: ScheduledView[];
	/** The publish that takes the written ones live, or null when none was written. */
	publish: PublishView | null;
	/**
	 * At the month's budget the written ones wait instead (for the daily publish, or the next one
	 * staff confirm): when they are live at the latest.
	 */
	waiting?: WaitingAnswer;
}

/**
 * The scheduled function's work: writes the chamber's changes that are due (in their authors'
 * names) and requests one publish for all of them, which takes every change waiting for the
 * window with it. At the month's budget nobody is there to confirm the cost: they wait for the
 * daily publish. `now` injects the clock.
 */
export async function fireDueSchedules(
	tenantId: string,
	options: { now?: Date; service?: SupabaseClient; env?: PublishEnv } = {},
): Promise<FiredSchedules> {
	const service = options.service ?? getServiceClient();
	const { data, error } = await service.rpc('fire_scheduled_publishes', {
		p_tenant_id: tenantId,
		p_now: (options.now ?? new Date()).toISOString(),
	});
	if (error) {
		throw new Error(`Failed to fire scheduled publishes: ${error.message}`, { cause: error });
	}
	const fired = (data as ScheduledRow[]).map(toScheduledView);
	for (const failed of fired.filter((f) => f.state === 'failed')) {
		console.warn(`[schedule] scheduled publish ${failed.id} failed: ${failed.error}`);
	}
	const published = fired.filter((f) => f.state === 'published');
	if (published.length === 0) return { fired, publish: null };
	const authors = [...new Set(published.map((f) => f.createdBy ?? 'the server'))].join(', ');
	const what = published.map((f) => f.summary).join('; ');
	const reason = `Scheduled by ${authors}: ${what}`.slice(0, 200);
	const env = options.env ?? readPublishEnv();
	let publish: PublishView;
	try {
		({ publish } = await requestPublish(
			{ client: service, tenantId, reason, now: options.now },
			env,
		));
	} catch (error) {
		if (!(error instanceof BudgetReachedError)) throw error;
		const waiting = await collectChange(
			{ client: service, tenantId, source: 'scheduled', summary: reason, now: options.now },
			env,
		);
		return { fired, publish: null, waiting };
	}
	const link = await service.rpc('link_scheduled_publishes', {
		p_ids: published.map((f) => f.id),
		p_publish_id: publish.id,
	});
	if (link.error) console.error('[schedule] recording the publish failed:', link.error);
	return {
		fired: fired.map((f) => (f.state === 'published' ? { ...f, publishId: publish.id } : f)),
		publish,
	};
}
