import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import type { Client } from 'pg';
import {
	configVersionsSchema,
	type ConfigVersions,
} from '../../src/features/admin/update-config.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import {
	parseTenantFile,
	type BannerInput,
	type BusinessInput,
	type EventInput,
	type TenantFileInput,
	type TenantUserInput,
	type UserRole,
} from '../../src/features/tenants/tenant-file.ts';
import type { SupabaseClient } from '../../src/lib/database.ts';
import { signInAs } from '../support/db-clients.ts';

// Test data for the database tests: two small chambers imported through the real import path
// (importTenant → import_tenant), plus the rows only the server writes (contact messages, the
// cache purge log), added as the superuser. Slugs and e-mails are random, so a test never
// depends on, nor collides with, any other data in the database.

/** A slug no other test uses, e.g. `rls-a-3f9c2a71`. */
export function randomSlug(prefix: string): string {
	return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A membership-system profile id (digits) that is unique enough for one test run. */
export function randomProfileNumber(): string {
	return String(100_000_000 + Math.floor(Math.random() * 900_000_000));
}

export const FIXTURE_PASSWORD = 'fixture-password';

export function fixtureUser(slug: string, role: UserRole, name: string = role): TenantUserInput {
	return { email: `${name}.${slug}@example.com`, password: FIXTURE_PASSWORD, role };
}

/** A business with exactly one listing, social link, affiliation and web content item. */
export function fixtureBusiness(options: {
	id?: string;
	name: string;
	published: boolean;
	weblinkProfileId?: string;
}): BusinessInput {
	return {
		id: options.id ?? randomUUID(),
		report_name: options.name,
		city: 'Cedarbrook',
		state: 'IA',
		zip: '52901',
		categories: ['Restaurants'],
		weblink_profile_id: options.weblinkProfileId ?? randomProfileNumber(),
		published: options.published,
		listings: [
			{
				description: `<p>${options.name} serves the town.</p>`,
				short_description: `${options.name} serves the town.`,
				categories: ['Restaurants'],
				keywords: 'food lunch',
				primary_listing: true,
			},
		],
		social_media: [{ platform: 'facebook', url: 'https://facebook.com/example' }],
		profile_affiliations: [{ aff_name: 'Women in Business', aff_code: 'WIB' }],
		web_content: [
			{ content_type: 'image', content_title: 'Storefront', full_url: 'https://example.com/a.jpg' },
		],
	};
}

function fixtureBanner(options: { id?: string; name: string; active: boolean }): BannerInput {
	return {
		id: options.id ?? randomUUID(),
		banner_name: options.name,
		image_url: 'https://example.com/banner.png',
		active: options.active,
	};
}

/** A one-hour chamber event in the Atlas shape, a year from now. */
function fixtureEvent(options: { eventId: number; name: string; closed: boolean }): EventInput {
	const start = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 15, 14, 0, 0));
	const end = new Date(start.getTime() + 60 * 60 * 1000);
	const day = start.toISOString().slice(0, 10);
	return {
		EventId: options.eventId,
		EventName: options.name,
		StartDateTimeUtc: start.toISOString(),
		EndDateTimeUtc: end.toISOString(),
		StartDate: day,
		EndDate: day,
		StartTime: '2:00 PM',
		EndTime: '3:00 PM',
		TimeZone: { Abbreviation: 'UTC' },
		Closed: options.closed,
	};
}

interface FixtureTenantIds {
	publishedProfileId: string;
	unpublishedProfileId: string;
	activeBannerId: string;
	inactiveBannerId: string;
}

/**
 * Tenant A: one published and one unpublished business, one active and one inactive banner,
 * one open and one closed event, an admin and an editor.
 */
function tenantAFile(slug: string, ids: FixtureTenantIds): TenantFileInput {
	return {
		tenant: { slug, name: `RLS Chamber A ${slug}` },
		businesses: [
			fixtureBusiness({ id: ids.publishedProfileId, name: 'Published Diner', published: true }),
			fixtureBusiness({ id: ids.unpublishedProfileId, name: 'Hidden Bakery', published: false }),
		],
		banners: [
			fixtureBanner({ id: ids.activeBannerId, name: 'Active sponsor', active: true }),
			fixtureBanner({ id: ids.inactiveBannerId, name: 'Retired sponsor', active: false }),
		],
		events: [
			fixtureEvent({ eventId: 1, name: 'Open mixer', closed: false }),
			fixtureEvent({ eventId: 2, name: 'Closed gala', closed: true }),
		],
		users: [fixtureUser(slug, 'admin'), fixtureUser(slug, 'editor')],
	};
}

