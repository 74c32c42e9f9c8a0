import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Json } from '../../src/lib/database.ts';
import { anon, db, service } from './clients.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';

// The API roles hold only the table and function privileges PostgREST needs, the
// directory reads anon can call are bounded, and PostgREST answers at most 1000 rows.

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
	/**
	 * Which of `privileges` anon or authenticated hold on public relations of the `kinds`
	 * (pg_class.relkind), except where `excused` (SQL on c, r.role and p.privilege) holds.
	 */
	async function held(privileges: string[], kinds: string[], excused = 'false') {
		const { rows } = await db.query(
			`select c.relname, r.role, p.privilege
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			cross join unnest($1::text[]) p(privilege)
			where n.nspname = 'public' and c.relkind::text = any($2)
				and has_table_privilege(r.role, c.oid, p.privilege)
				and not (${excused})
			order by 1, 2, 3`,
			[privileges, kinds],
		);
		return rows;
	}

	it('never include TRUNCATE, TRIGGER or REFERENCES on a public table or view', async () => {
		expect(await held(['TRUNCATE', 'TRIGGER', 'REFERENCES'], ['r', 'p', 'v', 'm'])).toEqual([]);
	});

	it('include a write only where a policy lets that role write', async () => {
		const policyLetsWrite = `exists (
			select 1 from pg_policies pol
			where pol.schemaname = 'public' and pol.tablename = c.relname
				and pol.cmd in ('ALL', p.privilege)
				and (r.role = any (pol.roles) or 'public' = any (pol.roles))
		)`;
		expect(await held(['INSERT', 'UPDATE', 'DELETE'], ['r', 'p'], policyLetsWrite)).toEqual([]);
		// Visitors write nothing at all.
		const { rows: anonWrites } = await db.query(`
			select c.relname, p.privilege
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('INSERT'), ('UPDATE'), ('DELETE')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p', 'v')
				and has_table_privilege('anon', c.oid, p.privilege)`);
		expect(anonWrites).toEqual([]);
	});

	it('never let them draw from a sequence: their inserts fill identity columns without one', async () => {
		const { rows } = await db.query(`
			select c.relname, r.role
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			where n.nspname = 'public' and c.relkind = 'S'
				and has_sequence_privilege(r.role, c.oid, 'USAGE, SELECT, UPDATE')
			order by 1, 2`);
		expect(rows).toEqual([]);
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

/**
 * Columns visitors may not read, with why. A table anon reads column by column (profiles) gives a
 * column added later to nobody until its migration grants it: each column is either granted or
 * listed here.
 */
const PRIVATE_COLUMNS: Record<string, string> = {
	'profiles.email':
		"the business's address: only the contact function reads it, by the business's id",
	'profiles.field_versions': "the Members tab's conflict check, for staff only",
	'profiles.published_before_removal': 'what a restore brings back, for staff only',
	'profiles.removed_at': 'a removed listing is gone for visitors; when is for staff',
	'profiles.updated_at': "the Members tab's last change, for staff only",
	'profiles.updated_by': 'who changed a listing last: a staff member’s address',
	'profiles.version': "the Members tab's conflict check, for staff only",
};

describe('column privileges of anon', () => {
	it('cover every column of what visitors read, but the private ones', async () => {
		const { rows } = await db.query<{ col: string }>(`
			select c.relname || '.' || a.attname as col
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
			where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
				and has_any_column_privilege('anon', c.oid, 'SELECT')
				and not has_column_privilege('anon', c.oid, a.attnum, 'SELECT')
			order by 1`);
		expect(rows.map((r) => r.col)).toEqual(Object.keys(PRIVATE_COLUMNS).sort());
	});

	it('let visitors read every column of every view they may read', async () => {
		const { rows: views } = await db.query<{ name: keyof Database['public']['Views'] }>(`
			select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
			where n.nspname = 'public' and c.relkind in ('v', 'm')
				and has_table_privilege('anon', c.oid, 'SELECT')
			order by 1`);
		expect(views.length).toBeGreaterThan(0);
		for (const { name } of views) {
			// A view that reads its tables as the caller fails on a column anon was not granted.
			const { error } = await anon.from(name).select('*').limit(1);
			expect(error, name).toBeNull();
		}
	});
});

describe('directory reads anon can call', () => {
	it('answer at most 100 rows a page, whatever p_limit asks', async () => {
		// More published businesses than a page may hold, made in one statement.
		await db.query(
			`insert into public.profiles (tenant_id, report_name, weblink_profile_id)
			select $1, 'Bulk Business ' || g, 'bulk-' || g from generate_series(1, 120) g`,
			[fx.a.id],
		);
		try {
			for (const [fn, args] of [
				['search_businesses', {}],
				['directory_page', {}],
				['get_businesses_with_listing_position', { p_sort_direction: 'asc' }],
				['get_businesses_with_listing_position_randomized', { p_seed: 0.3 }],
			] as const) {
				const { data, error } = await anon.rpc(fn, {
					p_tenant_id: fx.a.id,
					p_limit: 100_000,
					...args,
				});
				expect(error, fn).toBeNull();
				expect((data as unknown[]).length, fn).toBe(100);
			}
		} finally {
			await db.query(
				`delete from public.profiles where tenant_id = $1 and weblink_profile_id like 'bulk-%'`,
				[fx.a.id],
			);
		}
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

/**
 * Functions of ours a role may execute: the project's schemas, not Postgres's own, the
 * extensions' or Supabase's (auth, storage and the rest are the platform's, as it defines them).
 */
async function executableBy(role: string): Promise<string[]> {
	const { rows } = await db.query<{ fn: string }>(
		`select n.nspname || '.' || p.proname as fn
		from pg_proc p
		join pg_namespace n on n.oid = p.pronamespace
		where n.nspname in ('public', 'auth_guard')
			and not exists (
				select 1 from pg_depend d
				where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
			)
			and has_function_privilege($1, p.oid, 'EXECUTE')
		order by 1`,
		[role],
	);
	return rows.map((r) => r.fn);
}

// PostgREST's pre-request check, which runs as the request's role.
const SUPABASE_HELPERS = ['auth_guard.check_session'];

// What the public site calls (directory.server.ts) and what those reach as invoker
// functions: get_filter_options → matching_profiles → directory_match_sql, search_tsquery.
const VISITOR_FUNCTIONS = [
	// Whether an old profile address answers 410 Gone (business-legacy).
	'public.business_gone',
	'public.count_businesses_with_category',
	'public.directory_match_sql',
	'public.directory_page',
	'public.featured_business_candidates',
	'public.get_affiliation_counts',
	'public.get_businesses_with_listing_position',
	'public.get_businesses_with_listing_position_randomized',
	'public.get_filter_options',
	// The levels of published businesses under RLS, which a direct read of profiles shows
	// visitors anyway.
	'public.get_membership_levels',
	'public.list_categories',
	'public.matching_profiles',
	// The monthly statistics e-mail's opt-out link; the random token is its only key.
	'public.member_report_opt_out',
	'public.search_businesses',
	'public.search_tsquery',
	// The chamber's own events as the calendars, the event pages and the .ics files read them
	// (published and cancelled ones only).
	'public.public_chamber_event',
	'public.public_chamber_events',
];

// The admin panel's calls, the staff policies' check and the configuration trigger's helpers.
const STAFF_FUNCTIONS = [
	'public.admin_business',
	'public.admin_list_businesses',
	// Scheduled publishing: the insert trigger tries a change as the inserting user; Cancel.
	'public.apply_scheduled_change',
	'public.bump_cache_version',
	'public.business_stats_report',
	'public.business_stats_totals',
	'public.cancel_scheduled_publish',
	'public.clear_business_override',
	// Versioned saves: the versions and the conflict check.
	'public.config_conflicts',
	'public.config_section_name',
	'public.config_section_names',
	'public.config_section_version',
	'public.config_versions',
	'public.create_member_import',
	'public.discard_member_import',
	'public.editor_feature_keys',
	'public.expire_publishes',
	'public.has_tenant_role',
	'public.may_change_business_field',
	'public.may_import_members',
	'public.may_manage_logo',
	'public.may_upload_import',
	'public.member_import_preview',
	'public.member_import_targets',
	'public.remove_business',
	'public.request_member_import_apply',
	'public.request_publish',
	'public.restore_business',
	'public.save_business',
	'public.set_chamber_logo',
	'public.submit_member_import_mapping',
	'public.tenant_role',
	'public.update_chamber_config',
	// Members updating their own listing: the member's reads and request, the binding check its
	// policies use, and the Requests tab's list, count and decisions.
	'public.approve_member_submission',
	'public.is_business_member',
	'public.may_decide_member_requests',
	'public.member_listing',
	'public.member_request_count',
	'public.member_requests',
	'public.return_member_submission',
	'public.submit_member_changes',
	// The Events tab: the chamber's own events, their dates, feeds and the community's
	// submissions; each function checks the caller's role for the chamber.
	'public.add_event_feed',
	'public.admin_chamber_event',
	'public.admin_list_chamber_events',
	'public.apply_event_feed',
	'public.change_event_occurrence',
	'public.clear_event_override',
	'public.delete_chamber_event',
	'public.duplicate_chamber_event',
	'public.may_change_event_field',
	'public.record_event_feed_error',
	'public.remove_event_feed',
	'public.review_event_submission',
	'public.save_chamber_event',
];

describe('function privileges of anon and authenticated', () => {
	it('let anon execute exactly the directory reads the public site needs', async () => {
		expect(await executableBy('anon')).toEqual([...SUPABASE_HELPERS, ...VISITOR_FUNCTIONS].sort());
	});

	it('let authenticated execute those and the admin panel’s, nothing else', async () => {
		expect(await executableBy('authenticated')).toEqual(
			[...SUPABASE_HELPERS, ...VISITOR_FUNCTIONS, ...STAFF_FUNCTIONS].sort(),
		);
	});

	it('refuse a revoked function called through PostgREST with the anon key', async () => {
		for (const [fn, args] of [
			['has_tenant_role', { check_tenant_id: fx.a.id }],
			[
				'membership_rank',
				{ p_level_name: 'Trustee', p_given_rank: null, p_hierarchy: [] as Json[] },
			],
			['editor_feature_keys', {}],
		] as const) {
			const { data, error } = await anon.rpc(fn, args);
			expect(data, fn).toBeNull();
			expect(error?.message, fn).toMatch(/permission denied for function/);
		}
		// The same call with the service key works: the function is there, anon may not run it.
		const { data, error } = await service.rpc('membership_rank', {
			p_level_name: 'Trustee',
			p_given_rank: null,
			p_hierarchy: [],
		});
		expect(error).toBeNull();
		expect(data).toBe(4);
	});

	it('give functions created later to the service role only, until their migration grants more', async () => {
		await db.query(
			'create function public.privileges_probe() returns int language sql as $$ select 1 $$',
		);
		try {
			const { rows } = await db.query(`
				select has_function_privilege('anon', 'public.privileges_probe()', 'EXECUTE') as anon,
					has_function_privilege('authenticated', 'public.privileges_probe()', 'EXECUTE') as authenticated,
					has_function_privilege('service_role', 'public.privileges_probe()', 'EXECUTE') as service_role`);
			expect(rows).toEqual([{ anon: false, authenticated: false, service_role: true }]);
		} finally {
			await db.query('drop function public.privileges_probe()');
		}
	});
});

describe('PostgREST row cap (db-max-rows)', () => {
	it('answers at most 1000 rows however many a visitor may read or asks for', async () => {
		// 1,200 open events: rows anon may read, made in one statement.
		await db.query(
			`insert into public.events (tenant_id, source, event_id, start_utc, end_utc, data)
			select $1, 'community', g, now(), now(), jsonb_build_object('EventId', g)
			from generate_series(1, 1200) g`,
			[fx.a.id],
		);
		try {
			const community = (options?: { count: 'exact' }) =>
				anon
					.from('events')
					.select('event_id', options)
					.eq('tenant_id', fx.a.id)
					.eq('source', 'community');
			const all = await community({ count: 'exact' });
			expect(all.error).toBeNull();
			expect(all.count).toBe(1200);
			expect(all.data).toHaveLength(1000);
			const asked = await community().range(0, 1199);
			expect(asked.error).toBeNull();
			expect(asked.data).toHaveLength(1000);
			// The rest is there, a page further on.
			const next = await community().order('event_id').range(1000, 1199);
			expect(next.data).toHaveLength(200);
		} finally {
			await db.query(`delete from public.events where tenant_id = $1 and source = 'community'`, [
				fx.a.id,
			]);
		}
	});
});
