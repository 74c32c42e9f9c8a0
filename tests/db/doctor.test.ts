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
	PUBLISH_MONTHLY_BUDGET: '40',
	...overrides,
});

beforeAll(async () => {
	await db.connect();
	await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: 'Doctor Chamber' },
				config: { features: { publishWindow: '2h' } },
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
				'✓ PUBLISH_MONTHLY_BUDGET is 40 publishes a month (600 Netlify credits of deploys)',
				`✓ members' changes, syncs and imports of "${slug}" go live every 2 hours`,
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

	it('warns, without failing, when the publish budget or the publish window is left to its default', async () => {
		await db.query(
			`update public.chamber_config set features = features - 'publishWindow' where slug = $1`,
			[slug],
		);
		try {
			const { code, lines } = await doctor(deployment({ PUBLISH_MONTHLY_BUDGET: '' }));
			expect(code).toBe(0);
			expect(lines.filter((l) => l.startsWith('!'))).toEqual([
				'! PUBLISH_MONTHLY_BUDGET is not set: the chamber may make 40 publishes a month (600 Netlify credits of deploys): set it to what your Netlify plan’s credits allow (docs/deploy.md#what-a-chambers-month-costs)',
				`! the publish window of "${slug}" is not set: members' changes, syncs and imports go live every hour: choose it in the admin panel: Content → Member updates (docs/publishing.md)`,
			]);
			expect(lines.at(-1)).toBe('Everything checked works; 2 settings to choose (!).');
			const wrong = await doctor(deployment({ PUBLISH_MONTHLY_BUDGET: 'forty' }));
			expect(wrong.code).toBe(1);
			expect(wrong.lines).toContain(
				'✗ PUBLISH_MONTHLY_BUDGET is "forty", not a number of publishes from 1 to 1000: set a whole number, e.g. 40 for the Personal plan (docs/deploy.md#what-a-chambers-month-costs)',
			);
		} finally {
			await db.query(
				`update public.chamber_config set features = features || '{"publishWindow": "2h"}' where slug = $1`,
				[slug],
			);
		}
	});

	it('checks the local stack without any setting', async () => {
		const { code, lines } = await doctor({ TENANT: slug, PUBLISH_MONTHLY_BUDGET: '40' });
		expect(code).toBe(0);
		expect(lines).toContain(`✓ the local stack (${stack.mode}) serves TENANT "${slug}"`);
		expect(lines).toContain('✓ publishing uses npm start’s own build hook');
	});
});
