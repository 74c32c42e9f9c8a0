import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile, type TenantFileInput } from '../../src/features/tenants/tenant-file.ts';
import { signInAs, userClient } from '../support/db-clients.ts';
import { randomSlug } from './fixtures.ts';

// A chamber's staff maintain its businesses in the database, through save_business and its
// neighbours, with their own tokens: what a role may change is refused by Postgres, a field
// someone else changed since is a conflict, every change is audited and kept through imports.

const stack = inject('stack');
const db = new pg.Client({ connectionString: stack.databaseUrl });
const service = createClient(stack.supabaseUrl, stack.serviceKey, {
	auth: { persistSession: false },
});
const PASSWORD = 'business-admin-password';
const slug = randomSlug('biz');
const otherSlug = randomSlug('biz-other');
const users = {
	admin: `admin@${slug}.test`,
	admin2: `admin2@${slug}.test`,
	editor: `editor@${slug}.test`,
	otherAdmin: `admin@${otherSlug}.test`,
};
let tenantId: string;
let otherTenantId: string;
const clients: Record<keyof typeof users, ReturnType<typeof userClient>> = {} as never;

const business = (id: string, name: string, extra: object = {}) => ({
	weblink_profile_id: id,
	report_name: name,
	city: 'Lakeside',
	website: 'https://example.org',
	categories: ['Food'],
	listings: [{ description: '<p>Fresh bread</p>', categories: ['Food'] }],
	social_media: [{ platform: 'Facebook', url: 'https://facebook.com/bakery' }],
	...extra,
});

function file(businesses: object[]): TenantFileInput {
	return {
		tenant: { slug, name: `Chamber ${slug}` },
		businesses,
		users: [
			{ email: users.admin, password: PASSWORD, role: 'admin' },
			{ email: users.admin2, password: PASSWORD, role: 'admin' },
			{ email: users.editor, password: PASSWORD, role: 'editor' },
		],
	} as TenantFileInput;
}

async function businessId(weblinkId: string): Promise<string> {
	const { rows } = await db.query(
		'select id from public.profiles where tenant_id = $1 and weblink_profile_id = $2',
		[tenantId, weblinkId],
	);
	return rows[0].id;
}

async function row(id: string) {
	const { rows } = await db.query(
		`select version, published, removed_at, website, city, report_name, updated_by,
			(select jsonb_agg(s.url order by s.position) from public.social_media s where s.profile_id = p.id) as social
		from public.profiles p where id = $1`,
		[id],
	);
	return rows[0];
}

const save = (
	who: keyof typeof users,
	id: string | null,
	changes: object,
	version: number,
	tenant = tenantId,
) =>
	clients[who].rpc('save_business', {
		p_tenant_id: tenant,
		p_business_id: id,
		p_changes: changes,
		p_version: version,
	});

beforeAll(async () => {
	await db.connect();
	tenantId = (
		await importTenant(service, parseTenantFile(file([business('9001', 'Lakeside Bakery')]), 'x'))
	).tenant_id;
	otherTenantId = (
		await importTenant(
			service,
			parseTenantFile(
				{
					tenant: { slug: otherSlug, name: 'Other chamber' },
					users: [{ email: users.otherAdmin, password: PASSWORD, role: 'admin' }],
				},
				'x',
			),
		)
	).tenant_id;
	for (const [who, email] of Object.entries(users)) {
		clients[who as keyof typeof users] = userClient(stack, await signInAs(stack, email, PASSWORD));
	}
});

afterAll(async () => {
	await db.query('delete from public.tenants where id = any($1)', [[tenantId, otherTenantId]]);
	await db.query(`delete from auth.users where email like any($1)`, [
		[`%@${slug}.test`, `%@${otherSlug}.test`],
	]);
	await db.end();
});

describe('who may change what, refused by Postgres', () => {
	it('an admin changes any field; the version goes up, the change is audited and kept as staff’s', async () => {
		const id = await businessId('9001');
		const before = await row(id);
		const { data, error } = await save(
			'admin',
			id,
			{ website: 'https://bakery.example' },
			before.version,
		);
		expect(error).toBeNull();
		expect(data).toEqual({ id, version: before.version + 1 });
		expect(await row(id)).toMatchObject({
			website: 'https://bakery.example',
			version: before.version + 1,
			updated_by: users.admin,
		});
		const { rows: audit } = await db.query(
			`select actor_email, section, field, old_value, new_value from public.audit_log
			where business_id = $1 order by id desc limit 1`,
			[id],
		);
		expect(audit[0]).toEqual({
			actor_email: users.admin,
			section: 'business',
			field: 'website',
			old_value: 'https://example.org',
			new_value: 'https://bakery.example',
		});
		const { rows: overrides } = await db.query(
			'select field, changed_by from public.business_overrides where profile_id = $1',
			[id],
		);
		expect(overrides).toEqual([{ field: 'website', changed_by: users.admin }]);
	});

	it('an editor changes the descriptive content only, and adds or removes nothing', async () => {
		const id = await businessId('9001');
		const { version } = await row(id);
		const social = [{ platform: 'Instagram', url: 'https://instagram.com/bakery' }];
		expect((await save('editor', id, { social_media: social }, version)).error).toBeNull();
		expect((await row(id)).social).toEqual(['https://instagram.com/bakery']);
		for (const changes of [{ report_name: 'Renamed' }, { published: false }, { categories: [] }]) {
			const { error } = await save('editor', id, changes, version + 1);
			expect(error?.code, JSON.stringify(changes)).toBe('42501');
		}
		expect((await save('editor', null, { report_name: 'New' }, 0)).error?.code).toBe('42501');
		const removed = await clients.editor.rpc('remove_business', {
			p_tenant_id: tenantId,
			p_business_id: id,
		});
		expect(removed.error?.code).toBe('42501');
		expect((await row(id)).report_name).toBe('Lakeside Bakery');
	});

	it('another chamber’s admin reaches nothing, and nobody writes the tables directly', async () => {
		const id = await businessId('9001');
		const { version } = await row(id);
		expect((await save('otherAdmin', id, { city: 'Elsewhere' }, version)).error?.code).toBe(
			'42501',
		);
		// Their own chamber, with this chamber's business id: no such business there.
		expect(
			(await save('otherAdmin', id, { city: 'Elsewhere' }, version, otherTenantId)).error?.code,
		).toBe('P0002');
		const direct = await clients.admin
			.from('profiles')
			.update({ city: 'Direct' })
			.eq('id', id)
			.select();
		expect(direct.data ?? []).toEqual([]);
		expect((await row(id)).city).toBe('Lakeside');
	});
});

