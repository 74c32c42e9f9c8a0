// Runs on: both — the local identity service, on PGlite in the stack's own auth tables, and on
// the hosted shape in GoTrue's tables with GoTrue's login (postgres mode).
import { once } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../src/lib/database.ts';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { SignJWT } from 'jose';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import { readAuthConfig } from '../../scripts/stack/auth/config.ts';
import { createAuthRoutes } from '../../scripts/stack/auth/http.ts';
import { AuthService } from '../../scripts/stack/auth/service.ts';
import { AuthStore } from '../../scripts/stack/auth/store.ts';
import { startGateway } from '../../scripts/stack/gateway.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import {
	GOTRUE_ADMIN_LIST,
	GOTRUE_ERROR_2024,
	GOTRUE_ERROR_INITIAL,
	GOTRUE_SESSION,
	shapeOf,
} from '../support/gotrue-fixtures.ts';
import { randomSlug } from './fixtures.ts';
import { freePort, userClient } from '../support/db-clients.ts';

// The local identity service through supabase-js's own `auth` client, as the app uses it: on the
// test stack's gateway, and on a second gateway in this process whose clock the tests move (token
// expiry, the refresh reuse interval, the one-hour link) and whose mail goes to an SMTP sink.

const PASSWORD = 'original-password';
let slug: string;
const outbox = join(stack.dataDir, 'outbox');

function client(url = stack.supabaseUrl): SupabaseClient {
	return createClient<Database>(url, stack.anonKey, {
		auth: { persistSession: false, autoRefreshToken: false },
	});
}

/** A user of the test chamber no other test touches. */
async function newUser(name: string): Promise<string> {
	const email = `${name}-${Math.random().toString(36).slice(2, 8)}@auth-service.test`;
	await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: 'Auth service chamber' },
				users: [{ email, password: PASSWORD, role: 'admin' }],
			},
			'fixture',
		),
		{ only: ['users'] },
	);
	return email;
}