/** Tenant B: one published business, an admin and a super admin. */
function tenantBFile(slug: string, publishedProfileId: string): TenantFileInput {
	return {
		tenant: { slug, name: `RLS Chamber B ${slug}` },
		businesses: [fixtureBusiness({ id: publishedProfileId, name: 'B Hardware', published: true })],
		users: [fixtureUser(slug, 'admin'), fixtureUser(slug, 'super_admin', 'super')],
	};
}

export interface FixtureUser {
	id: string;
	email: string;
	password: string;
	role: UserRole;
	tenantId: string;
}

export interface RlsFixtures {
	tenantA: { id: string; slug: string } & FixtureTenantIds;
	tenantB: { id: string; slug: string; publishedProfileId: string };
	users: {
		adminA: FixtureUser;
		editorA: FixtureUser;
		adminB: FixtureUser;
		superAdminB: FixtureUser;
	};
	/** The contact_messages row of tenant A (written as the superuser). */
	contactMessageId: string;
	/** The cache_purge_log row of tenant A (written as the superuser). */
	cachePurgeLogId: string;
	/**
	 * The member of tenant A's published business (no staff role): bound to it as the sign-in
	 * function binds one, with a pending request; the unpublished business has another's request.
	 */
	member: { id: string; email: string; profileId: string };
}

async function userId(db: Client, email: string): Promise<string> {
	const { rows } = await db.query<{ user_id: string }>(
		'select user_id from public.admin_users where email = $1',
		[email],
	);
	const row = rows[0];
	if (!row) throw new Error(`Fixture user ${email} has no admin_users row`);
	return row.user_id;
}

async function fixtureUserRow(
	db: Client,
	input: TenantUserInput,
	tenantId: string,
): Promise<FixtureUser> {
	const email = input.email.toLowerCase();
	return {
		id: await userId(db, email),
		email,
		password: input.password ?? FIXTURE_PASSWORD,
		role: input.role,
		tenantId,
	};
}

/**
 * Imports tenants A and B with `service` (a service-role supabase-js client), then adds a
 * contact message and a cache purge log entry for A through `db` (a superuser pg client).
 */
