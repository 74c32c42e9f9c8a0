// Runs on: hosted — what a member's token may do, and their requests, are SQL: proved on the
// production shape.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { decodeJwt } from 'jose';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chamberConfigSchema } from '../../src/features/config/config.ts';
import {
	MEMBER_PUBLISH_INTERVAL_SECONDS,
	memberPublishBucket,
	SIGN_IN_SENT,
} from '../../src/features/self-service/self-service.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { userClient } from '../support/db-clients.ts';
import { db, service, stack } from './clients.ts';
import { importStaffChambers, removeStaffChambers, type StaffChambers } from './fixtures.ts';

// Members updating their own listing, end to end through the functions, the local identity
// service and the database: the e-mailed link, the member's listing and request, staff's
// decisions through save_business, the live fields, the e-mails, and what a member's token may
// not do.

const DOMAIN = 'self-service.test';
const outbox = join(stack.dataDir, 'outbox');

let chambers: StaffChambers;
let server: FunctionServer;
const ids = {
	withEmail: randomUUID(),
	second: randomUUID(),
	noEmail: randomUUID(),
	other: randomUUID(),
};
const tag = Math.random().toString(36).slice(2, 8);
const memberEmail = `owner-${tag}@${DOMAIN}`;
const secondEmail = `second-${tag}@${DOMAIN}`;

function business(id: string, name: string, email: string, weblink: string) {
	return {
		id,
		report_name: name,
		email,
		weblink_profile_id: weblink,
		work_phone: '555-0100',
		website: 'https://old.example',
		categories: ['Restaurants'],
		listings: [
			{
				description: '<p>Old description</p>',
				short_description: 'Old',
				categories: ['Restaurants'],
				primary_listing: true,
			},
		],
	};
}

/** The newest e-mail of `kind` to an address in the outbox, once it is there. */
async function mailTo(address: string, kind: string, after = 0) {
	for (let i = 0; i < 100; i++) {
		const files = (await readdir(outbox).catch(() => [] as string[]))
			.filter((f) => f.includes(kind) && f.includes(address))
			.sort();
		if (files.length > after) return simpleParser(await readFile(join(outbox, files.at(-1)!)));
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`No ${kind} e-mail to ${address}`);
}

async function countMail(address: string, kind: string): Promise<number> {
	return (await readdir(outbox).catch(() => [] as string[])).filter(
		(f) => f.includes(kind) && f.includes(address),
	).length;
}

function fragmentOf(location: string | null): URLSearchParams {
	return new URLSearchParams(new URL(location ?? 'http://x').hash.slice(1));
}

const asUser = (token: string) => userClient(stack, token);

/** The chamber's publishes so far (each a build). */
const publishCount = async () =>
	(
		await db.query<{ n: number }>(
			'select count(*)::int as n from public.publishes where tenant_id = $1',
			[chambers.tenantId],
		)
	).rows[0]!.n;

let memberToken: string;
/** The refresh token of the member's session from the e-mailed link. */
let memberRefresh: string;

/** The member's listing of their business and request, as their page loads it. */
const ownListing = () =>
	server.call(`/api/members/listing?business=${ids.withEmail}`, { token: memberToken });

/** The member's change to their business's listing, made from its `version`. */
const submit = (version: number, changes: object) =>
	server.call(`/api/members/listing?business=${ids.withEmail}`, {
		token: memberToken,
		body: { version, changes },
	});

beforeAll(async () => {
	await db.connect();
	chambers = await importStaffChambers(stack, service, {
		prefix: 'self',
		domain: DOMAIN,
		password: 'staff-password',
		config: { features: { memberUpdates: true } },
		businesses: [
			business(ids.withEmail, 'Owner Bakery', memberEmail, '7001'),
			business(ids.second, 'Second Shop', secondEmail, '7002'),
			business(ids.noEmail, 'No Mail Garage', '', '7003'),
		],
		otherBusinesses: [business(ids.other, 'Elsewhere Cafe', `other-${tag}@${DOMAIN}`, '7004')],
	});
	server = await startFunctionServer(stack, {
		tenant: chambers.slug,
		env: { OUTBOX_DIR: outbox, SMTP_URL: undefined },
	});
});

