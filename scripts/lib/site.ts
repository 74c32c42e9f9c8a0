import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import {
	getTenantBySlug,
	importTenant,
	listTenants,
} from '../../src/features/tenants/tenants.server.ts';
import { getServiceClient, readClientEnv } from '../../src/lib/supabase.server.ts';
import { generateTenant } from '../../tenants/demo/generate.ts';
import type { Stack } from '../stack/index.ts';

export const ROOT = join(import.meta.dirname, '../..');

function serviceClient(stack: Stack) {
	return getServiceClient(readClientEnv({ ...process.env, ...stack.env }));
}

/** The demo is seeded into the embedded database, and into another only with SEED_DEMO=1. */
export function shouldSeedDemo(mode: Stack['mode'], env: NodeJS.ProcessEnv): boolean {
	return mode === 'embedded' || env.SEED_DEMO === '1';
}

/**
 * On an empty embedded database (or any empty database when SEED_DEMO=1): the demo chamber and
 * the small riverside chamber. The demo's accounts have a published password and a super_admin,
 * so a real database (DATABASE_URL, a hosted project) gets them only when asked.
 */
export async function seedIfEmpty(stack: Stack): Promise<boolean> {
	const client = serviceClient(stack);
	if ((await listTenants(client)).length > 0) return false;
	if (!shouldSeedDemo(stack.mode, process.env)) {
		console.log(
			'Empty database: nothing imported (the demo chamber and its demo accounts are seeded only ' +
				'into the embedded database, or with SEED_DEMO=1). Import a chamber with ' +
				'`npm run tenant:import -- FILE.json`.',
		);
		return false;
	}
	console.log(
		'Empty database: importing the demo chamber (tenants/demo) and tenants/riverside.json…',
	);
	const started = Date.now();
	await importTenant(client, parseTenantFile(generateTenant({}), 'tenants/demo/generate.ts'), {
		// The demo's super@demo.test shows what a super_admin sees.
		allowSuperAdmin: true,
	});
	const riverside = JSON.parse(await readFile(join(ROOT, 'tenants/riverside.json'), 'utf8'));
	await importTenant(client, parseTenantFile(riverside, 'tenants/riverside.json'));
	await stack.vacuum();
	console.log(`Imported in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return true;
}

/** Fails early, naming the tenants that exist, when TENANT is not one of them. */
export async function checkTenant(stack: Stack, slug: string): Promise<void> {
	await getTenantBySlug(serviceClient(stack), slug);
}

/** `astro build` for one tenant, reading the database through the given stack. */
export async function buildSite(stack: Stack, tenant: string): Promise<void> {
	const astro = join(ROOT, 'node_modules/astro/bin/astro.mjs');
	const child = spawn(process.execPath, [astro, 'build'], {
		cwd: ROOT,
		stdio: 'inherit',
		env: { ASTRO_TELEMETRY_DISABLED: '1', ...process.env, ...stack.env, TENANT: tenant },
	});
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	if (code !== 0) throw new Error(`astro build failed (exit code ${code})`);
}