export async function seedRlsFixtures(service: SupabaseClient, db: Client): Promise<RlsFixtures> {
	const slugA = randomSlug('rls-a');
	const slugB = randomSlug('rls-b');
	const idsA: FixtureTenantIds = {
		publishedProfileId: randomUUID(),
		unpublishedProfileId: randomUUID(),
		activeBannerId: randomUUID(),
		inactiveBannerId: randomUUID(),
	};
	const publishedProfileB = randomUUID();
	const fileA = tenantAFile(slugA, idsA);
	const fileB = tenantBFile(slugB, publishedProfileB);
	const importedA = await importTenant(service, parseTenantFile(fileA, 'fixture'));
	const importedB = await importTenant(service, parseTenantFile(fileB, 'fixture'), {
		allowSuperAdmin: true,
	});
	const [adminA, editorA] = fileA.users ?? [];
	const [adminB, superAdminB] = fileB.users ?? [];
	if (!adminA || !editorA || !adminB || !superAdminB) throw new Error('Fixture users missing');

	const message = await db.query<{ id: string }>(
		`insert into public.contact_messages (tenant_id, business_id, business_name, name, email, message)
		values ($1, $2, 'Published Diner', 'Visitor', 'visitor@example.com', 'Are you open on Sundays?')
		returning id`,
		[importedA.tenant_id, idsA.publishedProfileId],
	);
	const purge = await db.query<{ id: string }>(
		`insert into public.cache_purge_log (tenant_id, user_email, purge_type)
		values ($1, $2, 'config')
		returning id::text`,
		[importedA.tenant_id, adminA.email.toLowerCase()],
	);

	// One publish of tenant A, as the publishing functions write it.
	await db.query(
		`insert into public.publishes (tenant_id, state, reason, requested_by_email) values ($1, 'live', 'Content saved', $2)`,
		[importedA.tenant_id, adminA.email.toLowerCase()],
	);

	// One field staff changed, so tenant A has a business_overrides row.
	await db.query(
		`insert into public.business_overrides (tenant_id, profile_id, field, changed_by) values ($1, $2, 'website', $3)`,
		[importedA.tenant_id, idsA.publishedProfileId, adminA.email.toLowerCase()],
	);

	// One address of tenant A the geocoder is to look up.
	await db.query(`insert into public.geocode_requests (tenant_id, profile_id) values ($1, $2)`, [
		importedA.tenant_id,
		idsA.unpublishedProfileId,
	]);

	// One scheduled publish of tenant A, as the server side stores one.
	await db.query(
		`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
		values ($1, now() + interval '1 day', 'save', '[{"column": "content", "field": "heroTitle", "value": "Later", "version": 0}]', 'Later')`,
		[importedA.tenant_id],
	);

	// One import of tenant A with one row of its dry run, and a column mapping it saved.
	const { rows: imports } = await db.query<{ id: string }>(
		`insert into public.member_imports (tenant_id, kind, source, state) values ($1, 'file', 'members.csv', 'previewed') returning id`,
		[importedA.tenant_id],
	);
	await db.query(
		`insert into public.member_import_rows (import_id, tenant_id, row_number, action, name) values ($1, $2, 2, 'add', 'New member')`,
		[imports[0]!.id, importedA.tenant_id],
	);
	await db.query(
		`insert into public.member_import_mappings (tenant_id, header, field) values ($1, 'shopmotto', 'short_description')`,
		[importedA.tenant_id],
	);
	// The chamber's own numbering, as the apply of a file without ids leaves it.
	await db.query('insert into public.business_numbers (tenant_id, last_number) values ($1, 2)', [
		importedA.tenant_id,
	]);

	// Member statistics of tenant A: a counter of each business, the monthly e-mail's setting, a recipient and a
	// mailing, as /api/stats and the scheduled function write them.
	await db.query(
		`insert into public.business_stats (tenant_id, business_id, day, kind, count) values
			($1, $2, current_date, 'view', 3), ($1, $3, current_date, 'view', 1)`,
		[importedA.tenant_id, idsA.publishedProfileId, idsA.unpublishedProfileId],
	);
	await db.query(
		'insert into public.member_report_settings (tenant_id, monthly_email) values ($1, true)',
		[importedA.tenant_id],
	);
	await db.query(
		'insert into public.member_report_recipients (tenant_id, business_id) values ($1, $2)',
		[importedA.tenant_id, idsA.publishedProfileId],
	);
	await db.query(
		`insert into public.member_report_mailings (tenant_id, business_id, month, sent_at)
		values ($1, $2, date_trunc('month', current_date)::date, now())`,
		[importedA.tenant_id, idsA.publishedProfileId],
	);

	// The month's budget and warning, and what waits for a publish: a member's change of A's
	// published business and one of the chamber's.
	await db.query(
		'insert into public.publish_budgets (tenant_id, monthly_publishes) values ($1, 40)',
		[importedA.tenant_id],
	);
	await db.query(
		`insert into public.publish_months (tenant_id, month, warned_used, budget) values ($1, '2026-11-01', 32, 40)`,
		[importedA.tenant_id],
	);
	await db.query(
		`insert into public.waiting_changes (tenant_id, source, summary, business_id, due_at)
		values ($1, 'member', 'Opening hours', $2, now() + interval '1 hour'),
			($1, 'import', 'Member import: 3 businesses', null, now() + interval '1 hour')`,
		[importedA.tenant_id, idsA.publishedProfileId],
	);
	// A member of A's published business (the listing's address on file), a pending request of
	// theirs, and a decided request of the unpublished business that is not theirs.
	const memberId = randomUUID();
	const memberEmail = `member.${slugA}@example.com`;
	await db.query(
		`insert into auth.users (id, email, aud, role) values ($1, $2, 'authenticated', 'authenticated')`,
		[memberId, memberEmail],
	);
	await db.query('update public.profiles set email = $2 where id = $1', [
		idsA.publishedProfileId,
		memberEmail,
	]);
	await db.query(
		`insert into public.business_members (user_id, tenant_id, profile_id, email) values ($1, $2, $3, $4)`,
		[memberId, importedA.tenant_id, idsA.publishedProfileId, memberEmail],
	);
	await db.query(
		`insert into public.member_submissions (tenant_id, profile_id, user_id, member_email, changes, base_version)
		values ($1, $2, $3, $4, '{"website": "https://member.example"}', 1)`,
		[importedA.tenant_id, idsA.publishedProfileId, memberId, memberEmail],
	);
	await db.query(
		`insert into public.member_submissions (tenant_id, profile_id, member_email, changes, base_version, status, note, decided_at)
		values ($1, $2, 'someone@example.com', '{"website": "https://other.example"}', 1, 'returned', 'Not yours', now())`,
		[importedA.tenant_id, idsA.unpublishedProfileId],
	);

	// The chamber's own events of tenant A: a published one and a draft (with their dates), a
	// calendar feed, and a submission waiting for review.
	await db.query(
		`with e as (
			insert into public.chamber_events (tenant_id, name, status, time_zone, starts_local, ends_local)
			values ($1, 'Own mixer', 'published', 'America/Chicago', '2027-03-02 18:00', '2027-03-02 20:00'),
				($1, 'Own draft', 'draft', 'America/Chicago', '2027-03-09 18:00', '2027-03-09 20:00')
			returning id, tenant_id, starts_local, ends_local
		)
		insert into public.chamber_event_occurrences (tenant_id, series_id, recurrence_key, starts_local, ends_local, start_utc, end_utc)
		select tenant_id, id, 'once', starts_local, ends_local, starts_local at time zone 'America/Chicago',
			ends_local at time zone 'America/Chicago'
		from e`,
		[importedA.tenant_id],
	);
	await db.query(
		`insert into public.event_feeds (tenant_id, url, name) values ($1, 'https://calendar.example.org/a.ics', 'Chamber calendar')`,
		[importedA.tenant_id],
	);
	await db.query(
		`insert into public.event_submissions (tenant_id, submitter_name, submitter_email, event)
		values ($1, 'Visitor', 'visitor@example.com', '{"name": "Book sale", "time_zone": "America/Chicago", "starts_local": "2027-04-01T10:00", "ends_local": "2027-04-01T14:00"}')`,
		[importedA.tenant_id],
	);

	// One configuration change, so tenant A has an audit_log row.
	await db.query('update public.chamber_config set founded_year = 1901 where tenant_id = $1', [
		importedA.tenant_id,
	]);

	return {
		tenantA: { id: importedA.tenant_id, slug: slugA, ...idsA },
		tenantB: { id: importedB.tenant_id, slug: slugB, publishedProfileId: publishedProfileB },
		users: {
			adminA: await fixtureUserRow(db, adminA, importedA.tenant_id),
			editorA: await fixtureUserRow(db, editorA, importedA.tenant_id),
			adminB: await fixtureUserRow(db, adminB, importedB.tenant_id),
			superAdminB: await fixtureUserRow(db, superAdminB, importedB.tenant_id),
		},
		contactMessageId: message.rows[0]!.id,
		cachePurgeLogId: purge.rows[0]!.id,
		member: { id: memberId, email: memberEmail, profileId: idsA.publishedProfileId },
	};
}

