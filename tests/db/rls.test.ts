import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import { randomProfileNumber, randomSlug, removeRlsFixtures, seedRlsFixtures } from './fixtures.ts';
import type { FixtureUser, RlsFixtures } from './fixtures.ts';

// Row-level security, cell by cell: every table × {select, insert, update, delete} × every kind
// of caller, run as that caller inside a transaction that is always rolled back. The expectations
// below are the design; a failing cell means a migration disagrees with it.

// --- Callers -----------------------------------------------------------------------------------

const ROLES = ['anon', 'adminA', 'editorA', 'memberA', 'adminB', 'superAdminB', 'service'] as const;
type Role = (typeof ROLES)[number];
type UserRoleKey = Exclude<Role, 'anon' | 'service' | 'memberA'>;

const ROLE_LABELS: Record<Role, string> = {
	anon: 'anon',
	adminA: 'admin of A',
	editorA: 'editor of A',
	memberA: "member of A's published business",
	adminB: 'admin of B',
	superAdminB: 'super_admin of B',
	service: 'service_role',
};

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

interface TableCase {
	table: string;
	tenantColumn: 'id' | 'tenant_id';
	/** A column the update sets to itself. */
	updateColumn: string;
	/** The column naming the business a row is about (for the member's 'business' rows). */
	businessColumn?: string;
	/** Which of tenant A's rows anyone may read (SQL predicate on the table), where not all. */
	publicRows?: string;
	/** A valid new row for tenant A, with superuser preparation run before switching role. */
	insert: (fx: RlsFixtures) => { prepare?: Statement[]; statement: Statement };
	select: Selects;
	writes: Writes;
}

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

