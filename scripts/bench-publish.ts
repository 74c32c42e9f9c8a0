/**
 * npm run bench:publish -- [--businesses N] [--url http://localhost:8888] [--runs 3]
 * Save-to-live time: signs in as the chamber's admin, changes the hero title through the same path
 * a save of the panel takes, and polls the public home page until it shows the new title. Prints
 * each run, the phases the publish went through, the build's wall-clock and CPU time (a loaded
 * machine shows as wall time far above CPU time), the median and the load average; puts the title
 * back at the end. A benchmark, not a test: it prints.
 *
 * Without --businesses it measures the running `npm start` (start it first; PORT and CHAMBER_*
 * as for it). With --businesses N it makes the chamber `bench-N` of that size the first time (as
 * bench:build does; not timed), starts `npm start` for it on PORT (default 8888) and stops it at
 * the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { escapeHTML } from 'astro/runtime/server/escape.js';
import type { PublishView } from '../src/features/publish/publish.ts';
import { getUserClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { ensureBenchTenant } from './bench/tenant.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { ROOT } from './lib/site.ts';
import { withStack, type Stack } from './stack/index.ts';

/** From 'Save Changes' to the public home page showing the change, by chamber size. */
function targetSeconds(businesses: number): number {
	if (businesses <= 300) return 15;
	if (businesses <= 3000) return 20;
	return 45;
}
const GIVE_UP_SECONDS = 300;

/** A build the local publisher reported: wall-clock and CPU seconds. */
interface BuildTimes {
	wall: number;
	cpu: number | null;
}

const BUILD_LINE =
	/\[publish\] publish (\d+)(?: \(.*\))?: live after [\d.]+ s \(the build took ([\d.]+) s(?:, ([\d.]+) s of CPU)?\)$/;

/**
 * `npm start` for `tenant` as a child process: resolves with its address once it serves, and
 * collects the builds its publisher reports.
 */
