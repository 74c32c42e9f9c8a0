// Runs on: hosted — row-level security is SQL behaviour: proved on the production shape.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/database.ts';
import { userClient } from '../support/db-clients.ts';
import { anon, db, service, stack } from './clients.ts';
import {
	fixtureToken,
	randomProfileNumber,
	randomSlug,
	removeRlsFixtures,
	seedRlsFixtures,
} from './fixtures.ts';
import type { FixtureUser, RlsFixtures } from './fixtures.ts';

// The privilege matrix: every table and view of the public schema, every column, every kind of
// caller a request can carry × {select, insert, update, delete}, declared once (TABLES) and
// checked two ways. The catalogues (column and table privileges) must grant each caller exactly
// what the declaration lets it do, and nothing no caller uses; and each cell runs as that caller
// (its role and its token's claims) inside a transaction that is always rolled back, so
// row-level security shows which of chamber A's rows it reads and which writes it is refused.
// A table, view or column the declaration does not name fails the matrix. The expectations below
// are the design; a failing cell means a migration disagrees with it.

// --- Callers -----------------------------------------------------------------------------------

const ROLES = ['anon', 'memberA', 'editorA', 'adminA', 'superAdminB', 'adminB', 'service'] as const;
type Role = (typeof ROLES)[number];
type UserRoleKey = Exclude<Role, 'anon' | 'service' | 'memberA'>;

const ROLE_LABELS: Record<Role, string> = {
	anon: 'anon',
	memberA: "member of A's published business",
	editorA: 'editor of A',
	adminA: 'admin of A',
	superAdminB: 'super_admin (of B)',
	adminB: 'admin of B',
	service: 'service_role',
};

/** The Postgres role each caller's requests run as; the token's claims tell the callers apart. */
const PG_ROLES = {
	anon: 'anon',
	memberA: 'authenticated',
	editorA: 'authenticated',
	adminA: 'authenticated',
	superAdminB: 'authenticated',
	adminB: 'authenticated',
	service: 'service_role',
} as const satisfies Record<Role, string>;
type PgRole = (typeof PG_ROLES)[Role];
const PG_ROLE_NAMES = ['anon', 'authenticated', 'service_role'] as const satisfies PgRole[];

