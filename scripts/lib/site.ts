import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SupabaseClient } from '../../src/lib/database.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import {
	getTenantBySlug,
	importTenant,
	listTenants,
} from '../../src/features/tenants/tenants.server.ts';
import {
	getServiceClient,
	readClientEnv,
	LONG_CALL_TIMEOUT_MS,
} from '../../src/lib/supabase.server.ts';
import { generateTenant } from '../../tenants/demo/generate.ts';
import type { Stack } from '../stack/index.ts';
import type { SiteBuilder } from '../local-netlify/publisher.ts';
import { withBuildLock } from '../local-netlify/build-lock.ts';
import { FINGERPRINT_ENV, TRACE_CACHE_ENV } from '../local-netlify/trace-reuse.ts';

export const ROOT = join(import.meta.dirname, '../..');

function serviceClient(stack: Stack) {
	return getServiceClient(
		readClientEnv({
			...process.env,
			...stack.env,
			SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
		}),
	);
}

/** The demo is seeded into the embedded database, and into another only with SEED_DEMO=1. */
export function shouldSeedDemo(mode: Stack['mode'], env: NodeJS.ProcessEnv): boolean {
	return mode === 'embedded' || env.SEED_DEMO === '1';
}

/** The files the demo seed imports: the demo chamber (its dates are today's) and riverside. */
export async function seedFiles(): Promise<{ demo: unknown; riverside: unknown }> {
	return {
		demo: generateTenant({}),
		riverside: JSON.parse(await readFile(join(ROOT, 'tenants/riverside.json'), 'utf8')),
	};
}

/**
 * On an empty embedded database (or any empty database when SEED_DEMO=1): the demo chamber and
 * the small riverside chamber. The demo's accounts have a published password and a super_admin,
 * so a real database (DATABASE_URL, a hosted project) gets them only when asked.
 */
