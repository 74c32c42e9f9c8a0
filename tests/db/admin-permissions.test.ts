// Runs on: hosted — Postgres enforces the permission table: SQL behaviour, proved on the
// production shape.
import { createClient } from '@supabase/supabase-js';
import type { Database, RowUpdate, SupabaseClient } from '../../src/lib/database.ts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userClient } from '../support/db-clients.ts';
import { anon, db, service, stack } from './clients.ts';
import { EDITOR_FEATURE_KEYS } from '../../src/features/config/config.ts';
import { CACHE_VERSION_TYPES, REFRESHABLE_CACHE_TYPES } from '../../src/lib/cache-versions.ts';
import {
	removeRlsFixtures,
	seedRlsFixtures,
	type FixtureUser,
	type RlsFixtures,
} from './fixtures.ts';

// The permission table enforced by Postgres for anyone holding a user's token: the calls below go
// through PostgREST with supabase-js, as a direct API call with a stolen or handed-out token would.
// Tokens are signed with the stack's JWT secret exactly as the identity service signs them.

let fx: RlsFixtures;

async function tokenFor(user: FixtureUser, secret = stack.jwtSecret): Promise<string> {
	return new SignJWT({ role: 'authenticated', aud: 'authenticated', email: user.email })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setSubject(user.id)
		.setIssuedAt()
		.setExpirationTime('1h')
		.sign(new TextEncoder().encode(secret));
}

async function as(user: FixtureUser): Promise<SupabaseClient> {
	return userClient(stack, await tokenFor(user));
}

async function configOf(tenantId: string) {
	const { rows } = await db.query('select * from public.chamber_config where tenant_id = $1', [
		tenantId,
	]);
	return rows[0];
}

async function version(tenantId: string, type: string): Promise<number> {
	const { rows } = await db.query(
		'select version from public.cache_versions where tenant_id = $1 and type = $2',
		[tenantId, type],
	);
	return rows[0]?.version;
}

beforeAll(async () => {
	await db.connect();
	fx = await seedRlsFixtures(service, db);
});

afterAll(async () => {
	if (fx) await removeRlsFixtures(db, fx);
	await db.end();
});

