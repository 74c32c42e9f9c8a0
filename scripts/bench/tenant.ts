import { spawn } from 'node:child_process';
import { listTenants } from '../../src/features/tenants/lookup.server.ts';
import {
	getServiceClient,
	LONG_CALL_TIMEOUT_MS,
	readClientEnv,
} from '../../src/lib/supabase.server.ts';
import type { Stack } from '../stack/index.ts';
import { ROOT } from '../lib/site.ts';

/**
 * The benchmarks' chambers: `bench-{size}` (or another slug, for a benchmark that changes its
 * data), generated with tenant:demo the first time (not timed) and reused after. Their staff
 * sign in as admin@{slug}.test, password demo-password.
 */
export async function ensureBenchTenant(
	stack: Stack,
	size: number,
	slug = `bench-${size}`,
): Promise<string> {
	const client = getServiceClient(
		readClientEnv({
			...process.env,
			...stack.env,
			SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
		}),
	);
	if ((await listTenants(client)).some((t) => t.slug === slug)) return slug;
	console.log(`Generating ${slug} (${size} businesses)…`);
	await new Promise<void>((resolveRun, reject) => {
		const child = spawn(
			process.execPath,
			['scripts/tenant-demo.ts', '--businesses', String(size), '--slug', slug],
			{ cwd: ROOT, env: { ...process.env, ...stack.env }, stdio: 'inherit' },
		);
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolveRun() : reject(new Error(`tenant:demo exited with ${code}`)),
		);
	});
	return slug;
}
