import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Context } from '@netlify/functions';
import { Cron } from 'croner';
import type { ServerRoute } from './server.ts';

/**
 * `npm start`'s stand-in for Netlify's scheduled functions: every function in
 * netlify/functions whose `config.schedule` is set (a cron expression or @hourly, @daily …, in
 * UTC as on Netlify) runs on that schedule, with the request Netlify sends (a POST whose body
 * holds `next_run`). A run that is still going when the next one is due makes that one wait its
 * turn (skipped, as Netlify does not overlap them either). New scheduled functions need nothing
 * here: they are found by their config.
 */

type Handler = (req: Request, context: Context) => Response | Promise<Response>;

export interface ScheduledFunction {
	name: string;
	schedule: string;
	handler: Handler;
}

/** The scheduled functions of a folder, by file name, each with its schedule checked. */
export async function loadScheduledFunctions(dir: string): Promise<ScheduledFunction[]> {
	const files = (await readdir(dir).catch(() => [] as string[]))
		.filter((f) => /\.(m?ts|m?js)$/.test(f) && !/\.test\./.test(f))
		.sort();
	const found: ScheduledFunction[] = [];
	for (const file of files) {
		const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
			default?: Handler;
			config?: Config;
		};
		const schedule = (mod.config as { schedule?: unknown } | undefined)?.schedule;
		if (typeof schedule !== 'string' || !mod.default) continue;
		const name = file.replace(/\.[^.]+$/, '');
		try {
			new Cron(schedule, { paused: true, timezone: 'Etc/UTC', mode: '5-part' }).stop();
		} catch (error) {
			throw new Error(
				`netlify/functions/${file}: config.schedule "${schedule}" is not a cron expression Netlify takes (${(error as Error).message})`,
				{ cause: error },
			);
		}
		found.push({ name, schedule, handler: mod.default });
	}
	return found;
}

export interface Scheduler {
	/** Each function with its schedule and next run. */
	jobs(): { name: string; schedule: string; nextRun: Date | null }[];
	/** Runs one now, as its schedule would (waits for a run under way first). */
	run(name: string): Promise<Response>;
	stop(): void;
}

function context(name: string): Context {
	return {
		account: { id: 'local' },
		deploy: { context: 'dev', id: 'local', published: false },
		site: { id: 'local', name: 'chamber', url: 'http://localhost' },
		requestId: `scheduled-${name}-${Date.now().toString(36)}`,
		waitUntil: (promise: Promise<unknown>) => void promise.catch(console.error),
	} as unknown as Context;
}

export function startScheduler(
	functions: readonly ScheduledFunction[],
	options: {
		log?: (line: string) => void;
		/** Cron mode; '6-part' lets tests schedule by the second (Netlify's are 5-part). */
		mode?: '5-part' | '6-part';
		/**
		 * 'on-request': no run by the clock, only by run() (a POST to the function's URL), so what
		 * a test sees never depends on the minute it runs at.
		 */
		runs?: 'on-schedule' | 'on-request';
	} = {},
): Scheduler {
	const log = options.log ?? ((line: string) => console.log(`[scheduled] ${line}`));
	const running = new Map<string, Promise<Response>>();

	async function invoke(fn: ScheduledFunction, job: Cron | undefined): Promise<Response> {
		const began = Date.now();
		const body = JSON.stringify({ next_run: job?.nextRun()?.toISOString() ?? null });
		const req = new Request(`http://localhost/.netlify/functions/${fn.name}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'user-agent': 'Netlify Clockwork' },
			body,
		});
		try {
			const response = await fn.handler(req, context(fn.name));
			log(`${fn.name}: ${response.status} in ${Date.now() - began} ms`);
			return response;
		} catch (error) {
			log(`${fn.name}: failed after ${Date.now() - began} ms: ${(error as Error).message}`);
			return new Response(null, { status: 500 });
		}
	}

	function once(fn: ScheduledFunction, job: Cron | undefined): Promise<Response> {
		const current = running.get(fn.name);
		const next = (current ?? Promise.resolve()).then(() => invoke(fn, job));
		running.set(fn.name, next);
		void next.finally(() => {
			if (running.get(fn.name) === next) running.delete(fn.name);
		});
		return next;
	}

	const jobs = functions.map((fn) => {
		const job: Cron = new Cron(
			fn.schedule,
			{
				timezone: 'Etc/UTC',
				mode: options.mode ?? '5-part',
				unref: true,
				paused: options.runs === 'on-request',
			},
			() => {
				if (running.has(fn.name)) {
					log(`${fn.name}: the last run is still going, this one is skipped`);
					return;
				}
				void once(fn, job);
			},
		);
		return { fn, job };
	});

	return {
		jobs: () =>
			jobs.map(({ fn, job }) => ({
				name: fn.name,
				schedule: fn.schedule,
				nextRun: job.isRunning() ? job.nextRun() : null,
			})),
		run(name) {
			const entry = jobs.find((j) => j.fn.name === name);
			if (!entry) return Promise.reject(new Error(`No scheduled function ${name}`));
			return once(entry.fn, entry.job);
		},
		stop() {
			for (const { job } of jobs) job.stop();
		},
	};
}

/**
 * POST /.netlify/functions/{name}: runs a scheduled function now, as `netlify dev` offers (on
 * Netlify itself a scheduled function has no URL). The local server listens on loopback only.
 */
export function scheduledRoute(scheduler: Scheduler, name: string): ServerRoute {
	return {
		method: 'POST',
		path: `/.netlify/functions/${name}`,
		handler: () => scheduler.run(name),
	};
}
