// Runs on: hosted — the sign-in functions with their rate limits kept in the database, on the
// production shape.
import { once } from 'node:events';
import { createServer as createHttpServer, request } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { randomSlug } from './fixtures.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';

// The sign-in functions over real HTTP: the local Netlify server runs netlify/functions/* in this
// process against the test stack and its identity service. Visitors are told apart by their
// address: requests leave from different loopback addresses (127.0.0.x), which the server reports
// as Netlify's x-nf-client-connection-ip, as Netlify's edge does.

const PASSWORD = 'function-password';
let server: FunctionServer;
let slugA: string;
let slugB: string;
let nextAddress = 10;
/** Everything the functions wrote to the console during the tests. */
const logged: string[] = [];

/** A loopback address no other test uses: its own rate-limit bucket. */
const freshAddress = () => `127.0.0.${nextAddress++}`;

const call: FunctionServer['call'] = (path, options) => server.call(path, options);

const login = (email: string, password: string, from?: string) =>
	call('/api/auth/supabase-login', { body: { email, password }, from });

async function newUser(
	slug: string,
	role: 'super_admin' | 'admin' | 'editor',
	name: string = role,
) {
	const email = `${name}-${Math.random().toString(36).slice(2, 8)}@auth-functions.test`;
	await importTenant(
		service,
		parseTenantFile(
			{ tenant: { slug, name: `Chamber ${slug}` }, users: [{ email, password: PASSWORD, role }] },
			'fixture',
		),
		{ only: ['users'], allowSuperAdmin: role === 'super_admin' },
	);
	return email;
}

beforeAll(async () => {
	await db.connect();
	slugA = randomSlug('authfn-a');
	slugB = randomSlug('authfn-b');
	for (const slug of [slugA, slugB]) {
		await importTenant(
			service,
			parseTenantFile({ tenant: { slug, name: `Chamber ${slug}` } }, 'fixture'),
		);
	}
	for (const method of ['log', 'info', 'warn', 'error'] as const) {
		const original = console[method].bind(console);
		vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
			logged.push(args.map(String).join(' '));
			original(...args);
		});
	}
	server = await startFunctionServer(stack, { tenant: slugA });
});

afterAll(async () => {
	await server?.close();
	vi.restoreAllMocks();
	await db.query('delete from public.tenants where slug = any($1)', [[slugA, slugB]]);
	await db.query(`delete from auth.users where email like '%@auth-functions.test'`);
	await db.end();
});

