import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SupabaseClient } from '../../src/lib/database.ts';
import { z } from 'zod';
import { finishPublish, startPublish } from '../../src/features/publish/publish.server.ts';
import { publishFromTitle } from '../../src/features/publish/publish.ts';
import type { ServerRoute } from './server.ts';

/**
 * `npm start`'s stand-in for Netlify's builds: the functions call its build hook (as they call
 * Netlify's in production, NETLIFY_BUILD_HOOK_URL), and it rebuilds the site for TENANT into a
 * fresh folder, then swaps the finished build in (files, rules and SSR function together). A
 * failed build leaves the live site as it was. Builds run one at a time, in the order their hooks
 * came in, and move their publish through building → live | failed, as Netlify's deploy
 * notifications do. A build requested for this chamber while one runs supersedes it: the running
 * build is stopped and its publish failed as cancelled, as a superseded deploy is on Netlify.
 *
 * Builds are kept in the data folder, and `live.json` names the one that is live, written
 * atomically once it is served: after a crash, `npm start` serves that build again — the last
 * published site, never one built from changes that were not published — and fails the publishes
 * whose builds died with the process (recover), so the next save gets a build at once.
 */

/** What a build produced: the static files and, when there are on-demand pages, the SSR function. */
export interface LocalBuild {
	distDir: string;
	ssrDir?: string;
}

/** Builds the site into `outDir` (a fresh, empty folder); throws with a readable reason. */
export type SiteBuilder = (outDir: string, signal: AbortSignal) => Promise<LocalBuild>;

/** The live build as recorded on disk: its folder's name, the publish it went live for. */
const liveRecordSchema = z.object({
	/** The build's folder in the builds folder. */
	deployId: z.string().regex(/^[\w-]+$/),
	/** Whether it has an on-demand function (a `ssr` folder beside `dist`). */
	ssr: z.boolean(),
	/** The publish it went live for; null for a build made when the server started. */
	publishId: z.number().int().positive().nullable(),
	/** Of the code it was built from (codeFingerprint), so a changed checkout is noticed. */
	fingerprint: z.string(),
	liveSince: z.iso.datetime(),
	/** The build before it (its hashed assets stay reachable for pages loaded before the swap). */
	previous: z
		.string()
		.regex(/^[\w-]+$/)
		.nullable(),
});

type LiveRecord = z.output<typeof liveRecordSchema>;

export interface Recovery {
	/** The build to serve: the last one that went live, when its files are still there. */
	live: (LocalBuild & { record: LiveRecord }) | null;
	/** Publishes whose builds ended with the last process, now failed (or live: see below). */
	failed: number[];
	/** Whether the chamber's newest publish is not live: saved changes the live site lacks. */
	unpublishedChanges: boolean;
}

export interface LocalPublisher {
	/** The build hook's route on the site server. */
	route: ServerRoute;
	/** GET: the publishes this publisher holds (queued or building), `{publishIds}`. */
	buildsRoute: ServerRoute;
	/** Path of the build hook (secret, like Netlify's hook ids). */
	hookPath: string;
	/**
	 * At start, before serving: the last live build, the publishes left behind failed, and the
	 * build folders nothing uses any more removed.
	 */
	recover(): Promise<Recovery>;
	/**
	 * Builds now, without a publish (a start with no build to serve, or code that changed), and
	 * records it live; before attach() the caller starts serving it.
	 */
	buildNow(reason: string): Promise<LocalBuild>;
	/** Tells the publisher how to put a finished build live (the site server's swap). */
	attach(server: { swap(build: LocalBuild): Promise<void> }): void;
	/** Resolves once no build is running or waiting. */
	idle(): Promise<void>;
	/** Stops the running build and drops the waiting ones (the next start fails their publishes). */
	close(): Promise<void>;
}

interface Job {
	publishId: number | null;
	title: string;
	/** Stops this build (a newer publish of the chamber supersedes it). */
	cancel: AbortController;
	supersededBy?: number;
}

/** What staff read for a publish whose build ended with the server. */
export const INTERRUPTED =
	'The local server stopped before this build finished. Publish again to build it.';

interface PublisherOptions {
	tenant: { id: string; slug: string };
	/** Service-role client: the build's reports are the build service's, not a user's. */
	service: SupabaseClient;
	/** Where each build gets its own folder, kept across restarts (the data folder's). */
	buildsDir: string;
	build: SiteBuilder;
	/** Of the code a build is made from (codeFingerprint); recorded with each live build. */
	fingerprint?: string;
	log?: (line: string) => void;
}

