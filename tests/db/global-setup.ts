import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { ensureStack, type Stack } from '../../scripts/stack/index.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';

/**
 * The database tests get a stack of their own: a fresh PGlite folder (or DATABASE_URL when set)
 * on ports apart from `npm start`'s, with the real migrations applied.
 */
let stack: Stack | undefined;

export async function setup(project: TestProject) {
	const dataDir = process.env.CHAMBER_TEST_DATA_DIR ?? '.data-test/db';
	process.env.CHAMBER_DATA_DIR = dataDir;
	process.env.CHAMBER_STACK_PORT ??= '25321';
	delete process.env.SUPABASE_URL;
	delete process.env.SUPABASE_ANON_KEY;
	delete process.env.SUPABASE_SERVICE_ROLE_KEY;
	if (!process.env.DATABASE_URL) await rm(dataDir, { recursive: true, force: true });
	stack = await ensureStack({ quiet: true });
	const keys = await loadOrCreateKeys(dataDir);
	project.provide('stack', {
		mode: stack.mode,
		supabaseUrl: stack.supabaseUrl,
		anonKey: stack.anonKey,
		serviceKey: stack.serviceKey,
		databaseUrl: stack.databaseUrl ?? '',
		jwtSecret: keys.jwtSecret,
		dataDir,
		stackPort: String(process.env.CHAMBER_STACK_PORT),
	});
}

export async function teardown() {
	await stack?.stop();
}

declare module 'vitest' {
	export interface ProvidedContext {
		stack: {
			mode: string;
			supabaseUrl: string;
			anonKey: string;
			serviceKey: string;
			databaseUrl: string;
			jwtSecret: string;
			/** CHAMBER_DATA_DIR and CHAMBER_STACK_PORT of this stack, for commands run by tests. */
			dataDir: string;
			stackPort: string;
		};
	}
}
