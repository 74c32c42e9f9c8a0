import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';

// Issue 10: the API roles hold only the table privileges PostgREST needs, and the directory
// reads anon can call are bounded.

const stack = inject('stack');
const db = new pg.Client({ connectionString: stack.databaseUrl });
const service = createClient(stack.supabaseUrl, stack.serviceKey, {
	auth: { persistSession: false },
});
const anon = createClient(stack.supabaseUrl, stack.anonKey, { auth: { persistSession: false } });
let fx: DirectoryFixture;

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, { prefix: 'priv' });
});
afterAll(async () => {
	await removeDirectoryTenants(db, fx);
	await db.end();
});

describe('table privileges of anon and authenticated', () => {
	it('never include TRUNCATE, TRIGGER or REFERENCES on a public table or view', async () => {
		const { rows } = await db.query(`
			select c.relname, r.role, p.privilege
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			cross join (values ('TRUNCATE'), ('TRIGGER'), ('REFERENCES')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
				and has_table_privilege(r.role, c.oid, p.privilege)
			order by 1, 2, 3`);
		expect(rows).toEqual([]);
	});

	it('include a write only where a policy lets that role write', async () => {
		const { rows } = await db.query(`
			select c.relname, r.role, p.privilege
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			cross join (values ('INSERT'), ('UPDATE'), ('DELETE')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p')
				and has_table_privilege(r.role, c.oid, p.privilege)
				and not exists (
					select 1 from pg_policies pol
					where pol.schemaname = 'public' and pol.tablename = c.relname
						and pol.cmd in ('ALL', p.privilege)
						and (r.role = any (pol.roles) or 'public' = any (pol.roles))
				)
			order by 1, 2, 3`);
		expect(rows).toEqual([]);
		// Visitors write nothing at all.
		const { rows: anonWrites } = await db.query(`
			select c.relname, p.privilege
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('INSERT'), ('UPDATE'), ('DELETE')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p', 'v')
				and has_table_privilege('anon', c.oid, p.privilege)`);
		expect(anonWrites).toEqual([]);
	});

	it('give tables created later nothing until their migration grants it', async () => {
		await db.query('create table public.privileges_probe (id int)');
		try {
			const { rows } = await db.query(`
				select has_table_privilege('anon', 'public.privileges_probe', 'SELECT') as anon,
					has_table_privilege('authenticated', 'public.privileges_probe', 'SELECT') as authenticated`);
			expect(rows).toEqual([{ anon: false, authenticated: false }]);
		} finally {
			await db.query('drop table public.privileges_probe');
		}
	});
});

describe('directory reads anon can call', () => {
	it('answer at most 100 rows a page, whatever p_limit asks', async () => {
		const { data, error } = await anon.rpc('search_businesses', {
			p_tenant_id: fx.a.id,
			p_limit: 100_000,
		});
		expect(error).toBeNull();
		const { rows } = await db.query(
			'select count(*)::int as n from public.profiles where tenant_id = $1 and published',
			[fx.a.id],
		);
		expect((data as unknown[]).length).toBe(Math.min(100, rows[0].n as number));
		const page = await anon.rpc('directory_page', { p_tenant_id: fx.a.id, p_limit: 5000 });
		expect(page.error).toBeNull();
		expect((page.data as unknown[]).length).toBeLessThanOrEqual(100);
	});

	it('cut a long query instead of running it, and keep the unbounded body from anon', async () => {
		const long = await anon.rpc('search_businesses', {
			p_tenant_id: fx.a.id,
			p_search_query: 'plumbing '.repeat(2000),
		});
		expect(long.error).toBeNull();
		const direct = await anon.rpc('directory_page_unbounded', {
			p_tenant_id: fx.a.id,
			p_limit: 5000,
		});
		expect(direct.error?.message).toMatch(/permission denied/);
	});
});