describe('POST /api/auth/supabase-login', () => {
	it('answers the session and the admin from the server-side record', async () => {
		const email = await newUser(slugA, 'admin');
		const { status, headers, body } = await login(email, PASSWORD, freshAddress());
		expect(status).toBe(200);
		expect(headers.get('cache-control')).toBe('no-store');
		expect(Object.keys(body.session).sort()).toEqual(
			['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type'].sort(),
		);
		expect(body.user).toEqual({
			id: expect.any(String),
			email,
			role: 'admin',
			tenantId: expect.any(String),
			tenantKey: slugA,
			tenantName: `Chamber ${slugA}`,
		});
	});

	it('400 without both fields, 401 with one message for a wrong password and an unknown address', async () => {
		const from = freshAddress();
		expect(await login('', 'x', from)).toMatchObject({
			status: 400,
			body: { error: 'Email and password are required' },
		});
		expect(
			(await call('/api/auth/supabase-login', { body: { email: 'a@b.test' }, from })).body,
		).toEqual({
			error: 'Email and password are required',
		});
		expect((await call('/api/auth/supabase-login', { body: 'nonsense', from })).status).toBe(400);
		const email = await newUser(slugA, 'editor');
		const wrong = await login(email, 'not-it', from);
		const unknown = await login('nobody@auth-functions.test', PASSWORD, from);
		expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
		expect(unknown).toMatchObject({ status: 401, body: wrong.body });
	});

	it('refuses an identity that is no admin of any chamber (403) and ends its session', async () => {
		const email = `plain-${Date.now()}@auth-functions.test`;
		await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
		expect(await login(email, PASSWORD, freshAddress())).toMatchObject({
			status: 403,
			body: { error: 'This account has no access to the admin portal.' },
		});
		const { rows } = await db.query(
			'select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1',
			[email],
		);
		expect(rows[0].n).toBe(0);
	});

	it('5 wrong passwords for one account from one address: 429, while that address signs in elsewhere and the owner signs in from another', async () => {
		const target = await newUser(slugA, 'admin', 'target');
		const other = await newUser(slugA, 'admin', 'other');
		const attacker = freshAddress();
		const statuses: number[] = [];
		let last: Awaited<ReturnType<typeof login>> | undefined;
		for (let i = 0; i < 8; i++) {
			last = await login(target, `guess-${i}`, attacker);
			statuses.push(last.status);
		}
		expect(statuses).toEqual([...Array<number>(5).fill(401), ...Array<number>(3).fill(429)]);
		expect(last?.body.error).toMatch(
			/^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/,
		);
		const retry = Number(last?.headers.get('retry-after'));
		expect(retry).toBeGreaterThan(0);
		expect(retry).toBeLessThanOrEqual(300);
		// Even the right password waits, from that address and for that account …
		expect((await login(target, PASSWORD, attacker)).status).toBe(429);
		// … while the same address signs in to another account, and the owner from elsewhere: no
		// account is locked against its owner.
		expect((await login(other, PASSWORD, attacker)).status).toBe(200);
		expect((await login(target, PASSWORD, freshAddress())).status).toBe(200);
	});

	it('the waits grow: past the first five minutes, the hour and the day still count', async () => {
		const target = await newUser(slugA, 'editor', 'grow');
		const from = freshAddress();
		for (let i = 0; i < 5; i++) expect((await login(target, `wrong-${i}`, from)).status).toBe(401);
		const first = await login(target, PASSWORD, from);
		expect(first.status).toBe(429);
		expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(300);
		// Five minutes on, five more tries; then the hour's window holds them back much longer.
		await db.query(
			`update public.rate_limit_hits set hit_at = hit_at - interval '6 minutes' where bucket like $1`,
			[`login-ip-account:${from}:%`],
		);
		for (let i = 5; i < 10; i++) {
			expect((await login(target, `wrong-${i}`, from)).status).toBe(401);
		}
		const second = await login(target, PASSWORD, from);
		expect(second.status).toBe(429);
		expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(3000);
	});

	it('a burst of 100 concurrent wrong passwords from one address checks at most 5 of them', async () => {
		const target = await newUser(slugA, 'admin', 'burst');
		const from = freshAddress();
		const answers = await Promise.all(
			Array.from({ length: 100 }, (_, i) => login(target, `wrong-${i}`, from)),
		);
		const statuses = answers.map((a) => a.status);
		expect(statuses.filter((s) => s === 401)).toHaveLength(5);
		expect(statuses.filter((s) => s === 429)).toHaveLength(95);
	});

	it('sign-ins that succeed do not count against their address: a whole office signs in', async () => {
		const email = await newUser(slugA, 'editor', 'office');
		const from = freshAddress();
		for (let i = 0; i < 25; i++) expect((await login(email, PASSWORD, from)).status).toBe(200);
	});

	it('a sign-in that succeeds forgets its address’s failures on that account', async () => {
		const target = await newUser(slugA, 'editor', 'forgets');
		const from = freshAddress();
		for (let i = 0; i < 4; i++) expect((await login(target, `wrong-${i}`, from)).status).toBe(401);
		expect((await login(target, PASSWORD, from)).status).toBe(200);
		for (let i = 0; i < 5; i++) expect((await login(target, `again-${i}`, from)).status).toBe(401);
	});
});

describe('GET /api/auth/supabase-verify and /api/auth/verify', () => {
	it('accept a live session; refuse none, a forged, an expired and a signed-out one with 401', async () => {
		const email = await newUser(slugA, 'editor', 'verify');
		const { body } = await login(email, PASSWORD, freshAddress());
		const token = body.session.access_token as string;
		expect(await call('/api/auth/supabase-verify', { token })).toMatchObject({
			status: 200,
			body: { authenticated: true, user: { email, role: 'editor', tenantKey: slugA } },
		});

		const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
		const forged = await new SignJWT(claims)
			.setProtectedHeader({ alg: 'HS256' })
			.sign(new TextEncoder().encode('not-the-secret-0123456789-0123456789'));
		const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
			.setProtectedHeader({ alg: 'HS256' })
			.sign(new TextEncoder().encode(stack.jwtSecret));
		for (const bad of [undefined, forged, expired, 'garbage']) {
			const answer = await call('/api/auth/supabase-verify', { token: bad });
			expect(answer.status).toBe(401);
			expect(answer.body).toMatchObject({ authenticated: false, error: expect.any(String) });
		}

		const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
			auth: { persistSession: false },
		});
		await client.auth.setSession({
			access_token: token,
			refresh_token: body.session.refresh_token,
		});
		await client.auth.signOut();
		expect((await call('/api/auth/supabase-verify', { token })).status).toBe(401);
	});

	it("answers a user of another chamber (the panel says 'Access Denied' itself)", async () => {
		const email = await newUser(slugB, 'admin', 'elsewhere');
		const { body } = await login(email, PASSWORD, freshAddress());
		const answer = await call('/api/auth/supabase-verify', { token: body.session.access_token });
		expect(answer.body).toMatchObject({ authenticated: true, user: { tenantKey: slugB } });
	});

	it('the generator check accepts admins and super_admins, not editors', async () => {
		for (const [role, status] of [
			['admin', 200],
			['super_admin', 200],
			['editor', 403],
		] as const) {
			const email = await newUser(slugB, role, `gen-${role}`);
			const { body } = await login(email, PASSWORD, freshAddress());
			const answer = await call('/api/auth/verify', { token: body.session.access_token });
			expect(answer.status, role).toBe(status);
			expect(answer.body.authenticated, role).toBe(status === 200);
		}
		expect((await call('/api/auth/verify')).status).toBe(401);
	});
});