async function startServer(
	env: NodeJS.ProcessEnv,
	builds: Map<number, BuildTimes>,
): Promise<{ url: string; child: ChildProcess }> {
	const child = spawn(process.execPath, ['scripts/start.ts'], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const url = await new Promise<string>((resolveUrl, reject) => {
		const read = (stream: NodeJS.ReadableStream) =>
			createInterface({ input: stream }).on('line', (line) => {
				const ready = /is running at (\S+)/.exec(line);
				if (ready) resolveUrl(ready[1]!);
				const build = BUILD_LINE.exec(line);
				if (build) {
					builds.set(Number(build[1]), {
						wall: Number(build[2]),
						cpu: build[3] === undefined ? null : Number(build[3]),
					});
				}
				if (/failed|^\s*Error\b|\[error /.test(line)) console.error(`  [npm start] ${line}`);
			});
		read(child.stdout!);
		read(child.stderr!);
		child.on('exit', (code) => reject(new Error(`npm start exited with ${code} before serving`)));
	});
	return { url, child };
}

interface Session {
	token: string;
	tenantId: string;
}

async function json(response: Response): Promise<Record<string, unknown>> {
	const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
	if (!response.ok)
		throw new Error(`${response.url}: ${response.status} ${String(body.error ?? '')}`);
	return body;
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: `http://localhost:${process.env.PORT || 8888}` },
			runs: { type: 'string', default: '3' },
			businesses: { type: 'string' },
			email: { type: 'string' },
			password: { type: 'string', default: 'demo-password' },
		},
	});
	const runs = wholeNumber('runs', values.runs);
	const size =
		values.businesses === undefined ? null : wholeNumber('businesses', values.businesses);
	const builds = new Map<number, BuildTimes>();
	const loadAtStart = loadavg()[0]!.toFixed(1);

	await withStack(async (stack) => {
		let site = values.url.replace(/\/$/, '');
		let server: ChildProcess | null = null;
		let email = values.email ?? 'admin@demo.test';
		if (size !== null) {
			const slug = await ensureBenchTenant(stack, size);
			email = values.email ?? `admin@${slug}.test`;
			console.log(`Starting npm start for ${slug} (its first build is not timed)…`);
			const started = await startServer(
				{ ...process.env, ...stack.env, TENANT: slug, PORT: process.env.PORT || '8888' },
				builds,
			);
			server = started.child;
			site = started.url.replace('localhost', '127.0.0.1').replace(/\/$/, '');
		} else {
			await fetch(site).catch(() => {
				throw new Error(`Nothing answers at ${site}: start the site first (npm start)`);
			});
		}
		try {
			await measureSite(stack, site, email);
		} finally {
			if (server) {
				const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
				server.kill('SIGTERM');
				await exited;
			}
		}
	});

	async function measureSite(stack: Stack, site: string, email: string) {
		const env = readClientEnv({ ...process.env, ...stack.env });
		const login = await json(
			await fetch(`${site}/api/auth/supabase-login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ email, password: values.password }),
			}),
		);
		const session: Session = {
			token: (login.session as { access_token: string }).access_token,
			tenantId: (login.user as { tenantId: string }).tenantId,
		};
		const client = getUserClient(session.token, env);
		const tenantKey = (login.user as { tenantKey: string }).tenantKey;

		async function readContent(): Promise<Record<string, unknown>> {
			return (await readConfig()).content;
		}

		/** The content section and its version (a save states the version it was made from). */
		async function readConfig() {
			const { data, error } = await client
				.from('chamber_config')
				.select('content, config_versions')
				.eq('tenant_id', session.tenantId)
				.single<{ content: Record<string, unknown>; config_versions: { content?: number } }>();
			if (error) throw new Error(`Reading the configuration failed: ${error.message}`);
			return data;
		}

		/**
		 * A save as the panel makes it: POST /api/update-config (which writes with the user's token
		 * and requests the publish). Where that function is not there yet, its two steps: the write
		 * with the user's token, then POST /api/publish.
		 */
		async function save(title: string): Promise<'update-config' | 'write + publish'> {
			const response = await fetch(`${site}/api/update-config`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
				body: JSON.stringify({
					chamber: tenantKey,
					section: 'content',
					field: 'heroTitle',
					value: title,
					version: (await readConfig()).config_versions.content ?? 0,
				}),
			});
			if (response.status !== 404) {
				await json(response);
				return 'update-config';
			}
			await response.body?.cancel();
			const content = await readContent();
			const { error } = await client
				.from('chamber_config')
				.update({ content: { ...content, heroTitle: title } })
				.eq('tenant_id', session.tenantId);
			if (error) throw new Error(`Saving failed: ${error.message}`);
			await json(
				await fetch(`${site}/api/publish`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
					body: JSON.stringify({ reason: 'Content saved' }),
				}),
			);
			return 'write + publish';
		}

		async function latestPublish(): Promise<PublishView | undefined> {
			const body = await json(
				await fetch(`${site}/api/publish-status?limit=1`, {
					headers: { authorization: `Bearer ${session.token}` },
				}),
			);
			return (body.publishes as PublishView[])[0];
		}

		/** Saves `title` and waits for the home page to show it; seconds and the phases seen. */
		async function measure(title: string) {
			const started = performance.now();
			const path = await save(title);
			const phases: string[] = [];
			const expected = String(escapeHTML(title));
			for (;;) {
				const elapsed = (performance.now() - started) / 1000;
				if (elapsed > GIVE_UP_SECONDS) throw new Error(`Not live after ${GIVE_UP_SECONDS} s`);
				const [home, publish] = await Promise.all([
					fetch(`${site}/`, { headers: { 'cache-control': 'no-cache' } }).then((r) => r.text()),
					latestPublish(),
				]);
				const phase = `${publish?.state ?? 'none'} ${elapsed.toFixed(1)} s`;
				if (publish && !phases.some((p) => p.startsWith(`${publish.state} `))) phases.push(phase);
				if (publish?.state === 'failed') throw new Error(`Publish failed: ${publish.error}`);
				if (home.includes(expected))
					return { seconds: elapsed, phases, path, publishId: publish?.id };
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}

		/** The build's times, once the publisher has reported them (a moment after the swap). */
		async function buildOf(publishId: number | undefined): Promise<string> {
			if (publishId === undefined || size === null) return '';
			for (let i = 0; i < 40 && !builds.has(publishId); i++) {
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			const build = builds.get(publishId);
			if (!build) return '';
			return `; the build ${build.wall.toFixed(1)} s wall, ${build.cpu === null ? 'n/a' : `${build.cpu.toFixed(1)} s`} CPU`;
		}

		const original = String((await readContent()).heroTitle ?? '');
		const results: number[] = [];
		const total = Number(
			(await json(await fetch(`${site}/api/businesses?pageSize=1`))).total ?? size ?? 300,
		);
		try {
			for (let run = 1; run <= runs; run++) {
				const title = `Shop local, run ${run} at ${new Date().toISOString().slice(11, 19)}`;
				const { seconds, phases, path, publishId } = await measure(title);
				results.push(seconds);
				console.log(
					`run ${run}: live after ${seconds.toFixed(1)} s (${path}; ${phases.join(' → ')}${await buildOf(publishId)})`,
				);
			}
		} finally {
			console.log('Putting the hero title back…');
			await measure(original || 'Discover local businesses').catch((error: unknown) =>
				console.error(`Could not put the title back: ${String(error)}`),
			);
		}
		const sorted = [...results].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
		const target = targetSeconds(total);
		console.log(
			`\nSave to live on ${tenantKey} (${total} businesses): median ${median.toFixed(1)} s, min ${sorted[0]?.toFixed(1)} s, ` +
				`max ${sorted.at(-1)?.toFixed(1)} s over ${results.length} run(s); target ≤ ${target} s: ` +
				(median <= target ? 'met' : 'NOT met'),
		);
		console.log(
			`Load average: ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end (1 minute).`,
		);
	}
});
