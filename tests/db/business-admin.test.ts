// Runs on: hosted — save_business and its neighbours are SQL: proved on the production shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import { businessDatabaseRules } from '../../src/features/members/database-rules.ts';
import {
	BUSINESS_FIELDS,
	EDITOR_FIELDS,
	LIST_FIELDS,
	SCALAR_FIELDS,
	parseBusinessChanges,
	type MemberListResult,
} from '../../src/features/members/members.ts';
import type { Args, Json } from '../../src/lib/database.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { openingHoursSchema } from '../../src/features/business/hours/hours.ts';
import { parseTenantFile, type TenantFileInput } from '../../src/features/tenants/tenant-file.ts';
import { dataOf, signInAs, userClient, type JsonObject } from '../support/db-clients.ts';
import { randomSlug } from './fixtures.ts';

// A chamber's staff maintain its businesses in the database, through save_business and its
// neighbours, with their own tokens: what a role may change is refused by Postgres, a field
// someone else changed since is a conflict, every change is audited and kept through imports.

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

/** The chamber's file with the bakery as the membership system has it, with these changes. */
const file9001 = (extra: object) => file([business('9001', 'Lakeside Bakery', extra)]);

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
	changes: JsonObject,
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
		).toBe('PT404');
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
		const { id } = dataOf(
			await save('admin', null, { report_name: 'Corner Café', city: 'Lakeside' }, 0),
		);
		expect(await row(id)).toMatchObject({ report_name: 'Corner Café', published: true });
		const rpc = (name: 'remove_business' | 'restore_business') =>
			clients.admin.rpc(name, { p_tenant_id: tenantId, p_business_id: id });
		expect((await rpc('remove_business')).error).toBeNull();
		const removed = await row(id);
		expect(removed.published).toBe(false);
		expect(removed.removed_at).not.toBeNull();
		// Visitors no longer see it.
		expect((await anon.rpc('business_document', { p_profile_id: id })).error?.code).toBe('42501');
		expect((await rpc('restore_business')).error).toBeNull();
		expect(await row(id)).toMatchObject({ published: true, removed_at: null });
		// Past 30 days a removal is final.
		expect((await rpc('remove_business')).error).toBeNull();
		await db.query(
			`update public.profiles set removed_at = now() - interval '31 days' where id = $1`,
			[id],
		);
		expect((await rpc('restore_business')).error?.code).toBe('PT404');
	});
});