describe('POST /api/auth/forgot-password', () => {
	const outbox = join(stack.dataDir, 'outbox');
	const mailsTo = async (email: string) =>
		(await readdir(outbox).catch(() => [] as string[])).filter((f) => f.includes(email)).length;

	it('answers the same for a known and an unknown address; only the known one gets an e-mail', async () => {
		const email = await newUser(slugA, 'admin', 'forgot');
		const known = await call('/api/auth/forgot-password', { body: { email } });
		const unknown = await call('/api/auth/forgot-password', {
			body: { email: 'nobody-here@auth-functions.test' },
		});
		expect(known).toMatchObject({ status: 200, body: { success: true } });
		expect(unknown).toMatchObject({ status: 200, body: known.body });
		// The e-mail goes out after the answer.
		await expect.poll(() => mailsTo(email)).toBe(1);
		expect(await mailsTo('nobody-here@auth-functions.test')).toBe(0);
		// Asked again within the minute: the identity service would refuse (429) for the known
		// address only; the answer stays the same.
		const again = await call('/api/auth/forgot-password', { body: { email } });
		expect(again).toMatchObject({ status: 200, body: known.body });
	});

	it('answers before the identity service is asked, so a known address takes no longer', async () => {
		// A gateway in front of the stack that holds every password-recovery request until released.
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		let recoveries = 0;
		const hold = createHttpServer((req, res) => {
			const forward = () => {
				const upstream = request(
					new URL(req.url ?? '/', stack.supabaseUrl),
					{ method: req.method, headers: req.headers },
					(answer) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				req.pipe(upstream);
			};
			if (req.url?.startsWith('/auth/v1/recover')) {
				recoveries++;
				void held.then(forward);
			} else forward();
		});
		hold.listen(0, '127.0.0.1');
		await once(hold, 'listening');
		process.env.SUPABASE_URL = `http://127.0.0.1:${(hold.address() as { port: number }).port}`;
		try {
			const email = await newUser(slugA, 'editor', 'held');
			const answer = await call('/api/auth/forgot-password', { body: { email } });
			expect(answer).toMatchObject({ status: 200, body: { success: true } });
			await expect.poll(() => recoveries).toBe(1);
			release();
			await expect.poll(() => mailsTo(email)).toBe(1);
		} finally {
			process.env.SUPABASE_URL = stack.supabaseUrl;
			release();
			hold.close();
		}
	});

	it('sends at most 3 e-mails per address per hour, answering the same past it', async () => {
		const email = await newUser(slugA, 'editor', 'reset-limit');
		for (let i = 0; i < 5; i++) {
			expect((await call('/api/auth/forgot-password', { body: { email } })).status).toBe(200);
		}
		const { rows } = await db.query(
			`select count(*)::int as n from public.rate_limit_hits where bucket = $1`,
			[`reset-email:${email}`],
		);
		expect(rows[0].n).toBe(3);
	});

	it('refuses an address that is no e-mail address with 400', async () => {
		expect(
			await call('/api/auth/forgot-password', { body: { email: 'not-an-address' } }),
		).toMatchObject({
			status: 400,
			body: { error: 'email: Please enter a valid email address' },
		});
	});
});

describe('secrets stay secret', () => {
	it('no function logged a password or a token', () => {
		const text = logged.join('\n');
		expect(text).not.toContain(PASSWORD);
		expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
		expect(text).not.toMatch(/guess-\d+|wrong-\d+/);
	});
});