/**
 * An access token of a fixture user or of the member, signed with the stack's secret as the
 * identity service signs one: PostgREST and the database judge it as that user.
 */
export async function fixtureToken(
	stack: { jwtSecret: string },
	user: { id: string; email: string },
): Promise<string> {
	return new SignJWT({ role: 'authenticated', aud: 'authenticated', email: user.email })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setSubject(user.id)
		.setIssuedAt()
		.setExpirationTime('1h')
		.sign(new TextEncoder().encode(stack.jwtSecret));
}

/** Deletes both tenants (every row of theirs cascades) and the fixture users' auth rows. */
export async function removeRlsFixtures(db: Client, fixtures: RlsFixtures): Promise<void> {
	await db.query('delete from public.tenants where id = any($1::uuid[])', [
		[fixtures.tenantA.id, fixtures.tenantB.id],
	]);
	await db.query('delete from auth.users where id = any($1::uuid[])', [
		[...Object.values(fixtures.users).map((u) => u.id), fixtures.member.id],
	]);
}

// --- Chambers with their staff, signed in ---------------------------------------------------------

/** A chamber imported with its staff, each signed in through the identity service. */
export interface StaffChamber<Key extends string> {
	slug: string;
	tenantId: string;
	/** `{name} {slug}`. */
	tenantName: string;
	emails: Record<Key, string>;
	/** Access tokens. */
	tokens: Record<Key, string>;
	/** Auth user ids. */
	ids: Record<Key, string>;
}

interface ChamberOptions {
	/** The start of the chamber's random slug. */
	prefix: string;
	/** The staff's e-mails'. */
	domain: string;
	/** Every staff member's. */
	password: string;
	/** The chamber is named `{name} {slug}`; default 'Chamber'. */
	name?: string;
	config?: TenantFileInput['config'];
	/** Default none. */
	businesses?: BusinessInput[];
	/** Default none. */
	banners?: BannerInput[];
	/** Default none. */
	events?: EventInput[];
	/** Default none. */
	communityEvents?: EventInput[];
}

/**
 * Imports a chamber through the real import, with one user of each `staff` key in its role, and
 * signs them in. E-mails are `{key}-{slug}@{domain}`, so removeStaffChambers finds them again.
 */
