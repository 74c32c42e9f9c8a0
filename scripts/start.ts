/**
 * npm start: the whole product on one machine. Starts (or reuses) the data stack, imports the
 * demo on an empty database, builds the site for TENANT and serves it with the functions.
 */
import { startSiteServer } from './lib/netlify-local.ts';
import { onShutdown, runMain } from './lib/main.ts';
import { buildSite, checkTenant, ROOT, seedIfEmpty } from './lib/site.ts';
import { ensureStack } from './stack/index.ts';
import { join, resolve } from 'node:path';

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
		const server = await startSiteServer({
			distDir: process.env.ASTRO_OUT_DIR ? resolve(process.env.ASTRO_OUT_DIR) : join(ROOT, 'dist'),
			functionsDir: join(ROOT, 'netlify/functions'),
			ssrDir: join(ROOT, '.netlify/v1/functions/ssr'),
			port,
		});
		onShutdown(() => server.close());
		console.log(`\n  ${tenant} is running at ${server.url}`);
		if (tenant === 'demo') {
			console.log(
				`  Demo sign-in: admin@demo.test / demo-password (also super@ and editor@demo.test)`,
			);
		}
		console.log('  Press Ctrl-C to stop.\n');
	},
	{ keepAlive: true },
);