const TABLES: readonly TableCase[] = [
	{
		table: 'tenants',
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
		table: 'admin_users',
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
		table: 'chamber_config',
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
		table: 'audit_log',
		tenantColumn: 'tenant_id',
		updateColumn: 'section',
		insert: tenantInsert(
			`insert into public.audit_log (tenant_id, actor_role, section) values ($1, 'admin', 'colors')`,
		),
		select: CHAMBER_ADMINS_READ,
		writes: writtenBy([]),
	},
	{
		table: 'cache_versions',
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
		table: 'cache_purge_log',
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
		table: 'publishes',
		tenantColumn: 'tenant_id',
		updateColumn: 'reason',
		insert: tenantInsert(
			`insert into public.publishes (tenant_id, reason) values ($1, 'Sneaky build')`,
		),
		select: STAFF_ONLY_READ,
		writes: SERVICE_WRITES,
	},
	{
		// Written only by save_business (tests/db/business-admin.test.ts) and cleared by staff
		// through clear_business_override.
		table: 'business_overrides',
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
		// Bound by the sign-in function (service role); a member reads its own binding, the
		// chamber's admins who signed in for which business.
		table: 'business_members',
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
		table: 'member_submissions',
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
				'source',
				`insert into public.member_imports (tenant_id, kind, source) values ($1, 'sync', 'x')`,
			],
			[
				'member_import_rows',
				'name',
				`insert into public.member_import_rows (import_id, tenant_id, action) select id, $1, 'missing' from public.member_imports where tenant_id = $1 limit 1`,
			],
			[
				'member_import_mappings',
				'field',
				`insert into public.member_import_mappings (tenant_id, header, field) values ($1, 'colour', '')`,
			],
		] as const
	).map(([table, updateColumn, text]): TableCase => ({
		// Written by the import functions (service role) and the definer functions staff call;
		// read by the chamber's admins only (a member export holds private contact details).
		table,
		tenantColumn: 'tenant_id',
		updateColumn,
		insert: tenantInsert(text),
		select: CHAMBER_ADMINS_READ,
		writes: SERVICE_WRITES,
	})),
	{
		// Staff schedule what they may save now: the insert trigger tries the change as them
		// (tests/db/schedule.test.ts); Cancel and the scheduled function change rows.
		table: 'scheduled_publishes',
		tenantColumn: 'tenant_id',
		updateColumn: 'summary',
		insert:
			tenantInsert(`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
				values ($1, now() + interval '1 day', 'save', jsonb_build_array(jsonb_build_object(
					'column', 'content', 'field', 'footerTagline', 'value', 'Later',
					'version', public.config_section_version($1, 'content'))), 'Later')`),
		select: STAFF_ONLY_READ,
		writes: {
			insert: CHAMBER_STAFF,
			update: SERVICE_ONLY,
			delete: SERVICE_ONLY,
		},
	},
	{
		table: 'profiles',
		tenantColumn: 'tenant_id',
		updateColumn: 'report_name',
		publicRows: 'published',
		insert: (fx) => ({
			statement: {
				text: `insert into public.profiles (tenant_id, report_name, weblink_profile_id) values ($1, 'New business', $2)`,
				values: [fx.tenantA.id, randomProfileNumber()],
			},
		}),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		table: 'listings',
		tenantColumn: 'tenant_id',
		updateColumn: 'keywords',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('listings', 'description', `'<p>New listing</p>'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		table: 'social_media',
		tenantColumn: 'tenant_id',
		updateColumn: 'url',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('social_media', 'platform, url', `'youtube', 'https://youtube.com/x'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		table: 'profile_affiliations',
		tenantColumn: 'tenant_id',
		updateColumn: 'aff_name',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('profile_affiliations', 'aff_name', `'Young Professionals'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		table: 'web_content',
		tenantColumn: 'tenant_id',
		updateColumn: 'content_title',
		publicRows: CHILD_OF_PUBLISHED,
		insert: childInsert('web_content', 'content_type, content_title', `'document', 'Menu'`),
		select: STAFF_READ_ALL,
		writes: SERVICE_WRITES,
	},
	{
		table: 'banners',
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
		table: 'events',
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
		table: 'chamber_events',
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
		table: 'chamber_event_occurrences',
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
		table: 'event_feeds',
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
		table: 'event_submissions',
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
		table: 'contact_messages',
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
		table: 'search_words',
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
		table: 'business_counts',
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
		table: 'affiliation_counts',
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
		table: 'business_stats',
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
		table: 'member_report_settings',
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
		table: 'member_report_recipients',
		tenantColumn: 'tenant_id',
		updateColumn: 'opted_out_at',
		insert: tenantInsert(
			`insert into public.member_report_recipients (tenant_id, business_id) values ($1, gen_random_uuid())`,
		),
		select: SERVICE_ONLY_READS,
		writes: SERVICE_WRITES,
	},
	{
		table: 'member_report_mailings',
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
];

function expectation(table: TableCase, operation: Operation, role: Role): string {
	switch (operation) {
		case 'select':
			return visibilityOf(table, role);
		default:
			return table.writes[operation].includes(role) ? 'allowed' : 'denied';
	}
}

// --- Running a statement as a caller -------------------------------------------------------------

let fx: RlsFixtures;
/** Rows of tenant A per table as the superuser counts them: all of them, and the public ones. */
const counts = new Map<string, { all: number; public: number }>();
let matrixCells = 0;
let restChecks = 0;

type Outcome = { rows: number } | { error: string; message: string };

function userOf(role: UserRoleKey): FixtureUser {
	return fx.users[role];
}

function visibilityOf(table: TableCase, role: Role): Visibility {
	return role === 'memberA' ? (table.select.memberA ?? table.select.anon) : table.select[role];
}

function userIdOf(role: Exclude<Role, 'anon' | 'service'>): string {
	return role === 'memberA' ? fx.member.id : userOf(role).id;
}

function claimsOf(role: Role): Record<string, string> {
	if (role === 'anon') return { role: 'anon' };
	if (role === 'service') return { role: 'service_role' };
	if (role === 'memberA')
		return { sub: fx.member.id, role: 'authenticated', email: fx.member.email };
	return { sub: userOf(role).id, role: 'authenticated' };
}

const PG_ROLES: Record<Role, string> = {
	anon: 'anon',
	adminA: 'authenticated',
	editorA: 'authenticated',
	memberA: 'authenticated',
	adminB: 'authenticated',
	superAdminB: 'authenticated',
	service: 'service_role',
};

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

function expectedRows(table: TableCase, visibility: Visibility, role: Role): Promise<number> {
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
			if (role !== 'memberA' || !table.businessColumn) {
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

async function checkCell(table: TableCase, operation: Operation, role: Role): Promise<void> {
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
		const outcome = await runAs(role, {
			text: `select count(*)::int as n from public.${table.table} where ${where}`,
			values: tenantA,
		});
		// Reading nothing may also be no read privilege at all.
		if (visibility === 'none' && 'error' in outcome) expect(outcome.error).toBe('42501');
		else expect(outcome).toEqual({ rows: expected });
		return;
	}

	let outcome: Outcome;
	if (operation === 'insert') {
		const { prepare, statement } = table.insert(fx);
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

// --- Setup ---------------------------------------------------------------------------------------

beforeAll(async () => {
	await db.connect();
	fx = await seedRlsFixtures(service, db);
	for (const table of TABLES) {
		const where = `${table.tenantColumn} = $1`;
		const all = await superuserCount(
			`select count(*)::int as n from public.${table.table} where ${where}`,
			[fx.tenantA.id],
		);
		const publicRows = table.publicRows
			? await superuserCount(
					`select count(*)::int as n from public.${table.table} where ${where} and (${table.publicRows})`,
					[fx.tenantA.id],
				)
			: all;
		if (all === 0) throw new Error(`Fixture has no ${table.table} rows for tenant A`);
		// Without hidden rows, 'public' and 'all' could not be told apart.
		if (table.publicRows && !(publicRows > 0 && publicRows < all)) {
			throw new Error(`Fixture needs public and hidden ${table.table} rows (${publicRows}/${all})`);
		}
		counts.set(table.table, { all, public: publicRows });
	}
});

afterAll(async () => {
	if (fx) await removeRlsFixtures(db, fx);
	await db.end();
	console.log(
		`RLS matrix: ${matrixCells} assertions (${TABLES.length} tables × ${OPERATIONS.length} operations × ${ROLES.length} roles) + ${restChecks} PostgREST checks`,
	);
});

// --- The matrix ----------------------------------------------------------------------------------

/**
 * Tables without a tenant, each with row-level security on and no policy, read and written only
 * by security-definer functions; their own tests check that visitors cannot reach them.
 */
const TENANTLESS_TABLES: Record<string, string> = {
	rate_limit_hits: 'tests/db/rate-limit.test.ts',
};

describe('the matrix covers the schema', () => {
	it('every table of the public schema is in the matrix, with row-level security on', async () => {
		const { rows } = await db.query<{ table: string; rls: boolean }>(
			`select c.relname as table, c.relrowsecurity as rls
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			where n.nspname = 'public' and c.relkind in ('r', 'p')
			order by 1`,
		);
		const covered = [...TABLES.map((t) => t.table), ...Object.keys(TENANTLESS_TABLES)].sort();
		expect(rows.map((r) => r.table)).toEqual(covered);
		expect(rows.filter((r) => !r.rls).map((r) => r.table)).toEqual([]);
	});
});

describe('row-level security matrix (tenant A rows)', () => {
	for (const table of TABLES) {
		describe(table.table, () => {
			for (const operation of OPERATIONS) {
				for (const role of ROLES) {
					it(`${operation} as ${ROLE_LABELS[role]}: ${expectation(table, operation, role)}`, async () => {
						await checkCell(table, operation, role);
						matrixCells++;
					});
				}
			}
		});
	}
});

// --- Through PostgREST ---------------------------------------------------------------------------

async function userToken(user: FixtureUser): Promise<string> {
	return new SignJWT({ role: 'authenticated', aud: 'authenticated' })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setSubject(user.id)
		.setIssuedAt()
		.setExpirationTime('1h')
		.sign(new TextEncoder().encode(stack.jwtSecret));
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
		const token = await userToken(fx.users.adminB);
		const res = await rest(`/contact_messages?tenant_id=eq.${fx.tenantA.id}`, { token });
		expect(res).toEqual({ status: 200, body: [] });
		restChecks++;
	});

	it("the admin of A reads tenant A's contact message", async () => {
		const token = await userToken(fx.users.adminA);
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
		const token = await userToken(fx.users.editorA);
		const res = await rest(`/publishes?tenant_id=eq.${fx.tenantA.id}&select=reason`, { token });
		expect(res).toEqual({ status: 200, body: [{ reason: 'Content saved' }] });
		restChecks++;
	});

	it("a chamber admin cannot report a build's progress: only the build service can", async () => {
		const token = await userToken(fx.users.adminA);
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
			token: await userToken(fx.users.adminB),
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
});
