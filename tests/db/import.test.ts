// Runs on: hosted — tenant:import is import_tenant in SQL and users in the identity tables: proved
// on the production shape.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';

const run = promisify(execFile);

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
function tenantImport(file: string, ...flags: string[]) {
	return run(process.execPath, ['scripts/tenant-import.ts', file, ...flags], {
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
		// Opening hours in the file's text form are stored as the schema reads them.
		const withHours = after.profiles!.find((p) => (p as { hours: unknown }).hours !== null) as {
			hours: Record<string, unknown>;
		};
		expect(withHours.hours).toEqual({
			mon: [{ open: '07:00', close: '15:00' }],
			tue: [{ open: '07:00', close: '15:00' }],
			wed: [{ open: '07:00', close: '15:00' }],
			thu: [{ open: '07:00', close: '15:00' }],
			fri: [{ open: '07:00', close: '15:00' }],
			sat: [{ open: '08:00', close: '14:00' }],
			sun: [{ open: '08:00', close: '14:00' }],
			note: 'Closed on Thanksgiving',
		});
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
		const { error } = await anon.rpc('import_tenant', {
			payload: { tenant: { slug: 'x', name: 'X' } },
		});
		expect(error?.code).toBe('42501');
	});
});

/** Writes a tenant file to a temporary folder and returns its path. */
async function tempFile(name: string, content: unknown): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'chamber-import-'));
	const path = join(dir, name);
	await writeFile(path, JSON.stringify(content));
	return path;
}

function failureOf(promise: Promise<unknown>) {
	return promise.then(
		() => null,
		(error: { code: number; stderr: string }) => error,
	);
}

describe("an import changes only its own chamber's users", () => {
	const slugA = `own-users-a-${Date.now().toString(36)}`;
	const slugB = `own-users-b-${Date.now().toString(36)}`;
	const user = (email: string, role: string, password?: string) => ({
		email,
		role,
		...(password ? { password } : {}),
	});
	const file = (slug: string, users: unknown[]) => ({
		tenant: { slug, name: `Chamber ${slug}` },
		users,
	});
	const hashOf = async (email: string) =>
		(await db.query('select encrypted_password from auth.users where email = $1', [email])).rows[0]
			?.encrypted_password as string | null | undefined;
	const chamberOf = async (email: string) =>
		(
			await db.query(
				'select t.slug from admin_users au join tenants t on t.id = au.tenant_id where au.email = $1',
				[email],
			)
		).rows[0]?.slug as string | undefined;

	afterAll(async () => {
		await db.query('delete from tenants where slug = any($1)', [[slugA, slugB]]);
		await db.query(`delete from auth.users where email like '%@own-users.test'`);
	});

	it("refuses a file that names another chamber's admin: no move, no new password", async () => {
		await tenantImport(
			await tempFile('a.json', file(slugA, [user('boss@own-users.test', 'admin', 'password-a')])),
		);
		const hash = await hashOf('boss@own-users.test');
		const failure = await failureOf(
			tenantImport(
				await tempFile('b.json', file(slugB, [user('boss@own-users.test', 'admin', 'password-b')])),
			),
		);
		expect(failure?.code).toBe(1);
		expect(failure?.stderr).toContain(
			`These users belong to another chamber and an import changes only its own chamber's users: boss@own-users.test (${slugA})`,
		);
		expect(await chamberOf('boss@own-users.test')).toBe(slugA);
		expect(await hashOf('boss@own-users.test')).toBe(hash);
		// The whole file was refused: chamber B was not even created.
		expect((await db.query('select 1 from tenants where slug = $1', [slugB])).rowCount).toBe(0);
	});

	it('creates a super_admin only with --allow-super-admin', async () => {
		const withSuper = await tempFile(
			'super.json',
			file(slugA, [user('root@own-users.test', 'super_admin', 'password-s')]),
		);
		const failure = await failureOf(tenantImport(withSuper));
		expect(failure?.stderr).toContain(
			'import with --allow-super-admin to create or keep one: root@own-users.test',
		);
		expect(await chamberOf('root@own-users.test')).toBeUndefined();
		await tenantImport(withSuper, '--allow-super-admin');
		expect(await chamberOf('root@own-users.test')).toBe(slugA);
	});

	it('a new user without a password is sent the e-mail to set one; an existing one keeps theirs', async () => {
		const before = await hashOf('boss@own-users.test');
		const result = await tenantImport(
			await tempFile(
				'nopw.json',
				file(slugA, [user('fresh@own-users.test', 'editor'), user('boss@own-users.test', 'admin')]),
			),
		);
		expect(result.stdout).toContain(
			'fresh@own-users.test has no password yet: sent the e-mail to set one.',
		);
		expect(result.stdout).not.toContain('boss@own-users.test has no password');
		expect(await hashOf('boss@own-users.test')).toBe(before);
		// Created through the Auth admin API, as GoTrue does: a password nobody knows.
		expect(await hashOf('fresh@own-users.test')).toMatch(/^\$argon2id\$/);
	});

	it("a changed role reaches the admin record and the identity's app_metadata; a changed password does not", async () => {
		const before = await hashOf('boss@own-users.test');
		await tenantImport(
			await tempFile(
				'role.json',
				file(slugA, [user('boss@own-users.test', 'editor', 'another-password')]),
			),
		);
		const { rows } = await db.query('select user_id, role from admin_users where email = $1', [
			'boss@own-users.test',
		]);
		expect(rows[0]?.role).toBe('editor');
		const { data } = await service.auth.admin.getUserById(rows[0]!.user_id);
		expect(data.user?.app_metadata).toMatchObject({ role: 'editor', tenant_key: slugA });
		expect(await hashOf('boss@own-users.test')).toBe(before);
	});
});

describe('ids written as numbers or as strings', () => {
	it('a re-import of the same data with every id written the other way changes nothing', async () => {
		const example = JSON.parse(await readFile('tenants/example.json', 'utf8'));
		example.banners = example.banners.map((b: object, i: number) => ({ ...b, id: 7000 + i }));
		const asNumbers = await tempFile('numbers.json', example);
		await tenantImport(asNumbers);
		const before = await snapshot('example');
		const flip = (v: unknown) => (typeof v === 'number' ? String(v) : Number(v));
		for (const b of example.businesses) b.weblink_profile_id = flip(b.weblink_profile_id);
		for (const b of example.banners) b.id = String(b.id);
		for (const e of [...example.events, ...example.communityEvents]) {
			e.EventId = flip(e.EventId);
			for (const i of e.Items ?? []) i.ItemId = flip(i.ItemId);
			for (const sp of e.Sponsors ?? []) sp.SponserId = flip(sp.SponserId);
		}
		await tenantImport(await tempFile('strings.json', example));
		expect(await snapshot('example')).toEqual(before);
		await tenantImport('tenants/example.json');
	});
});
