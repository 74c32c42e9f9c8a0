/**
 * Postgres mode on a plain PostgreSQL (Debian's 15, a fresh cluster, its superuser): the
 * commands that set it up need no mail settings, an imported admin signs in, doctor passes; a
 * user without the rights is refused in one sentence. Run by tests/hosted/run.sh, which starts
 * the cluster and sets PLAIN_DB_URL (its superuser) and PLAIN_APP_DB_URL (a plain login role).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { ensureStack, type Stack } from '../../scripts/stack/index.ts';

const run = promisify(execFile);
const DATA_DIR = '.data-test/hosted-plain';
// tests/hosted/run.sh sets both from HOSTED_PORT.
const STACK_PORT = process.env.PLAIN_STACK_PORT || '24341';
const APP_STACK_PORT = process.env.PLAIN_APP_STACK_PORT || '24344';

/** An npm command in postgres mode, with nothing but what it needs: no mail settings. */
function npm(
	args: string[],
	databaseUrl = process.env.PLAIN_DB_URL!,
	dataDir = DATA_DIR,
	stackPort = STACK_PORT,
) {
	return run('npm', ['run', '--silent', ...args], {
		env: {
			PATH: process.env.PATH,
			HOME: process.env.HOME,
			DATABASE_URL: databaseUrl,
			CHAMBER_DATA_DIR: dataDir,
			CHAMBER_STACK_PORT: stackPort,
			TENANT: 'example',
		},
	}).then(
		(r) => ({ code: 0, output: r.stdout + r.stderr }),
		(error: { code: number; stdout: string; stderr: string }) => ({
			code: error.code,
			output: error.stdout + error.stderr,
		}),
	);
}

let stack: Stack | undefined;
after(() => stack?.stop());

describe('postgres mode on a plain PostgreSQL', () => {
	test('migrates and imports without any mail setting, twice', async () => {
		for (let i = 0; i < 2; i++) {
			const migrate = await npm(['db:migrate']);
			assert.equal(migrate.code, 0, migrate.output);
			const imported = await npm(['tenant:import', '--', 'tenants/example.json']);
			assert.equal(imported.code, 0, imported.output);
			assert.match(imported.output, /Imported tenants\/example\.json as tenant "example"/);
		}
	});

	test('the imported admin signs in, and doctor passes', async () => {
		const doctor = await npm(['doctor']);
		assert.equal(doctor.code, 0, doctor.output);
		Object.assign(process.env, {
			DATABASE_URL: process.env.PLAIN_DB_URL,
			CHAMBER_DATA_DIR: DATA_DIR,
			CHAMBER_STACK_PORT: STACK_PORT,
		});
		for (const name of ['POSTGREST_DATABASE_URL', 'AUTH_DATABASE_URL', 'STORAGE_DATABASE_URL']) {
			delete process.env[name];
		}
		stack = await ensureStack({ quiet: true });
		const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
		});
		const { error } = await client.auth.signInWithPassword({
			email: 'admin@example.test',
			password: 'example-password',
		});
		assert.equal(error, null);
	});

	test('a user who may not set the database up is told so in one sentence', async () => {
		// A folder of its own: the stack of the test above runs in DATA_DIR, and a command uses it.
		const migrate = await npm(
			['db:migrate'],
			process.env.PLAIN_APP_DB_URL,
			`${DATA_DIR}-app`,
			APP_STACK_PORT,
		);
		assert.equal(migrate.code, 1);
		assert.match(
			migrate.output,
			/Error: The database user "app" may not set the database up: use a superuser on plain PostgreSQL, or the postgres role on a Supabase database/,
		);
	});
});
