import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const stack = inject('stack');
const db = new pg.Client({ connectionString: stack.databaseUrl });

const TENANT_TABLES = [
	'chamber_config',
	'cache_versions',
	'profiles',
	'listings',
	'social_media',
	'profile_affiliations',
	'web_content',
	'banners',
	'events',
	'admin_users',
];

/** Every row the tenant owns, in a stable order, as JSON: "the database" for this tenant. */
async function snapshot(slug: string): Promise<Record<string, unknown[]>> {
	const out: Record<string, unknown[]> = {};
	const tenant = await db.query('select to_jsonb(t) as row from tenants t where slug = $1', [slug]);
	out.tenants = tenant.rows.map((r) => r.row);
	for (const table of TENANT_TABLES) {
		const { rows } = await db.query(
			`select to_jsonb(t) as row from public.${table} t
			where tenant_id = (select id from tenants where slug = $1) order by to_jsonb(t)::text`,
			[slug],
		);
		out[table] = rows.map((r) => r.row);
	}
	const users = await db.query(
		`select to_jsonb(u) as row from auth.users u
		where id in (select user_id from admin_users where tenant_id = (select id from tenants where slug = $1))
		order by email`,
		[slug],
	);
	out.users = users.rows.map((r) => r.row);
	return out;
}

/** The real command, against this test stack (it finds the running stack and uses it). */
function tenantImport(file: string) {
	return run(process.execPath, ['scripts/tenant-import.ts', file], {
		env: {
			...process.env,
			CHAMBER_DATA_DIR: stack.dataDir,
			CHAMBER_STACK_PORT: stack.stackPort,
		},
	});
}

beforeAll(async () => {
	await db.connect();
});

afterAll(async () => {
	await db.end();
});

describe('npm run tenant:import', () => {
	it('imports tenants/example.json, and importing it again changes nothing', async () => {
		const first = await tenantImport('tenants/example.json');
		expect(first.stdout).toMatch(
			/Imported tenants\/example\.json as tenant "example": 5 businesses/,
		);
		const after = await snapshot('example');
		expect(after.profiles).toHaveLength(5);
		expect(after.events).toHaveLength(5);
		expect(after.users).toHaveLength(1);
		// Passwords are stored hashed with argon2, never as given.
		expect((after.users?.[0] as { encrypted_password: string }).encrypted_password).toMatch(
			/^\$argon2id\$/,
		);
		await tenantImport('tenants/example.json');
		expect(await snapshot('example')).toEqual(after);
	});

	it('a changed configuration bumps the config cache version; an unchanged one does not', async () => {
		const configVersion = async () =>
			(
				await db.query(
					`select version from cache_versions
					where type = 'config' and tenant_id = (select id from tenants where slug = 'example')`,
				)
			).rows[0]?.version as number;
		await tenantImport('tenants/example.json');
		const before = await configVersion();
		await tenantImport('tenants/example.json');
		expect(await configVersion()).toBe(before);

		const file = JSON.parse(await readFile('tenants/example.json', 'utf8'));
		file.config.content = { ...file.config.content, heroTitle: 'A changed hero title' };
		const dir = await mkdtemp(join(tmpdir(), 'chamber-import-'));
		const changed = join(dir, 'changed.json');
		await writeFile(changed, JSON.stringify(file));
		await tenantImport(changed);
		expect(await configVersion()).toBe(before + 1);
		await tenantImport('tenants/example.json');
		expect(await configVersion()).toBe(before + 2);
	});

	it('rejects a broken copy with the JSON path of the first error and writes nothing', async () => {
		const before = await snapshot('example');
		const file = JSON.parse(await readFile('tenants/example.json', 'utf8'));
		file.tenant.name = 'Renamed Example Chamber';
		file.businesses[0].report_name = 'Renamed business';
		file.businesses[2].report_name = '';
		const dir = await mkdtemp(join(tmpdir(), 'chamber-import-'));
		const broken = join(dir, 'broken.json');
		await writeFile(broken, JSON.stringify(file));
		const failure = await tenantImport(broken).then(
			() => null,
			(error: { code: number; stderr: string }) => error,
		);
		expect(failure?.code).toBe(1);
		expect(failure?.stderr).toContain(`${broken}: businesses[2].report_name:`);
		expect(failure?.stderr).not.toMatch(/\n\s+at /);
		expect(await snapshot('example')).toEqual(before);
	});

	it('rolls back everything when the database rejects a row half-way', async () => {
		const before = await snapshot('example');
		const service = createClient(stack.supabaseUrl, stack.serviceKey, {
			auth: { persistSession: false },
		});
		// Passes nothing through zod on purpose: the second business breaks a NOT NULL constraint
		// after the tenant, its configuration and the first business were already written.
		const { error } = await service.rpc('import_tenant', {
			payload: {
				tenant: { slug: 'example', name: 'Half-way Chamber' },
				businesses: [
					{ report_name: 'Written first', weblink_profile_id: '900001' },
					{ report_name: null, weblink_profile_id: '900002' },
				],
			},
		});
		expect(error?.message).toMatch(/report_name/);
		expect(await snapshot('example')).toEqual(before);
	});

	it('refuses the import function to the public (anon) key', async () => {
		const anon = createClient(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
		});
		const { error } = await anon.rpc('import_tenant', {
			payload: { tenant: { slug: 'x', name: 'X' } },
		});
		expect(error?.code).toBe('42501');
	});
});
