import { readFile, rm, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
	describeMode,
	readStackEnv,
	type StackEnv,
	type StackMode,
} from '../../src/lib/env.server.ts';
import { readAuthConfig } from './auth/config.ts';
import { createAuthRoutes } from './auth/http.ts';
import { AuthService } from './auth/service.ts';
import { AuthStore } from './auth/store.ts';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './database.ts';
import { createStorageRoutes, StorageService } from './storage/storage.ts';
import { startGateway, type HealthReport } from './gateway.ts';
import { loadOrCreateKeys } from './keys.ts';
import { runMigrations } from './migrate.ts';
import { startPostgrest } from './postgrest.ts';
import { hasDatabase, startFromMigratedTemplate } from './template.ts';

export interface Stack {
	mode: StackMode;
	/** What supabase-js is given as SUPABASE_URL. */
	supabaseUrl: string;
	anonKey: string;
	serviceKey: string;
	/** Direct Postgres URL (embedded and postgres modes); tests use it for RLS checks. */
	databaseUrl?: string;
	/** True when this process started the stack and so must stop it. */
	owned: boolean;
	/** Environment variables that point a child process (astro build, tests) at this stack. */
	env: Record<string, string>;
	/** Makes PostgREST reload its schema cache (after migrations). */
	reloadSchema(): Promise<void>;
	/**
	 * Reclaims the space of replaced rows and refreshes the planner's statistics of every table
	 * after an import or a migration (PGlite runs no autovacuum).
	 */
	vacuum(): Promise<void>;
	stop(): Promise<void>;
}

interface StackState {
	pid: number;
	mode: StackMode;
	supabaseUrl: string;
	databaseUrl?: string;
}

const log = (message: string) => console.log(`[stack] ${message}`);

async function vacuum(databaseUrl: string | undefined): Promise<void> {
	if (!databaseUrl) return;
	const client = new pg.Client({ connectionString: databaseUrl });
	await client.connect();
	try {
		// analyze: the card record's subqueries plan per row only with statistics on every child table.
		await client.query('vacuum analyze');
	} finally {
		await client.end();
	}
}

function childEnv(
	env: StackEnv,
	values: { supabaseUrl: string; anonKey: string; serviceKey: string; databaseUrl?: string },
) {
	return {
		SUPABASE_URL: values.supabaseUrl,
		SUPABASE_ANON_KEY: values.anonKey,
		SUPABASE_SERVICE_ROLE_KEY: values.serviceKey,
		CHAMBER_DATA_DIR: env.dataDir,
		CHAMBER_STACK_PORT: String(env.ports.gateway),
		...(values.databaseUrl ? { CHAMBER_DATABASE_URL: values.databaseUrl } : {}),
	};
}

/**
 * Whether a stack answers at `url`: any answer of its health route counts, also 503 (a database
 * busy with an import is still that stack's, and still owns the folder).
 */
async function answers(url: string): Promise<boolean> {
	const res = await fetch(`${url}/_stack/health`, { signal: AbortSignal.timeout(5000) }).catch(
		() => null,
	);
	if (!res) return false;
	const body = (await res.json().catch(() => null)) as { pid?: unknown } | null;
	return typeof body?.pid === 'number';
}

/** Whether the database answers `select 1` within the time, and how fast. */
async function probeDatabase(
	databaseUrl: string,
	timeoutMs: number,
): Promise<{ ok: boolean; ms?: number; error?: string }> {
	const began = Date.now();
	const client = new pg.Client({
		connectionString: databaseUrl,
		connectionTimeoutMillis: timeoutMs,
		query_timeout: timeoutMs,
	});
	client.on('error', () => {});
	try {
		await client.connect();
		await client.query('select 1');
		return { ok: true, ms: Date.now() - began };
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	} finally {
		void client.end().catch(() => {});
	}
}

/** The stack another process runs for this data folder, if it answers. */
async function findRunning(env: StackEnv): Promise<StackState | null> {
	const file = join(env.dataDir, 'stack.json');
	const state = await readFile(file, 'utf8')
		.then((s) => JSON.parse(s) as StackState)
		.catch(() => null);
	if (!state || state.pid === process.pid) return null;
	return (await answers(state.supabaseUrl)) ? state : null;
}

/**
 * Uses the stack that is already running for this data folder, or starts one for as long as
 * the caller needs it. Every command (build, import, migrate, tests) goes through here, so only
 * one process ever opens the PGlite folder.
 */