describe('versions: no lost edits', () => {
	it('a field someone else changed since is a conflict naming their value, who and when; other fields merge', async () => {
		const id = await businessId('9001');
		const { version } = await row(id);
		expect((await save('admin2', id, { city: 'Riverside' }, version)).error).toBeNull();
		const conflict = await save('admin', id, { city: 'Hilltop' }, version);
		expect(conflict.error?.code).toBe('PT409');
		const detail = JSON.parse(conflict.error!.details);
		expect(detail).toMatchObject({
			version: version + 1,
			conflicts: [{ field: 'city', value: 'Riverside', changedBy: users.admin2 }],
		});
		expect(Date.parse(detail.conflicts[0].changedAt)).not.toBeNaN();
		// A different field, from the same old version: merged.
		expect((await save('admin', id, { address1: '1 Main St' }, version)).error).toBeNull();
		expect(await row(id)).toMatchObject({ city: 'Riverside', version: version + 2 });
	});
});

describe('add, remove, restore', () => {
	it('an admin adds a business; removing it unpublishes it and keeps it 30 days, restorable', async () => {
		const { data, error } = await save(
			'admin',
			null,
			{ report_name: 'Corner Café', city: 'Lakeside' },
			0,
		);
		expect(error).toBeNull();
		const id = data.id as string;
		expect(await row(id)).toMatchObject({ report_name: 'Corner Café', published: true });
		const rpc = (name: string) =>
			clients.admin.rpc(name, { p_tenant_id: tenantId, p_business_id: id });
		expect((await rpc('remove_business')).error).toBeNull();
		const removed = await row(id);
		expect(removed.published).toBe(false);
		expect(removed.removed_at).not.toBeNull();
		// Visitors no longer see it.
		const anon = createClient(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
		});
		expect((await anon.rpc('business_document', { p_profile_id: id })).error?.code).toBe('42501');
		expect((await rpc('restore_business')).error).toBeNull();
		expect(await row(id)).toMatchObject({ published: true, removed_at: null });
		// Past 30 days a removal is final.
		expect((await rpc('remove_business')).error).toBeNull();
		await db.query(
			`update public.profiles set removed_at = now() - interval '31 days' where id = $1`,
			[id],
		);
		expect((await rpc('restore_business')).error?.code).toBe('P0002');
	});
});

describe('imports and overrides', () => {
	it('a re-import keeps what staff changed, keeps removed businesses removed and staff-added ones', async () => {
		const bakery = await businessId('9001');
		const { data: added } = await save('admin', null, { report_name: 'Staff Added' }, 0);
		// The membership system still has the old website and city, and new social links.
		await importTenant(
			service,
			parseTenantFile(
				file([
					business('9001', 'Lakeside Bakery', {
						city: 'Lakeside',
						website: 'https://example.org',
						work_phone: '555-0100',
						social_media: [{ platform: 'Facebook', url: 'https://facebook.com/new' }],
					}),
				]),
				'x',
			),
		);
		const after = await row(bakery);
		// website and city: changed here; social links: the editor's; the phone: the system's.
		expect(after).toMatchObject({ website: 'https://bakery.example', city: 'Riverside' });
		expect(after.social).toEqual(['https://instagram.com/bakery']);
		const { rows } = await db.query('select work_phone from public.profiles where id = $1', [
			bakery,
		]);
		expect(rows[0].work_phone).toBe('555-0100');
		expect(await row(added.id)).toMatchObject({ report_name: 'Staff Added' });
		// Taking the system's value back: the next import sets it.
		expect(
			(
				await clients.admin.rpc('clear_business_override', {
					p_tenant_id: tenantId,
					p_business_id: bakery,
					p_field: 'website',
				})
			).error,
		).toBeNull();
		await importTenant(service, parseTenantFile(file([business('9001', 'Lakeside Bakery')]), 'x'));
		expect((await row(bakery)).website).toBe('https://example.org');
	});
});