describe('chamber_config: each role changes what the permission table gives it, through PostgREST', () => {
	it('an editor changes content text', async () => {
		const editor = await as(fx.users.editorA);
		const { data, error } = await editor
			.from('chamber_config')
			.update({ content: { heroTitle: 'Edited by the editor' } })
			.eq('tenant_id', fx.tenantA.id)
			.select('content');
		expect(error).toBeNull();
		expect(data).toEqual([{ content: { heroTitle: 'Edited by the editor' } }]);
	});

	it('an editor cannot change colours, contact, navigation or the logo: 403, nothing written', async () => {
		const editor = await as(fx.users.editorA);
		const before = await configOf(fx.tenantA.id);
		const refused: [RowUpdate<'chamber_config'>, string][] = [
			[{ colors: { primary: '#ff0000' } }, 'colors'],
			[{ contact: { phone: '555' } }, 'contact'],
			[{ navigation: { menuItems: [] } }, 'navigation'],
			[{ logo: { standard: '/x.svg' } }, 'logo'],
			[{ name: 'Renamed by an editor' }, 'identity'],
		];
		for (const [change, section] of refused) {
			const { error, status } = await editor
				.from('chamber_config')
				.update(change)
				.eq('tenant_id', fx.tenantA.id);
			expect(status, JSON.stringify(change)).toBe(403);
			expect(error?.code).toBe('42501');
			expect(error?.message).toBe(`Editors can change content and text only, not ${section}`);
		}
		expect(await configOf(fx.tenantA.id)).toEqual(before);
	});

	it('an editor changes exactly the content-related display toggles of features', async () => {
		const editor = await as(fx.users.editorA);
		const { rows } = await db.query('select public.editor_feature_keys() as keys');
		expect(rows[0].keys).toEqual([...EDITOR_FEATURE_KEYS]);
		// Whole sections are written back with one field changed, as the admin panel saves them.
		for (const key of EDITOR_FEATURE_KEYS) {
			const { features } = await configOf(fx.tenantA.id);
			const { error } = await editor
				.from('chamber_config')
				.update({ features: { ...features, [key]: key === 'featuredEventId' ? 42 : true } })
				.eq('tenant_id', fx.tenantA.id);
			expect(error, key).toBeNull();
			expect((await configOf(fx.tenantA.id)).features[key]).toBe(
				key === 'featuredEventId' ? 42 : true,
			);
		}
		for (const key of ['showEvents', 'showBanners', 'businessDetailLayout', 'newKey']) {
			const { features } = await configOf(fx.tenantA.id);
			const { error } = await editor
				.from('chamber_config')
				.update({ features: { ...features, [key]: 'changed' } })
				.eq('tenant_id', fx.tenantA.id);
			expect(error?.message, key).toBe(
				`Editors can change content and text only, not features.${key}`,
			);
		}
	});

	it('an admin changes colours of their chamber, not of another one', async () => {
		const admin = await as(fx.users.adminA);
		const { error } = await admin
			.from('chamber_config')
			.update({ colors: { primary: '#123456' } })
			.eq('tenant_id', fx.tenantA.id);
		expect(error).toBeNull();
		expect((await configOf(fx.tenantA.id)).colors).toEqual({ primary: '#123456' });

		const before = await configOf(fx.tenantB.id);
		const { data } = await admin
			.from('chamber_config')
			.update({ colors: { primary: '#000000' } })
			.eq('tenant_id', fx.tenantB.id)
			.select('tenant_id');
		expect(data).toEqual([]);
		expect(await configOf(fx.tenantB.id)).toEqual(before);
	});

	it("a super_admin of chamber B changes chamber A's configuration", async () => {
		const superAdmin = await as(fx.users.superAdminB);
		const { error } = await superAdmin
			.from('chamber_config')
			.update({ city: 'Elsewhere' })
			.eq('tenant_id', fx.tenantA.id);
		expect(error).toBeNull();
		expect((await configOf(fx.tenantA.id)).city).toBe('Elsewhere');
	});

	it('nobody changes a slug through the API, not even a super_admin', async () => {
		const superAdmin = await as(fx.users.superAdminB);
		const { error } = await superAdmin
			.from('chamber_config')
			.update({ slug: 'hijacked' })
			.eq('tenant_id', fx.tenantA.id);
		expect(error?.message).toBe('The chamber slug cannot be changed');
		expect((await configOf(fx.tenantA.id)).slug).toBe(fx.tenantA.slug);
	});

	it('anon changes nothing', async () => {
		const { data } = await anon
			.from('chamber_config')
			.update({ name: 'Defaced' })
			.eq('tenant_id', fx.tenantA.id)
			.select('name');
		expect(data ?? []).toEqual([]);
		expect((await configOf(fx.tenantA.id)).name).not.toBe('Defaced');
	});

	it('a token signed with another key is refused by PostgREST', async () => {
		const forged = await tokenFor(fx.users.superAdminB, 'not-the-secret-of-this-stack-0123456789');
		const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
			global: { headers: { Authorization: `Bearer ${forged}` } },
		});
		const { error, status } = await client
			.from('chamber_config')
			.update({ name: 'Forged' })
			.eq('tenant_id', fx.tenantA.id);
		expect(status).toBe(401);
		expect(error?.code).toBe('PGRST301');
	});

	it('an unsigned (alg none) token is refused by PostgREST', async () => {
		const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
		const payload = Buffer.from(
			JSON.stringify({ sub: fx.users.superAdminB.id, role: 'authenticated', exp: 4_102_444_800 }),
		).toString('base64url');
		const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
			global: { headers: { Authorization: `Bearer ${header}.${payload}.` } },
		});
		const { status } = await client.from('admin_users').select('email');
		expect(status).toBe(401);
	});
});