/** What the publisher's parts share. */
interface Publisher {
	options: PublisherOptions;
	log: (line: string) => void;
	/** Aborted when the publisher closes: every build stops. */
	stop: AbortSignal;
	builds: BuildsFolder;
	/** The site server, once attached: a finished build is swapped into it. */
	server: { swap(build: LocalBuild): Promise<void> } | null;
}

export function createLocalPublisher(options: PublisherOptions): LocalPublisher {
	const log = options.log ?? ((line: string) => console.log(`[publish] ${line}`));
	const hookPath = `/.netlify/build_hooks/${randomBytes(12).toString('hex')}`;
	const stop = new AbortController();
	const publisher: Publisher = {
		options,
		log,
		stop: stop.signal,
		builds: buildsFolder(options.buildsDir, log),
		server: null,
	};
	const jobs = buildQueue(publisher);
	return {
		hookPath,
		route: {
			method: 'POST',
			path: hookPath,
			// As Netlify's build hook: 200 with an empty body at once, the build follows.
			async handler(req) {
				if (stop.signal.aborted) return new Response(null, { status: 503 });
				const title = new URL(req.url).searchParams.get('trigger_title') ?? 'Build hook';
				await req.body?.cancel();
				jobs.add({
					publishId: publishFromTitle(title)?.id ?? null,
					title,
					cancel: new AbortController(),
				});
				return new Response(null, { status: 200 });
			},
		},
		buildsRoute: {
			method: 'GET',
			path: `${hookPath}/builds`,
			handler: async () =>
				Response.json({ publishIds: jobs.held() }, { headers: { 'Cache-Control': 'no-store' } }),
		},
		recover: () => recover(publisher),
		buildNow: (reason) => buildAndSwap(publisher, null, reason),
		attach(target) {
			publisher.server = target;
		},
		idle: () => jobs.idle(),
		async close() {
			jobs.clear();
			stop.abort();
			await jobs.idle();
		},
	};
}

/** The builds' folder: a folder per build, and `live.json` naming the one that is live. */
interface BuildsFolder {
	/** The live build's record, as last read or written. */
	live: LiveRecord | null;
	buildOf(deployId: string, ssr: boolean): LocalBuild;
	readLive(): Promise<LiveRecord | null>;
	/** Written beside and renamed over: a crash leaves the old record or the new, never half. */
	writeLive(record: LiveRecord): Promise<void>;
	/** Removes every build folder but the live one and the one before it. */
	prune(): Promise<void>;
	/** A build's id: its folder's name, and the publish's deploy_id. */
	newDeployId(): string;
}

function buildsFolder(buildsDir: string, log: (line: string) => void): BuildsFolder {
	const liveFile = join(buildsDir, 'live.json');
	let counter = 0;
	const folder: BuildsFolder = {
		live: null,
		buildOf(deployId, ssr) {
			const dir = join(buildsDir, deployId);
			return { distDir: join(dir, 'dist'), ...(ssr ? { ssrDir: join(dir, 'ssr') } : {}) };
		},
		async readLive() {
			const text = await readFile(liveFile, 'utf8').catch(() => null);
			if (text === null) return null;
			try {
				return liveRecordSchema.parse(JSON.parse(text));
			} catch (error) {
				log(`ignoring ${liveFile}: ${(error as Error).message}`);
				return null;
			}
		},
		async writeLive(record) {
			const temporary = `${liveFile}.${process.pid}.tmp`;
			await writeFile(temporary, JSON.stringify(record, null, '\t'));
			await rename(temporary, liveFile);
			folder.live = record;
		},
		async prune() {
			const keep = new Set([folder.live?.deployId, folder.live?.previous].filter(Boolean));
			const entries = await readdir(buildsDir, { withFileTypes: true }).catch(() => []);
			for (const entry of entries) {
				if (entry.isDirectory() && !keep.has(entry.name)) {
					await rm(join(buildsDir, entry.name), { recursive: true, force: true });
				}
			}
		},
		newDeployId: () => `local-${Date.now().toString(36)}-${++counter}`,
	};
	return folder;
}

/**
 * Builds into a new folder and puts it live (swapped into the server once one is attached;
 * before that, the caller serves it); throws, the live site unchanged, on failure.
 */
