import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SupabaseClient } from '../../src/lib/database.ts';
import { finishPublish, startPublish } from '../../src/features/publish/publish.server.ts';
import { publishFromTitle } from '../../src/features/publish/publish.ts';
import type { ServerRoute } from './netlify-local.ts';

/**
 * `npm start`'s stand-in for Netlify's builds: the functions call its build hook (as they call
 * Netlify's in production, NETLIFY_BUILD_HOOK_URL), and it rebuilds the site for TENANT into a
 * fresh folder, then swaps the finished build in (files, rules and SSR function together). A
 * failed build leaves the live site as it was. Builds run one at a time, in the order their hooks
 * came in, and move their publish through building → live | failed, as Netlify's deploy
 * notifications do. A build requested for this chamber while one runs supersedes it: the running
 * build is stopped and its publish failed as cancelled, as a superseded deploy is on Netlify.
 */

/** What a build produced: the static files and, when there are on-demand pages, the SSR function. */
export interface LocalBuild {
	distDir: string;
	ssrDir?: string;
}

/** Builds the site into `outDir` (a fresh, empty folder); throws with a readable reason. */
export type SiteBuilder = (outDir: string, signal: AbortSignal) => Promise<LocalBuild>;

export interface LocalPublisher {
	/** The build hook's route on the site server. */
	route: ServerRoute;
	/** Path of the build hook (secret, like Netlify's hook ids). */
	hookPath: string;
	/** Tells the publisher how to put a finished build live (the site server's swap). */
	attach(server: { swap(build: LocalBuild): Promise<void> }): void;
	/** Resolves once no build is running or waiting. */
	idle(): Promise<void>;
	/** Stops the running build and drops the waiting ones (their publishes time out). */
	close(): Promise<void>;
}

interface Job {
	publishId: number | null;
	title: string;
	/** Stops this build (a newer publish of the chamber supersedes it). */
	cancel: AbortController;
	supersededBy?: number;
}

export function createLocalPublisher(options: {
	tenant: { id: string; slug: string };
	/** Service-role client: the build's reports are the build service's, not a user's. */
	service: SupabaseClient;
	/** Where each build gets its own folder. */
	buildsDir: string;
	build: SiteBuilder;
	log?: (line: string) => void;
}): LocalPublisher {
	const log = options.log ?? ((line: string) => console.log(`[publish] ${line}`));
	const hookPath = `/.netlify/build_hooks/${randomBytes(12).toString('hex')}`;
	const queue: Job[] = [];
	let server: { swap(build: LocalBuild): Promise<void> } | null = null;
	let running: Promise<void> | null = null;
	let current: Job | null = null;
	let counter = 0;
	const stop = new AbortController();
	/** Build folders still needed: the live one and the one before (its assets stay reachable). */
	const kept: string[] = [];

	async function tenantOf(publishId: number): Promise<string | null> {
		const { data, error } = await options.service
			.from('publishes')
			.select('tenant_id')
			.eq('id', publishId)
			.maybeSingle<{ tenant_id: string }>();
		if (error) throw new Error(`Failed to read publish ${publishId}: ${error.message}`);
		return data?.tenant_id ?? null;
	}

	async function runJob(job: Job): Promise<void> {
		const deployId = `local-${Date.now().toString(36)}-${++counter}`;
		const label = job.publishId === null ? `build ${deployId}` : `publish ${job.publishId}`;
		if (job.publishId !== null) {
			const tenantId = await tenantOf(job.publishId);
			if (tenantId === null) return log(`${label}: unknown, nothing to build`);
			if (tenantId !== options.tenant.id) {
				await finishPublish(options.service, job.publishId, {
					state: 'failed',
					error: `This local server builds only ${options.tenant.slug}.`,
				});
				return log(`${label}: another chamber's, refused`);
			}
			const started = await startPublish(options.service, job.publishId, deployId);
			// Already built, failed or taken by another build: nothing left to do for it.
			if (started?.state !== 'building' || started.deployId !== deployId) {
				return log(`${label}: ${started?.state ?? 'gone'}, nothing to build`);
			}
		}
		const outDir = join(options.buildsDir, deployId);
		const began = Date.now();
		let buildSeconds: string;
		const cpuBefore = await childrenCpuSeconds();
		log(`${label}: building ${options.tenant.slug} (${job.title})`);
		try {
			await mkdir(outDir, { recursive: true });
			const build = await options.build(outDir, AbortSignal.any([stop.signal, job.cancel.signal]));
			if (job.cancel.signal.aborted) throw new Error('The build was stopped');
			const cpuAfter = await childrenCpuSeconds();
			buildSeconds =
				cpuBefore === null || cpuAfter === null
					? `${seconds(began)} s`
					: `${seconds(began)} s, ${(cpuAfter - cpuBefore).toFixed(1)} s of CPU`;
			if (!server) throw new Error('The site server is not attached');
			await server.swap(build);
		} catch (error) {
			const reason =
				job.supersededBy !== undefined
					? `Cancelled: publish ${job.supersededBy} supersedes it.`
					: error instanceof Error
						? error.message
						: String(error);
			log(`${label}: failed after ${seconds(began)} s, the live site is unchanged: ${reason}`);
			await rm(outDir, { recursive: true, force: true });
			if (job.publishId !== null) {
				await finishPublish(options.service, job.publishId, { state: 'failed', error: reason });
			}
			return;
		}
		if (job.publishId !== null) {
			await finishPublish(options.service, job.publishId, { state: 'live' });
		}
		log(`${label}: live after ${seconds(began)} s (the build took ${buildSeconds})`);
		kept.push(outDir);
		await pruneBuilds();
	}

	async function pruneBuilds(): Promise<void> {
		const keep = new Set(kept.slice(-2));
		kept.splice(0, Math.max(0, kept.length - 2));
		const entries = await readdir(options.buildsDir).catch(() => [] as string[]);
		for (const name of entries) {
			const dir = join(options.buildsDir, name);
			if (!keep.has(dir)) await rm(dir, { recursive: true, force: true });
		}
	}

	function kick(): void {
		running ??= (async () => {
			for (let job = queue.shift(); job; job = queue.shift()) {
				current = job;
				try {
					await runJob(job);
				} catch (error) {
					// The database itself failed; the publish times out and says so.
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
		const running = current;
		if (
			job.publishId === null ||
			running?.publishId == null ||
			running.publishId >= job.publishId
		) {
			return;
		}
		if ((await tenantOf(job.publishId)) !== options.tenant.id) return;
		if (current !== running) return;
		running.supersededBy = job.publishId;
		running.cancel.abort();
		log(`publish ${running.publishId}: cancelled, publish ${job.publishId} supersedes it`);
	}

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
				const job: Job = {
					publishId: publishFromTitle(title)?.id ?? null,
					title,
					cancel: new AbortController(),
				};
				queue.push(job);
				kick();
				void supersede(job).catch((error: unknown) =>
					console.error('[publish] cancelling the superseded build failed:', error),
				);
				return new Response(null, { status: 200 });
			},
		},
		attach(target) {
			server = target;
		},
		async idle() {
			while (running) await running;
		},
		async close() {
			queue.splice(0);
			stop.abort();
			while (running) await running;
		},
	};
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