afterAll(async () => {
	await server?.close();
	await removeStaffChambers(db, chambers, DOMAIN);
	await db.end();
});

describe('the sign-in link', () => {
	it('answers the same for a business with an address, one without and an unknown one', async () => {
		const answers = [];
		for (const id of [ids.withEmail, ids.noEmail, randomUUID(), ids.other]) {
			const answer = await server.call('/api/members/sign-in', {
				body: { business: id },
				from: '127.0.0.21',
			});
			answers.push({
				status: answer.status,
				body: answer.body,
				cache: answer.headers.get('cache-control'),
			});
		}
		for (const answer of answers) {
			expect(answer).toEqual({ status: 200, body: { message: SIGN_IN_SENT }, cache: 'no-store' });
		}
		expect((await server.call('/api/members/sign-in', { body: { business: 'x' } })).status).toBe(
			400,
		);

		const mail = await mailTo(memberEmail, 'sign-in');
		expect(mail.subject).toMatch(/^Your sign-in link for \S/);
		expect(mail.text).toContain('Owner Bakery');
		expect(mail.html).toContain('Sign in');
		const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
		const url = new URL(link);
		expect(url.searchParams.get('type')).toBe('magiclink');
		// GoTrue's token: the SHA-224 (hex) of the address and the e-mailed code.
		expect(url.searchParams.get('token')).toMatch(/^[0-9a-f]{56}$/);

		const first = await fetch(link, { redirect: 'manual' });
		expect(first.status).toBe(303);
		const fragment = fragmentOf(first.headers.get('location'));
		expect(fragment.get('type')).toBe('magiclink');
		memberToken = fragment.get('access_token')!;
		memberRefresh = fragment.get('refresh_token')!;
		const claims = decodeJwt(memberToken);
		expect(claims.email).toBe(memberEmail);
		expect(claims.amr).toEqual([expect.objectContaining({ method: 'otp' })]);
		// The user was made through the Auth admin API: GoTrue's own rows.
		const { rows } = await db.query(
			`select u.aud, u.email_confirmed_at is not null as confirmed, i.provider
			from auth.users u join auth.identities i on i.user_id = u.id where u.email = $1`,
			[memberEmail],
		);
		expect(rows).toEqual([{ aud: 'authenticated', confirmed: true, provider: 'email' }]);

		// Once only.
		const again = await fetch(link, { redirect: 'manual' });
		expect(fragmentOf(again.headers.get('location')).get('error_code')).toBe('otp_expired');
		// No user for the other chamber's business (this deployment's chamber only).
		const other = await db.query('select 1 from auth.users where email = $1', [
			`other-${tag}@${DOMAIN}`,
		]);
		expect(other.rowCount).toBe(0);
	});

	it('limits requests per visitor address (429) and per business (nothing more is sent)', async () => {
		const statuses: number[] = [];
		for (let i = 0; i < 11; i++) {
			statuses.push(
				(
					await server.call('/api/members/sign-in', {
						body: { business: randomUUID() },
						from: '127.0.0.22',
					})
				).status,
			);
		}
		expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
		expect(statuses[10]).toBe(429);

		const before = await countMail(secondEmail, 'sign-in');
		for (let i = 0; i < 4; i++) {
			const answer = await server.call('/api/members/sign-in', {
				body: { business: ids.second },
				from: `127.0.0.${30 + i}`,
			});
			expect(answer.body).toEqual({ message: SIGN_IN_SENT });
		}
		await mailTo(secondEmail, 'sign-in', before);
		// GoTrue's one e-mail a minute and the business's hourly limit: one e-mail for four asks.
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(await countMail(secondEmail, 'sign-in')).toBe(before + 1);
	});
});