const OPERATIONS = ['select', 'insert', 'update', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

/**
 * all: every row of tenant A; public: published/active/open ones; own: the caller's row;
 * business: the rows of the member's own business (the table's businessColumn).
 */
type Visibility = 'all' | 'public' | 'own' | 'business' | 'none';

// --- Expectations --------------------------------------------------------------------------------

interface Statement {
	text: string;
	values: unknown[];
}

/**
 * A column some of the callers who read or write its rows may not: per operation, the callers
 * (of those) who may, and why the others may not.
 */
interface ColumnRule {
	select?: readonly Role[];
	insert?: readonly Role[];
	update?: readonly Role[];
	why: string;
}

/** What every table and view declares: its columns, who reads its rows, who writes them. */
interface Relation {
	table: string;
	/** Every column, in the table's order, separated by white space. */
	columns: string;
	/** Columns not everyone who reads or writes the rows may (a business's address). */
	columnRules?: Record<string, ColumnRule>;
	select: Selects;
	writes: Writes;
}

/** A table of chamber rows: its cells run as each caller on tenant A's rows. */
interface TableCase extends Relation {
	kind: 'table';
	tenantColumn: 'id' | 'tenant_id';
	/** A column the update sets to itself. */
	updateColumn: string;
	/** The column naming the business a row is about (for the member's 'business' rows). */
	businessColumn?: string;
	/** Which of tenant A's rows anyone may read (SQL predicate on the table), where not all. */
	publicRows?: string;
	/** A valid new row for tenant A, with superuser preparation run before switching role. */
	insert: (fx: RlsFixtures) => { prepare?: Statement[]; statement: Statement };
}

/** A view: read through as the caller (security invoker), written by nobody. */
interface ViewCase extends Relation {
	kind: 'view';
	tenantColumn: 'tenant_id';
	updateColumn: string;
}

/**
 * A table without a tenant, with row-level security on and no policy, read and written only by
 * security-definer functions; its own test file checks that visitors cannot reach it.
 */
interface TenantlessCase extends Relation {
	kind: 'tenantless';
	checkedBy: string;
}

type RelationCase = TableCase | ViewCase | TenantlessCase;

/** Who inserts, updates and deletes tenant A's rows. */
type Writes = Record<Exclude<Operation, 'select'>, readonly Role[]>;

/**
 * Who reads which rows. A member of a business (no staff role) reads what a visitor reads unless
 * the table says otherwise: it writes nothing directly anywhere (its functions do).
 */
type Selects = Omit<Record<Role, Visibility>, 'memberA'> & { memberA?: Visibility };

const SERVICE_ONLY: readonly Role[] = ['service'];
const CHAMBER_ADMINS: readonly Role[] = ['adminA', 'superAdminB', 'service'];
const CHAMBER_STAFF: readonly Role[] = ['adminA', 'editorA', 'superAdminB', 'service'];

/** The same callers insert, update and delete. */
const writtenBy = (roles: readonly Role[]): Writes => ({
	insert: roles,
	update: roles,
	delete: roles,
});
/** Staff change the table through definer functions, if at all; directly, only the service role. */
const SERVICE_WRITES = writtenBy(SERVICE_ONLY);

const EVERYONE_READS: Selects = {
	anon: 'all',
	adminA: 'all',
	editorA: 'all',
	adminB: 'all',
	superAdminB: 'all',
	service: 'all',
};
/** Visitors and other chambers see the public rows; the chamber's staff see them all. */
const STAFF_READ_ALL: Selects = {
	anon: 'public',
	adminA: 'all',
	editorA: 'all',
	adminB: 'public',
	superAdminB: 'all',
	service: 'all',
};
/** The chamber's staff read every row; nobody else any. */
const STAFF_ONLY_READ: Selects = {
	anon: 'none',
	adminA: 'all',
	editorA: 'all',
	adminB: 'none',
	superAdminB: 'all',
	service: 'all',
};
/** Internal to definer functions and the server: only the service role reads a row. */
const SERVICE_ONLY_READS: Selects = {
	anon: 'none',
	adminA: 'none',
	editorA: 'none',
	adminB: 'none',
	superAdminB: 'none',
	service: 'all',
};
/** The chamber's admins and super_admins read every row; nobody else any. */
const CHAMBER_ADMINS_READ: Record<Role, Visibility> = {
	anon: 'none',
	adminA: 'all',
	editorA: 'none',
	adminB: 'none',
	superAdminB: 'all',
	service: 'all',
	memberA: 'none',
};
const CHILD_OF_PUBLISHED = 'profile_id in (select p.id from public.profiles p where p.published)';

/** A column of a business no caller's token reads: the server and staff's functions do. */
function staffBookkeeping(why: string): ColumnRule {
	return { select: SERVICE_ONLY, why };
}

/** A row of tenant A, made by `text` with tenant A's id as $1. */
function tenantInsert(text: string) {
	return (fx: RlsFixtures) => ({ statement: { text, values: [fx.tenantA.id] } });
}

/** A child row of tenant A's published business. */
function childInsert(table: string, columns: string, values: string) {
	return (fx: RlsFixtures) => ({
		statement: {
			text: `insert into public.${table} (tenant_id, profile_id, ${columns}) values ($1, $2, ${values})`,
			values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
		},
	});
}

/** Columns the insert trigger fills in: who scheduled it, when, and what came of it. */
const SET_BY_THE_DATABASE: ColumnRule = {
	insert: SERVICE_ONLY,
	why: 'filled in by the database (the author from the token), never by a client',
};

const TABLES: readonly RelationCase[] = [
	{
		kind: 'table',
		table: 'tenants',
		columns: `id slug name created_at`,
		tenantColumn: 'id',
		updateColumn: 'name',
		insert: () => ({
			statement: {
				text: `insert into public.tenants (slug, name) values ($1, 'New chamber')`,
				values: [randomSlug('rls-new')],
			},
		}),
		select: EVERYONE_READS,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'admin_users',
		columns: `user_id tenant_id email role created_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'role',
		insert: (fx) => {
			const id = randomUUID();
			const email = `new-${id}@example.com`;
			return {
				prepare: [
					{ text: 'insert into auth.users (id, email) values ($1, $2)', values: [id, email] },
				],
				statement: {
					text: `insert into public.admin_users (user_id, tenant_id, email, role) values ($1, $2, $3, 'editor')`,
					values: [id, fx.tenantA.id, email],
				},
			};
		},
		select: {
			anon: 'none',
			adminA: 'own',
			editorA: 'own',
			adminB: 'none',
			superAdminB: 'all',
			service: 'all',
		},
		writes: writtenBy(['superAdminB', 'service']),
	},
	{
		kind: 'table',
		table: 'chamber_config',
		columns: `tenant_id name slug city state founded_year colors logo fonts text_colors
			contact social urls footer_labels content services features membership_levels
			featured_businesses category_display search_page navigation updated_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'name',
		insert: (fx) => ({
			prepare: [
				{ text: 'delete from public.chamber_config where tenant_id = $1', values: [fx.tenantA.id] },
			],
			statement: {
				text: `insert into public.chamber_config (tenant_id, name, slug) values ($1, 'New name', $2)`,
				values: [fx.tenantA.id, fx.tenantA.slug],
			},
		}),
		select: EVERYONE_READS,
		writes: {
			insert: SERVICE_ONLY,
			update: CHAMBER_STAFF,
			delete: SERVICE_ONLY,
		},
	},
	{
		// Written by triggers only; not even the service role writes or deletes it.
		kind: 'table',
		table: 'audit_log',
		columns: `id tenant_id at actor_id actor_email actor_role section field old_value
			new_value business_id event_id`,
		tenantColumn: 'tenant_id',
		updateColumn: 'section',
		insert: tenantInsert(
			`insert into public.audit_log (tenant_id, actor_role, section) values ($1, 'admin', 'colors')`,
		),
		select: CHAMBER_ADMINS_READ,
		writes: writtenBy([]),
	},
	{
		kind: 'table',
		table: 'cache_versions',
		columns: `tenant_id type version updated_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'version',
		insert: (fx) => ({
			prepare: [
				{
					text: `delete from public.cache_versions where tenant_id = $1 and type = 'config'`,
					values: [fx.tenantA.id],
				},
			],
			statement: {
				text: `insert into public.cache_versions (tenant_id, type) values ($1, 'config')`,
				values: [fx.tenantA.id],
			},
		}),
		select: EVERYONE_READS,
		// Users bump versions only through bump_cache_version (tests/db/admin-permissions.test.ts).
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'cache_purge_log',
		columns: `id tenant_id user_email purge_type created_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'purge_type',
		insert: (fx) => ({
			statement: {
				text: `insert into public.cache_purge_log (tenant_id, user_email, purge_type) values ($1, $2, 'events')`,
				values: [fx.tenantA.id, fx.users.adminA.email],
			},
		}),
		select: {
			anon: 'none',
			adminA: 'none',
			editorA: 'none',
			adminB: 'none',
			superAdminB: 'all',
			service: 'all',
		},
		// Written by bump_cache_version, with the e-mail of the token's user.
		writes: SERVICE_WRITES,
	},
	{
		// Written only by the publishing functions (request_publish for staff, the rest for the
		// build's reports): tests/db/publish.test.ts.
		kind: 'table',
		table: 'publishes',
		columns: `id tenant_id state reason requested_by requested_by_email requested_at requests
			last_requested_at dispatched_at started_at finished_at last_report_at error
			deploy_id config_version config_snapshot`,
		tenantColumn: 'tenant_id',
		updateColumn: 'reason',
		insert: tenantInsert(
			`insert into public.publishes (tenant_id, reason) values ($1, 'Sneaky build')`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// The deployment's monthly budget, set by the server (set_publish_budget); the chamber's
		// staff read it: tests/db/publish-budget.test.ts.
		kind: 'table',
		table: 'publish_budgets',
		columns: `tenant_id monthly_publishes updated_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'monthly_publishes',
		insert: tenantInsert(
			`insert into public.publish_budgets (tenant_id, monthly_publishes) values ($1, 40) on conflict (tenant_id) do update set monthly_publishes = 41`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// A month that reached 80 % of the budget: written by the publishing functions only.
		kind: 'table',
		table: 'publish_months',
		columns: `tenant_id month warned_at warned_used budget mailed_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'mailed_at',
		insert: tenantInsert(
			`insert into public.publish_months (tenant_id, month, warned_used, budget) values ($1, '2020-02-01', 32, 40)`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Changes waiting for the window's publish: collected by collect_publish (a member its own
		// business's, staff their own, the server any), moved by the publishes' trigger; the
		// chamber's staff read them all, a member its own business's.
		kind: 'table',
		table: 'waiting_changes',
		columns: `id tenant_id source summary business_id requested_by requested_by_email created_at
			due_at daily state publish_id live_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'summary',
		businessColumn: 'business_id',
		insert: tenantInsert(
			`insert into public.waiting_changes (tenant_id, source, summary, due_at, state, live_at) values ($1, 'sync', 'Sneaky', now(), 'live', now())`,
		),
		select: { ...STAFF_ONLY_READ, memberA: 'business' },
		writes: SERVICE_WRITES,
	},
	{
		// Written only by save_business (tests/db/business-admin.test.ts) and cleared by staff
		// through clear_business_override.
		kind: 'table',
		table: 'business_overrides',
		columns: `tenant_id profile_id field changed_at changed_by system_value`,
		tenantColumn: 'tenant_id',
		updateColumn: 'changed_by',
		insert: (fx) => ({
			statement: {
				text: `insert into public.business_overrides (tenant_id, profile_id, field, changed_by) values ($1, $2, 'city', 'x')`,
				values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
			},
		}),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// The geocoder's queue: written by the triggers on profiles, claim_geocode_requests and
		// record_geocodes (tests/db/geocoding.test.ts); the chamber's staff read why a listing is
		// not on the map yet.
		kind: 'table',
		table: 'geocode_requests',
		columns: `profile_id tenant_id status requested_at attempts next_attempt_at claimed_until
			last_error`,
		tenantColumn: 'tenant_id',
		updateColumn: 'attempts',
		insert: (fx) => ({
			statement: {
				text: `insert into public.geocode_requests (tenant_id, profile_id) values ($1, $2)`,
				values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
			},
		}),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Bound by the sign-in function (service role); a member reads its own binding, the
		// chamber's admins who signed in for which business.
		kind: 'table',
		table: 'business_members',
		columns: `user_id tenant_id profile_id email created_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'email',
		insert: (fx) => {
			const id = randomUUID();
			return {
				prepare: [
					{
						text: 'insert into auth.users (id, email) values ($1, $2)',
						values: [id, `m-${id}@example.com`],
					},
				],
				statement: {
					text: `insert into public.business_members (user_id, tenant_id, profile_id, email) values ($1, $2, $3, 'x@example.com')`,
					values: [id, fx.tenantA.id, fx.tenantA.unpublishedProfileId],
				},
			};
		},
		select: { ...CHAMBER_ADMINS_READ, memberA: 'own' },
		writes: SERVICE_WRITES,
	},
	{
		// Written by submit_member_changes (the member) and decided by approve_ and
		// return_member_submission (staff); a member reads its own business's requests only.
		kind: 'table',
		table: 'member_submissions',
		columns: `id tenant_id profile_id user_id member_email changes base_version status note
			submitted_at decided_at decided_by applied`,
		tenantColumn: 'tenant_id',
		updateColumn: 'note',
		insert: (fx) => ({
			statement: {
				text: `insert into public.member_submissions (tenant_id, profile_id, member_email, changes, base_version, status, note, decided_at)
				values ($1, $2, 'x@example.com', '{}', 1, 'returned', 'No', now())`,
				values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
			},
		}),
		select: { ...STAFF_ONLY_READ, memberA: 'own' },
		writes: SERVICE_WRITES,
	},
	...(
		[
			[
				'member_imports',
				`id tenant_id kind source storage_path state auto_apply headers mapping
					rows_total rows_read rows_validated rows_applied counts missing_action error
					requested_by requested_by_email applied_by_email created_at updated_at
					previewed_at applied_at publish_id applied_by live_by`,
				'source',
				`insert into public.member_imports (tenant_id, kind, source) values ($1, 'sync', 'x')`,
			],
			[
				'member_import_rows',
				`id import_id tenant_id row_number action profile_id weblink_profile_id name
					base_version record changes errors matched_on candidates choice`,
				'name',
				`insert into public.member_import_rows (import_id, tenant_id, action) select id, $1, 'missing' from public.member_imports where tenant_id = $1 limit 1`,
			],
			[
				'member_import_mappings',
				`tenant_id header field updated_at updated_by`,
				'field',
				`insert into public.member_import_mappings (tenant_id, header, field) values ($1, 'colour', '')`,
			],
		] as const
	).map(([table, columns, updateColumn, text]): TableCase => ({
		// Written by the import functions (service role) and the definer functions staff call;
		// read by the chamber's admins only (a member export holds private contact details).
		kind: 'table',
		table,
		columns,
		tenantColumn: 'tenant_id',
		updateColumn,
		insert: tenantInsert(text),
		select: CHAMBER_ADMINS_READ,
		writes: SERVICE_WRITES,
	})),
	{
		// The chamber's own numbering of businesses a file without ids added: only
		// apply_member_import writes it (tests/db/member-imports-plain.test.ts).
		kind: 'table',
		table: 'business_numbers',
		columns: `tenant_id last_number`,
		tenantColumn: 'tenant_id',
		updateColumn: 'last_number',
		insert: (fx) => ({
			prepare: [
				{
					text: 'delete from public.business_numbers where tenant_id = $1',
					values: [fx.tenantA.id],
				},
			],
			statement: {
				text: `insert into public.business_numbers (tenant_id) values ($1)`,
				values: [fx.tenantA.id],
			},
		}),
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
	{
		// Staff schedule what they may save now: the insert trigger tries the change as them
		// (tests/db/schedule.test.ts); Cancel and the scheduled function change rows.
		kind: 'table',
		table: 'scheduled_publishes',
		columns: `id tenant_id run_at kind changes snapshot restore_of summary state created_by
			created_by_email created_role created_at finished_at canceled_by_email error
			publish_id base_versions`,
		tenantColumn: 'tenant_id',
		updateColumn: 'summary',
		insert:
			tenantInsert(`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
				values ($1, now() + interval '1 day', 'save', jsonb_build_array(jsonb_build_object(
					'column', 'content', 'field', 'footerTagline', 'value', 'Later',
					'version', public.config_section_version($1, 'content'))), 'Later')`),
		columnRules: {
			id: SET_BY_THE_DATABASE,
			state: SET_BY_THE_DATABASE,
			created_by: SET_BY_THE_DATABASE,
			created_by_email: SET_BY_THE_DATABASE,
			created_role: SET_BY_THE_DATABASE,
			created_at: SET_BY_THE_DATABASE,
			finished_at: SET_BY_THE_DATABASE,
			canceled_by_email: SET_BY_THE_DATABASE,
			error: SET_BY_THE_DATABASE,
			publish_id: SET_BY_THE_DATABASE,
			base_versions: SET_BY_THE_DATABASE,
		},
		select: STAFF_ONLY_READ,
		writes: {
			insert: CHAMBER_STAFF,
			update: SERVICE_ONLY,
			delete: SERVICE_ONLY,
		},
	},
	{
		kind: 'table',
		table: 'profiles',
		columns: `id tenant_id report_name address1 address2 city county state zip work_phone
			hours website email featured categories membership_level_name membership_rank
			member_since_date weblink_profile_id main_related_profile_name logo_url
			listing_position is_member published search_vector search_text sort_name
			shuffle_key accepts_messages version field_versions updated_at updated_by
			removed_at published_before_removal location latitude longitude geo_x geo_y geo_z
			location_source location_quality located_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'report_name',
		publicRows: 'published',
		insert: (fx) => ({
			statement: {
				text: `insert into public.profiles (tenant_id, report_name, weblink_profile_id) values ($1, 'New business', $2)`,
				values: [fx.tenantA.id, randomProfileNumber()],
			},
		}),
		// The address and the staff's bookkeeping: staff read them through admin_business and
		// admin_list_businesses, the server with the service role; a signed-in user's token (every
		// member's, every chamber's staff's) reads the columns a visitor reads.
		columnRules: {
			email: staffBookkeeping(
				"the business's address on file: the contact form's and the sign-in link's",
			),
			version: staffBookkeeping("the member editor's conflict check"),
			field_versions: staffBookkeeping("the member editor's conflict check, field by field"),
			updated_at: staffBookkeeping("the Members tab's last change"),
			updated_by: staffBookkeeping("who changed a listing last: a staff member's address"),
			removed_at: staffBookkeeping('a removed listing is gone for visitors; when is for staff'),
			published_before_removal: staffBookkeeping('what a restore brings back'),
			location_source: staffBookkeeping('who placed the pin: the Members tab says so'),
			location_quality: staffBookkeeping("how exact the geocoder's place is"),
			located_at: staffBookkeeping('when the pin was placed'),
		},
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'listings',
		columns: `id tenant_id profile_id position description short_description categories
			keywords active primary_listing`,
		tenantColumn: 'tenant_id',
		updateColumn: 'keywords',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('listings', 'description', `'<p>New listing</p>'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'social_media',
		columns: `id tenant_id profile_id position platform url`,
		tenantColumn: 'tenant_id',
		updateColumn: 'url',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('social_media', 'platform, url', `'youtube', 'https://youtube.com/x'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'profile_affiliations',
		columns: `id tenant_id profile_id position icon icon_text icon_url aff_code aff_name
			list_available_on_website`,
		tenantColumn: 'tenant_id',
		updateColumn: 'aff_name',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('profile_affiliations', 'aff_name', `'Young Professionals'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'web_content',
		columns: `id tenant_id profile_id position content_type content_title full_url rel_url`,
		tenantColumn: 'tenant_id',
		updateColumn: 'content_title',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('web_content', 'content_type, content_title', `'document', 'Menu'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'banners',
		columns: `id tenant_id banner_name image_url navigate_url target alternate_text active
			position`,
		tenantColumn: 'tenant_id',
		updateColumn: 'banner_name',
		publicRows: 'active',
		insert: tenantInsert(
			`insert into public.banners (tenant_id, banner_name, image_url) values ($1, 'New banner', '/new.png')`,
		),
		select: STAFF_READ_ALL,
		writes: writtenBy(CHAMBER_ADMINS),
	},
	{
		kind: 'table',
		table: 'events',
		columns: `tenant_id source event_id start_utc end_utc closed data`,
		tenantColumn: 'tenant_id',
		updateColumn: 'data',
		publicRows: 'not closed',
		insert:
			tenantInsert(`insert into public.events (tenant_id, source, event_id, start_utc, end_utc, data)
					values ($1, 'chamber', 999, now(), now(), '{"EventId": 999}')`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		// The chamber's own events: staff read every row (drafts too), visitors read published and
		// cancelled ones through public_chamber_events only (the rows hold staff e-mails); every
		// write goes through the definer functions.
		kind: 'table',
		table: 'chamber_events',
		columns: `id tenant_id calendar origin feed_id feed_uid status name summary description
			time_zone all_day starts_local ends_local rrule venue address1 address2 city state zip
			event_type event_type_color featured image_url registration_url registration_disabled
			registration_opens registration_closes tickets contact_email show_attendees staff_fields
			feed_values version field_versions created_at created_by updated_at updated_by`,
		tenantColumn: 'tenant_id',
		updateColumn: 'name',
		insert: tenantInsert(
			`insert into public.chamber_events (tenant_id, name, time_zone, starts_local, ends_local)
			values ($1, 'New event', 'America/Chicago', '2027-03-02 18:00', '2027-03-02 20:00')`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'chamber_event_occurrences',
		columns: `event_id tenant_id series_id recurrence_key starts_local ends_local
			start_utc end_utc cancelled changes changed_here`,
		tenantColumn: 'tenant_id',
		updateColumn: 'cancelled',
		insert: tenantInsert(
			`insert into public.chamber_event_occurrences (tenant_id, series_id, recurrence_key, starts_local, ends_local, start_utc, end_utc)
			select $1, id, '2030-01-01', '2030-01-01 18:00', '2030-01-01 20:00', now(), now() from public.chamber_events where tenant_id = $1 limit 1`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Feed addresses may be secret (Google's private address): admins only.
		kind: 'table',
		table: 'event_feeds',
		columns: `id tenant_id url calendar name state created_at created_by last_read_at last_ok_at
			last_error error_since error_notified_at event_count`,
		tenantColumn: 'tenant_id',
		updateColumn: 'name',
		insert: tenantInsert(
			`insert into public.event_feeds (tenant_id, url) values ($1, 'https://calendar.example.org/new.ics')`,
		),
		select: CHAMBER_ADMINS_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Stored by the submit function (service role) after its checks; reviewed by staff's
		// function. The submitter's address is for staff only.
		kind: 'table',
		table: 'event_submissions',
		columns: `id tenant_id status submitter_name submitter_email event note created_at
			reviewed_at reviewed_by event_series_id member_user_id`,
		tenantColumn: 'tenant_id',
		updateColumn: 'note',
		insert: tenantInsert(
			`insert into public.event_submissions (tenant_id, submitter_name, submitter_email, event)
			values ($1, 'Ann', 'ann@example.com', '{"name": "Street fair", "time_zone": "America/Chicago", "starts_local": "2027-05-01T10:00", "ends_local": "2027-05-01T16:00"}')`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'contact_messages',
		columns: `id tenant_id business_id business_name name email message delivery_status
			delivery_error created_at idempotency_key attempts last_attempt_at
			next_attempt_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'delivery_status',
		insert:
			tenantInsert(`insert into public.contact_messages (tenant_id, business_name, name, email, message)
					values ($1, 'Published Diner', 'Visitor', 'visitor@example.com', 'Hello')`),
		select: CHAMBER_ADMINS_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Internal vocabulary for typo-tolerant search: only definer functions read it.
		kind: 'table',
		table: 'search_words',
		columns: `tenant_id word businesses`,
		tenantColumn: 'tenant_id',
		updateColumn: 'word',
		insert: tenantInsert(
			`insert into public.search_words (tenant_id, word) values ($1, 'zzzfreshword')`,
		),
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
	{
		// Kept business counts per category: only definer functions read them, triggers write them.
		kind: 'table',
		table: 'business_counts',
		columns: `tenant_id category businesses`,
		tenantColumn: 'tenant_id',
		updateColumn: 'businesses',
		insert: tenantInsert(
			`insert into public.business_counts (tenant_id, category, businesses) values ($1, 'Zzz new category', 1)`,
		),
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
	{
		// Kept member counts of the card record: readable exactly as the businesses they count.
		kind: 'table',
		table: 'affiliation_counts',
		columns: `tenant_id aff_name published members`,
		tenantColumn: 'tenant_id',
		updateColumn: 'members',
		publicRows: 'published',
		insert: tenantInsert(
			`insert into public.affiliation_counts (tenant_id, aff_name, published, members) values ($1, 'New group', true, 1)`,
		),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		// Member statistics: added to by /api/stats (service role) only, read by the chamber's
		// admins, and by a member for its own business (not the chamber's other one).
		kind: 'table',
		table: 'business_stats',
		columns: `tenant_id business_id day kind words count`,
		tenantColumn: 'tenant_id',
		updateColumn: 'count',
		businessColumn: 'business_id',
		insert: (fx) => ({
			statement: {
				text: `insert into public.business_stats (tenant_id, business_id, day, kind, count) values ($1, $2, current_date, 'phone', 1)`,
				values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
			},
		}),
		select: { ...CHAMBER_ADMINS_READ, memberA: 'business' },
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'member_report_settings',
		columns: `tenant_id monthly_email updated_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'monthly_email',
		insert: (fx) => ({
			prepare: [
				{
					text: 'delete from public.member_report_settings where tenant_id = $1',
					values: [fx.tenantA.id],
				},
			],
			statement: {
				text: `insert into public.member_report_settings (tenant_id, monthly_email) values ($1, true)`,
				values: [fx.tenantA.id],
			},
		}),
		select: CHAMBER_ADMINS_READ,
		writes: { insert: CHAMBER_ADMINS, update: CHAMBER_ADMINS, delete: SERVICE_ONLY },
	},
	{
		// Opt-out tokens: only the scheduled function and member_report_opt_out(token) use them.
		kind: 'table',
		table: 'member_report_recipients',
		columns: `tenant_id business_id opt_out_token opted_out_at`,
		tenantColumn: 'tenant_id',
		updateColumn: 'opted_out_at',
		insert: tenantInsert(
			`insert into public.member_report_recipients (tenant_id, business_id) values ($1, gen_random_uuid())`,
		),
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
	{
		kind: 'table',
		table: 'member_report_mailings',
		columns: `tenant_id business_id month claimed_at sent_at error`,
		tenantColumn: 'tenant_id',
		updateColumn: 'sent_at',
		insert: (fx) => ({
			statement: {
				text: `insert into public.member_report_mailings (tenant_id, business_id, month) values ($1, $2, date_trunc('month', current_date)::date - interval '1 year')`,
				values: [fx.tenantA.id, fx.tenantA.publishedProfileId],
			},
		}),
		select: CHAMBER_ADMINS_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Views of published businesses, read as the caller (security invoker): the same rows for
		// everyone, no address; written by nobody.
		kind: 'view',
		table: 'business_cards_view',
		columns: `tenant_id id report_name city county zip address1 address2 state work_phone
			hours website accepts_messages featured categories membership_rank
			membership_level_name member_since member_since_year weblink_profile_id
			main_related_profile_name listings social_media profile_affiliations web_content
			logo_url latitude longitude`,
		tenantColumn: 'tenant_id',
		updateColumn: 'report_name',
		select: EVERYONE_READS,
		writes: writtenBy([]),
	},
	{
		kind: 'view',
		table: 'business_detail_view',
		columns: `tenant_id id report_name city county zip address1 address2 state work_phone
			hours website accepts_messages featured categories membership_rank
			membership_level_name member_since member_since_year weblink_profile_id
			main_related_profile_name listings social_media profile_affiliations web_content
			logo_url latitude longitude`,
		tenantColumn: 'tenant_id',
		updateColumn: 'report_name',
		select: EVERYONE_READS,
		writes: writtenBy([]),
	},
	{
		kind: 'tenantless',
		table: 'rate_limit_hits',
		columns: `id bucket hit_at`,
		checkedBy: 'tests/db/rate-limit.test.ts',
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
];

function visibilityOf(relation: Relation, role: Role): Visibility {
	return role === 'memberA'
		? (relation.select.memberA ?? relation.select.anon)
		: relation.select[role];
}

/** Whether the caller may do `operation` on some of tenant A's rows, as declared. */
function rowsAllowed(relation: Relation, role: Role, operation: Operation): boolean {
	return operation === 'select'
		? visibilityOf(relation, role) !== 'none'
		: relation.writes[operation].includes(role);
}

/** Whether the caller may do `operation` on this column of the rows it may, as declared. */
function columnAllowed(
	relation: Relation,
	column: string,
	role: Role,
	operation: Operation,
): boolean {
	if (!rowsAllowed(relation, role, operation)) return false;
	if (operation === 'delete') return true;
	const callers = relation.columnRules?.[column]?.[operation];
	return callers ? callers.includes(role) : true;
}

function columnsOf(relation: Relation): string[] {
	return relation.columns.split(/\s+/).filter(Boolean);
}

function expectation(table: TableCase | ViewCase, operation: Operation, role: Role): string {
	return operation === 'select'
		? visibilityOf(table, role)
		: rowsAllowed(table, role, operation)
			? 'allowed'
			: 'denied';
}

// --- The catalogues: what each role is granted -------------------------------------------------

type Privilege = Uppercase<Operation>;

/** relation → column → Postgres role → the privileges it holds (DELETE: on the whole table). */
type Catalogue = Map<string, Map<string, Record<PgRole, Set<Privilege>>>>;

/**
 * Every table and view of the public schema with each column's privileges, as the database's
 * own catalogues say (pg_class, pg_attribute, has_column_privilege, has_table_privilege). `client`
 * may be inside a transaction that planted something.
 */
async function readCatalogue(client = db): Promise<Catalogue> {
	const { rows } = await client.query<{
		relation: string;
		column: string;
		role: PgRole;
		privileges: Privilege[];
	}>(
		`select c.relname as relation, a.attname as column, r.role,
			array_remove(array[
				case when has_column_privilege(r.role, c.oid, a.attnum, 'SELECT') then 'SELECT' end,
				case when has_column_privilege(r.role, c.oid, a.attnum, 'INSERT') then 'INSERT' end,
				case when has_column_privilege(r.role, c.oid, a.attnum, 'UPDATE') then 'UPDATE' end,
				case when has_table_privilege(r.role, c.oid, 'DELETE') then 'DELETE' end
			], null) as privileges
		from pg_class c
		join pg_namespace n on n.oid = c.relnamespace
		join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
		cross join unnest($1::text[]) r(role)
		where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
		order by c.relname, a.attnum`,
		[[...PG_ROLE_NAMES]],
	);
	const catalogue: Catalogue = new Map();
	for (const row of rows) {
		const columns = catalogue.get(row.relation) ?? new Map();
		catalogue.set(row.relation, columns);
		const grants =
			columns.get(row.column) ??
			({ anon: new Set(), authenticated: new Set(), service_role: new Set() } as Record<
				PgRole,
				Set<Privilege>
			>);
		columns.set(row.column, grants);
		grants[row.role] = new Set(row.privileges);
	}
	return catalogue;
}

/** Relations and columns of the schema the declaration does not name, and declared ones gone. */
function undeclared(catalogue: Catalogue): string[] {
	const declared = new Map(TABLES.map((t) => [t.table, new Set(columnsOf(t))]));
	const problems: string[] = [];
	for (const [relation, columns] of catalogue) {
		const names = declared.get(relation);
		if (!names) {
			problems.push(`${relation}: a table or view the matrix does not declare`);
			continue;
		}
		for (const column of columns.keys()) {
			if (!names.has(column))
				problems.push(`${relation}.${column}: a column the matrix does not declare`);
		}
		for (const column of names) {
			if (!columns.has(column))
				problems.push(`${relation}.${column}: declared, but not in the schema`);
		}
	}
	for (const relation of declared.keys()) {
		if (!catalogue.has(relation)) problems.push(`${relation}: declared, but not in the schema`);
	}
	return problems;
}

/**
 * The matrix of one relation, generated from the catalogue: for each column and caller, the
 * operations it may do (its Postgres role holds the privilege, and the declaration lets it reach
 * rows for that operation; which rows, the cells below check by running as it).
 */
function grantedMatrix(
	relation: Relation,
	catalogue: Catalogue,
): Record<string, Record<string, string>> {
	const matrix: Record<string, Record<string, string>> = {};
	for (const [column, grants] of catalogue.get(relation.table) ?? []) {
		matrix[column] = Object.fromEntries(
			ROLES.map((role) => [
				ROLE_LABELS[role],
				OPERATIONS.filter(
					(op) =>
						grants[PG_ROLES[role]].has(op.toUpperCase() as Privilege) &&
						rowsAllowed(relation, role, op),
				).join(' '),
			]),
		);
	}
	return matrix;
}

/** The same matrix as the declaration has it. */
function declaredMatrix(relation: Relation): Record<string, Record<string, string>> {
	return Object.fromEntries(
		columnsOf(relation).map((column) => [
			column,
			Object.fromEntries(
				ROLES.map((role) => [
					ROLE_LABELS[role],
					OPERATIONS.filter((op) => columnAllowed(relation, column, role, op)).join(' '),
				]),
			),
		]),
	);
}

/** Privileges a Postgres role holds that no caller of that role is declared to use. */
function unusedGrants(relation: Relation, catalogue: Catalogue): string[] {
	const unused: string[] = [];
	for (const [column, grants] of catalogue.get(relation.table) ?? []) {
		for (const pgRole of PG_ROLE_NAMES) {
			for (const op of OPERATIONS) {
				if (!grants[pgRole].has(op.toUpperCase() as Privilege)) continue;
				const used = ROLES.some(
					(role) => PG_ROLES[role] === pgRole && columnAllowed(relation, column, role, op),
				);
				if (!used) unused.push(`${relation.table}.${column}: ${op} granted to ${pgRole}`);
			}
		}
	}
	return unused;
}

// --- Running a statement as a caller -------------------------------------------------------------

let fx: RlsFixtures;
let catalogue: Catalogue;
/** Rows of tenant A per table as the superuser counts them: all of them, and the public ones. */
const counts = new Map<string, { all: number; public: number }>();
let matrixCells = 0;
let restChecks = 0;

type Outcome = { rows: number } | { error: string; message: string };

function userOf(role: UserRoleKey): FixtureUser {
	return fx.users[role];
}

function userIdOf(role: Exclude<Role, 'anon' | 'service'>): string {
	return role === 'memberA' ? fx.member.id : userOf(role).id;
}

function claimsOf(role: Role): Record<string, unknown> {
	if (role === 'anon') return { role: 'anon' };
	if (role === 'service') return { role: 'service_role' };
	if (role === 'memberA') {
		// A member's token comes from the e-mailed link: its session's amr says so (otp).
		const signedIn = Math.floor(Date.now() / 1000);
		return {
			sub: fx.member.id,
			role: 'authenticated',
			email: fx.member.email,
			amr: [{ method: 'otp', timestamp: signedIn }],
		};
	}
	return { sub: userOf(role).id, role: 'authenticated' };
}

/**
 * begin → superuser preparation → the caller's role and claims → the statement → rollback.
 * A select reports its count(*); any other statement its row count.
 */
async function runAs(
	role: Role,
	statement: Statement,
	prepare: Statement[] = [],
): Promise<Outcome> {
	await db.query('begin');
	try {
		for (const step of prepare) await db.query(step.text, step.values);
		await db.query(`set local role ${PG_ROLES[role]}`);
		await db.query(`select set_config('request.jwt.claims', $1, true)`, [
			JSON.stringify(claimsOf(role)),
		]);
		try {
			const result = await db.query<{ n: number }>(statement.text, statement.values);
			if (result.command === 'SELECT') return { rows: result.rows[0]?.n ?? -1 };
			return { rows: result.rowCount ?? 0 };
		} catch (error) {
			const { code, message } = error as { code?: unknown; message?: string };
			if (typeof code !== 'string') throw error;
			return { error: code, message: message ?? '' };
		}
	} finally {
		await db.query('rollback');
	}
}

async function superuserCount(text: string, values: unknown[]): Promise<number> {
	const { rows } = await db.query<{ n: number }>(text, values);
	return rows[0]?.n ?? -1;
}

function expectedRows(
	table: TableCase | ViewCase,
	visibility: Visibility,
	role: Role,
): Promise<number> {
	const count = counts.get(table.table);
	if (!count) throw new Error(`No superuser count for ${table.table}`);
	switch (visibility) {
		case 'all':
			return Promise.resolve(count.all);
		case 'public':
			return Promise.resolve(count.public);
		case 'none':
			return Promise.resolve(0);
		case 'business':
			if (role !== 'memberA' || table.kind !== 'table' || !table.businessColumn) {
				throw new Error(`'business' needs the member and the table's businessColumn`);
			}
			return superuserCount(
				`select count(*)::int as n from public.${table.table} where ${table.tenantColumn} = $1 and ${table.businessColumn} = $2`,
				[fx.tenantA.id, fx.member.profileId],
			);
		case 'own':
			if (role === 'anon' || role === 'service') throw new Error(`'own' needs a user, not ${role}`);
			return superuserCount(
				`select count(*)::int as n from public.${table.table} where ${table.tenantColumn} = $1 and user_id = $2`,
				[fx.tenantA.id, userIdOf(role)],
			);
	}
}

async function checkCell(
	table: TableCase | ViewCase,
	operation: Operation,
	role: Role,
): Promise<void> {
	const where = `${table.tenantColumn} = $1`;
	const tenantA = [fx.tenantA.id];
	if (operation === 'select') {
		const visibility = visibilityOf(table, role);
		const expected = await expectedRows(table, visibility, role);
		if (visibility === 'own') expect(expected, 'the caller has one admin record').toBe(1);
		if (visibility === 'business') {
			// The chamber has rows of another business too, which the member must not read.
			expect(expected, 'the member has rows of its business').toBeGreaterThan(0);
			expect(expected, 'the chamber has rows of another business').toBeLessThan(
				counts.get(table.table)!.all,
			);
		}
		// A view reads its tables as the caller: every column it shows is read.
		const counted = table.kind === 'view' ? 'count(t.*)' : 'count(*)';
		const outcome = await runAs(role, {
			text: `select ${counted}::int as n from public.${table.table} t where ${where}`,
			values: tenantA,
		});
		// Reading nothing may also be no read privilege at all.
		if (visibility === 'none' && 'error' in outcome) expect(outcome.error).toBe('42501');
		else expect(outcome).toEqual({ rows: expected });
		return;
	}

	let outcome: Outcome;
	if (operation === 'insert') {
		const { prepare, statement } =
			table.kind === 'table'
				? table.insert(fx)
				: {
						prepare: [],
						statement: {
							text: `insert into public.${table.table} (tenant_id) values ($1)`,
							values: tenantA,
						},
					};
		outcome = await runAs(role, statement, prepare);
	} else if (operation === 'update') {
		const column = table.updateColumn;
		outcome = await runAs(role, {
			text: `update public.${table.table} set ${column} = ${column} where ${where}`,
			values: tenantA,
		});
	} else {
		outcome = await runAs(role, {
			text: `delete from public.${table.table} where ${where}`,
			values: tenantA,
		});
	}

	const allowed = expectation(table, operation, role) === 'allowed';
	if (allowed) {
		if ('error' in outcome) {
			expect.fail(`expected success, got ${outcome.error}: ${outcome.message}`);
		}
		if (operation === 'insert') expect(outcome.rows).toBe(1);
		else expect(outcome.rows).toBeGreaterThanOrEqual(1);
	} else if ('error' in outcome) {
		expect(outcome.error, outcome.message).toBe('42501');
	} else {
		// Insert has no silent form of refusal: a denied insert must raise.
		expect(operation, `expected 42501, the ${operation} wrote ${outcome.rows} row(s)`).not.toBe(
			'insert',
		);
		expect(outcome.rows, `expected 0 rows or 42501`).toBe(0);
	}
}

/**
 * A column some callers may not read, read on its own by each caller: refused (42501) for those
 * that read the rows but not the column, read by those the declaration lets.
 */
async function checkPrivateColumn(table: TableCase, column: string, role: Role): Promise<void> {
	const outcome = await runAs(role, {
		text: `select count(${column})::int as n from public.${table.table} where ${table.tenantColumn} = $1`,
		values: [fx.tenantA.id],
	});
	if (columnAllowed(table, column, role, 'select')) {
		expect(outcome).toEqual({ rows: expect.any(Number) });
	} else if (rowsAllowed(table, role, 'select')) {
		expect(outcome).toMatchObject({ error: '42501' });
	} else if ('error' in outcome) {
		expect(outcome.error).toBe('42501');
	} else {
		expect(outcome).toEqual({ rows: 0 });
	}
}

// --- Setup ---------------------------------------------------------------------------------------

const ROW_CASES = TABLES.filter((t): t is TableCase | ViewCase => t.kind !== 'tenantless');

beforeAll(async () => {
	await db.connect();
	fx = await seedRlsFixtures(service, db);
	catalogue = await readCatalogue();
	for (const table of ROW_CASES) {
		const where = `${table.tenantColumn} = $1`;
		const all = await superuserCount(
			`select count(*)::int as n from public.${table.table} where ${where}`,
			[fx.tenantA.id],
		);
		const publicRows =
			table.kind === 'table' && table.publicRows
				? await superuserCount(
						`select count(*)::int as n from public.${table.table} where ${where} and (${table.publicRows})`,
						[fx.tenantA.id],
					)
				: all;
		if (all === 0) throw new Error(`Fixture has no ${table.table} rows for tenant A`);
		// Without hidden rows, 'public' and 'all' could not be told apart.
		if (table.kind === 'table' && table.publicRows && !(publicRows > 0 && publicRows < all)) {
			throw new Error(`Fixture needs public and hidden ${table.table} rows (${publicRows}/${all})`);
		}
		counts.set(table.table, { all, public: publicRows });
	}
});

afterAll(async () => {
	if (fx) await removeRlsFixtures(db, fx);
	await db.end();
	console.log(
		`Privilege matrix: ${TABLES.length} tables and views, ${TABLES.reduce((n, t) => n + columnsOf(t).length, 0)} columns × ${ROLES.length} callers; ${matrixCells} row cells run as the caller + ${restChecks} PostgREST checks`,
	);
});

// --- The matrix ----------------------------------------------------------------------------------

describe('the matrix covers the schema', () => {
	it('declares every table and view of the public schema and every column, and nothing gone', () => {
		expect(undeclared(catalogue)).toEqual([]);
	});

	it('every table has row-level security on', async () => {
		const { rows } = await db.query<{ table: string }>(
			`select c.relname as table
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
		);
		expect(rows).toEqual([]);
	});

	it('fails on a planted table, a planted column and a grant nobody declared', async () => {
		await db.query('begin');
		try {
			await db.query('create table public.planted_probe (id int)');
			await db.query('alter table public.profiles add column planted_note text');
			await db.query('grant select (planted_note) on public.profiles to anon, authenticated');
			await db.query('grant insert on public.business_stats to authenticated');
			const planted = await readCatalogue(db);
			expect(undeclared(planted)).toEqual([
				'planted_probe: a table or view the matrix does not declare',
				'profiles.planted_note: a column the matrix does not declare',
			]);
			const profiles = TABLES.find((t) => t.table === 'profiles')!;
			expect(grantedMatrix(profiles, planted)).not.toEqual(declaredMatrix(profiles));
			const stats = TABLES.find((t) => t.table === 'business_stats')!;
			expect(unusedGrants(stats, planted)).toContain(
				'business_stats.tenant_id: insert granted to authenticated',
			);
		} finally {
			await db.query('rollback');
		}
		// Gone with the transaction: the schema is as declared again.
		expect(undeclared(await readCatalogue())).toEqual([]);
	});
});

describe('grants per column and caller, from the catalogues', () => {
	for (const relation of TABLES) {
		it(`${relation.table}: each caller holds what it is declared to, and no role more`, () => {
			expect(grantedMatrix(relation, catalogue)).toEqual(declaredMatrix(relation));
			expect(unusedGrants(relation, catalogue)).toEqual([]);
		});
	}

	it('never TRUNCATE, TRIGGER or REFERENCES for anon or authenticated on a table or view', async () => {
		const { rows } = await db.query(
			`select c.relname, r.role, p.privilege
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			cross join (values ('TRUNCATE'), ('TRIGGER'), ('REFERENCES')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
				and has_table_privilege(r.role, c.oid, p.privilege)`,
		);
		expect(rows).toEqual([]);
	});

	it('a write only where a policy lets that role write', async () => {
		const { rows } = await db.query(
			`select c.relname, r.role, p.privilege
			from pg_class c
			join pg_namespace n on n.oid = c.relnamespace
			cross join (values ('anon'), ('authenticated')) r(role)
			cross join (values ('INSERT'), ('UPDATE'), ('DELETE')) p(privilege)
			where n.nspname = 'public' and c.relkind in ('r', 'p')
				and (has_table_privilege(r.role, c.oid, p.privilege)
					or (p.privilege <> 'DELETE' and has_any_column_privilege(r.role, c.oid, p.privilege)))
				and not exists (
					select 1 from pg_policies pol
					where pol.schemaname = 'public' and pol.tablename = c.relname
						and pol.cmd in ('ALL', p.privilege)
						and (r.role = any (pol.roles) or 'public' = any (pol.roles))
				)
			order by 1, 2, 3`,
		);
		expect(rows).toEqual([]);
	});

	it('never a sequence for anon or authenticated: their inserts fill identity columns without one', async () => {
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

	it('tables created later give anon and authenticated nothing until their migration grants it', async () => {
		await db.query('begin');
		try {
			await db.query('create table public.privileges_probe (id int)');
			const { rows } = await db.query(`
				select has_table_privilege('anon', 'public.privileges_probe', 'SELECT') as anon,
					has_table_privilege('authenticated', 'public.privileges_probe', 'SELECT') as authenticated`);
			expect(rows).toEqual([{ anon: false, authenticated: false }]);
		} finally {
			await db.query('rollback');
		}
	});
});

describe('row-level security matrix (tenant A rows)', () => {
	for (const table of ROW_CASES) {
		describe(table.table, () => {
			for (const operation of OPERATIONS) {
				for (const role of ROLES) {
					it(`${operation} as ${ROLE_LABELS[role]}: ${expectation(table, operation, role)}`, async () => {
						await checkCell(table, operation, role);
						matrixCells++;
					});
				}
			}
			for (const [column, rule] of Object.entries(table.columnRules ?? {})) {
				if (!rule.select || table.kind !== 'table') continue;
				const readers = rule.select.map((r) => ROLE_LABELS[r]).join(', ') || 'nobody';
				for (const role of ROLES) {
					it(`select ${column} as ${ROLE_LABELS[role]}: only ${readers} (${rule.why})`, async () => {
						await checkPrivateColumn(table, column, role);
						matrixCells++;
					});
				}
			}
		});
	}
});

// --- Through PostgREST ---------------------------------------------------------------------------

/** A token of the caller, as the identity service signs one. */
function tokenOf(role: Exclude<Role, 'anon' | 'service'>): Promise<string> {
	return fixtureToken(stack, role === 'memberA' ? fx.member : userOf(role));
}

async function rest(
	path: string,
	options: { token?: string; method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
	const res = await fetch(`${stack.supabaseUrl}/rest/v1${path}`, {
		method: options.method ?? 'GET',
		headers: {
			apikey: stack.anonKey,
			authorization: `Bearer ${options.token ?? stack.anonKey}`,
			'content-type': 'application/json',
		},
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await res.text();
	return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

function ids(body: unknown): string[] {
	expect(Array.isArray(body), JSON.stringify(body)).toBe(true);
	return (body as { id: string }[]).map((row) => row.id).sort();
}

describe('row-level security through PostgREST', () => {
	it('anon reads no contact messages', async () => {
		const res = await rest('/contact_messages');
		// No policy lets anon read them, so anon holds no privilege on the table at all.
		expect(res.status).toBe(401);
		expect(res.body).toMatchObject({ code: '42501' });
		restChecks++;
	});

	it("anon reads only tenant A's published business", async () => {
		const res = await rest(`/profiles?tenant_id=eq.${fx.tenantA.id}&select=id`);
		expect(res.status).toBe(200);
		expect(ids(res.body)).toEqual([fx.tenantA.publishedProfileId]);
		restChecks++;
	});

	it("the admin of B reads none of tenant A's contact messages", async () => {
		const token = await tokenOf('adminB');
		const res = await rest(`/contact_messages?tenant_id=eq.${fx.tenantA.id}`, { token });
		expect(res).toEqual({ status: 200, body: [] });
		restChecks++;
	});

	it("the admin of A reads tenant A's contact message", async () => {
		const token = await tokenOf('adminA');
		const res = await rest(`/contact_messages?tenant_id=eq.${fx.tenantA.id}`, { token });
		expect(res.status).toBe(200);
		expect(ids(res.body)).toEqual([fx.contactMessageId]);
		restChecks++;
	});

	it('anon cannot write a contact message', async () => {
		const res = await rest('/contact_messages', {
			method: 'POST',
			body: {
				tenant_id: fx.tenantA.id,
				business_name: 'Published Diner',
				name: 'Spammer',
				email: 'spam@example.com',
				message: 'Buy now',
			},
		});
		expect([401, 403]).toContain(res.status);
		expect(res.body).toMatchObject({ code: '42501' });
		const stored = await superuserCount(
			`select count(*)::int as n from public.contact_messages where tenant_id = $1`,
			[fx.tenantA.id],
		);
		expect(stored).toBe(1);
		restChecks++;
	});

	it('anon cannot call import_tenant', async () => {
		const slug = randomSlug('rls-rpc');
		const res = await rest('/rpc/import_tenant', {
			method: 'POST',
			body: { payload: { tenant: { slug, name: 'Hijacked' } } },
		});
		expect([401, 403]).toContain(res.status);
		expect(res.body).toMatchObject({ code: '42501' });
		const created = await superuserCount(
			`select count(*)::int as n from public.tenants where slug = $1`,
			[slug],
		);
		expect(created).toBe(0);
		restChecks++;
	});

	it("anon may not read publishes at all; the editor of A reads tenant A's", async () => {
		const anon = await rest(`/publishes?tenant_id=eq.${fx.tenantA.id}`);
		expect(anon.status).toBe(401);
		expect(anon.body).toMatchObject({ code: '42501' });
		const token = await tokenOf('editorA');
		const res = await rest(`/publishes?tenant_id=eq.${fx.tenantA.id}&select=reason`, { token });
		expect(res).toEqual({ status: 200, body: [{ reason: 'Content saved' }] });
		restChecks++;
	});

	it("a chamber admin cannot report a build's progress: only the build service can", async () => {
		const token = await tokenOf('adminA');
		const { rows } = await db.query<{ id: string }>(
			'select id::text from public.publishes where tenant_id = $1',
			[fx.tenantA.id],
		);
		const id = Number(rows[0]?.id);
		for (const [fn, body] of [
			['start_publish', { p_publish_id: id }],
			['finish_publish', { p_publish_id: id, p_state: 'failed', p_error: 'x' }],
			['mark_publish_dispatched', { p_publish_id: id }],
		] as const) {
			const res = await rest(`/rpc/${fn}`, { method: 'POST', token, body });
			expect([401, 403], fn).toContain(res.status);
			expect(res.body).toMatchObject({ code: '42501' });
		}
		const state = await superuserCount(
			`select count(*)::int as n from public.publishes where tenant_id = $1 and state = 'live'`,
			[fx.tenantA.id],
		);
		expect(state).toBe(1);
		restChecks++;
	});

	it('anon and the admin of B cannot request a publish of chamber A', async () => {
		const body = { p_tenant_id: fx.tenantA.id, p_reason: 'Hijack' };
		const anon = await rest('/rpc/request_publish', { method: 'POST', body });
		expect([401, 403]).toContain(anon.status);
		const adminB = await rest('/rpc/request_publish', {
			method: 'POST',
			token: await tokenOf('adminB'),
			body,
		});
		expect([401, 403]).toContain(adminB.status);
		expect(adminB.body).toMatchObject({ code: '42501' });
		const queued = await superuserCount(
			`select count(*)::int as n from public.publishes where tenant_id = $1 and state = 'queued'`,
			[fx.tenantA.id],
		);
		expect(queued).toBe(0);
		restChecks++;
	});
	it("a business's address through the Data API: no caller's token reads it, in any chamber", async () => {
		// The request as written: every published business's address, every chamber.
		const path = '/profiles?select=tenant_id,email&email=neq.';
		expect(await rest(path)).toEqual({
			status: 401,
			body: expect.objectContaining({ code: '42501' }),
		});
		for (const role of ['memberA', 'editorA', 'adminA', 'superAdminB', 'adminB'] as const) {
			const res = await rest(path, { token: await tokenOf(role) });
			expect(res, ROLE_LABELS[role]).toEqual({
				status: 403,
				body: expect.objectContaining({ code: '42501' }),
			});
		}
		const services = await service
			.from('profiles')
			.select('email')
			.eq('id', fx.tenantA.publishedProfileId)
			.single();
		expect(services.data).toEqual({ email: fx.member.email });
		restChecks++;
	});

	it("a business's address through the member editor: the chamber's staff only", async () => {
		const body = { p_tenant_id: fx.tenantA.id, p_business_id: fx.tenantA.publishedProfileId };
		for (const role of ['editorA', 'adminA', 'superAdminB'] as const) {
			const res = await rest('/rpc/admin_business', {
				method: 'POST',
				token: await tokenOf(role),
				body,
			});
			expect(res.status, ROLE_LABELS[role]).toBe(200);
			expect(res.body, ROLE_LABELS[role]).toMatchObject({ business: { email: fx.member.email } });
		}
		for (const role of ['memberA', 'adminB'] as const) {
			const res = await rest('/rpc/admin_business', {
				method: 'POST',
				token: await tokenOf(role),
				body,
			});
			expect(res, ROLE_LABELS[role]).toEqual({
				status: 403,
				body: expect.objectContaining({ code: '42501' }),
			});
		}
		restChecks++;
	});

	it('a community submission is public to nobody before staff approve it', async () => {
		// Visitors and the member read none of it, and cannot write one (the submit function stores
		// them after its reCAPTCHA and limits).
		const anonRead = await rest(`/event_submissions?tenant_id=eq.${fx.tenantA.id}`);
		expect(anonRead.status).toBe(401);
		expect(anonRead.body).toMatchObject({ code: '42501' });
		const member = await tokenOf('memberA');
		expect(
			await rest(`/event_submissions?tenant_id=eq.${fx.tenantA.id}`, { token: member }),
		).toEqual({ status: 200, body: [] });
		for (const token of [undefined, member]) {
			const res = await rest('/event_submissions', {
				method: 'POST',
				token,
				body: {
					tenant_id: fx.tenantA.id,
					submitter_name: 'Spammer',
					submitter_email: 'spam@example.com',
					event: {
						name: 'Buy now',
						time_zone: 'America/Chicago',
						starts_local: '2027-04-01T10:00',
						ends_local: '2027-04-01T11:00',
					},
				},
			});
			expect([401, 403]).toContain(res.status);
		}
		// Nor do the calendars show it: they read published chamber events only.
		const calendar = await rest('/rpc/public_chamber_events', {
			method: 'POST',
			body: {
				p_tenant_id: fx.tenantA.id,
				p_calendar: 'community',
				p_start: '2027-01-01T00:00:00Z',
				p_end: '2027-12-31T00:00:00Z',
			},
		});
		expect(calendar).toEqual({ status: 200, body: [] });
		// Staff of the chamber read it to review it.
		const editor = await rest(
			`/event_submissions?tenant_id=eq.${fx.tenantA.id}&select=submitter_name`,
			{
				token: await tokenOf('editorA'),
			},
		);
		expect(editor).toEqual({ status: 200, body: [{ submitter_name: 'Visitor' }] });
		restChecks++;
	});

	it('every column of every view, for visitors and for a signed-in user', async () => {
		const views = TABLES.filter((t) => t.kind === 'view').map(
			(t) => t.table as keyof Database['public']['Views'],
		);
		expect(views.length).toBeGreaterThan(0);
		const member = userClient(stack, await tokenOf('memberA'));
		for (const name of views) {
			// A view that reads its tables as the caller fails on a column its role was not granted.
			for (const client of [anon, member]) {
				const { data, error } = await client.from(name).select('*').eq('tenant_id', fx.tenantA.id);
				expect(error, name).toBeNull();
				expect(data, name).toHaveLength(1);
			}
		}
		restChecks++;
	});
});