export async function ensureStack(options: { quiet?: boolean } = {}): Promise<Stack> {
	const env = readStackEnv();
	const say = options.quiet ? () => {} : log;

	if (env.mode === 'hosted' && env.hosted) {
		say(`mode: ${describeMode(env)} (no local stack)`);
		const { url, anonKey, serviceKey } = env.hosted;
		return {
			mode: 'hosted',
			supabaseUrl: url,
			anonKey,
			serviceKey,
			owned: false,
			env: childEnv(env, { supabaseUrl: url, anonKey, serviceKey }),
			reloadSchema: async () => {},
			// The hosted project's autovacuum does this.
			vacuum: async () => {},
			stop: async () => {},
		};
	}

	const dataDir = resolve(env.dataDir);
	const keys = await loadOrCreateKeys(dataDir);
	const running = await findRunning(env);
	if (running) {
		say(`using the running stack (pid ${running.pid}): ${describeMode(env)}`);
		const values = { ...keys, supabaseUrl: running.supabaseUrl, databaseUrl: running.databaseUrl };
		return {
			mode: running.mode,
			...values,
			owned: false,
			env: childEnv(env, values),
			async reloadSchema() {
				const res = await fetch(`${running.supabaseUrl}/_stack/reload`, {
					method: 'POST',
					headers: { Authorization: `Bearer ${keys.serviceKey}` },
				});
				if (!res.ok) throw new Error(`Schema reload failed: ${await res.text()}`);
			},
			vacuum: () => vacuum(running.databaseUrl),
			stop: async () => {},
		};
	}

	say(`starting: ${describeMode(env)}`);
	const started = Date.now();
	const stops: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
		stops.length = 0;
	};
	try {
		let databaseUrl: string;
		let embedded: EmbeddedDatabase | undefined;
		// Set once PostgREST runs: after the database restarts it reconnects at once.
		let afterDatabaseRestart = async () => {};
		if (env.mode === 'embedded') {
			if (!(await hasDatabase(dataDir))) {
				await startFromMigratedTemplate(dataDir);
				say('new database: a copy of the migrated template');
			}
			embedded = await openEmbeddedDatabase(dataDir, env.ports.database, {
				idleInTransactionMs: env.tuning.idleInTransactionMs,
				sharedBuffers: env.tuning.sharedBuffers,
				onRestart: () => afterDatabaseRestart(),
			});
			stops.push(() => embedded!.close());
			databaseUrl = embedded.url;
		} else {
			databaseUrl = env.databaseUrl!;
		}
		const services = env.serviceDatabaseUrls ?? {
			postgrest: databaseUrl,
			auth: databaseUrl,
			storage: databaseUrl,
		};
		const migrations = await runMigrations(databaseUrl);
		if (migrations.applied.length) {
			say(`applied ${migrations.applied.length} migration(s)`);
			// A migration may rewrite a table: index-only scans need its visibility map again.
			if (env.mode === 'embedded') await vacuum(databaseUrl);
		}
		const postgrest = await startPostgrest({
			databaseUrl: services.postgrest,
			port: env.ports.postgrest,
			jwtSecret: keys.jwtSecret,
			pool: env.tuning.postgrestPool,
			databaseAnswers: async () => (await probeDatabase(databaseUrl, 2000)).ok,
			// By port, outside the data folder: a test run removes its folder before it starts again.
			pidFile: join(tmpdir(), `chamber-postgrest-${env.ports.postgrest}.pid`),
		});
		stops.push(() => postgrest.stop());
		afterDatabaseRestart = () => postgrest.reload().catch((error: Error) => log(error.message));
		const health = async (): Promise<HealthReport> => {
			const [database, ready] = await Promise.all([
				probeDatabase(databaseUrl, 3000),
				postgrest.ready(),
			]);
			return {
				ok: database.ok && ready,
				database: {
					...database,
					...(embedded
						? { pid: embedded.process.pid(), restarts: embedded.process.restarts() }
						: {}),
				},
				postgrest: {
					ok: ready,
					pid: postgrest.process.pid(),
					restarts: postgrest.process.restarts(),
					state: postgrest.process.state(),
				},
			};
		};
		const gatewayUrl = `http://127.0.0.1:${env.ports.gateway}`;
		const authStore = new AuthStore(services.auth);
		stops.push(() => authStore.close());
		const auth = new AuthService(
			readAuthConfig({
				externalUrl: gatewayUrl,
				jwtSecret: keys.jwtSecret,
				apiKeys: [keys.anonKey, keys.serviceKey],
			}),
			authStore,
		);
		const storage = new StorageService({
			databaseUrl: services.storage,
			dataDir,
			jwtSecret: keys.jwtSecret,
		});
		stops.push(() => storage.close());
		const gateway = await startGateway({
			port: env.ports.gateway,
			postgrestUrl: postgrest.url,
			mode: env.mode,
			apiKeys: [keys.anonKey, keys.serviceKey],
			secretKeys: [keys.serviceKey],
			auth: createAuthRoutes(auth),
			storage: createStorageRoutes(storage),
			reload: () => postgrest.reload(),
			reloadKey: keys.serviceKey,
			health,
			restartWaitMs: env.tuning.restartWaitMs,
			upstreamTimeoutMs: env.tuning.upstreamTimeoutMs,
		});
		stops.push(() => gateway.close());
		const stateFile = join(dataDir, 'stack.json');
		const state: StackState = {
			pid: process.pid,
			mode: env.mode,
			supabaseUrl: gateway.url,
			databaseUrl,
		};
		await writeFile(stateFile, JSON.stringify(state, null, '\t'));
		stops.push(() => rm(stateFile, { force: true }));
		say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${gateway.url}`);
		const values = { ...keys, supabaseUrl: gateway.url, databaseUrl };
		return {
			mode: env.mode,
			...values,
			owned: true,
			env: childEnv(env, values),
			reloadSchema: () => postgrest.reload(),
			vacuum: () => vacuum(databaseUrl),
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}

/** Runs `fn` with a stack and stops the stack afterwards if this call started it. */
export async function withStack<T>(
	fn: (stack: Stack) => Promise<T>,
	options?: { quiet?: boolean },
): Promise<T> {
	const stack = await ensureStack(options);
	try {
		return await fn(stack);
	} finally {
		if (stack.owned) await stack.stop();
	}
}
