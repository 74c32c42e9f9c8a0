// Runs on: hosted — the API roles' grants and PostgREST's limits, on the production shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../src/lib/database.ts';
import { anon, db, service, stack } from './clients.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';
import { fixtureToken, removeRlsFixtures, seedRlsFixtures, type RlsFixtures } from './fixtures.ts';

// Functions: which each API role may execute, how their refusals reach a caller of the Data API
// (403 or 404, never a server error), the directory reads anon can call are bounded, and
// PostgREST answers at most 1000 rows. Tables, views and columns: the privilege matrix in
// rls.test.ts.

let fx: DirectoryFixture;
let roles: RlsFixtures;

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, { prefix: 'priv' });
	roles = await seedRlsFixtures(service, db);
});
afterAll(async () => {
	await removeDirectoryTenants(db, fx);
	if (roles) await removeRlsFixtures(db, roles);
	await db.end();
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

	it('answer at most 100 rows a page near a point too, and the map its points as one value', async () => {
		await db.query(
			`insert into public.profiles (tenant_id, report_name, weblink_profile_id, location)
			select $1, 'Bulk Place ' || g, 'bulk-' || g,
				jsonb_build_object('latitude', 41.9 + g / 10000.0, 'longitude', -91.6)
			from generate_series(1, 120) g`,
			[fx.a.id],
		);
		try {
			for (const fn of ['search_businesses_near', 'directory_near_page'] as const) {
				const { data, error } = await anon.rpc(fn, {
					p_tenant_id: fx.a.id,
					p_latitude: 41.9,
					p_longitude: -91.6,
					p_radius_km: 50,
					p_limit: 100_000,
				});
				expect(error, fn).toBeNull();
				expect((data as unknown[]).length, fn).toBe(100);
			}
			// Past PostgREST's 1000 rows: the map's points are one JSON value.
			const { data, error } = await anon.rpc('directory_locations', {
				p_tenant_id: fx.a.id,
				p_latitude: 41.9,
				p_longitude: -91.6,
				p_radius_km: 50,
			});
			expect(error).toBeNull();
			expect(data).toMatchObject({ total: 120, located: 120 });
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
	// The distance search and the map's points, as the caller, and their helpers.
	'public.directory_area',
	'public.directory_area_sql',
	'public.directory_chord_sql',
	'public.directory_locations',
	'public.directory_match_sql',
	'public.directory_near_page',
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
	'public.search_businesses_near',
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
	// A row of a file without ids: the admin chooses its business, a new one, or skip.
	'public.confirm_member_import_row',
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
	// 'Place by the address again': the pin placed by hand goes (admins).
	'public.reset_business_location',
	// Publishing within a budget: the month's publishes for the header and History, and the
	// change a member (its own business's) or staff (their own) leaves waiting for the window.
	'public.collect_publish',
	'public.publish_usage',
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

// --- Refusals through the Data API -----------------------------------------------------------------

/**
 * The HTTP status PostgREST (v12) answers an SQLSTATE with, for the codes it maps (its
 * mapSQLtoHTTP); everything else is 400. 'PGRST' raises choose their own status.
 */
function postgrestStatus(code: string): number {
	if (code === 'PGRST') return 0;
	if (code.startsWith('PT')) return Number(code.slice(2));
	const exact: Record<string, number> = {
		'23503': 409,
		'23505': 409,
		'25006': 405,
		'42501': 403,
		'42883': 404,
		'42P01': 404,
		'42P17': 500,
		'53400': 500,
		'57P01': 503,
		P0001: 400,
	};
	if (code in exact) return exact[code]!;
	const prefixes: [string, number][] = [
		['08', 503],
		['09', 500],
		['0L', 403],
		['0P', 403],
		['25', 500],
		['28', 403],
		['2D', 500],
		['38', 500],
		['39', 500],
		['3B', 500],
		['40', 500],
		['53', 503],
		['54', 500],
		['55', 500],
		['57', 500],
		['58', 500],
		['F0', 500],
		['HV', 500],
		['P0', 500],
		['XX', 500],
	];
	return prefixes.find(([prefix]) => code.startsWith(prefix))?.[1] ?? 400;
}

type Caller = 'memberA' | 'editorA' | 'adminB';

const CALLER_LABELS: Record<Caller, string> = {
	memberA: "the member of A's published business",
	editorA: 'the editor of A',
	adminB: 'the admin of B',
};

/** Rows of chamber A a refused call names. */
interface Targets {
	tenant: string;
	published: string;
	unpublished: string;
	submission: string;
	memberImport: string;
	scheduled: number;
	colorsVersion: number;
	chamberEvent: string;
	eventFeed: string;
	eventSubmission: string;
}

const FROM = '2020-01-01';
const TO = '2099-12-31';

/**
 * Each function signed-in users may execute, called through PostgREST with chamber A's rows by
 * callers it refuses (403 or 404), or whose answer then holds nothing of chamber A (`nothing`,
 * checked on the 200 body). A function a caller may use is not called as that caller.
 */
const REFUSALS: Record<
	string,
	{
		body: (t: Targets) => Record<string, unknown>;
		refused?: readonly Caller[];
		nothing?: { callers: readonly Caller[]; check: (body: unknown) => void };
	}
> = {
	add_event_feed: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_url: 'https://calendar.example.org/taken.ics',
			p_calendar: 'chamber',
			p_name: 'Taken',
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	admin_chamber_event: {
		body: (t) => ({ p_tenant_id: t.tenant, p_event_id: t.chamberEvent }),
		refused: ['memberA', 'adminB'],
	},
	admin_list_chamber_events: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		refused: ['memberA', 'adminB'],
	},
	apply_event_feed: {
		body: (t) => ({ p_feed_id: t.eventFeed, p_events: [], p_dry_run: false }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	change_event_occurrence: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_event_id: t.chamberEvent,
			p_key: 'once',
			p_changes: {},
			p_cancelled: true,
			p_version: 1,
		}),
		refused: ['memberA', 'adminB'],
	},
	clear_event_override: {
		body: (t) => ({ p_tenant_id: t.tenant, p_event_id: t.chamberEvent, p_field: 'name' }),
		refused: ['memberA', 'adminB'],
	},
	delete_chamber_event: {
		body: (t) => ({ p_tenant_id: t.tenant, p_event_id: t.chamberEvent }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	duplicate_chamber_event: {
		body: (t) => ({ p_tenant_id: t.tenant, p_event_id: t.chamberEvent }),
		refused: ['memberA', 'adminB'],
	},
	may_change_event_field: {
		body: (t) => ({ p_tenant_id: t.tenant, p_field: 'featured' }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	record_event_feed_error: {
		body: (t) => ({ p_feed_id: t.eventFeed, p_error: 'Taken over' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	remove_event_feed: {
		body: (t) => ({ p_tenant_id: t.tenant, p_feed_id: t.eventFeed }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	review_event_submission: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_submission_id: t.eventSubmission,
			p_approve: true,
			p_changes: {},
			p_note: '',
		}),
		refused: ['memberA', 'adminB'],
	},
	save_chamber_event: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_event_id: t.chamberEvent,
			p_changes: { name: 'Taken over' },
			p_version: 1,
		}),
		refused: ['memberA', 'adminB'],
	},
	admin_business: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.published }),
		refused: ['memberA', 'adminB'],
	},
	admin_list_businesses: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		refused: ['memberA', 'adminB'],
	},
	apply_scheduled_change: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_kind: 'save',
			p_changes: [
				{ column: 'colors', field: 'primary', value: '#000000', version: t.colorsVersion },
			],
			p_snapshot: null,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	approve_member_submission: {
		body: (t) => ({ p_submission_id: t.submission, p_changes: null, p_version: 1 }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	bump_cache_version: {
		body: (t) => ({ p_tenant_id: t.tenant, p_type: 'config' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	business_stats_report: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.published, p_from: FROM, p_to: TO }),
		nothing: {
			callers: ['editorA', 'adminB'],
			check: (body) => {
				const report = body as { kinds: object; searches: unknown[]; months: { views: number }[] };
				expect(report.kinds).toEqual({});
				expect(report.searches).toEqual([]);
				expect(report.months.every((m) => m.views === 0)).toBe(true);
			},
		},
	},
	business_stats_totals: {
		body: (t) => ({ p_tenant_id: t.tenant, p_from: FROM, p_to: TO }),
		nothing: {
			callers: ['editorA', 'adminB'],
			check: (body) =>
				expect((body as { views: number }[]).filter((row) => row.views > 0)).toEqual([]),
		},
	},
	cancel_scheduled_publish: {
		body: (t) => ({ p_id: t.scheduled }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	clear_business_override: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.published, p_field: 'website' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	// A member collects its own business's change, staff a change of theirs
	// (tests/db/publish-budget.test.ts); a member's collect for a business not its own, a staff
	// member's for a member, another chamber's admin: refused.
	collect_publish: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_source: 'member',
			p_summary: 'Refused',
			p_business_id: t.unpublished,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	config_conflicts: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_column: 'content',
			p_field: 'heroTitle',
			p_value: 'x',
			p_version: 0,
		}),
		refused: ['memberA', 'adminB'],
	},
	// Names of the configuration's sections: the same for everyone, nothing of a chamber.
	config_section_name: { body: () => ({ p_column: 'colors' }) },
	config_section_names: { body: () => ({}) },
	config_section_version: {
		body: (t) => ({ p_tenant_id: t.tenant, p_section: 'content' }),
		refused: ['memberA', 'adminB'],
	},
	// A computed column of chamber_config (read with the row, below): null for anyone but staff.
	config_versions: { body: () => ({}) },
	create_member_import: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_kind: 'file',
			p_source: 'x.csv',
			p_storage_path: `${t.tenant}/x.csv`,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	discard_member_import: {
		body: (t) => ({ p_import_id: t.memberImport }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	editor_feature_keys: { body: () => ({}) },
	expire_publishes: { body: (t) => ({ p_tenant_id: t.tenant }), refused: ['memberA', 'adminB'] },
	has_tenant_role: {
		body: (t) => ({ check_tenant_id: t.tenant }),
		nothing: { callers: ['memberA', 'adminB'], check: (body) => expect(body).toBe(false) },
	},
	is_business_member: {
		body: (t) => ({ check_profile_id: t.published }),
		nothing: { callers: ['editorA', 'adminB'], check: (body) => expect(body).toBe(false) },
	},
	may_change_business_field: {
		body: (t) => ({ p_tenant_id: t.tenant, p_field: 'report_name' }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	may_decide_member_requests: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	may_import_members: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	may_manage_logo: {
		body: (t) => ({ p_bucket_id: 'logos', p_name: `${t.tenant}/logo.png` }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	may_upload_import: {
		body: (t) => ({ p_bucket_id: 'imports', p_name: `${t.tenant}/x.csv` }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(false),
		},
	},
	confirm_member_import_row: {
		body: (t) => ({ p_import_id: t.memberImport, p_row_id: 1, p_choice: 'skip' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	member_import_preview: {
		body: (t) => ({ p_import_id: t.memberImport, p_kind: 'add' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	member_import_targets: { body: () => ({}) },
	member_listing: {
		body: (t) => ({ p_business_id: t.unpublished }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	member_request_count: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		nothing: {
			callers: ['memberA', 'editorA', 'adminB'],
			check: (body) => expect(body).toBe(0),
		},
	},
	member_requests: {
		body: (t) => ({ p_tenant_id: t.tenant }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	remove_business: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.published }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	// Moving pins is for admins: an editor may not take one away either.
	reset_business_location: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.published }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	request_member_import_apply: {
		body: (t) => ({ p_import_id: t.memberImport, p_missing: 'keep' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	publish_usage: { body: (t) => ({ p_tenant_id: t.tenant }), refused: ['memberA', 'adminB'] },
	request_publish: {
		body: (t) => ({ p_tenant_id: t.tenant, p_reason: 'Refused' }),
		refused: ['memberA', 'adminB'],
	},
	restore_business: {
		body: (t) => ({ p_tenant_id: t.tenant, p_business_id: t.unpublished }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	return_member_submission: {
		body: (t) => ({ p_submission_id: t.submission, p_note: 'No' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	save_business: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_business_id: t.published,
			p_changes: { report_name: 'Taken over' },
			p_version: 1,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	set_chamber_logo: {
		body: (t) => ({ p_tenant_id: t.tenant, p_type: 'standard', p_url: 'https://x.example/l.png' }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	submit_member_changes: {
		body: (t) => ({
			p_business_id: t.unpublished,
			p_changes: { website: 'https://taken.example' },
			p_version: 1,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	submit_member_import_mapping: {
		body: (t) => ({ p_import_id: t.memberImport, p_mapping: {} }),
		refused: ['memberA', 'editorA', 'adminB'],
	},
	tenant_role: {
		body: (t) => ({ check_tenant_id: t.tenant }),
		nothing: { callers: ['memberA', 'adminB'], check: (body) => expect(body).toBeNull() },
	},
	update_chamber_config: {
		body: (t) => ({
			p_tenant_id: t.tenant,
			p_column: 'colors',
			p_field: 'primary',
			p_value: '#000000',
			p_version: t.colorsVersion,
		}),
		refused: ['memberA', 'editorA', 'adminB'],
	},
};

describe('refusals through the Data API', () => {
	let targets: Targets;
	const tokens = {} as Record<Caller, string>;

	beforeAll(async () => {
		const one = async (text: string) =>
			(await db.query<{ v: string }>(text, [roles.tenantA.id])).rows[0]!.v;
		targets = {
			tenant: roles.tenantA.id,
			published: roles.tenantA.publishedProfileId,
			unpublished: roles.tenantA.unpublishedProfileId,
			submission: await one(
				`select id::text as v from public.member_submissions where tenant_id = $1 and status = 'pending'`,
			),
			memberImport: await one(
				'select id::text as v from public.member_imports where tenant_id = $1 limit 1',
			),
			scheduled: Number(
				await one('select id::text as v from public.scheduled_publishes where tenant_id = $1'),
			),
			colorsVersion: Number(
				await one(`select public.config_section_version($1, 'colors')::text as v`),
			),
			chamberEvent: await one(
				`select id::text as v from public.chamber_events where tenant_id = $1 and status = 'published'`,
			),
			eventFeed: await one('select id::text as v from public.event_feeds where tenant_id = $1'),
			eventSubmission: await one(
				`select id::text as v from public.event_submissions where tenant_id = $1 and status = 'pending'`,
			),
		};
		tokens.memberA = await fixtureToken(stack, roles.member);
		tokens.editorA = await fixtureToken(stack, roles.users.editorA);
		tokens.adminB = await fixtureToken(stack, roles.users.adminB);
	});

	async function rpc(fn: string, body: object, token: string) {
		const res = await fetch(`${stack.supabaseUrl}/rest/v1/rpc/${fn}`, {
			method: 'POST',
			headers: {
				apikey: stack.anonKey,
				authorization: `Bearer ${token}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
	}

	it('no function of ours raises an SQLSTATE PostgREST answers with a server error', async () => {
		const { rows } = await db.query<{ fn: string; code: string }>(`
			select distinct n.nspname || '.' || p.proname as fn, m[1] as code
			from pg_proc p
			join pg_namespace n on n.oid = p.pronamespace
			cross join lateral regexp_matches(p.prosrc, '(?:errcode\\s*=|sqlstate)\\s*''([0-9A-Z]{5})''', 'gi') m
			where n.nspname in ('public', 'auth_guard')
			order by 1, 2`);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.filter((r) => postgrestStatus(r.code) >= 500)).toEqual([]);
	});

	it('every function signed-in users may execute has its refused callers here', async () => {
		const staff = (await executableBy('authenticated'))
			.filter((fn) => fn.startsWith('public.') && !VISITOR_FUNCTIONS.includes(fn))
			.map((fn) => fn.slice('public.'.length));
		expect(staff).toEqual(Object.keys(REFUSALS).sort());
	});

	for (const [fn, call] of Object.entries(REFUSALS)) {
		for (const caller of call.refused ?? []) {
			it(`${fn} as ${CALLER_LABELS[caller]}: 403 or 404`, async () => {
				const answer = await rpc(fn, call.body(targets), tokens[caller]);
				expect([403, 404], JSON.stringify(answer.body)).toContain(answer.status);
				expect(answer.body).toMatchObject({ code: expect.stringMatching(/^(42501|PT404)$/) });
			});
		}
		for (const caller of call.nothing?.callers ?? []) {
			it(`${fn} as ${CALLER_LABELS[caller]}: answers nothing of chamber A`, async () => {
				const answer = await rpc(fn, call.body(targets), tokens[caller]);
				expect(answer.status, JSON.stringify(answer.body)).toBe(200);
				call.nothing!.check(answer.body);
			});
		}
	}

	it('config_versions, read with the configuration: null for anyone but the chamber’s staff', async () => {
		for (const caller of ['memberA', 'adminB'] as const) {
			const res = await fetch(
				`${stack.supabaseUrl}/rest/v1/chamber_config?tenant_id=eq.${targets.tenant}&select=config_versions`,
				{ headers: { apikey: stack.anonKey, authorization: `Bearer ${tokens[caller]}` } },
			);
			expect(await res.json(), caller).toEqual([{ config_versions: null }]);
		}
	});
});