async function buildAndSwap(
	publisher: Publisher,
	publishId: number | null,
	label: string,
	deployId: string = publisher.builds.newDeployId(),
	cancel?: AbortSignal,
): Promise<LocalBuild> {
	const { options, log, stop, builds } = publisher;
	const outDir = join(options.buildsDir, deployId);
	const began = Date.now();
	const cpuBefore = await childrenCpuSeconds();
	log(`${label}: building ${options.tenant.slug}`);
	let build: LocalBuild;
	let buildSeconds: string;
	try {
		await mkdir(outDir, { recursive: true });
		build = await options.build(outDir, cancel ? AbortSignal.any([stop, cancel]) : stop);
		if (cancel?.aborted) throw new Error('The build was stopped');
		buildSeconds = await buildTime(began, cpuBefore);
		// Read now: the server may have been attached while the build ran.
		if (publisher.server) await publisher.server.swap(build);
		else if (publishId !== null) throw new Error('The site server is not attached');
	} catch (error) {
		await rm(outDir, { recursive: true, force: true });
		logFailure(log, label, began, error);
		throw error;
	}
	await builds.writeLive({
		deployId,
		ssr: Boolean(build.ssrDir),
		publishId,
		fingerprint: options.fingerprint ?? '',
		liveSince: new Date().toISOString(),
		previous: builds.live?.deployId ?? null,
	});
	log(`${label}: live after ${seconds(began)} s (the build took ${buildSeconds})`);
	await builds.prune();
	return build;
}

/** The build's wall time, with its CPU time where /proc tells it. */
async function buildTime(began: number, cpuBefore: number | null): Promise<string> {
	const cpuAfter = await childrenCpuSeconds();
	return cpuBefore === null || cpuAfter === null
		? `${seconds(began)} s`
		: `${seconds(began)} s, ${(cpuAfter - cpuBefore).toFixed(1)} s of CPU`;
}

function logFailure(log: (line: string) => void, label: string, began: number, error: unknown) {
	log(
		`${label}: failed after ${seconds(began)} s, the live site is unchanged: ${(error as Error).message}`,
	);
	// The build's own last lines: what whoever runs the server needs to see why it failed.
	const output = (error as { output?: unknown }).output;
	if (Array.isArray(output) && output.length > 0)
		log(`${label}: the build said:\n  ${output.join('\n  ')}`);
}

/** Builds a job's publish (or a build without one) and reports how it ended on its publish. */
async function runJob(publisher: Publisher, job: Job): Promise<void> {
	const { service } = publisher.options;
	const label = job.publishId === null ? 'build' : `publish ${job.publishId}`;
	const deployId = publisher.builds.newDeployId();
	if (job.publishId !== null && !(await claimPublish(publisher, job.publishId, label, deployId))) {
		return;
	}
	try {
		await buildAndSwap(
			publisher,
			job.publishId,
			`${label} (${job.title})`,
			deployId,
			job.cancel.signal,
		);
	} catch (error) {
		if (job.publishId !== null) {
			const reason =
				job.supersededBy !== undefined
					? `Cancelled: publish ${job.supersededBy} supersedes it.`
					: error instanceof Error
						? error.message
						: String(error);
			await finishPublish(service, job.publishId, { state: 'failed', error: reason });
		}
		return;
	}
	if (job.publishId !== null) {
		await finishPublish(service, job.publishId, { state: 'live' });
	}
}

/**
 * Moves the publish to building under this build's deploy id; false, with the reason logged,
 * when there is nothing to build: an unknown publish, another chamber's (failed), or one already
 * built, failed or taken by another build.
 */
async function claimPublish(
	{ options, log }: Publisher,
	publishId: number,
	label: string,
	deployId: string,
): Promise<boolean> {
	const tenantId = await tenantOf(options.service, publishId);
	if (tenantId === null) {
		log(`${label}: unknown, nothing to build`);
		return false;
	}
	if (tenantId !== options.tenant.id) {
		await finishPublish(options.service, publishId, {
			state: 'failed',
			error: `This local server builds only ${options.tenant.slug}.`,
		});
		log(`${label}: another chamber's, refused`);
		return false;
	}
	const started = await startPublish(options.service, publishId, deployId);
	if (started?.state !== 'building' || started.deployId !== deployId) {
		log(`${label}: ${started?.state ?? 'gone'}, nothing to build`);
		return false;
	}
	return true;
}

async function tenantOf(service: SupabaseClient, publishId: number): Promise<string | null> {
	const { data, error } = await service
		.from('publishes')
		.select('tenant_id')
		.eq('id', publishId)
		.maybeSingle<{ tenant_id: string }>();
	if (error) throw new Error(`Failed to read publish ${publishId}: ${error.message}`);
	return data?.tenant_id ?? null;
}

/** The builds waiting and the one running: one at a time, in the order their hooks came in. */
interface BuildQueue {
	/** Queues a build; a newer publish of this chamber stops the one under way. */
	add(job: Job): void;
	/** The publishes queued or building. */
	held(): number[];
	/** Resolves once no build is running or waiting. */
	idle(): Promise<void>;
	/** Drops the waiting builds. */
	clear(): void;
}

