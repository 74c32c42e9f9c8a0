import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { allowedRedirect, readAuthConfig, type AuthConfig } from './config.ts';
import { AuthError, errorAnswer, OAuthError } from './errors.ts';
import { RequestLimiter } from './rate-limit.ts';
import { hashToken, newOpaqueToken, signAccessToken, verifyAccessToken } from './tokens.ts';

const SECRET = 'a-test-secret-of-the-local-stack-0123456789';
const NOW = new Date('2026-11-23T12:00:00Z');

const claims = {
	iss: 'http://127.0.0.1:54321/auth/v1',
	sub: '7ca8131d-b5b6-4fd6-a3d5-e098b04986c6',
	aud: 'authenticated',
	email: 'admin@demo.test',
	phone: '',
	app_metadata: { provider: 'email', providers: ['email'], role: 'admin' },
	user_metadata: {},
	role: 'authenticated',
	aal: 'aal1',
	amr: [{ method: 'password', timestamp: 1 }],
	session_id: '11111111-2222-4333-8444-555555555555',
	is_anonymous: false,
};

describe('access tokens', () => {
	it("carry GoTrue's claims and expire after the configured lifetime", async () => {
		const { token, expiresAt } = await signAccessToken(SECRET, claims, {
			now: NOW,
			expiresInSeconds: 3600,
		});
		expect(expiresAt).toBe(NOW.getTime() / 1000 + 3600);
		const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
		expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
		const payload = await verifyAccessToken(SECRET, token, NOW);
		expect(payload).toEqual({ ...claims, iat: NOW.getTime() / 1000, exp: expiresAt });
	});

	it('are refused when expired, signed with another key, or unsigned', async () => {
		const { token } = await signAccessToken(SECRET, claims, { now: NOW, expiresInSeconds: 60 });
		await expect(
			verifyAccessToken(SECRET, token, new Date(NOW.getTime() + 61_000)),
		).rejects.toMatchObject({
			status: 403,
			code: 'bad_jwt',
			message:
				'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
		});
		const other = await new SignJWT(claims)
			.setProtectedHeader({ alg: 'HS256' })
			.setExpirationTime('1h')
			.sign(new TextEncoder().encode('another-secret-entirely-0123456789abcdef'));
		await expect(verifyAccessToken(SECRET, other, NOW)).rejects.toMatchObject({ code: 'bad_jwt' });
		const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
			JSON.stringify({ ...claims, exp: 4_102_444_800 }),
		).toString('base64url')}.`;
		await expect(verifyAccessToken(SECRET, none, NOW)).rejects.toMatchObject({ code: 'bad_jwt' });
	});
});

describe('opaque tokens', () => {
	it('are random and stored only as their SHA-256', () => {
		const a = newOpaqueToken();
		expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(newOpaqueToken()).not.toBe(a);
		expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
		expect(hashToken(a)).not.toContain(a);
	});
});

describe("GoTrue's error answers", () => {
	const error = new AuthError(400, 'invalid_credentials', 'Invalid login credentials');

	it('with X-Supabase-Api-Version 2024-01-01: {code, message}, the header echoed', () => {
		expect(errorAnswer(error, '2024-01-01')).toEqual({
			status: 400,
			headers: { 'X-Supabase-Api-Version': '2024-01-01', 'x-sb-error-code': 'invalid_credentials' },
			body: { code: 'invalid_credentials', message: 'Invalid login credentials' },
		});
	});

	it('without it (or an older date): {code: status, error_code, msg}', () => {
		for (const header of [null, '2023-06-01', 'nonsense']) {
			expect(errorAnswer(error, header)).toEqual({
				status: 400,
				headers: { 'x-sb-error-code': 'invalid_credentials' },
				body: { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' },
			});
		}
	});

	it('OAuth-style form errors and unexpected failures', () => {
		expect(errorAnswer(new OAuthError('invalid_request', 'refresh_token required'), null)).toEqual({
			status: 400,
			headers: {},
			body: { error: 'invalid_request', error_description: 'refresh_token required' },
		});
		expect(errorAnswer(new Error('database is down, password=secret'), '2024-01-01').body).toEqual({
			code: 'unexpected_failure',
			message: 'Unexpected failure, please check server logs for more information',
		});
	});
});

describe('per-IP request limits', () => {
	it('allow `limit` requests per window and each address its own', () => {
		let now = 0;
		const limiter = new RequestLimiter({ limit: 3, windowSeconds: 300 }, () => now);
		expect([1, 2, 3, 4].map(() => limiter.take('198.51.100.1'))).toEqual([true, true, true, false]);
		expect(limiter.take('198.51.100.2')).toBe(true);
		now = 299_999;
		expect(limiter.take('198.51.100.1')).toBe(false);
		now = 300_000;
		expect(limiter.take('198.51.100.1')).toBe(true);
	});
});

describe('redirects of e-mailed links', () => {
	const config = (over: Partial<AuthConfig> = {}): AuthConfig => ({
		...readAuthConfig(
			{ externalUrl: 'http://127.0.0.1:54321', jwtSecret: SECRET, apiKeys: [] },
			{
				AUTH_SITE_URL: 'https://chamber.example.org',
				AUTH_REDIRECT_ALLOW_LIST: 'https://*.preview.example.org/**',
			},
		),
		...over,
	});

	it('go to the site, an allow-listed address, else the site URL', () => {
		expect(allowedRedirect(config(), 'https://chamber.example.org/reset-password')).toBe(
			'https://chamber.example.org/reset-password',
		);
		expect(allowedRedirect(config(), 'https://pr-12.preview.example.org/reset-password')).toBe(
			'https://pr-12.preview.example.org/reset-password',
		);
		for (const bad of [
			'https://evil.example.com/reset',
			'javascript:alert(1)',
			'not a url',
			null,
		]) {
			expect(allowedRedirect(config(), bad)).toBe('https://chamber.example.org');
		}
		expect(allowedRedirect(config(), 'http://localhost:8899/reset-password')).toBe(
			'https://chamber.example.org',
		);
	});

	it('locally the site is the one this stack serves, on PORT; another local port is not it', () => {
		const local = readAuthConfig(
			{ externalUrl: 'http://127.0.0.1:54321', jwtSecret: SECRET, apiKeys: [] },
			{ PORT: '8899' },
		);
		expect(local.siteUrl).toBe('http://localhost:8899');
		expect(allowedRedirect(local, 'http://localhost:8899/reset-password')).toBe(
			'http://localhost:8899/reset-password',
		);
		expect(allowedRedirect(local, 'http://localhost:8898/steal')).toBe('http://localhost:8899');
		expect(allowedRedirect(local, 'http://127.0.0.1:8899/x')).toBe('http://localhost:8899');
	});
});

describe("the e-mailed code's length (GoTrue's MAILER_OTP_LENGTH)", () => {
	const read = (env: Record<string, string>) =>
		readAuthConfig({ externalUrl: 'http://127.0.0.1:54321', jwtSecret: SECRET, apiKeys: [] }, env);

	it('is 10 digits unless set, 6 to 10 as GoTrue allows', () => {
		expect(read({}).emailOtpLength).toBe(10);
		expect(read({ AUTH_MAILER_OTP_LENGTH: '6' }).emailOtpLength).toBe(6);
		expect(read({ AUTH_MAILER_OTP_LENGTH: '8' }).emailOtpLength).toBe(8);
	});

	it.each(['5', '11', 'ten'])('refuses %s with the setting named', (value) => {
		expect(() => read({ AUTH_MAILER_OTP_LENGTH: value })).toThrow(/AUTH_MAILER_OTP_LENGTH/);
	});
});
