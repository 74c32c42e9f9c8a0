/**
 * The deploy guide (docs/deploy.md), followed on a hosted-shaped database: every shell block of
 * the guide runs as written, in order, with the variables a chamber's engineer would have set.
 * The "Supabase project" is that database behind the local stack in postgres mode, its services
 * logging in as Supabase's do (PostgREST as authenticator, the identity service as
 * supabase_auth_admin, the file service as supabase_storage_admin).
 *
 * Run by tests/hosted/run.sh, which starts the database and sets the stack's postgres-mode
 * variables, HOSTED_DB_URL (the postgres role), HOSTED_ADMIN_DB_URL (supabase_admin, for the
 * test's own look-ups).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { once } from 'node:events';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { ensureStack, type Stack } from '../../scripts/stack/index.ts';

const GUIDE = 'docs/deploy.md';
const HOOK = 'https://api.netlify.com/build_hooks/0123456789abcdef01234567';

/** The files `supabase db push` applies, in order. */
async function migrationFiles(): Promise<string[]> {
	return (await readdir('supabase/migrations')).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
}

/** The guide's ```sh blocks, in order. */
async function shellBlocks(): Promise<string[]> {
	const text = await readFile(GUIDE, 'utf8');
	return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.trim());
}

function sh(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env });
		let output = '';
		child.stdout.on('data', (c: Buffer) => (output += c));
		child.stderr.on('data', (c: Buffer) => (output += c));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code: code ?? 1, output }));
	});
}

let stack: Stack;
let guide: string[];
let siteEnv: NodeJS.ProcessEnv;
const admin = new pg.Client({ connectionString: process.env.HOSTED_ADMIN_DB_URL });
// The chamber's mail server, for doctor's login check.
const smtp = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'] });
let smtpUrl: string;

before(async () => {
	guide = await shellBlocks();
	assert.equal(guide.length, 4, 'the guide has four command blocks');
	await admin.connect();
	smtp.listen(0, '127.0.0.1');
	await once(smtp.server, 'listening');
	smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
});

after(async () => {
	await stack?.stop();
	await admin.end();
	await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('docs/deploy.md on a hosted-shaped database', () => {
	test('2. the migrations apply as postgres with the Supabase CLI, and a second push applies none', async () => {
		const env = { ...process.env, SUPABASE_DB_URL: process.env.HOSTED_DB_URL };
		const first = await sh(guide[0]!, env);
		assert.equal(first.code, 0, first.output);
		const { rows } = await admin.query<{ n: number }>(
			'select count(*)::int as n from supabase_migrations.schema_migrations',
		);
		assert.equal(rows[0]!.n, (await migrationFiles()).length);
		const second = await sh(guide[0]!, env);
		assert.equal(second.code, 0, second.output);
		assert.match(second.output, /Remote database is up to date/);
		const again = await admin.query<{ n: number }>(
			'select count(*)::int as n from supabase_migrations.schema_migrations',
		);
		assert.equal(again.rows[0]!.n, rows[0]!.n);
	});

	test('4. the chamber imports, twice, and its admin signs in through Supabase Auth', async () => {
		stack = await ensureStack({ quiet: true });
		assert.equal(stack.mode, 'postgres');
		siteEnv = {
			PATH: process.env.PATH,
			HOME: process.env.HOME,
			SUPABASE_URL: stack.supabaseUrl,
			SUPABASE_ANON_KEY: stack.anonKey,
			SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
			TENANT: 'example',
			TENANT_FILE: 'tenants/example.json',
			NETLIFY_BUILD_HOOK_URL: HOOK,
			SMTP_URL: smtpUrl,
			// The month's publish budget, as step 5 sets it for the Personal plan.
			PUBLISH_MONTHLY_BUDGET: '40',
			SUPABASE_DB_URL: process.env.HOSTED_DB_URL,
		};
		const first = await sh(guide[1]!, siteEnv);
		assert.equal(first.code, 0, first.output);
		assert.match(first.output, /Imported tenants\/example\.json as tenant "example"/);
		const users = () =>
			admin.query(
				`select u.id, u.encrypted_password, u.updated_at from auth.users u
				join public.admin_users au on au.user_id = u.id
				join public.tenants t on t.id = au.tenant_id where t.slug = 'example' order by u.email`,
			);
		const before = (await users()).rows;
		assert.equal(before.length, 1);
		const second = await sh(guide[1]!, siteEnv);
		assert.equal(second.code, 0, second.output);
		assert.deepEqual((await users()).rows, before);

		const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
		});
		const { data, error } = await client.auth.signInWithPassword({
			email: 'admin@example.test',
			password: 'example-password',
		});
		assert.equal(error, null);
		assert.equal(data.user?.app_metadata.tenant_key, 'example');
	});

	test('6. npm run doctor passes, and names swapped keys in one line', async () => {
		const ok = await sh(guide[2]!, siteEnv);
		assert.equal(ok.code, 0, ok.output);
		assert.match(ok.output, /Everything checked is right\./);
		const swapped = await sh(guide[2]!, {
			...siteEnv,
			SUPABASE_ANON_KEY: stack.serviceKey,
			SUPABASE_SERVICE_ROLE_KEY: stack.anonKey,
		});
		assert.equal(swapped.code, 1);
		assert.match(
			swapped.output,
			/^✗ SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are swapped: /m,
		);
	});

	test('later releases: a push applies nothing new and doctor lists every migration', async () => {
		const release = await sh(guide[3]!, siteEnv);
		assert.equal(release.code, 0, release.output);
		assert.match(release.output, /Remote database is up to date/);
		assert.doesNotMatch(release.output, /^✗/m);
		const listed = release.output.split('\n').filter((l) => l.startsWith('✓ migration '));
		assert.deepEqual(
			listed,
			(await migrationFiles()).map((f) => `✓ migration ${f.replace(/\.sql$/, '')} applied`),
		);
	});
});