describe('imports and overrides', () => {
	it('a re-import keeps what staff changed, keeps removed businesses removed and staff-added ones', async () => {
		const bakery = await businessId('9001');
		const added = dataOf(await save('admin', null, { report_name: 'Staff Added' }, 0));
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

describe('the rules, in the database as in the app', () => {
	it('are the zod schemas’ (a schema change needs a migration: node scripts/business-rules.ts)', async () => {
		const { rows } = await db.query(
			`select public.business_rules() as rules, public.business_scalar_fields() as scalars,
				public.business_list_fields() as lists, public.business_editor_fields() as editor`,
		);
		expect(rows[0].rules).toEqual(businessDatabaseRules());
		expect(rows[0].scalars).toEqual([...SCALAR_FIELDS]);
		expect(rows[0].lists).toEqual([...LIST_FIELDS]);
		expect([...rows[0].editor].sort()).toEqual([...EDITOR_FIELDS].sort());
	});

	it('refuse, by both, a value of the wrong type or one character too long, naming the field', async () => {
		const id = await businessId('9001');
		const cases: [string, Json][] = [
			['city', 'x'.repeat(201)],
			['website', 'x'.repeat(2001)],
			['featured', 'yes'],
			['categories', ['Food', 7]],
			['listing_position', 1.5],
			['member_since_date', 'yesterday'],
			['social_media', [{ platform: 'Facebook' }]],
			['web_content', [{ content_title: 'x' }]],
			['listings', [{ description: 'x'.repeat(50_001) }]],
			['location', { latitude: 90.000001, longitude: 0 }],
			['location', { latitude: 41.9, longitude: -180.5 }],
			['location', { latitude: '41.9', longitude: -91.6 }],
			['location', { latitude: 41.9 }],
		];
		for (const [field, value] of cases) {
			expect(parseBusinessChanges({ [field]: value }).ok, field).toBe(false);
			const { version } = await row(id);
			const { error } = await save('admin', id, { [field]: value }, version);
			expect(error?.code, field).toBe('22023');
			expect(error?.message, field).toMatch(new RegExp(`^${field}`));
		}
		// The longest value both accept is saved.
		const { version } = await row(id);
		const longest = 'x'.repeat(200);
		expect(parseBusinessChanges({ county: longest }).ok).toBe(true);
		expect((await save('admin', id, { county: longest }, version)).error).toBeNull();
		expect(BUSINESS_FIELDS.length).toBe(26);
	});

	it('hold opening hours to one shape: saved as the app reads them, a bad value refused by the check even from the service role', async () => {
		const id = await businessId('9001');
		const hours = openingHoursSchema.parse('Mon-Fri 9:00-17:00; Sat 10:00-14:00; By appointment');
		const { version } = await row(id);
		expect((await save('admin', id, { hours }, version)).error).toBeNull();
		const { data: document } = await service.rpc('business_document', { p_profile_id: id });
		expect((document as { hours?: unknown }).hours).toEqual(hours);

		// Through save_business: the field's problem, named.
		const overlapping = {
			...hours,
			tue: [
				{ open: '09:00', close: '13:00' },
				{ open: '12:00', close: '17:00' },
			],
		};
		expect(openingHoursSchema.safeParse(overlapping).success).toBe(false);
		const refused = await save('admin', id, { hours: overlapping }, (await row(id)).version);
		expect(refused.error?.code).toBe('22023');
		expect(refused.error?.message).toBe(
			'hours: tue[1]: times of a day must be in order and not overlap',
		);

		// Written past every function, by the service role and by the database's owner: the check.
		for (const bad of [
			{ mon: [{ open: '9:00', close: '17:00' }] },
			{ mon: [{ open: '09:00', close: '09:00' }] },
			{ monday: [] },
			{ note: 'x'.repeat(201) },
			'Mon-Fri 9-5',
		]) {
			expect(openingHoursSchema.safeParse(bad).success && typeof bad !== 'string').toBe(false);
			const { error } = await service.from('profiles').update({ hours: bad }).eq('id', id);
			expect(error?.code, JSON.stringify(bad)).toBe('23514');
			await expect(
				db.query('update public.profiles set hours = $2 where id = $1', [id, JSON.stringify(bad)]),
			).rejects.toThrow(/profiles_hours_valid/);
		}
		// Cleared by staff: no hours at all (SQL null), not a JSON null.
		expect((await save('admin', id, { hours: null }, (await row(id)).version)).error).toBeNull();
		const { rows: cleared } = await db.query(
			'select hours is null as none from public.profiles where id = $1',
			[id],
		);
		expect(cleared[0].none).toBe(true);
	});
});

describe('what the database keeps of every change', () => {
	it('counts and audits a field the import changes; an unchanged re-import moves nothing', async () => {
		const bakery = await businessId('9001');
		const before = await row(bakery);
		const { rows: stored } = await db.query(
			'select work_phone from public.profiles where id = $1',
			[bakery],
		);
		const file = (phone: string) =>
			file9001({
				work_phone: phone,
				social_media: [{ platform: 'Facebook', url: 'https://facebook.com/new' }],
			});
		await importTenant(service, parseTenantFile(file('555-0199'), 'x'));
		const after = await row(bakery);
		expect(after.version).toBe(before.version + 1);
		expect(after.updated_by).toBe('import');
		const { rows: audit } = await db.query(
			`select actor_email, actor_role, field, old_value, new_value from public.audit_log
			where business_id = $1 order by id desc limit 1`,
			[bakery],
		);
		expect(audit[0]).toEqual({
			actor_email: null,
			actor_role: 'service_role',
			field: 'work_phone',
			old_value: stored[0].work_phone,
			new_value: '555-0199',
		});
		await importTenant(service, parseTenantFile(file('555-0199'), 'x'));
		expect((await row(bakery)).version).toBe(after.version);
	});

	it('keeps the membership system’s value beside a field changed here, and takes it back at once', async () => {
		const bakery = await businessId('9001');
		const { rows } = await db.query(
			`select field, system_value from public.business_overrides where profile_id = $1 order by field`,
			[bakery],
		);
		// The import sent Lakeside, the system's; the editor's social links; county from the rules test.
		expect(rows).toEqual(
			expect.arrayContaining([
				{ field: 'city', system_value: 'Lakeside' },
				{
					field: 'social_media',
					system_value: [{ platform: 'Facebook', url: 'https://facebook.com/new' }],
				},
			]),
		);
		const cleared = dataOf(
			await clients.editor.rpc('clear_business_override', {
				p_tenant_id: tenantId,
				p_business_id: bakery,
				p_field: 'social_media',
			}),
		);
		expect(await row(bakery)).toMatchObject({
			social: ['https://facebook.com/new'],
			version: cleared.version,
			updated_by: users.editor,
		});
		// An editor takes back only what an editor may change.
		const city = await clients.editor.rpc('clear_business_override', {
			p_tenant_id: tenantId,
			p_business_id: bakery,
			p_field: 'city',
		});
		expect(city.error?.code).toBe('42501');
		// Set back to the system's value by hand: the field follows the system again.
		const { version } = await row(bakery);
		expect((await save('admin', bakery, { city: 'Lakeside' }, version)).error).toBeNull();
		const { rows: left } = await db.query(
			`select field from public.business_overrides where profile_id = $1 and field = 'city'`,
			[bakery],
		);
		expect(left).toEqual([]);
	});

	it('lets an editor change a listing’s descriptions, not its categories or keywords', async () => {
		const bakery = await businessId('9001');
		const { version } = await row(bakery);
		const listing = { description: '<p>Fresh bread</p>', categories: ['Food'] };
		const described = [{ ...listing, description: '<p>Sourdough daily</p>' }];
		expect((await save('editor', bakery, { listings: described }, version)).error).toBeNull();
		for (const listings of [
			[{ ...listing, categories: ['Bakery'] }],
			[{ ...listing, keywords: 'cakes' }],
			[listing, listing],
		]) {
			const { error } = await save('editor', bakery, { listings }, version + 1);
			expect(error?.code, JSON.stringify(listings)).toBe('42501');
		}
		const { rows } = await db.query(
			'select description, categories from public.listings where profile_id = $1',
			[bakery],
		);
		expect(rows).toEqual([{ description: '<p>Sourdough daily</p>', categories: ['Food'] }]);
	});
});

describe('the Members tab’s reads', () => {
	it('pages every business of the chamber by name, filtered, for its staff only', async () => {
		type Filters = Omit<Args<'admin_list_businesses'>, 'p_tenant_id'>;
		const list = (who: keyof typeof users, args: Filters = {}, tenant = tenantId) =>
			clients[who].rpc('admin_list_businesses', { p_tenant_id: tenant, ...args });
		const all = dataOf(await list('editor'));
		const names = (result: MemberListResult) => result.businesses.map((b) => b.name);
		expect(all.total).toBeGreaterThanOrEqual(2);
		expect(names(all)).toEqual([...names(all)].sort((a, b) => a.localeCompare(b)));
		const found = dataOf(await list('admin', { p_query: 'KESIDE BAK' }));
		expect(names(found)).toEqual(['Lakeside Bakery']);
		expect(found.businesses[0]).toMatchObject({
			level: 'Member',
			categories: ['Food'],
			status: 'published',
		});
		expect(dataOf(await list('admin', { p_query: '%' })).total).toBe(0);
		expect(names(dataOf(await list('admin', { p_category: 'Food' })))).toContain('Lakeside Bakery');
		expect(dataOf(await list('admin', { p_level: 'Gold' })).total).toBe(0);
		expect(dataOf(await list('admin', { p_status: 'removed' })).businesses).toEqual([]);
		const page = dataOf(await list('admin', { p_limit: 1, p_offset: 1 }));
		expect(page.businesses).toHaveLength(1);
		expect(page.total).toBe(all.total);
		expect((await list('otherAdmin')).error?.code).toBe('42501');
		expect((await list('admin', { p_status: 'gone' })).error?.code).toBe('22023');
	});

	it('opens one business with its version and overrides; never another chamber’s', async () => {
		const bakery = await businessId('9001');
		const detail = dataOf(
			await clients.editor.rpc('admin_business', {
				p_tenant_id: tenantId,
				p_business_id: bakery,
			}),
		);
		expect(detail).toMatchObject({
			version: (await row(bakery)).version,
			status: 'published',
			removedAt: null,
			business: { id: bakery, weblink_profile_id: '9001', report_name: 'Lakeside Bakery' },
		});
		expect(Object.keys(detail.business).sort()).toEqual(
			['id', 'weblink_profile_id', ...BUSINESS_FIELDS].sort(),
		);
		expect(detail.overrides.map((o) => o.field)).toContain('address1');
		const other = await clients.otherAdmin.rpc('admin_business', {
			p_tenant_id: otherTenantId,
			p_business_id: bakery,
		});
		expect(other.error?.code).toBe('PT404');
		expect(other.data).toBeNull();
	});
});

describe('addresses of listings that left the site', () => {
	/** The answer, or the error's message (a visitor's request must never make one). */
	const gone = async (key: string) => {
		const { data, error } = await anon.rpc('business_gone', { p_tenant_id: tenantId, p_key: key });
		return error ? error.message : data;
	};

	it('are gone (410) for an unpublished or removed business, not for a published or unknown one', async () => {
		const bakery = await businessId('9001');
		expect(await gone(bakery)).toBe(false);
		expect(await gone('9001')).toBe(false);
		expect(await gone('00000000-0000-4000-8000-000000000000')).toBe(false);
		const { id } = dataOf(
			await save(
				'admin',
				null,
				{ report_name: 'Gone Soon', weblink_profile_id: '0777', published: false },
				0,
			),
		);
		expect(await gone(id)).toBe(true);
		expect(await gone('777')).toBe(true);
		expect(await gone('00777')).toBe(true);
		// Another chamber's: not this chamber's address at all.
		expect((await anon.rpc('business_gone', { p_tenant_id: otherTenantId, p_key: id })).data).toBe(
			false,
		);
	});

	it('are gone by membership-system id in a chamber of thousands, with the plan kept for any key', async () => {
		await save(
			'admin',
			null,
			{ report_name: 'Gone Too', weblink_profile_id: '0888', published: false },
			0,
		);
		// A chamber of thousands, and the plan a session keeps once it has answered a few keys
		// (one for any key): the key is looked up by both indexes at once, so a key that is no
		// id must never reach the id's comparison.
		await db.query(
			`insert into public.profiles (tenant_id, report_name, weblink_profile_id)
			select $1, 'Filler ' || g, (500000 + g)::text from generate_series(1, 5000) g`,
			[tenantId],
		);
		await db.query('analyze public.profiles');
		await db.query('begin');
		try {
			await db.query('set local plan_cache_mode = force_generic_plan');
			const answer = async (key: string) =>
				(await db.query('select public.business_gone($1, $2) as gone', [tenantId, key])).rows[0]
					.gone;
			expect(await answer('888')).toBe(true);
			expect(await answer('00888')).toBe(true);
			expect(await answer('500001')).toBe(false);
			expect(await answer('not-an-id')).toBe(false);
		} finally {
			await db.query('rollback');
			await db.query(
				`delete from public.profiles where tenant_id = $1 and report_name like 'Filler %'`,
				[tenantId],
			);
			await db.query('analyze public.profiles');
		}
	});

	it('a member added with the membership system’s id is the one its next import updates', async () => {
		const { id } = dataOf(
			await save('admin', null, { report_name: 'Hilltop Hardware', weblink_profile_id: '9100' }, 0),
		);
		expect(id).toBe(await businessId('9100'));
		const dup = await save('admin', null, { report_name: 'Again', weblink_profile_id: '9100' }, 0);
		expect(dup.error?.code).toBe('23505');
		await importTenant(
			service,
			parseTenantFile(
				file([business('9001', 'Lakeside Bakery'), business('9100', 'Hilltop Hardware Co.')]),
				'x',
			),
		);
		expect((await row(id)).report_name).toBe('Hilltop Hardware Co.');
	});

	it('a removed business cannot be changed until restored, and stays removed through an import', async () => {
		const hardware = await businessId('9100');
		const removed = dataOf(
			await clients.admin.rpc('remove_business', {
				p_tenant_id: tenantId,
				p_business_id: hardware,
			}),
		);
		const { version } = await row(hardware);
		expect(version).toBe(removed.version);
		expect((await save('admin', hardware, { city: 'X' }, version)).error?.code).toBe('PT409');
		await importTenant(
			service,
			parseTenantFile(
				file([
					business('9001', 'Lakeside Bakery'),
					business('9100', 'Hilltop Hardware Co.', { city: 'Hilltop' }),
				]),
				'x',
			),
		);
		expect(await row(hardware)).toMatchObject({ published: false, city: 'Hilltop' });
		expect((await row(hardware)).removed_at).not.toBeNull();
		const { rows: audit } = await db.query(
			`select field, old_value, new_value from public.audit_log
			where business_id = $1 and field in ('removed', 'published') order by id`,
			[hardware],
		);
		expect(audit).toEqual([{ field: 'removed', old_value: false, new_value: true }]);
		await clients.admin.rpc('restore_business', { p_tenant_id: tenantId, p_business_id: hardware });
		expect(await row(hardware)).toMatchObject({ published: true, removed_at: null });
	});
});
