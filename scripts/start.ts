/**
 * npm start: the whole product on one machine. Starts (or reuses) the data stack, imports the
 * demo on an empty database, serves the last published build of TENANT (or builds one) with the
 * functions, and runs the scheduled functions. Saves in the admin panel publish as on Netlify:
 * the functions call this server's own build hook, which rebuilds the site into a fresh folder
 * and swaps it in when the build succeeded.
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { getTenantBySlug } from '../src/features/tenants/tenants.server.ts';
import { optionalEnv } from '../src/lib/env.server.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import {
	createLocalPublisher,
	type LocalBuild,
	type LocalPublisher,
	type Recovery,
} from './local-netlify/publisher.ts';
import { removeOrphanedCopies, startSiteServer } from './local-netlify/server.ts';
import { onShutdown, runMain } from './lib/main.ts';
import {
	loadScheduledFunctions,
	scheduledRoute,
	startScheduler,
} from './local-netlify/scheduler.ts';
import { astroSiteBuilder, checkTenant, codeFingerprint, demoAccounts, ROOT } from './lib/site.ts';
import { ensureSeededStack } from './lib/seeded-stack.ts';
import type { Stack } from './stack/index.ts';

runMain(
	async () => {
		const tenant = process.env.TENANT || 'demo';
		const port = Number(process.env.PORT || 8888);
		const stacks: Stack[] = [];
		onShutdown(async () => {
			for (const started of stacks) await started.stop();
		});
		const stack = await ensureSeededStack((started) => stacks.push(started));
		Object.assign(process.env, stack.env, { TENANT: tenant });
		await checkTenant(stack, tenant);

		const service = getServiceClient(readClientEnv());
		const dataDir = resolve(process.env.CHAMBER_DATA_DIR || '.data');
		await removeOrphanedCopies();
		const fingerprint = await codeFingerprint();
		const publisher = createLocalPublisher({
			tenant: await getTenantBySlug(service, tenant),
			service,
			buildsDir: join(dataDir, 'builds', tenant),
			build: astroSiteBuilder(stack, tenant, {
				compileCacheDir: join(dataDir, 'node-compile-cache'),
				traceCacheDir: join(dataDir, 'function-traces', tenant),
			}),
			fingerprint,
		});
		const recovery = await publisher.recover();
		const initial = await firstBuild(publisher, recovery, fingerprint);
		const functionsDir = join(ROOT, 'netlify/functions');
		const scheduled = await loadScheduledFunctions(functionsDir);
		const scheduler = startScheduler(scheduled, { runs: scheduledRuns() });
		onShutdown(async () => scheduler.stop());
		const server = await startSiteServer({
			distDir: initial.distDir,
			functionsDir,
			ssrDir: initial.ssrDir,
			port,
			// As `netlify dev`: POST /.netlify/functions/{name} runs a scheduled function now.
			routes: [
				publisher.route,
				publisher.buildsRoute,
				...scheduled.map((fn) => scheduledRoute(scheduler, fn.name)),
			],
		});
		publisher.attach(server);
		onShutdown(() => server.close());
		onShutdown(() => publisher.close());
		// The functions publish through this server's build hook, as through Netlify's.
		process.env.NETLIFY_BUILD_HOOK_URL = `http://127.0.0.1:${port}${publisher.hookPath}`;
		// Which publishes it holds: a publish request fails those whose build is gone.
		process.env.LOCAL_BUILDS_URL = `http://127.0.0.1:${port}${publisher.buildsRoute.path}`;
		console.log(`\n  ${tenant} is running at ${server.url}`);
		const demo = await demoAccounts(service);
		if (demo.length > 0) {
			console.log(`  Demo sign-in (password demo-password): ${demo.join(', ')}`);
		}
		console.log(
			'  Saves in the admin panel rebuild and publish the site (a build takes a few seconds).',
		);
		for (const job of scheduler.jobs()) {
			const next = job.nextRun
				? `next at ${job.nextRun.toISOString()}`
				: `runs when POST /.netlify/functions/${job.name} asks`;
			console.log(`  Scheduled: ${job.name} (${job.schedule} UTC), ${next}`);
		}
		console.log('  Press Ctrl-C to stop.\n');
	},
	{ keepAlive: true },
);

/**
 * What the server serves first: the last build that went live, kept in the data folder — after a
 * crash too, so no change that was never published reaches visitors. A build is made instead when
 * there is none, or when the code changed since and every saved change is published (nothing
 * unpublished would come with it). SKIP_BUILD=1 serves the kept build or dist/ as it is.
 */
async function firstBuild(
	publisher: LocalPublisher,
	recovery: Recovery,
	fingerprint: string,
): Promise<LocalBuild> {
	const kept = recovery.live;
	if (process.env.SKIP_BUILD) {
		return (
			kept ?? {
				distDir: process.env.ASTRO_OUT_DIR
					? resolve(process.env.ASTRO_OUT_DIR)
					: join(ROOT, 'dist'),
				ssrDir: join(ROOT, '.netlify/v1/functions/ssr'),
			}
		);
	}
	const since = kept ? `live since ${kept.record.liveSince}` : '';
	if (kept && kept.record.fingerprint === fingerprint) {
		console.log(`Serving the last published build (${since}).`);
		return kept;
	}
	if (kept && recovery.unpublishedChanges) {
		console.log(
			`Serving the last published build (${since}). The code changed since it was built, but ` +
				'the chamber has saved changes that are not published: publish from the admin panel ' +
				'to build them with the new code.',
		);
		return kept;
	}
	console.log(
		kept
			? 'The code changed since the last published build: building the site…'
			: 'Building the site…',
	);
	return publisher.buildNow(kept ? 'rebuild for changed code' : 'first build');
}

/**
 * SCHEDULED_FUNCTIONS: 'on-schedule' (the default) runs the scheduled functions by the clock, as
 * Netlify does; 'on-request' only when their URL is posted to, as `netlify dev` does (the
 * end-to-end tests' server: what a test sees must not depend on the minute it runs at).
 */
function scheduledRuns(): 'on-schedule' | 'on-request' {
	const runs = optionalEnv(z.enum(['on-schedule', 'on-request'])).safeParse(
		process.env.SCHEDULED_FUNCTIONS,
	);
	if (!runs.success) {
		throw new Error(
			`SCHEDULED_FUNCTIONS is on-schedule or on-request, not "${process.env.SCHEDULED_FUNCTIONS}"`,
		);
	}
	return runs.data ?? 'on-schedule';
}