function buildQueue(publisher: Publisher): BuildQueue {
	const queue: Job[] = [];
	let running: Promise<void> | null = null;
	/** The job whose build runs now. */
	let current: Job | null = null;

	function kick(): void {
		running ??= (async () => {
			for (let job = queue.shift(); job; job = queue.shift()) {
				current = job;
				try {
					await runJob(publisher, job);
				} catch (error) {
					// The database itself failed; the next request or start finds the publish stale.
					console.error('[publish] build bookkeeping failed:', error);
				} finally {
					current = null;
				}
			}
			running = null;
		})();
	}

	/** A newer publish of this chamber stops the build under way: its output would be stale. */
	async function supersede(job: Job): Promise<void> {
		const building = current;
		if (
			job.publishId === null ||
			building?.publishId == null ||
			building.publishId >= job.publishId
		) {
			return;
		}
		const { options, log } = publisher;
		if ((await tenantOf(options.service, job.publishId)) !== options.tenant.id) return;
		if (current !== building) return;
		building.supersededBy = job.publishId;
		building.cancel.abort();
		log(`publish ${building.publishId}: cancelled, publish ${job.publishId} supersedes it`);
	}

	return {
		add(job) {
			queue.push(job);
			kick();
			void supersede(job).catch((error: unknown) =>
				console.error('[publish] cancelling the superseded build failed:', error),
			);
		},
		held() {
			const ids = queue.map((job) => job.publishId);
			if (current) ids.push(current.publishId);
			return ids.filter((id): id is number => id !== null);
		},
		async idle() {
			while (running) await running;
		},
		clear() {
			queue.splice(0);
		},
	};
}

/**
 * At start: the last live build (when its files are still there), the build folders nothing uses
 * removed, and the publishes the last process left behind settled.
 */
async function recover(publisher: Publisher): Promise<Recovery> {
	const { options, log, builds } = publisher;
	await mkdir(options.buildsDir, { recursive: true });
	let live = await builds.readLive();
	if (live && !(await stat(builds.buildOf(live.deployId, live.ssr).distDir).catch(() => null))) {
		log(`the live build ${live.deployId} is gone: building again`);
		live = null;
	}
	builds.live = live;
	// Builds that died with the last process, and any left half-written.
	await builds.prune();
	const { failed, unpublishedChanges } = await settleLeftPublishes(publisher, live);
	return {
		live: live ? { ...builds.buildOf(live.deployId, live.ssr), record: live } : null,
		failed,
		unpublishedChanges,
	};
}

/**
 * The chamber's publishes still queued or building when the last process ended: live when the
 * live build is theirs (only the report was lost), else failed as interrupted.
 */
async function settleLeftPublishes(
	{ options, log }: Publisher,
	live: LiveRecord | null,
): Promise<Pick<Recovery, 'failed' | 'unpublishedChanges'>> {
	const { data, error } = await options.service
		.from('publishes')
		.select('id, state')
		.eq('tenant_id', options.tenant.id)
		.order('id', { ascending: false })
		.overrideTypes<{ id: number | string; state: string }[], { merge: false }>();
	if (error) throw new Error(`Failed to read the publishes: ${error.message}`);
	const failed: number[] = [];
	for (const row of data) {
		const id = Number(row.id);
		if (row.state !== 'queued' && row.state !== 'building') continue;
		if (live?.publishId === id) {
			// It was swapped in and recorded; only its 'live' report was lost.
			await finishPublish(options.service, id, { state: 'live' });
			continue;
		}
		await finishPublish(options.service, id, { state: 'failed', error: INTERRUPTED });
		failed.push(id);
	}
	if (failed.length) log(`failed ${failed.length} publish(es) the last server left: ${failed}`);
	const newest = data[0];
	const newestState = !newest
		? null
		: live?.publishId === Number(newest.id)
			? 'live'
			: failed.includes(Number(newest.id))
				? 'failed'
				: newest.state;
	return { failed, unpublishedChanges: newestState !== null && newestState !== 'live' };
}

/**
 * CPU seconds (user + system) of this process's finished children, from /proc (Linux): the build
 * is the child that finishes between two readings, so a loaded machine shows as wall time far
 * above the CPU time. Null where /proc is not there.
 */
async function childrenCpuSeconds(): Promise<number | null> {
	try {
		const stat = await readFile('/proc/self/stat', 'utf8');
		// Fields after the command name (in parentheses); cutime and cstime are the 16th and 17th.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const ticks = Number(fields[13]) + Number(fields[14]);
		// USER_HZ, 100 on Linux.
		return Number.isFinite(ticks) ? ticks / 100 : null;
	} catch {
		return null;
	}
}

function seconds(since: number): string {
	return ((Date.now() - since) / 1000).toFixed(1);
}