async function signedIn(email: string, url?: string) {
	const c = client(url);
	const { data, error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
	if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
	return { client: c, session: data.session };
}

function claimsOf(token: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

async function rest(path: string, token: string) {
	const res = await fetch(`${stack.supabaseUrl}/rest/v1${path}`, {
		headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
	});
	return { status: res.status, body: await res.json() };
}

/** The newest recovery e-mail for an address in the outbox folder, parsed. */
async function recoveryLinkFromOutbox(email: string): Promise<string> {
	const files = (await readdir(outbox)).filter((f) => f.includes(email)).sort();
	// The e-mail holds a live link: readable by its owner only.
	expect((await stat(join(outbox, files.at(-1)!))).mode & 0o777).toBe(0o600);
	const mail = await simpleParser(await readFile(join(outbox, files.at(-1)!)));
	expect(mail.subject).toBe('Reset your password');
	return /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
}

function fragmentOf(location: string | null): URLSearchParams {
	return new URLSearchParams(new URL(location ?? 'http://x').hash.slice(1));
}

beforeAll(async () => {
	await db.connect();
	slug = randomSlug('auth-svc');
	await importTenant(
		service,
		parseTenantFile({ tenant: { slug, name: 'Auth service chamber' } }, 'fixture'),
	);
});

afterAll(async () => {
	await db.query('delete from public.tenants where slug = $1', [slug]);
	await db.query(`delete from auth.users where email like '%@auth-service.test'`);
	await db.end();
});

describe('sign-in with supabase-js', () => {
	it("answers GoTrue's session, with the claims PostgREST and RLS read", async () => {
		const email = await newUser('signin');
		const { session } = await signedIn(email);
		// app_metadata also carries the admin's role and chamber here (mirrored from admin_users).
		const withoutAppMetadata = (s: typeof GOTRUE_SESSION | typeof session) =>
			shapeOf({ ...s, user: { ...s.user, app_metadata: {} } });
		expect(withoutAppMetadata(session)).toEqual(withoutAppMetadata(GOTRUE_SESSION));
		expect(session.user.app_metadata).toMatchObject(GOTRUE_SESSION.user.app_metadata);
		expect(session.token_type).toBe('bearer');
		expect(session.expires_in).toBe(3600);
		const claims = claimsOf(session.access_token);
		expect(claims).toMatchObject({
			sub: session.user.id,
			aud: 'authenticated',
			role: 'authenticated',
			email,
			iss: `${stack.supabaseUrl}/auth/v1`,
			app_metadata: { provider: 'email', role: 'admin', tenant_key: slug },
		});
		expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
		expect(session.user.last_sign_in_at).toBeTruthy();
		// auth.uid() in Postgres is the token's user: their own admin record and nothing else.
		expect(await rest('/admin_users?select=email', session.access_token)).toEqual({
			status: 200,
			body: [{ email }],
		});
	});

	it('one answer for a wrong password and an unknown address', async () => {
		const email = await newUser('wrong');
		for (const attempt of [
			{ email, password: 'not-the-password' },
			{ email: 'nobody-at-all@auth-service.test', password: PASSWORD },
		]) {
			const { data, error } = await client().auth.signInWithPassword(attempt);
			expect(data.session).toBeNull();
			expect(error).toMatchObject({
				status: 400,
				code: 'invalid_credentials',
				message: 'Invalid login credentials',
			});
		}
	});

	it('a user without a password cannot sign in until they set one', async () => {
		const email = `nopw-${Date.now()}@auth-service.test`;
		await importTenant(
			service,
			parseTenantFile(
				{ tenant: { slug, name: 'Auth service chamber' }, users: [{ email, role: 'editor' }] },
				'fixture',
			),
			{ only: ['users'] },
		);
		const { error } = await client().auth.signInWithPassword({ email, password: '' });
		expect(error?.code).toBe('invalid_credentials');
	});
});

describe('the signed-in user', () => {
	it('getUser answers the user; a wrong, forged or expired token is refused here and by PostgREST', async () => {
		const email = await newUser('getuser');
		const { session } = await signedIn(email);
		const { data, error } = await client().auth.getUser(session.access_token);
		expect(error).toBeNull();
		expect(data.user?.email).toBe(email);

		const sign = (secret: string, exp: number) =>
			new SignJWT(claimsOf(session.access_token))
				.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
				.setExpirationTime(exp)
				.sign(new TextEncoder().encode(secret));
		const forged = await sign('someone-elses-secret-0123456789abcdef0123', 4_102_444_800);
		// PostgREST allows 30 seconds of clock skew.
		const expired = await sign(stack.jwtSecret, Math.floor(Date.now() / 1000) - 120);
		const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${session.access_token.split('.')[1]}.`;
		for (const [name, token] of Object.entries({
			forged,
			expired,
			unsigned,
			garbage: 'not.a.jwt',
		})) {
			const refused = await client().auth.getUser(token);
			expect(refused.data.user, name).toBeNull();
			expect(refused.error, name).toMatchObject({ status: 403, code: 'bad_jwt' });
			expect((await rest('/admin_users?select=email', token)).status, name).toBe(401);
		}
	});

	it('signOut revokes the session: its access token is refused with session_not_found', async () => {
		const email = await newUser('signout');
		const first = await signedIn(email);
		const second = await signedIn(email);
		await first.client.auth.signOut({ scope: 'local' });
		const local = await client().auth.getUser(first.session.access_token);
		expect(local.error?.name).toBe('AuthSessionMissingError');
		expect((await client().auth.getUser(second.session.access_token)).error).toBeNull();

		const third = await signedIn(email);
		await third.client.auth.signOut({ scope: 'others' });
		expect((await client().auth.getUser(second.session.access_token)).error?.name).toBe(
			'AuthSessionMissingError',
		);
		expect((await client().auth.getUser(third.session.access_token)).error).toBeNull();

		await third.client.auth.signOut();
		expect((await client().auth.getUser(third.session.access_token)).error?.name).toBe(
			'AuthSessionMissingError',
		);
		const { count } = await db
			.query(
				'select count(*)::int as count from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1',
				[email],
			)
			.then((r) => r.rows[0]);
		expect(count).toBe(0);
	});

	it('a new password needs the current one, 6 characters and a change; it signs out the other sessions', async () => {
		const email = await newUser('password');
		const kept = await signedIn(email);
		const other = await signedIn(email);
		// A signed-in session (not an e-mailed link's) must prove it knows the password.
		expect((await kept.client.auth.updateUser({ password: 'a-new-password' })).error).toMatchObject(
			{
				status: 400,
				code: 'current_password_required',
			},
		);
		expect(
			(await kept.client.auth.updateUser({ password: 'a-new-password', current_password: 'wrong' }))
				.error,
		).toMatchObject({ status: 400, code: 'current_password_mismatch' });
		const change = (password: string) =>
			kept.client.auth.updateUser({ password, current_password: PASSWORD });
		expect((await change('12345')).error).toMatchObject({ status: 422, code: 'weak_password' });
		expect((await change(PASSWORD)).error).toMatchObject({ status: 422, code: 'same_password' });
		expect((await change('a-new-password')).error).toBeNull();
		expect((await client().auth.getUser(kept.session.access_token)).error).toBeNull();
		expect((await client().auth.getUser(other.session.access_token)).error?.name).toBe(
			'AuthSessionMissingError',
		);
		const { error } = await client().auth.signInWithPassword({ email, password: 'a-new-password' });
		expect(error).toBeNull();
	});
});

describe('refresh tokens', () => {
	it('rotate: each is used once, and the new session works', async () => {
		const email = await newUser('refresh');
		const { session } = await signedIn(email);
		const { data, error } = await client().auth.refreshSession({
			refresh_token: session.refresh_token,
		});
		expect(error).toBeNull();
		expect(data.session?.refresh_token).not.toBe(session.refresh_token);
		expect((await client().auth.getUser(data.session!.access_token)).error).toBeNull();
		const stored = await db.query(
			'select count(*)::int as n from auth.refresh_tokens where token = $1 or parent = $1',
			[session.refresh_token],
		);
		expect(stored.rows[0].n).toBe(0);
	});

	it('an unknown token is refresh_token_not_found', async () => {
		const { error } = await client().auth.refreshSession({ refresh_token: 'no-such-token' });
		expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
	});
});

describe('password recovery through the outbox', () => {
	it('answers the same for known and unknown addresses; the link resets the password once', async () => {
		const email = await newUser('recover');
		expect(await client().auth.resetPasswordForEmail('nobody-here@auth-service.test')).toEqual({
			data: {},
			error: null,
		});
		// The site this stack serves (PORT unset: 8888).
		const redirectTo = 'http://localhost:8888/reset-password';
		expect(await client().auth.resetPasswordForEmail(email, { redirectTo })).toEqual({
			data: {},
			error: null,
		});
		// GoTrue's per-user interval between e-mails.
		expect((await client().auth.resetPasswordForEmail(email, { redirectTo })).error).toMatchObject({
			status: 429,
			code: 'over_email_send_rate_limit',
		});

		const link = await recoveryLinkFromOutbox(email);
		expect(new URL(link).searchParams.get('redirect_to')).toBe(redirectTo);
		const answer = await fetch(link, { redirect: 'manual' });
		expect(answer.status).toBe(303);
		const location = answer.headers.get('location')!;
		expect(location.startsWith(`${redirectTo}#`)).toBe(true);
		const fragment = fragmentOf(location);
		expect(fragment.get('type')).toBe('recovery');
		expect(fragment.get('token_type')).toBe('bearer');

		const browser = client();
		const { error } = await browser.auth.setSession({
			access_token: fragment.get('access_token')!,
			refresh_token: fragment.get('refresh_token')!,
		});
		expect(error).toBeNull();
		// GoTrue's verify issues the session with models.OTP (internal/api/verify.go).
		expect(claimsOf(fragment.get('access_token')!).amr).toEqual([
			expect.objectContaining({ method: 'otp' }),
		]);
		expect((await browser.auth.updateUser({ password: 'recovered-password' })).error).toBeNull();
		expect(
			(await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
		).toBe('invalid_credentials');
		expect(
			(await client().auth.signInWithPassword({ email, password: 'recovered-password' })).error,
		).toBeNull();

		const again = await fetch(link, { redirect: 'manual' });
		expect(fragmentOf(again.headers.get('location'))).toEqual(
			new URLSearchParams({
				error: 'access_denied',
				error_code: 'otp_expired',
				error_description: 'Email link is invalid or has expired',
				sb: '',
			}),
		);
	});

	it('sends links only back to this site: another host falls back to the site URL', async () => {
		const email = await newUser('redirect');
		await client().auth.resetPasswordForEmail(email, {
			redirectTo: 'https://attacker.example/steal',
		});
		const link = await recoveryLinkFromOutbox(email);
		expect(new URL(link).searchParams.get('redirect_to')).toBe('http://localhost:8888');
	});
});

describe('admin users (service role)', () => {
	it('creates, lists with paging headers, gets and deletes users; a user token is refused', async () => {
		const email = `created-${Date.now()}@auth-service.test`;
		const { data, error } = await service.auth.admin.createUser({
			email,
			password: 'created-password',
			email_confirm: true,
		});
		expect(error).toBeNull();
		expect(data.user?.email).toBe(email);
		expect(
			(await client().auth.signInWithPassword({ email, password: 'created-password' })).error,
		).toBeNull();
		expect(
			(await service.auth.admin.createUser({ email, password: 'created-password' })).error,
		).toMatchObject({ status: 422, code: 'email_exists' });

		const listed = await fetch(`${stack.supabaseUrl}/auth/v1/admin/users?page=1&per_page=2`, {
			headers: { apikey: stack.serviceKey, authorization: `Bearer ${stack.serviceKey}` },
		});
		const body = await listed.json();
		expect(shapeOf(body)).toEqual(shapeOf(GOTRUE_ADMIN_LIST));
		expect(body.users).toHaveLength(2);
		expect(Number(listed.headers.get('x-total-count'))).toBeGreaterThan(2);
		expect(listed.headers.get('link')).toMatch(/page=2&per_page=2>; rel="next", <.*>; rel="last"/);
		const page = await service.auth.admin.listUsers({ page: 1, perPage: 1000 });
		expect(page.data.users.map((u) => u.email)).toContain(email);

		const user = await signedIn(await newUser('not-admin'));
		const asUser = userClient(stack, user.session.access_token);
		expect((await asUser.auth.admin.listUsers()).error).toMatchObject({
			status: 403,
			code: 'not_admin',
		});

		expect((await service.auth.admin.deleteUser(data.user!.id)).error).toBeNull();
		expect((await service.auth.admin.getUserById(data.user!.id)).error).toMatchObject({
			status: 404,
			code: 'user_not_found',
		});
	});
});

describe('users as GoTrue stores and finds them', () => {
	it('creates a user from an argon2 or bcrypt hash and a given id, as adminUserCreate does', async () => {
		const argon = `argon-${Date.now()}@auth-service.test`;
		const id = crypto.randomUUID();
		const { data, error } = await service.auth.admin.createUser({
			id,
			email: argon,
			password_hash: await argon2Hash('from-a-hash'),
			email_confirm: true,
			app_metadata: { role: 'admin' },
		});
		expect(error).toBeNull();
		expect(data.user).toMatchObject({ id, email: argon, app_metadata: { role: 'admin' } });
		expect(
			(await client().auth.signInWithPassword({ email: argon, password: 'from-a-hash' })).error,
		).toBeNull();
		const bcryptUser = `bcrypt-${Date.now()}@auth-service.test`;
		expect(
			(
				await service.auth.admin.createUser({
					email: bcryptUser,
					password_hash: await bcryptHash('from-bcrypt', { cost: 4 }),
					email_confirm: true,
				})
			).error,
		).toBeNull();
		expect(
			(await client().auth.signInWithPassword({ email: bcryptUser, password: 'from-bcrypt' }))
				.error,
		).toBeNull();
		// The row as GoTrue writes it: its instance, audience, empty token columns, an identity.
		const { rows } = await db.query(
			`select u.instance_id, u.aud, u.role, u.confirmation_token, u.recovery_token,
				u.email_change, u.phone_change_token, u.reauthentication_token,
				(select count(*)::int from auth.identities i where i.user_id = u.id and i.provider = 'email') as identities
			from auth.users u where u.id = $1`,
			[id],
		);
		expect(rows[0]).toEqual({
			instance_id: '00000000-0000-0000-0000-000000000000',
			aud: 'authenticated',
			role: 'authenticated',
			confirmation_token: '',
			recovery_token: '',
			email_change: '',
			phone_change_token: '',
			reauthentication_token: '',
			identities: 1,
		});
	});

	it('refuses a password with a hash, a hash it cannot read and a malformed id', async () => {
		const email = `refused-${Date.now()}@auth-service.test`;
		expect(
			(
				await service.auth.admin.createUser({
					email,
					password: 'a-password',
					password_hash: await argon2Hash('a-password'),
				})
			).error,
		).toMatchObject({
			status: 400,
			message: 'Only a password or a password hash should be provided',
		});
		// supabase-js reports any 500 as a retryable fetch error: GoTrue's own answer, as sent.
		const unreadableHash = await fetch(`${stack.supabaseUrl}/auth/v1/admin/users`, {
			method: 'POST',
			headers: {
				apikey: stack.serviceKey,
				authorization: `Bearer ${stack.serviceKey}`,
				'content-type': 'application/json',
				'x-supabase-api-version': '2024-01-01',
			},
			body: JSON.stringify({ email, password_hash: 'plain-text' }),
		});
		expect(unreadableHash.status).toBe(500);
		expect(await unreadableHash.json()).toEqual({
			code: 'unexpected_failure',
			message: 'Error creating user',
		});
		expect(
			(await service.auth.admin.createUser({ email, id: 'not-a-uuid', password: 'a-password' }))
				.error,
		).toMatchObject({ status: 400, message: 'ID must conform to the uuid v4 format' });
	});

	it('a row GoTrue could not read fails here first, and one of another instance is not found', async () => {
		// What a hand-written insert leaves: no instance, no audience, NULL token columns.
		const email = `by-hand-${Date.now()}@auth-service.test`;
		await db.query(
			`insert into auth.users (id, email, encrypted_password, email_confirmed_at, instance_id, aud, role)
			values (gen_random_uuid(), $1, $2, now(), '00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated')`,
			[email, await argon2Hash(PASSWORD)],
		);
		const unreadable = await fetch(`${stack.supabaseUrl}/auth/v1/token?grant_type=password`, {
			method: 'POST',
			headers: {
				apikey: stack.anonKey,
				'content-type': 'application/json',
				'x-supabase-api-version': '2024-01-01',
			},
			body: JSON.stringify({ email, password: PASSWORD }),
		});
		expect(unreadable.status).toBe(500);
		expect(await unreadable.json()).toEqual({
			code: 'unexpected_failure',
			message: 'Database error querying schema',
		});
		await db.query(
			`update auth.users set confirmation_token = '', recovery_token = '', email_change_token_new = '',
				email_change = '', created_at = now(), updated_at = now(), instance_id = null where email = $1`,
			[email],
		);
		// GoTrue looks users up in its own instance: a NULL instance_id is "no such user".
		expect(
			(await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
		).toMatchObject({ status: 400, code: 'invalid_credentials' });
		await db.query(
			`update auth.users set instance_id = '00000000-0000-0000-0000-000000000000' where email = $1`,
			[email],
		);
		expect(
			(await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
		).toBeNull();
	});
});

describe("Supabase's gateway behaviour", () => {
	it('asks for an apikey (except on the e-mailed link) and answers CORS preflights', async () => {
		const noKey = await fetch(`${stack.supabaseUrl}/auth/v1/user`);
		expect(noKey.status).toBe(401);
		expect(await noKey.json()).toEqual({
			message: 'No API key found in request',
			hint: 'No `apikey` request header or url param was found.',
		});
		const badKey = await fetch(`${stack.supabaseUrl}/auth/v1/user`, { headers: { apikey: 'x' } });
		expect(await badKey.json()).toEqual({
			message: 'Invalid API key',
			hint: 'Double check your Supabase `anon` or `service_role` API key.',
		});
		const link = await fetch(`${stack.supabaseUrl}/auth/v1/verify?token=x&type=recovery`, {
			redirect: 'manual',
		});
		expect(link.status).toBe(303);

		const preflight = await fetch(`${stack.supabaseUrl}/auth/v1/token?grant_type=password`, {
			method: 'OPTIONS',
			headers: {
				origin: 'http://localhost:8888',
				'access-control-request-method': 'POST',
				'access-control-request-headers':
					'apikey, content-type, x-client-info, x-supabase-api-version',
			},
		});
		expect(preflight.status).toBe(200);
		expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
		expect(preflight.headers.get('access-control-allow-headers')).toContain(
			'x-supabase-api-version',
		);
	});

	it("answers errors in GoTrue's two forms, by the API version the request asks for", async () => {
		const url = `${stack.supabaseUrl}/auth/v1/token?grant_type=password`;
		const body = JSON.stringify({ email: 'nobody@auth-service.test', password: 'x' });
		const headers = { apikey: stack.anonKey, 'content-type': 'application/json' };
		const current = await fetch(url, {
			method: 'POST',
			body,
			headers: { ...headers, 'x-supabase-api-version': '2024-01-01' },
		});
		expect(current.headers.get('x-supabase-api-version')).toBe('2024-01-01');
		expect(current.headers.get('x-sb-error-code')).toBe('invalid_credentials');
		expect(shapeOf(await current.json())).toEqual(shapeOf(GOTRUE_ERROR_2024));
		const initial = await fetch(url, { method: 'POST', body, headers });
		expect(initial.headers.get('x-supabase-api-version')).toBeNull();
		expect(shapeOf(await initial.json())).toEqual(shapeOf(GOTRUE_ERROR_INITIAL));
	});
});

// --- Gateways of their own --------------------------------------------------------------------------

interface OwnGateway {
	url: string;
	close(): Promise<void>;
}

/**
 * A gateway in this process on the suite's database and PostgREST, whose identity service reads
 * `env` as the stack's reads the environment, and takes the time from `now`.
 */
async function startOwnGateway(
	env: Record<string, string>,
	now?: () => Date,
	deps: Omit<ConstructorParameters<typeof AuthService>[2], 'now'> = {},
): Promise<OwnGateway> {
	const port = await freePort();
	const store = new AuthStore(stack.databaseUrl);
	const config = readAuthConfig(
		{
			externalUrl: `http://127.0.0.1:${port}`,
			jwtSecret: stack.jwtSecret,
			apiKeys: [stack.anonKey, stack.serviceKey],
		},
		env,
	);
	const gateway = await startGateway({
		port,
		postgrestUrl: `${stack.supabaseUrl}/rest/v1`,
		mode: 'embedded',
		apiKeys: [stack.anonKey, stack.serviceKey],
		secretKeys: [stack.serviceKey],
		auth: createAuthRoutes(new AuthService(config, store, { ...deps, now })),
		reload: async () => {},
	});
	return {
		url: gateway.url,
		async close() {
			await gateway.close();
			await store.close();
		},
	};
}

// --- A second gateway: a clock the tests move, mail to an SMTP sink, low limits ---------------------

describe('with a moving clock, an SMTP sink and low limits', () => {
	let clock = Date.now();
	let gateway: OwnGateway;
	let smtp: SMTPServer;
	const received: { to: string; raw: Buffer }[] = [];

	/** What the in-process identity service logged. */
	const logged: string[] = [];

	beforeAll(async () => {
		for (const method of ['log', 'info', 'warn', 'error'] as const) {
			vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
				logged.push(args.map(String).join(' '));
			});
		}
		smtp = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS'],
			onData(stream, session, callback) {
				const chunks: Buffer[] = [];
				stream.on('data', (c: Buffer) => chunks.push(c));
				stream.on('end', () => {
					received.push({ to: session.envelope.rcptTo[0]!.address, raw: Buffer.concat(chunks) });
					callback();
				});
			},
		});
		smtp.listen(0, '127.0.0.1');
		await once(smtp.server, 'listening');
		const smtpPort = (smtp.server.address() as { port: number }).port;
		gateway = await startOwnGateway(
			{ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, AUTH_RATE_LIMIT_TOKEN: '20' },
			() => new Date(clock),
		);
	});

	afterAll(async () => {
		vi.restoreAllMocks();
		await gateway?.close();
		await new Promise<void>((resolve) => smtp?.close(() => resolve()));
	});

	it('within 10 s the parent of the active token gets the active one back; later, reuse revokes the session', async () => {
		const email = await newUser('reuse');
		clock = Date.now();
		const { session } = await signedIn(email, gateway.url);
		const first = await client(gateway.url).auth.refreshSession({
			refresh_token: session.refresh_token,
		});
		clock += 5_000;
		const replay = await client(gateway.url).auth.refreshSession({
			refresh_token: session.refresh_token,
		});
		expect(replay.error).toBeNull();
		expect(replay.data.session?.refresh_token).toBe(first.data.session?.refresh_token);

		clock += 6_000;
		const late = await client(gateway.url).auth.refreshSession({
			refresh_token: session.refresh_token,
		});
		expect(late.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
		// The whole session is gone: its active token and its access tokens no longer work.
		const active = await client(gateway.url).auth.refreshSession({
			refresh_token: first.data.session!.refresh_token,
		});
		expect(active.error?.code).toMatch(/refresh_token_not_found|session_not_found/);
		expect(
			(await client(gateway.url).auth.getUser(first.data.session!.access_token)).error?.name,
		).toBe('AuthSessionMissingError');
	});

	it('access tokens expire after an hour', async () => {
		const email = await newUser('expiry');
		clock = Date.now();
		const { session } = await signedIn(email, gateway.url);
		clock += 3_599_000;
		expect((await client(gateway.url).auth.getUser(session.access_token)).error).toBeNull();
		clock += 2_000;
		expect((await client(gateway.url).auth.getUser(session.access_token)).error).toMatchObject({
			status: 403,
			code: 'bad_jwt',
		});
	});

	it('sends the recovery e-mail over SMTP; the link expires after one hour', async () => {
		const email = await newUser('smtp');
		clock = Date.now();
		expect((await client(gateway.url).auth.resetPasswordForEmail(email)).error).toBeNull();
		const mail = await simpleParser(received.find((m) => m.to === email)!.raw);
		expect(mail.subject).toBe('Reset your password');
		expect(mail.text).toContain('expires in 1 hour');
		const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
		clock += 3_601_000;
		const expired = await fetch(link, { redirect: 'manual' });
		expect(fragmentOf(expired.headers.get('location')).get('error_code')).toBe('otp_expired');
	});

	it('sends a sign-in link (magic link) over SMTP, one a minute; it works within the hour, once, and not after', async () => {
		const email = await newUser('magic');
		clock = Date.now();
		const ask = () =>
			client(gateway.url).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
		expect((await ask()).error).toBeNull();
		clock += 59_000;
		expect((await ask()).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
		const links = () =>
			Promise.all(
				received
					.filter((m) => m.to === email)
					.map(async (m) => {
						const mail = await simpleParser(m.raw);
						expect(mail.subject).toBe('Your sign-in link');
						expect(mail.text).toContain('expires in 1 hour');
						return /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
					}),
			);
		const [first] = await links();
		clock += 3_500_000;
		const used = await fetch(first!, { redirect: 'manual' });
		const fragment = fragmentOf(used.headers.get('location'));
		expect(fragment.get('type')).toBe('magiclink');
		expect(fragment.get('access_token')).toBeTruthy();
		expect(
			fragmentOf((await fetch(first!, { redirect: 'manual' })).headers.get('location')).get(
				'error_code',
			),
		).toBe('otp_expired');

		expect((await ask()).error).toBeNull();
		const second = (await links()).at(-1)!;
		clock += 3_601_000;
		const expired = await fetch(second, { redirect: 'manual' });
		expect(fragmentOf(expired.headers.get('location'))).toEqual(
			new URLSearchParams({
				error: 'access_denied',
				error_code: 'otp_expired',
				error_description: 'Email link is invalid or has expired',
				sb: '',
			}),
		);
	});

	it('limits token requests per connection address, whatever X-Forwarded-For the client writes', async () => {
		const attempt = (headers: Record<string, string>, from = '127.0.0.3') =>
			new Promise<number>((resolve, reject) => {
				const url = new URL(`${gateway.url}/auth/v1/token?grant_type=password`);
				const req = httpRequest(
					{
						hostname: url.hostname,
						port: url.port,
						path: url.pathname + url.search,
						method: 'POST',
						localAddress: from,
						headers: {
							'content-type': 'application/json',
							'x-supabase-api-version': '2024-01-01',
							...headers,
						},
					},
					(res) => {
						res.resume();
						res.on('end', () => resolve(res.statusCode ?? 0));
					},
				);
				req.on('error', reject);
				req.end(JSON.stringify({ email: 'nobody@auth-service.test', password: 'x' }));
			});
		const anonFrom = (ip: string) => ({ apikey: stack.anonKey, 'x-forwarded-for': ip });
		const statuses = [];
		// A new spoofed address each time: all of them are one connection address (an address no
		// other test here connects from).
		for (let i = 0; i < 21; i++) statuses.push(await attempt(anonFrom(`203.0.113.${i}`)));
		expect(statuses).toEqual([...Array<number>(20).fill(400), 429]);
		// Another connection address has its own window.
		expect(await attempt(anonFrom('203.0.113.1'), '127.0.0.4')).toBe(400);
		// Only a secret key's request may say which visitor it acts for (a function signing a
		// visitor in), and then that visitor is counted, not the function's connection.
		expect(await attempt({ apikey: stack.anonKey, 'sb-forwarded-for': '198.51.100.7' })).toBe(429);
		const forwarded = { apikey: stack.serviceKey, 'sb-forwarded-for': '198.51.100.7' };
		expect(await attempt(forwarded)).toBe(400);
	});

	it('logged no password, token or reset link', () => {
		const text = logged.join('\n');
		expect(text).not.toContain(PASSWORD);
		expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
		expect(text).not.toMatch(/verify\?token=/);
	});
});

// --- Gateways whose sign-in e-mails a test reads, code and all --------------------------------------

describe("the code behind a sign-in link: GoTrue's MAILER_OTP_LENGTH digits", () => {
	const sent: { to: string; link: string; code: string }[] = [];
	const sendMagicLinkMail = async (
		_config: unknown,
		to: string,
		link: string,
		_data: unknown,
		_now: Date,
		code?: string,
	) => {
		sent.push({ to, link, code: code ?? '' });
	};

	async function codeFor(gateway: OwnGateway, name: string) {
		const email = await newUser(name);
		const { error } = await client(gateway.url).auth.signInWithOtp({
			email,
			options: { shouldCreateUser: false },
		});
		expect(error).toBeNull();
		return { email, code: sent.findLast((m) => m.to === email)!.code };
	}

	it('is 10 digits unless set otherwise (6 to 10); the code signs in with the address, once', async () => {
		const gateway = await startOwnGateway({}, undefined, { sendMagicLinkMail });
		try {
			const { email, code } = await codeFor(gateway, 'otp-ten');
			expect(code).toMatch(/^\d{10}$/);
			// The six digits a default GoTrue would take are not the code.
			const six = await client(gateway.url).auth.verifyOtp({
				email,
				token: code.slice(0, 6),
				type: 'magiclink',
			});
			expect(six.error).toMatchObject({ status: 403, code: 'otp_expired' });
			const verify = () =>
				client(gateway.url).auth.verifyOtp({ email, token: code, type: 'magiclink' });
			const verified = await verify();
			expect(verified.error).toBeNull();
			expect(verified.data.session?.user.email).toBe(email);
			expect((await verify()).error).toMatchObject({ status: 403, code: 'otp_expired' });
		} finally {
			await gateway.close();
		}
		const six = await startOwnGateway({ AUTH_MAILER_OTP_LENGTH: '6' }, undefined, {
			sendMagicLinkMail,
		});
		try {
			const { email, code } = await codeFor(six, 'otp-six');
			expect(code).toMatch(/^\d{6}$/);
			const verified = await client(six.url).auth.verifyOtp({
				email,
				token: code,
				type: 'magiclink',
			});
			expect(verified.error).toBeNull();
		} finally {
			await six.close();
		}
	});
});

// --- A third gateway: CAPTCHA protection on, against a stand-in siteverify -------------------------

describe('CAPTCHA protection, as GoTrue has it', () => {
	let gateway: OwnGateway;
	let verifier: ReturnType<typeof createHttpServer>;
	const asked: URLSearchParams[] = [];

	beforeAll(async () => {
		// hCaptcha's siteverify: a form in, {success, error-codes} out; 'good-token' passes.
		verifier = createHttpServer((req, res) => {
			let text = '';
			req.on('data', (c: Buffer) => (text += c));
			req.on('end', () => {
				const form = new URLSearchParams(text);
				asked.push(form);
				const ok = form.get('secret') === 'captcha-secret' && form.get('response') === 'good-token';
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify(
						ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
					),
				);
			});
		});
		verifier.listen(0, '127.0.0.1');
		await once(verifier, 'listening');
		gateway = await startOwnGateway({
			AUTH_CAPTCHA_ENABLED: 'true',
			AUTH_CAPTCHA_SECRET: 'captcha-secret',
			AUTH_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as { port: number }).port}/siteverify`,
		});
	});

	afterAll(async () => {
		await gateway.close();
		verifier.close();
	});

	const signInWith = (key: string, captchaToken?: string) =>
		createClient<Database>(gateway.url, key, {
			auth: { persistSession: false, autoRefreshToken: false },
		}).auth.signInWithPassword({
			email: captchaUser,
			password: PASSWORD,
			...(captchaToken ? { options: { captchaToken } } : {}),
		});
	let captchaUser: string;

	it('a visitor signs in or asks for a reset only with a token the provider accepts', async () => {
		captchaUser = await newUser('captcha');
		expect((await signInWith(stack.anonKey)).error).toMatchObject({
			status: 400,
			code: 'captcha_failed',
			message: 'captcha protection: request disallowed (no captcha_token found)',
		});
		expect((await signInWith(stack.anonKey, 'bad-token')).error).toMatchObject({
			status: 400,
			code: 'captcha_failed',
			message: 'captcha protection: request disallowed (invalid-input-response)',
		});
		expect((await signInWith(stack.anonKey, 'good-token')).error).toBeNull();
		expect(asked.at(-1)?.get('remoteip')).toBe('127.0.0.1');
		const reset = await createClient<Database>(gateway.url, stack.anonKey, {
			auth: { persistSession: false },
		}).auth.resetPasswordForEmail(captchaUser);
		expect(reset.error).toMatchObject({ status: 400, code: 'captcha_failed' });
	});

	it('a server acting for a visitor with the service role needs none (the app’s sign-in)', async () => {
		const before = asked.length;
		expect((await signInWith(stack.serviceKey)).error).toBeNull();
		expect(asked.length).toBe(before);
	});
});