export async function importChamber<Key extends string>(
	stack: { supabaseUrl: string; anonKey: string },
	service: SupabaseClient,
	options: ChamberOptions & { staff: Record<Key, UserRole> },
): Promise<StaffChamber<Key>> {
	const slug = randomSlug(options.prefix);
	const tenantName = `${options.name ?? 'Chamber'} ${slug}`;
	const keys = Object.keys(options.staff) as Key[];
	const emails = Object.fromEntries(
		keys.map((key) => [key, `${key.toLowerCase()}-${slug}@${options.domain}`]),
	) as Record<Key, string>;
	const imported = await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: tenantName },
				config: options.config,
				businesses: options.businesses,
				banners: options.banners,
				events: options.events,
				communityEvents: options.communityEvents,
				users: keys.map((key) => ({
					email: emails[key],
					password: options.password,
					role: options.staff[key],
				})),
			},
			'fixture',
		),
		{ allowSuperAdmin: keys.some((key) => options.staff[key] === 'super_admin') },
	);
	const tokens = {} as Record<Key, string>;
	const ids = {} as Record<Key, string>;
	for (const key of keys) {
		tokens[key] = await signInAs(stack, emails[key], options.password);
		ids[key] = decodeJwt(tokens[key]).sub!;
	}
	return { slug, tenantId: imported.tenant_id, tenantName, emails, tokens, ids };
}

export type StaffKey = 'admin' | 'second' | 'editor' | 'otherAdmin' | 'super';

/**
 * Chamber A (`slug`, `tenantId`, `tenantName`) with two admins (`admin`, `second`) and an editor,
 * chamber B (`otherSlug`) with an admin (`otherAdmin`) and a super_admin (`super`).
 */
export interface StaffChambers extends StaffChamber<StaffKey> {
	otherSlug: string;
	otherTenantId: string;
}

interface StaffChambersOptions extends ChamberOptions {
	/** Chamber B's businesses (default none). */
	otherBusinesses?: BusinessInput[];
}

/**
 * Imports the two chambers (importChamber) and signs their staff in: the options are chamber A's,
 * and B is named `Other {slug}`.
 */
export async function importStaffChambers(
	stack: { supabaseUrl: string; anonKey: string },
	service: SupabaseClient,
	options: StaffChambersOptions,
): Promise<StaffChambers> {
	const { otherBusinesses, ...chamberA } = options;
	const a = await importChamber(stack, service, {
		...chamberA,
		staff: { admin: 'admin', second: 'admin', editor: 'editor' },
	});
	const b = await importChamber(stack, service, {
		prefix: `${options.prefix}-b`,
		domain: options.domain,
		password: options.password,
		name: 'Other',
		businesses: otherBusinesses,
		staff: { otherAdmin: 'admin', super: 'super_admin' },
	});
	return {
		...a,
		otherSlug: b.slug,
		otherTenantId: b.tenantId,
		emails: { ...a.emails, ...b.emails },
		tokens: { ...a.tokens, ...b.tokens },
		ids: { ...a.ids, ...b.ids },
	};
}

/** Removes the chambers (importChamber, importStaffChambers) and every identity of `domain`. */
export async function removeStaffChambers(
	db: Client,
	chambers: { slug: string; otherSlug?: string } | undefined,
	domain: string,
): Promise<void> {
	if (chambers) {
		const slugs = chambers.otherSlug ? [chambers.slug, chambers.otherSlug] : [chambers.slug];
		await db.query('delete from public.tenants where slug = any($1)', [slugs]);
	}
	await db.query('delete from auth.users where email like $1', [`%@${domain}`]);
}

/** Removes the chambers' files (each in its folder, `{tenantId}/…`) from a Storage bucket. */
export async function removeChamberFiles(
	db: Client,
	bucket: string,
	tenantIds: string[],
): Promise<void> {
	// Storage's tables refuse deletes but the Storage API's own (protect_delete): as it does.
	await db.query('begin');
	await db.query(`set local storage.allow_delete_query = 'true'`);
	await db.query('delete from storage.objects where bucket_id = $1 and name like any($2)', [
		bucket,
		tenantIds.map((id) => `${id}/%`),
	]);
	await db.query('commit');
}

/** Each configuration section's version now, as the panel reads it with the configuration. */
export async function configVersions(
	service: SupabaseClient,
	tenantId: string,
): Promise<ConfigVersions> {
	const { data, error } = await service
		.from('chamber_config')
		.select('config_versions')
		.eq('tenant_id', tenantId)
		.single();
	if (error) throw error;
	return configVersionsSchema.parse(data.config_versions);
}
