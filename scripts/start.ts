/**
 * npm start: the whole product on one machine. Starts (or reuses) the data stack, imports the
 * demo on an empty database, builds the site for TENANT and serves it with the functions. Saves
 * in the admin panel publish as on Netlify: the functions call this server's own build hook, which
 * rebuilds the site into a fresh folder and swaps it in when the build succeeded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getTenantBySlug } from '../src/features/tenants/tenants.server.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { createLocalPublisher } from './lib/local-publisher.ts';
import { startSiteServer } from './lib/netlify-local.ts';
import { onShutdown, runMain } from './lib/main.ts';
import { loadScheduledFunctions, scheduledRoute, startScheduler } from './lib/scheduled.ts';
import {
	astroSiteBuilder,
	buildSite,
	checkTenant,
	demoAccounts,
	ROOT,
	seedIfEmpty,
} from './lib/site.ts';
import { ensureStack } from './stack/index.ts';

runMain(
	async () => {
		const tenant = process.env.TENANT || 'demo';
		const port = Number(process.env.PORT || 8888);
		const stack = await ensureStack();
		onShutdown(() => stack.stop());
		Object.assign(process.env, stack.env, { TENANT: tenant });
		await seedIfEmpty(stack);
		await checkTenant(stack, tenant);
		if (!process.env.SKIP_BUILD) await buildSite(stack, tenant);

		const service = getServiceClient(readClientEnv());
		// Outside the project, so each build's SSR function finds only the files it bundled.
		const buildsDir = await mkdtemp(join(tmpdir(), `chamber-builds-${tenant}-`));
		onShutdown(() => rm(buildsDir, { recursive: true, force: true }));
		const publisher = createLocalPublisher({
			tenant: await getTenantBySlug(service, tenant),
			service,
			buildsDir,
			build: astroSiteBuilder(
				stack,
				tenant,
				resolve(process.env.CHAMBER_DATA_DIR || '.data', 'node-compile-cache'),
			),
		});
		const functionsDir = join(ROOT, 'netlify/functions');
		const scheduled = await loadScheduledFunctions(functionsDir);
		const scheduler = startScheduler(scheduled);
		onShutdown(async () => scheduler.stop());
		const server = await startSiteServer({
			distDir: process.env.ASTRO_OUT_DIR ? resolve(process.env.ASTRO_OUT_DIR) : join(ROOT, 'dist'),
			functionsDir,
			ssrDir: join(ROOT, '.netlify/v1/functions/ssr'),
			port,
			// As `netlify dev`: POST /.netlify/functions/{name} runs a scheduled function now.
			routes: [publisher.route, ...scheduled.map((fn) => scheduledRoute(scheduler, fn.name))],
		});
		publisher.attach(server);
		onShutdown(() => server.close());
		onShutdown(() => publisher.close());
		// The functions publish through this server's build hook, as through Netlify's.
		process.env.NETLIFY_BUILD_HOOK_URL = `http://127.0.0.1:${port}${publisher.hookPath}`;
		console.log(`\n  ${tenant} is running at ${server.url}`);
		const demo = await demoAccounts(service);
		if (demo.length > 0) {
			console.log(`  Demo sign-in (password demo-password): ${demo.join(', ')}`);
		}
		console.log(
			'  Saves in the admin panel rebuild and publish the site (a build takes a few seconds).',
		);
		for (const job of scheduler.jobs()) {
			console.log(
				`  Scheduled: ${job.name} (${job.schedule} UTC), next at ${job.nextRun?.toISOString() ?? 'never'}`,
			);
		}
		console.log('  Press Ctrl-C to stop.\n');
	},
	{ keepAlive: true },
);