describe("the member's listing and requests", () => {
	it('reads its own listing without the address on file, and no other', async () => {
		const answer = await ownListing();
		expect(answer.status).toBe(200);
		expect(answer.body.business).toMatchObject({
			id: ids.withEmail,
			report_name: 'Owner Bakery',
			website: 'https://old.example',
		});
		expect(answer.body.business).not.toHaveProperty('email');
		expect(answer.body.settings).toMatchObject({
			enabled: true,
			liveFields: ['hours'],
			maxCategories: 3,
		});
		expect(answer.body.categoryChoices).toContain('Restaurants');

		for (const id of [ids.second, ids.other]) {
			const refused = await server.call(`/api/members/listing?business=${id}`, {
				token: memberToken,
			});
			expect([403, 404]).toContain(refused.status);
		}
		expect((await server.call(`/api/members/listing?business=${ids.withEmail}`)).status).toBe(401);
	});

	it('submits one pending request (a later one replaces it); staff see the diff and approve it as their edit', async () => {
		const listing = (await ownListing()).body;
		const first = await submit(listing.version, { website: 'https://first.example' });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ live: [], submission: { status: 'pending' } });
		const listings = [{ ...listing.business.listings[0], description: '<p>Fresh bread daily</p>' }];
		const second = await submit(listing.version, { website: 'https://new.example', listings });
		expect(second.body.submission.id).toBe(first.body.submission.id);
		const pending = await db.query(
			`select count(*)::int as n from public.member_submissions where profile_id = $1 and status = 'pending'`,
			[ids.withEmail],
		);
		expect(pending.rows[0].n).toBe(1);

		// A field the chamber keeps, and a listing's categories: refused.
		const name = await submit(listing.version, { report_name: 'Renamed' });
		expect(name.status).toBe(400);
		const direct = await asUser(memberToken).rpc('submit_member_changes', {
			p_business_id: ids.withEmail,
			p_changes: { report_name: 'Renamed' },
			p_version: listing.version,
		});
		expect(direct.error?.code).toBe('42501');
		const category = await asUser(memberToken).rpc('submit_member_changes', {
			p_business_id: ids.withEmail,
			p_changes: { listings: [{ ...listings[0], categories: ['Anything'] }] },
			p_version: listing.version,
		});
		expect(category.error?.code).toBe('42501');

		// Editors decide requests only when the chamber lets them.
		const asEditor = await server.call('/api/admin/member-requests', {
			token: chambers.tokens.editor,
		});
		expect(asEditor.status).toBe(403);
		const requests = await server.call('/api/admin/member-requests', {
			token: chambers.tokens.admin,
		});
		expect(requests.status).toBe(200);
		expect(requests.body.count).toBe(1);
		const request = requests.body.requests[0];
		expect(request.live).toMatchObject({ website: 'https://old.example' });
		expect(request.submission.changes).toMatchObject({ website: 'https://new.example' });
		expect(
			(await server.call('/api/admin/member-requests?count=1', { token: chambers.tokens.admin }))
				.body,
		).toEqual({ count: 1 });

		const approved = await server.call(
			`/api/admin/member-requests/${request.submission.id}/approve`,
			{ token: chambers.tokens.admin, body: { version: request.business.version } },
		);
		expect(approved.status).toBe(200);
		const { rows } = await db.query(
			`select p.website, (select l.description from public.listings l where l.profile_id = p.id) as description,
				(select o.changed_by from public.business_overrides o where o.profile_id = p.id and o.field = 'website') as override_by,
				(select a.actor_email from public.audit_log a where a.business_id = p.id and a.field = 'website' order by a.id desc limit 1) as audited_as,
				(select s.status from public.member_submissions s where s.id = $2) as status
			from public.profiles p where p.id = $1`,
			[ids.withEmail, request.submission.id],
		);
		expect(rows[0]).toEqual({
			website: 'https://new.example',
			description: '<p>Fresh bread daily</p>',
			override_by: chambers.emails.admin,
			audited_as: chambers.emails.admin,
			status: 'approved',
		});
		const mail = await mailTo(memberEmail, 'member-approved');
		expect(mail.subject).toContain('approved');
		expect(mail.text).toContain('Owner Bakery');

		const twice = await server.call(`/api/admin/member-requests/${request.submission.id}/approve`, {
			token: chambers.tokens.admin,
			body: { version: request.business.version },
		});
		expect(twice.status).toBe(409);
	});

	it('a returned request shows the note to the member, and e-mails it', async () => {
		const listing = (await ownListing()).body;
		const submitted = await submit(listing.version, { work_phone: '555-0199' });
		const id = submitted.body.submission.id;
		expect(
			(
				await server.call(`/api/admin/member-requests/${id}/return`, {
					token: chambers.tokens.admin,
					body: { note: '' },
				})
			).status,
		).toBe(400);
		const returned = await server.call(`/api/admin/member-requests/${id}/return`, {
			token: chambers.tokens.admin,
			body: { note: 'Please use the shop number, not a mobile.' },
		});
		expect(returned.status).toBe(200);
		const after = await ownListing();
		expect(after.body.submission).toMatchObject({
			status: 'returned',
			note: 'Please use the shop number, not a mobile.',
		});
		expect(after.body.business.work_phone).toBe('555-0100');
		const mail = await mailTo(memberEmail, 'member-returned');
		expect(mail.text).toContain('Please use the shop number, not a mobile.');
	});

	it("'Edit and approve' applies staff's edit of the request's fields only; a change made since is a 409 with the conflicts; editors decide when the chamber lets them", async () => {
		const listing = (await ownListing()).body;
		const submitted = await submit(listing.version, {
			work_phone: '555-0177',
			website: 'https://w.example',
		});
		const id = submitted.body.submission.id;
		const requests = await server.call('/api/admin/member-requests', {
			token: chambers.tokens.admin,
		});
		const version = requests.body.requests[0].business.version;

		// Someone changes the website in the Members tab meanwhile.
		const saved = await server.call(`/api/admin/businesses/${ids.withEmail}`, {
			method: 'PATCH',
			token: chambers.tokens.second,
			body: { version, changes: { website: 'https://staff.example' } },
		});
		expect(saved.status).toBe(200);
		const stale = await server.call(`/api/admin/member-requests/${id}/approve`, {
			token: chambers.tokens.admin,
			body: { version },
		});
		expect(stale.status).toBe(409);
		expect(stale.body.conflicts).toEqual([
			expect.objectContaining({ field: 'website', value: 'https://staff.example' }),
		]);

		const outside = await server.call(`/api/admin/member-requests/${id}/approve`, {
			token: chambers.tokens.admin,
			body: { version: saved.body.version, changes: { report_name: 'Renamed' } },
		});
		expect(outside.status).toBe(400);

		// Editors do not decide requests until the chamber lets them; then, the member's fields too.
		const refused = await server.call(`/api/admin/member-requests/${id}/approve`, {
			token: chambers.tokens.editor,
			body: { version: saved.body.version, changes: { work_phone: '555-0188' } },
		});
		expect(refused.status).toBe(403);
		await db.query(
			`update public.chamber_config set features = features || '{"memberEditorsApprove": true}' where tenant_id = $1`,
			[chambers.tenantId],
		);
		const edited = await server.call(`/api/admin/member-requests/${id}/approve`, {
			token: chambers.tokens.editor,
			body: { version: saved.body.version, changes: { work_phone: '555-0188' } },
		});
		expect(edited.status).toBe(200);
		const { rows } = await db.query(
			`select p.work_phone, p.website, s.applied from public.profiles p
			join public.member_submissions s on s.profile_id = p.id where s.id = $1`,
			[id],
		);
		expect(rows[0]).toEqual({
			work_phone: '555-0188',
			website: 'https://staff.example',
			applied: { work_phone: '555-0188' },
		});
		// The editor's allowance ended with the approval: a phone change of its own is refused.
		const own = await asUser(chambers.tokens.editor).rpc('save_business', {
			p_tenant_id: chambers.tenantId,
			p_business_id: ids.withEmail,
			p_changes: { work_phone: '555-0000' },
			p_version: edited.body.version,
		});
		expect(own.error?.code).toBe('42501');
	});

	it('a field set to go live without review is saved at once, audited as the member, and waits for the publish window', async () => {
		await db.query(
			`update public.chamber_config set features = features || '{"memberLiveFields": ["work_phone", "hours"]}' where tenant_id = $1`,
			[chambers.tenantId],
		);
		const before = await publishCount();
		const listing = (await ownListing()).body;
		const answer = await submit(listing.version, { work_phone: '555-0142' });
		expect(answer.status).toBe(200);
		// A phone shows on cards: the change waits for the chamber's window, no build of its own.
		expect(answer.body).toMatchObject({
			live: ['work_phone'],
			submission: null,
			published: false,
			publishAfter: null,
			liveBy: expect.any(String),
		});
		const { rows } = await db.query(
			`select p.work_phone, a.actor_email, a.actor_role
			from public.profiles p
			join public.audit_log a on a.business_id = p.id and a.field = 'work_phone'
			where p.id = $1 order by a.id desc limit 1`,
			[ids.withEmail],
		);
		expect(rows[0]).toEqual({
			work_phone: '555-0142',
			actor_email: memberEmail,
			actor_role: 'member',
		});
		const waiting = await db.query(
			`select source, summary, requested_by_email, due_at from public.waiting_changes
			where tenant_id = $1 and business_id = $2 and state = 'waiting'`,
			[chambers.tenantId, ids.withEmail],
		);
		expect(waiting.rows).toEqual([
			{
				source: 'member',
				summary: 'Owner Bakery: Phone',
				requested_by_email: memberEmail,
				due_at: new Date(answer.body.liveBy),
			},
		]);
		expect(await publishCount()).toBe(before);
	});
});

