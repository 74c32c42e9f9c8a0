// Runs on: PGlite — `npm start` with an embedded stack of its own, killed and started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stack } from './clients.ts';
import { INTERRUPTED } from '../../scripts/local-netlify/publisher.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { freePort } from '../support/db-clients.ts';

// `npm start` killed with kill -9 in the middle of a publish (the build, the database and
// PostgREST with it): started again, it serves the last published site — not a build of the
// change that was being published — says the interrupted publish failed, has left nothing half
// built, and the next 'Publish now' goes live. A real `npm start` with its own embedded stack and
// data folder, on ports next to the suite's.

const ROOT = resolve(import.meta.dirname, '../..');
const DATA_DIR = resolve(ROOT, '.data-test/crash');
let port: number;
let server: { child: ChildProcess; output: string[] } | undefined;

function environment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	// Its own embedded stack, whatever the suite runs on.
	for (const name of Object.keys(env)) {
		if (
			/^(SUPABASE_|DATABASE_URL|POSTGREST_DATABASE_URL|AUTH_DATABASE_URL|STORAGE_DATABASE_URL|SMTP_URL|NETLIFY_|LOCAL_BUILDS_URL)/.test(
				name,
			)
		) {
			delete env[name];
		}
	}
	return {
		...env,
		PORT: String(port),
		TENANT: 'demo',
		CHAMBER_DATA_DIR: DATA_DIR,
		CHAMBER_STACK_PORT: String(Number(stack.stackPort) + 10),
		AUTH_RATE_LIMIT_TOKEN: '100000',
	};
}

/** Starts npm start in its own process group (so kill -9 reaches all of it) and waits for it. */
async function start(): Promise<{ child: ChildProcess; output: string[] }> {
	const child = spawn(process.execPath, ['scripts/start.ts'], {
		cwd: ROOT,
		env: environment(),
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const output: string[] = [];
	const ready = new Promise<void>((resolveReady, reject) => {
		const onData = (chunk: Buffer) => {
			output.push(chunk.toString());
			if (output.join('').includes('is running at')) resolveReady();
		};
		child.stdout!.on('data', onData);
		child.stderr!.on('data', onData);
		child.once('exit', (code) =>
			reject(new Error(`npm start exited (${code}):\n${output.join('').slice(-3000)}`)),
		);
	});
	await ready;
	return { child, output };
}

async function stop(): Promise<void> {
	if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
	const exited = once(server.child, 'exit');
	process.kill(-server.child.pid!, 'SIGTERM');
	await exited;
}

const site = (path: string) => `http://127.0.0.1:${port}${path}`;

async function json(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
	const response = await fetch(site(path), init);
	const body = (await response.json()) as Record<string, unknown>;
	if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
	return body;
}

async function signIn(): Promise<string> {
	const body = await json('/api/auth/supabase-login', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password' }),
	});
	return (body.session as { access_token: string }).access_token;
}

/** The content section's version as the panel loads it, read through PostgREST with the admin's token. */
async function contentVersion(token: string): Promise<number> {
	const { anonKey } = await loadOrCreateKeys(DATA_DIR);
	const gateway = `http://127.0.0.1:${Number(stack.stackPort) + 10}`;
	const response = await fetch(
		`${gateway}/rest/v1/chamber_config?select=config_versions,tenants!inner(slug)&tenants.slug=eq.demo`,
		{
			headers: { apikey: anonKey, authorization: `Bearer ${token}` },
		},
	);
	const rows = (await response.json()) as { config_versions: Record<string, number> }[];
	return rows[0]?.config_versions.content ?? 0;
}

async function newestPublish(
	token: string,
): Promise<{ id: number; state: string; error: string | null }> {
	const body = await json('/api/publish-status?limit=1', {
		headers: { authorization: `Bearer ${token}` },
	});
	return (body.publishes as { id: number; state: string; error: string | null }[])[0]!;
}

const home = async () => (await fetch(site('/'))).text();

afterAll(async () => {
	await stop();
	await rm(DATA_DIR, { recursive: true, force: true });
});

describe('npm start killed during a publish', () => {
	it(
		'serves the last published site after a restart, fails the interrupted publish, and publishes again',
		{ timeout: 600_000 },
		async () => {
			await rm(DATA_DIR, { recursive: true, force: true });
			await mkdir(DATA_DIR, { recursive: true });
			port = await freePort();
			server = await start();
			const published = await home();
			expect(published).toContain('<html');

			let token = await signIn();
			const title = `Never published ${Date.now().toString(36)}`;
			const saved = await fetch(site('/api/update-config'), {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
				body: JSON.stringify({
					chamber: 'demo',
					section: 'content',
					field: 'heroTitle',
					value: title,
					version: await contentVersion(token),
				}),
			});
			expect(saved.status).toBe(200);
			await expect
				.poll(async () => (await newestPublish(token)).state, { timeout: 60_000, interval: 100 })
				.toBe('building');
			const killed = server.child.pid!;
			const exited = once(server.child, 'exit');
			process.kill(-killed, 'SIGKILL');
			await exited;

			server = await start();
			const log = server.output.join('');
			expect(log).toContain('Serving the last published build');
			expect(log).not.toContain('Building the site');
			const after = await home();
			expect(after).not.toContain(title);
			expect(after).toBe(published);
			token = await signIn();
			expect(await newestPublish(token)).toMatchObject({ state: 'failed', error: INTERRUPTED });
			// Nothing of the killed build is left: its folder, or its server's function copy.
			const builds = await readdir(join(DATA_DIR, 'builds', 'demo'), { withFileTypes: true });
			expect(builds.filter((e) => e.isDirectory())).toHaveLength(1);
			expect(
				(await readdir(tmpdir())).filter((n) => n.startsWith(`chamber-ssr-${killed}-`)),
			).toEqual([]);

			const next = await json('/api/publish', {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
				body: '{}',
			});
			expect(next).toMatchObject({ created: true });
			await expect
				.poll(async () => (await newestPublish(token)).state, { timeout: 300_000, interval: 500 })
				.toBe('live');
			expect(await home()).toContain(title);
		},
	);
});