describe('the audit log: who changed what, written by the database', () => {
	it("records each changed field with the token's user, not anything the request says", async () => {
		const admin = await as(fx.users.adminA);
		const { text_colors: textColors } = await configOf(fx.tenantA.id);
		await admin
			.from('chamber_config')
			.update({ text_colors: { ...textColors, heading: '#111111', link: '#222222' } })
			.eq('tenant_id', fx.tenantA.id);
		const { rows } = await db.query(
			`select actor_id, actor_email, actor_role, section, field, old_value, new_value
			from public.audit_log where tenant_id = $1 and section = 'textColors' order by field`,
			[fx.tenantA.id],
		);
		expect(rows).toEqual([
			{
				actor_id: fx.users.adminA.id,
				actor_email: fx.users.adminA.email,
				actor_role: 'admin',
				section: 'textColors',
				field: 'heading',
				old_value: textColors.heading,
				new_value: '#111111',
			},
			expect.objectContaining({ field: 'link', old_value: textColors.link, new_value: '#222222' }),
		]);
	});

	it('is readable by the chamber admins and super_admins only, and written by nobody', async () => {
		const count = async (client: SupabaseClient) =>
			(await client.from('audit_log').select('id').eq('tenant_id', fx.tenantA.id)).data?.length ??
			0;
		expect(await count(await as(fx.users.adminA))).toBeGreaterThan(0);
		expect(await count(await as(fx.users.superAdminB))).toBeGreaterThan(0);
		expect(await count(await as(fx.users.editorA))).toBe(0);
		expect(await count(await as(fx.users.adminB))).toBe(0);
		expect(await count(anon)).toBe(0);

		for (const client of [await as(fx.users.adminA), service]) {
			const { error } = await client.from('audit_log').insert({
				tenant_id: fx.tenantA.id,
				actor_role: 'admin',
				section: 'colors',
			});
			expect(error?.code).toBe('42501');
			const { error: deleteError } = await client
				.from('audit_log')
				.delete()
				.eq('tenant_id', fx.tenantA.id);
			expect(deleteError?.code).toBe('42501');
		}
	});

	it('records admin users added and removed (by a super_admin)', async () => {
		const superAdmin = await as(fx.users.superAdminB);
		const { error } = await superAdmin
			.from('admin_users')
			.update({ role: 'admin' })
			.eq('user_id', fx.users.editorA.id);
		expect(error).toBeNull();
		const { rows } = await db.query(
			`select actor_email, section, field, old_value, new_value from public.audit_log
			where tenant_id = $1 and section = 'users'`,
			[fx.tenantA.id],
		);
		expect(rows).toContainEqual({
			actor_email: fx.users.superAdminB.email,
			section: 'users',
			field: fx.users.editorA.email,
			old_value: { role: 'editor', tenant_id: fx.tenantA.id },
			new_value: { role: 'admin', tenant_id: fx.tenantA.id },
		});
		await db.query(`update public.admin_users set role = 'editor' where user_id = $1`, [
			fx.users.editorA.id,
		]);
	});
});

describe("admins' identities carry their role and chamber in app_metadata", () => {
	it('the import sets them through the Auth admin API', async () => {
		for (const [user, slug] of [
			[fx.users.editorA, fx.tenantA.slug],
			[fx.users.adminB, fx.tenantB.slug],
		] as const) {
			const { data, error } = await service.auth.admin.getUserById(user.id);
			expect(error).toBeNull();
			expect(data.user?.app_metadata).toMatchObject({
				role: user.role,
				tenant_id: user.tenantId,
				tenant_key: slug,
				provider: 'email',
			});
		}
	});
});