describe("a member's changes show at once at most once in 10 minutes", () => {
	const hours = async () =>
		(await db.query('select hours from public.profiles where id = $1', [ids.withEmail])).rows[0]
			.hours;

	// Profiles rendered on demand: opening hours, shown only on the profile, go live through a
	// purge of the business's cache tags rather than a build.
	beforeAll(() => {
		process.env.PRERENDERED_PROFILES_MAX = '0';
	});
	afterAll(() => {
		delete process.env.PRERENDERED_PROFILES_MAX;
	});

	it('a save within the interval is kept, waits for the window, and says when a save shows at once again', async () => {
		const before = await publishCount();
		const listing = (await ownListing()).body;
		const first = await submit(listing.version, { hours: 'Mon-Fri 8:00-16:00' });
		expect(first.body).toMatchObject({ live: ['hours'], published: true, liveBy: null });
		const saved = await submit(first.body.version, { hours: 'Mon-Fri 8:00-17:00' });
		expect(saved.status).toBe(200);
		expect(saved.body).toMatchObject({
			live: ['hours'],
			published: false,
			liveBy: expect.any(String),
		});
		const after = Date.parse(saved.body.publishAfter);
		expect(after).toBeGreaterThan(Date.now() + 9 * 60_000);
		expect(after).toBeLessThanOrEqual(Date.now() + MEMBER_PUBLISH_INTERVAL_SECONDS * 1000 + 1000);
		expect(await hours()).toMatchObject({ mon: [{ open: '08:00', close: '17:00' }] });
		const again = await submit(saved.body.version, { hours: 'Mon-Fri 8:00-18:00' });
		expect(again.body).toMatchObject({ live: ['hours'], published: false });

		// Ten minutes on (the limit's hit moved back, as a clock would: nothing waits), the next
		// save shows at once, and the interval starts again.
		await db.query(
			`update public.rate_limit_hits set hit_at = hit_at - make_interval(secs => $2)
			where bucket = $1`,
			[memberPublishBucket(decodeJwt(memberToken).sub!), MEMBER_PUBLISH_INTERVAL_SECONDS],
		);
		const later = await submit(again.body.version, { hours: 'Mon-Fri 9:00-18:00' });
		expect(later.body).toMatchObject({ live: ['hours'], published: true, publishAfter: null });
		const next = await submit(later.body.version, { hours: 'Mon-Fri 9:00-17:00' });
		expect(next.body).toMatchObject({ published: false });
		// None of it built anything.
		expect(await publishCount()).toBe(before);
	});
});