export async function seedIfEmpty(
	stack: Stack,
	files?: { demo: unknown; riverside: unknown },
): Promise<boolean> {
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
	const { demo, riverside } = files ?? (await seedFiles());
	await importTenant(client, parseTenantFile(demo, 'tenants/demo/generate.ts'), {
		// The demo's super@demo.test shows what a super_admin sees.
		allowSuperAdmin: true,
	});
	await importTenant(client, parseTenantFile(riverside, 'tenants/riverside.json'));
	await stack.vacuum();
	console.log(`Imported in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return true;
}

/**
 * The demo's accounts that this database has (the demo's password is public), for the start-up
 * message: a database where the demo was imported without --allow-super-admin has no super@.
 */
export async function demoAccounts(client: SupabaseClient): Promise<string[]> {
	const { data, error } = await client
		.from('admin_users')
		.select('email')
		.like('email', '%@demo.test')
		.order('email');
	if (error) throw new Error(`Failed to read the admin users: ${error.message}`, { cause: error });
	return data.map((row) => row.email as string);
}

/** Fails early, naming the tenants that exist, when TENANT is not one of them. */
export async function checkTenant(stack: Stack, slug: string): Promise<void> {
	await getTenantBySlug(serviceClient(stack), slug);
}

/**
 * `astro build` for one tenant, reading the database through the given stack; `outDir` builds
 * somewhere else than dist/. With `quiet` the build's output is kept to itself, and a failure
 * names the build's own error line. Builds of one checkout take turns (scripts/local-netlify/build-lock.ts);
 * `collect` runs before the next may start, to take what the build left in `.netlify/`.
 */
export async function buildSite(
	stack: Pick<Stack, 'env'>,
	tenant: string,
	options: {
		outDir?: string;
		quiet?: boolean;
		signal?: AbortSignal;
		collect?: () => Promise<void>;
	} = {},
): Promise<void> {
	await withBuildLock(
		ROOT,
		async () => {
			await runAstroBuild(stack, tenant, options);
			await options.collect?.();
		},
		options.signal,
	);
}

async function runAstroBuild(
	stack: Pick<Stack, 'env'>,
	tenant: string,
	options: { outDir?: string; quiet?: boolean; signal?: AbortSignal },
): Promise<void> {
	const astro = join(ROOT, 'node_modules/astro/bin/astro.mjs');
	const args = [astro, 'build', ...(options.outDir ? ['--outDir', options.outDir] : [])];
	const child = spawn(process.execPath, args, {
		cwd: ROOT,
		stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
		env: {
			ASTRO_TELEMETRY_DISABLED: '1',
			...process.env,
			...stack.env,
			TENANT: tenant,
			// The build reads whole chambers, a thousand businesses a call.
			SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
		},
		signal: options.signal,
	});
	// An aborted build ends with its child; 'error' would otherwise be thrown unhandled.
	child.on('error', () => {});
	const tail: string[] = [];
	const keep = (chunk: Buffer) => {
		for (const line of chunk.toString('utf8').split('\n')) {
			// eslint-disable-next-line no-control-regex -- terminal colours
			const plain = line.replace(/\u001b\[[0-9;]*m/g, '').trim();
			if (plain) tail.push(plain);
		}
		tail.splice(0, Math.max(0, tail.length - 40));
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	if (code === 0) return;
	if (options.signal?.aborted) throw new Error('The build was stopped');
	throw Object.assign(new Error(`The site could not be built${buildFailureReason(tail, code)}`), {
		output: tail,
	});
}

/**
 * What staff read in the panel when a build fails: the configuration problem when that is the
 * cause (the lines after 'Invalid chamber configuration'), else the build's last error line,
 * never a stack frame.
 */
export function buildFailureReason(tail: readonly string[], code: number | null): string {
	const config = tail.findLastIndex((line) => line.includes('Invalid chamber configuration'));
	if (config >= 0) {
		const problems = tail
			.slice(config + 1)
			.filter((line) => /^- \S+: /.test(line))
			.slice(0, 3)
			.map((line) => line.slice(2));
		const head = tail[config]!.replace(/^.*?(Invalid chamber configuration[^:]*):?.*$/, '$1');
		return `: ${[head, ...problems].join('; ').slice(0, 300)}`;
	}
	const reason = tail.findLast((line) => /error/i.test(line) && !/^at /.test(line));
	return reason ? `: ${reason.slice(0, 300)}` : ` (astro build exit code ${code})`;
}

/**
 * The local publisher's builder: `astro build` into the build's own folder, and the SSR function
 * the adapter wrote (always to .netlify/v1/functions/ssr) moved beside it. Node's compile cache
 * (kept in the data folder) spares each build compiling Astro, Vite and Rollup again; with
 * `traceCacheDir`, the adapter's trace of the function's files is reused while the code is the
 * same (scripts/local-netlify/trace-reuse.ts), the code's fingerprint taken again for each build.
 */
export function astroSiteBuilder(
	stack: Pick<Stack, 'env'>,
	tenant: string,
	caches: { compileCacheDir?: string; traceCacheDir?: string } = {},
): SiteBuilder {
	return async (outDir, signal) => {
		const distDir = join(outDir, 'dist');
		const env: Record<string, string> = { ...stack.env };
		if (caches.compileCacheDir) env.NODE_COMPILE_CACHE = caches.compileCacheDir;
		if (caches.traceCacheDir) {
			const preload = pathToFileURL(
				join(ROOT, 'scripts/local-netlify/trace-reuse-preload.ts'),
			).href;
			env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--import=${preload}`]
				.filter(Boolean)
				.join(' ');
			env[TRACE_CACHE_ENV] = caches.traceCacheDir;
			env[FINGERPRINT_ENV] = await codeFingerprint();
		}
		const ssrDir = join(outDir, 'ssr');
		const built = join(ROOT, '.netlify/v1/functions/ssr');
		let ssr = false;
		await buildSite({ env }, tenant, {
			outDir: distDir,
			quiet: true,
			signal,
			collect: async () => {
				if (!(await stat(built).catch(() => null))) return;
				// A move, not a 46 MB copy; the next build writes a new one.
				await rename(built, ssrDir).catch(async (error: NodeJS.ErrnoException) => {
					if (error.code !== 'EXDEV') throw error;
					await cp(built, ssrDir, { recursive: true });
				});
				ssr = true;
			},
		});
		return ssr ? { distDir, ssrDir } : { distDir };
	};
}

/** What a build is made from besides the database: the site's code, its files and packages. */
const CODE_PATHS = [
	'src',
	'public',
	'netlify',
	'astro.config.mjs',
	'package-lock.json',
	'tsconfig.json',
];

/**
 * A fingerprint of the code the site is built from (each file's path, size and change time):
 * a kept build whose fingerprint differs was built from other code. Cheap enough for every start.
 */
export async function codeFingerprint(root: string = ROOT): Promise<string> {
	const hash = createHash('sha256');
	async function add(path: string): Promise<void> {
		const info = await stat(join(root, path)).catch(() => null);
		if (!info) return;
		if (info.isDirectory()) {
			for (const name of (await readdir(join(root, path))).sort()) await add(join(path, name));
			return;
		}
		hash.update(`${path}\0${info.size}\0${info.mtimeMs}\n`);
	}
	for (const path of CODE_PATHS) await add(path);
	return hash.digest('hex').slice(0, 16);
}