describe('cache versions: up by one, through bump_cache_version, by admins', () => {
	it('an admin bumps a version; the purge is logged under their e-mail', async () => {
		const before = await version(fx.tenantA.id, 'events');
		const admin = await as(fx.users.adminA);
		const { data, error } = await admin.rpc('bump_cache_version', {
			p_tenant_id: fx.tenantA.id,
			p_type: 'events',
		});
		expect(error).toBeNull();
		expect(data).toBe(before + 1);
		const { rows } = await db.query(
			`select user_email, purge_type from public.cache_purge_log where tenant_id = $1 order by id desc limit 1`,
			[fx.tenantA.id],
		);
		expect(rows[0]).toEqual({ user_email: fx.users.adminA.email, purge_type: 'events' });
		const audit = await db.query(
			`select field, old_value, new_value from public.audit_log where tenant_id = $1 and section = 'cache' order by id desc limit 1`,
			[fx.tenantA.id],
		);
		expect(audit.rows[0]).toEqual({ field: 'events', old_value: before, new_value: before + 1 });
	});

	it('an editor, an admin of another chamber and anon cannot bump', async () => {
		const before = await version(fx.tenantA.id, 'categories');
		for (const client of [await as(fx.users.editorA), await as(fx.users.adminB), anon]) {
			const { error } = await client.rpc('bump_cache_version', {
				p_tenant_id: fx.tenantA.id,
				p_type: 'categories',
			});
			expect(error?.code).toBe('42501');
		}
		expect(await version(fx.tenantA.id, 'categories')).toBe(before);
	});

	it('nobody writes versions or the purge log directly, and nothing lowers a version', async () => {
		const admin = await as(fx.users.adminA);
		const before = await version(fx.tenantA.id, 'events');
		const { error } = await admin
			.from('cache_versions')
			.update({ version: 1 })
			.eq('tenant_id', fx.tenantA.id)
			.eq('type', 'events');
		expect(error?.code).toBe('42501');
		const { error: logError } = await admin
			.from('cache_purge_log')
			.insert({ tenant_id: fx.tenantA.id, user_email: 'someone@else.test', purge_type: 'events' });
		expect(logError?.code).toBe('42501');
		const { error: serviceError } = await service
			.from('cache_versions')
			.update({ version: 1 })
			.eq('tenant_id', fx.tenantA.id)
			.eq('type', 'events');
		expect(serviceError?.message).toContain('only goes up by one');
		expect(await version(fx.tenantA.id, 'events')).toBe(before);
	});

	it('keeps a version of exactly the types the app reads, and lets admins bump exactly the refreshable ones', async () => {
		const { rows } = await db.query<{ type: string }>(
			'select type from public.cache_versions where tenant_id = $1 order by type',
			[fx.tenantA.id],
		);
		expect(rows.map((r) => r.type)).toEqual([...CACHE_VERSION_TYPES].sort());
		const insert = await db
			.query(`insert into public.cache_versions (tenant_id, type) values ($1, 'no_such_cache')`, [
				fx.tenantA.id,
			])
			.catch((error: { code?: string }) => error);
		expect((insert as { code?: string }).code).toBe('23514');
		const admin = await as(fx.users.adminA);
		for (const type of REFRESHABLE_CACHE_TYPES) {
			const { error } = await admin.rpc('bump_cache_version', {
				p_tenant_id: fx.tenantA.id,
				p_type: type,
			});
			expect(error, type).toBeNull();
		}
	});

	it('refuses a type that is no cache, and the config version (the configuration bumps it)', async () => {
		const admin = await as(fx.users.adminA);
		for (const type of ['config', 'nonsense']) {
			const { error } = await admin.rpc('bump_cache_version', {
				p_tenant_id: fx.tenantA.id,
				p_type: type,
			});
			expect(error?.message).toBe(`Unknown cache type: ${type}`);
		}
	});
});

describe('anon reads no admin data', () => {
	it('admin_users, audit_log and cache_purge_log are empty to visitors', async () => {
		for (const table of ['admin_users', 'audit_log', 'cache_purge_log'] as const) {
			const { data } = await anon.from(table).select('*');
			expect(data ?? [], table).toEqual([]);
		}
	});
});

describe('the authenticator role', () => {
	it('logs in only where Supabase made it: the stack creates it without login', async () => {
		// It holds service_role (BYPASSRLS): a login with a password anyone could guess would open
		// every chamber. On Supabase it has the project's own password; PostgREST logs in as it.
		const { rows } = await db.query(
			`select rolcanlogin as login,
				exists (select 1 from pg_roles where rolname = 'supabase_admin') as supabase
			from pg_roles where rolname = 'authenticator'`,
		);
		expect(rows).toHaveLength(1);
		expect(rows[0].login).toBe(rows[0].supabase);
	});
});