describe('a member signs in by the e-mailed link only', () => {
	const anonAuth = () =>
		createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false, autoRefreshToken: false },
		});

	/** What a token gets as this business's member: from the function and from PostgREST. */
	async function memberAccess(token: string) {
		const member = asUser(token);
		const listing = await member.rpc('member_listing', { p_business_id: ids.withEmail });
		const stats = await member
			.from('business_stats')
			.select('kind')
			.eq('business_id', ids.withEmail);
		const requests = await member.from('member_submissions').select('id');
		const submitted = await member.rpc('submit_member_changes', {
			p_business_id: ids.withEmail,
			p_changes: {},
			p_version: 0,
		});
		return {
			function: (await server.call(`/api/members/listing?business=${ids.withEmail}`, { token }))
				.status,
			listing: listing.error?.code ?? 'read',
			submit: submitted.error?.code ?? 'sent',
			requests: requests.data?.length ?? requests.error?.code,
			stats: stats.data?.length ?? stats.error?.code,
		};
	}

	const REFUSED = { function: 401, listing: '42501', submit: '42501', requests: 0, stats: 0 };

	it("a password set from the link's session signs in, and gives no member access", async () => {
		// A refreshed token keeps its session's sign-in method (amr otp): still the member.
		const refreshed = await anonAuth().auth.refreshSession({ refresh_token: memberRefresh });
		expect(refreshed.error).toBeNull();
		const linkSession = refreshed.data.session!;
		expect(decodeJwt(linkSession.access_token).amr).toEqual([
			expect.objectContaining({ method: 'otp' }),
		]);
		await db.query(
			`insert into public.business_stats (tenant_id, business_id, day, kind, count)
			values ($1, $2, '2026-01-15', 'view', 4)`,
			[chambers.tenantId, ids.withEmail],
		);
		const access = await memberAccess(linkSession.access_token);
		expect(access).toMatchObject({ function: 200, listing: 'read', submit: 'sent', stats: 1 });
		expect(access.requests).toBeGreaterThan(0);
		memberRefresh = linkSession.refresh_token;

		// The request as a review sent it: PUT /auth/v1/user {password} with the link's session.
		const put = await fetch(`${stack.supabaseUrl}/auth/v1/user`, {
			method: 'PUT',
			headers: {
				apikey: stack.anonKey,
				authorization: `Bearer ${memberToken}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ password: 'a-member-password' }),
		});
		expect(put.status).toBe(200);
		const signedIn = await anonAuth().auth.signInWithPassword({
			email: memberEmail,
			password: 'a-member-password',
		});
		expect(signedIn.error).toBeNull();
		const password = signedIn.data.session!.access_token;
		expect(decodeJwt(password).amr).toEqual([expect.objectContaining({ method: 'password' })]);
		expect(await memberAccess(password)).toEqual(REFUSED);
		// The link's own session is the member still.
		expect((await memberAccess(memberToken)).function).toBe(200);
	});

	it('a sign-in by link lasts 30 days, refreshed or not', async () => {
		const refreshAfter = async (days: number) => {
			await db.query(
				`update auth.mfa_amr_claims set updated_at = now() - make_interval(days => $2)
				where session_id = $1`,
				[decodeJwt(memberToken).session_id, days],
			);
			const { data, error } = await anonAuth().auth.refreshSession({
				refresh_token: memberRefresh,
			});
			expect(error).toBeNull();
			memberRefresh = data.session!.refresh_token;
			return data.session!.access_token;
		};
		expect((await memberAccess(await refreshAfter(29))).listing).toBe('read');
		const old = await refreshAfter(31);
		expect(await memberAccess(old)).toEqual(REFUSED);
		const answer = await server.call(`/api/members/listing?business=${ids.withEmail}`, {
			token: old,
		});
		expect(answer.body.error).toMatch(/more than 30 days/);
	});
});

describe("what a member's token may not do", () => {
	it('reads no staff table, no other business, and cannot save, list or publish', async () => {
		const member = asUser(memberToken);
		for (const table of [
			'admin_users',
			'audit_log',
			'business_overrides',
			'publishes',
			'member_imports',
		] as const) {
			const { data, error } = await member.from(table).select('*').limit(5);
			expect(error ?? { rows: data?.length }, table).toEqual(
				error ? expect.objectContaining({ code: '42501' }) : { rows: 0 },
			);
		}
		const own = await member.from('member_submissions').select('profile_id');
		expect(new Set(own.data?.map((r) => r.profile_id))).toEqual(new Set([ids.withEmail]));
		const bindings = await member.from('business_members').select('profile_id');
		expect(bindings.data).toEqual([{ profile_id: ids.withEmail }]);

		const calls = [
			member.rpc('save_business', {
				p_tenant_id: chambers.tenantId,
				p_business_id: ids.withEmail,
				p_changes: { report_name: 'Mine now' },
				p_version: 999,
			}),
			member.rpc('request_publish', { p_tenant_id: chambers.tenantId, p_reason: 'Member' }),
			member.rpc('admin_list_businesses', { p_tenant_id: chambers.tenantId }),
			member.rpc('member_requests', { p_tenant_id: chambers.tenantId }),
			member.rpc('member_listing', { p_business_id: ids.second }),
			member.rpc('submit_member_changes', {
				p_business_id: ids.second,
				p_changes: { website: 'https://hijack.example' },
				p_version: 1,
			}),
			member.rpc('remove_business', {
				p_tenant_id: chambers.tenantId,
				p_business_id: ids.withEmail,
			}),
		];
		for (const call of calls) expect((await call).error?.code).toBe('42501');
		const staffPanel = await server.call('/api/admin/businesses', { token: memberToken });
		expect(staffPanel.status).toBe(403);
	});

	it("reads no business's e-mail address, its own included, in any chamber; nor does staff's token", async () => {
		// The request as a member (or any signed-in user) would send it to the Data API.
		const emails = (token: string) =>
			fetch(`${stack.supabaseUrl}/rest/v1/profiles?select=tenant_id,email&email=neq.`, {
				headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
			}).then(async (res) => ({ status: res.status, body: await res.json() }));
		for (const token of [memberToken, chambers.tokens.editor, chambers.tokens.otherAdmin]) {
			const answer = await emails(token);
			expect(answer, JSON.stringify(answer.body).slice(0, 200)).toEqual({
				status: 403,
				body: expect.objectContaining({ code: '42501' }),
			});
		}
		const own = await asUser(memberToken).from('profiles').select('email').eq('id', ids.withEmail);
		expect(own.error?.code).toBe('42501');
		// Staff read their chamber's addresses in the member editor (admin_business), nobody else.
		const editor = await asUser(chambers.tokens.editor).rpc('admin_business', {
			p_tenant_id: chambers.tenantId,
			p_business_id: ids.withEmail,
		});
		expect(editor.data?.business).toMatchObject({ email: memberEmail });
		const other = await asUser(chambers.tokens.otherAdmin).rpc('admin_business', {
			p_tenant_id: chambers.tenantId,
			p_business_id: ids.withEmail,
		});
		expect(other.error?.code).toBe('42501');
	});

	it("loses the business when the chamber changes the listing's address", async () => {
		const member = asUser(memberToken);
		await db.query(
			`insert into public.business_stats (tenant_id, business_id, day, kind, count) values ($1, $2, current_date, 'view', 1)
			on conflict do nothing`,
			[chambers.tenantId, ids.withEmail],
		);
		expect((await member.from('business_stats').select('business_id')).data).not.toEqual([]);
		await db.query(`update public.profiles set email = 'someone-else@example.com' where id = $1`, [
			ids.withEmail,
		]);
		// The same token: every way in ends at once, with nothing to revoke.
		expect((await ownListing()).status).toBe(403);
		expect((await submit(1, { website: 'https://late.example' })).status).toBe(403);
		for (const table of ['business_stats', 'member_submissions', 'business_members'] as const) {
			const { data, error } = await member.from(table).select('tenant_id');
			expect({ error, data }, table).toEqual({ error: null, data: [] });
		}
	});
});

describe('the settings in the database', () => {
	it("fill in the configuration's defaults for a chamber that never set them", async () => {
		const { features } = chamberConfigSchema.parse({ name: 'X', slug: 'x' });
		const { rows } = await db.query(
			'select public.member_update_settings(gen_random_uuid()) as settings',
		);
		expect(rows[0].settings).toEqual({
			enabled: features.memberUpdates,
			fields: features.memberFields,
			liveFields: features.memberLiveFields,
			editorsApprove: features.memberEditorsApprove,
			maxCategories: features.memberMaxCategories,
		});
	});
});

describe("the identity service's sign-in links, as GoTrue answers", () => {
	const anon = () =>
		createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false, autoRefreshToken: false },
		});

	it('answers /otp as GoTrue does: unknown without create_user, bad address, one a minute', async () => {
		expect(
			(
				await anon().auth.signInWithOtp({
					email: `nobody-${tag}@${DOMAIN}`,
					options: { shouldCreateUser: false },
				})
			).error,
		).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' });
		expect(
			(await anon().auth.signInWithOtp({ email: `new-${tag}@${DOMAIN}` })).error,
		).toMatchObject({ status: 422, code: 'signup_disabled' });
		expect((await anon().auth.signInWithOtp({ email: 'not an address' })).error).toMatchObject({
			status: 400,
			code: 'validation_failed',
		});
		const email = `otp-${tag}@${DOMAIN}`;
		await service.auth.admin.createUser({ email, email_confirm: true });
		expect(
			await anon().auth.signInWithOtp({ email, options: { shouldCreateUser: false } }),
		).toEqual({
			data: { user: null, session: null },
			error: null,
		});
		const again = await anon().auth.signInWithOtp({ email });
		expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
		expect(again.error?.message).toMatch(
			/^For security purposes, you can only request this after \d+ seconds\.$/,
		);

		// verifyOtp with the link's token hash (POST /verify): the session; once only.
		const mail = await mailTo(email, 'sign-in');
		const tokenHash = new URL(
			/https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0],
		).searchParams.get('token')!;
		const verified = await anon().auth.verifyOtp({ token_hash: tokenHash, type: 'magiclink' });
		expect(verified.error).toBeNull();
		expect(verified.data.session?.user.email).toBe(email);
		expect(
			(await anon().auth.verifyOtp({ token_hash: tokenHash, type: 'magiclink' })).error,
		).toMatchObject({
			status: 403,
			code: 'otp_expired',
			message: 'Email link is invalid or has expired',
		});
	});

	it("answers verify's malformed requests as GoTrue validates them", async () => {
		const post = (body: unknown) =>
			fetch(`${stack.supabaseUrl}/auth/v1/verify`, {
				method: 'POST',
				headers: {
					apikey: stack.anonKey,
					'content-type': 'application/json',
					'x-supabase-api-version': '2024-01-01',
				},
				body: JSON.stringify(body),
			}).then(async (r) => ({ status: r.status, body: await r.json() }));
		expect(await post({ token_hash: 'x' })).toEqual({
			status: 400,
			body: { code: 'validation_failed', message: 'Verify requires a verification type' },
		});
		expect(await post({ type: 'magiclink', token_hash: 'x', token: '123456' })).toEqual({
			status: 400,
			body: {
				code: 'validation_failed',
				message: 'Verify requires either a token or a token hash',
			},
		});
		expect(await post({ type: 'magiclink', token_hash: 'x', email: 'a@b.test' })).toEqual({
			status: 400,
			body: {
				code: 'validation_failed',
				message: 'Only the token_hash and type should be provided',
			},
		});
		expect(
			await post({ type: 'magiclink', token: '123456', email: `nobody-${tag}@${DOMAIN}` }),
		).toEqual({
			status: 403,
			body: { code: 'otp_expired', message: 'Token has expired or is invalid' },
		});
		const get = await fetch(`${stack.supabaseUrl}/auth/v1/verify?token=x`, {
			headers: { apikey: stack.anonKey },
			redirect: 'manual',
		});
		expect(get.status).toBe(400);
	});
});
