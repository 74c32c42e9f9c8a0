// Runs on: PGlite — doctor's checks and lines; the hosted stage's deploy guide runs doctor on the
// production shape.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { randomSlug } from './fixtures.ts';

// `npm run doctor`, the real command: against the test stack as a deployment would point at its
// Supabase project (SUPABASE_URL and the keys), and as `npm start`'s stack.

const run = promisify(execFile);
const slug = randomSlug('doctor');
const HOOK = 'https://api.netlify.com/build_hooks/0123456789abcdef01234567';
let smtp: SMTPServer;
let smtpUrl: string;

/** The command's output and exit code (1 when something is wrong). */
async function doctor(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
	const result = await run(process.execPath, ['scripts/doctor.ts'], {
		env: {
			PATH: process.env.PATH,
			CHAMBER_DATA_DIR: stack.dataDir,
			CHAMBER_STACK_PORT: stack.stackPort,
			...env,
		},
	}).then(
		(r) => ({ code: 0, stdout: r.stdout }),
		(error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
	);
	return { code: result.code, lines: result.stdout.trim().split('\n') };
}

const deployment = (overrides: Record<string, string> = {}) => ({
	SUPABASE_URL: stack.supabaseUrl,
	SUPABASE_ANON_KEY: stack.anonKey,
	SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
	TENANT: slug,
	SMTP_URL: smtpUrl,
	NETLIFY_BUILD_HOOK_URL: HOOK,
	...overrides,
});

beforeAll(async () => {
	await db.connect();
	await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: 'Doctor Chamber' },
				users: [{ email: `boss@${slug}.test`, password: 'doctor-password', role: 'admin' }],
			},
			'fixture',
		),
	);
	smtp = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'] });
	smtp.listen(0, '127.0.0.1');
	await once(smtp.server, 'listening');
	smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => smtp.close(() => resolve()));
	await db.query('delete from public.tenants where slug = $1', [slug]);
	await db.query('delete from auth.users where email = $1', [`boss@${slug}.test`]);
	await db.end();
});

describe('npm run doctor', () => {
	it('passes a correct deployment, one line per check, every migration by name', async () => {
		const { code, lines } = await doctor(deployment());
		expect(lines.filter((l) => l.startsWith('✗'))).toEqual([]);
		expect(code).toBe(0);
		expect(lines).toEqual(
			expect.arrayContaining([
				'✓ SUPABASE_ANON_KEY is the anon key',
				'✓ SUPABASE_SERVICE_ROLE_KEY is the service_role key',
				`✓ the Data API (REST) answers at ${stack.supabaseUrl}/rest/v1/`,
				`✓ TENANT "${slug}" is Doctor Chamber`,
				`✓ admin boss@${slug}.test (admin) has an identity`,
				'✓ the logos bucket is public',
				'✓ NETLIFY_BUILD_HOOK_URL is a Netlify build hook',
			]),
		);
		const migrations = (await readdir('supabase/migrations'))
			.filter((f) => /^\d+_.+\.sql$/.test(f))
			.sort()
			.map((f) => `✓ migration ${f.replace(/\.sql$/, '')} applied`);
		expect(migrations).toContain(
			'✓ migration 20261121000000_baseline_platform_and_tenants applied',
		);
		expect(lines.filter((l) => l.startsWith('✓ migration '))).toEqual(migrations);
		expect(lines.at(-1)).toBe('Everything checked is right.');
	});

	it('fails with one clear line when the keys are swapped', async () => {
		const { code, lines } = await doctor(
			deployment({ SUPABASE_ANON_KEY: stack.serviceKey, SUPABASE_SERVICE_ROLE_KEY: stack.anonKey }),
		);
		expect(code).toBe(1);
		expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
			'✗ SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are swapped: exchange the two values (Supabase dashboard: Project Settings → API Keys)',
		]);
	});

	it('names each wrong setting: unknown chamber, no mail server, a build hook of the wrong form', async () => {
		const { code, lines } = await doctor(
			deployment({
				TENANT: 'no-such-chamber',
				SMTP_URL: 'smtp://127.0.0.1:1',
				NETLIFY_BUILD_HOOK_URL: 'https://example.com/hook',
			}),
		);
		expect(code).toBe(1);
		const wrong = lines.filter((l) => l.startsWith('✗'));
		expect(wrong).toHaveLength(3);
		expect(wrong[0]).toBe(
			'✗ TENANT "no-such-chamber" is not in the database: import the chamber: `npm run tenant:import -- FILE.json` (docs/deploy.md)',
		);
		expect(wrong[1]).toMatch(/^✗ the mail server 127\.0\.0\.1:1 did not accept the connection/);
		expect(wrong[2]).toMatch(/^✗ NETLIFY_BUILD_HOOK_URL is not of the form/);
	});

	it('checks the local stack without any setting', async () => {
		const { code, lines } = await doctor({ TENANT: slug });
		expect(code).toBe(0);
		expect(lines).toContain(`✓ the local stack (${stack.mode}) serves TENANT "${slug}"`);
		expect(lines).toContain('✓ publishing uses npm start’s own build hook');
	});
});
