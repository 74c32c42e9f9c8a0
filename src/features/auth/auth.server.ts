import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError, ipRateKey, type AnsweredFirst } from '../../lib/http.server.ts';
import {
	clearRateLimit,
	describeWait,
	refundRateLimit,
	takeRateLimit,
	takeRateLimits,
	type RateLimit,
} from '../../lib/rate-limit.server.ts';
import {
	createAuthClient,
	createForwardingAuthClient,
	getServiceClient,
	getUserClient,
	readClientEnv,
	type ClientEnv,
} from '../../lib/supabase.server.ts';
import {
	ACCESS_DENIED_MESSAGE,
	INVALID_LOGIN_MESSAGE,
	mayAccessChamber,
	NO_PORTAL_ACCESS_MESSAGE,
	type AdminRole,
	type AdminUser,
} from './auth.ts';

/**
 * Who is calling: the bearer token is checked by the identity service (Supabase Auth, or the
 * local stand-in) — signature, expiry and a session that still exists — and the role and chamber
 * come from the server-side admin_users record, read with the caller's own token (RLS lets a user
 * read only their own record). Nothing the browser says about itself is trusted.
 */

export interface AdminSession {
	user: AdminUser;
	/** The caller's access token, for calls that must run as them. */
	accessToken: string;
	/** PostgREST and Storage as the caller: RLS and the database's role checks apply. */
	client: SupabaseClient;
}

interface AdminUserRow {
	user_id: string;
	email: string;
	role: AdminRole;
	tenant_id: string;
	tenants: { slug: string; name: string } | null;
}

/** The bearer token of a request, or null. */
function bearerToken(req: Request): string | null {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
	return match?.[1] ?? null;
}

/** The admin record of a user, read with that user's token; null when they are no admin. */
async function getAdminUser(client: SupabaseClient, userId: string): Promise<AdminUser | null> {
	const { data, error } = await client
		.from('admin_users')
		.select('user_id, email, role, tenant_id, tenants(slug, name)')
		.eq('user_id', userId)
		.maybeSingle<AdminUserRow>();
	if (error) throw new Error(`Failed to read the admin record: ${error.message}`, { cause: error });
	if (!data?.tenants) return null;
	return {
		id: data.user_id,
		email: data.email,
		role: data.role,
		tenantId: data.tenant_id,
		tenantKey: data.tenants.slug,
		tenantName: data.tenants.name,
	};
}

export interface AuthenticateOptions {
	/** Roles allowed to make this call (default: all three). */
	roles?: readonly AdminRole[];
	/**
	 * Whether the caller must be allowed into this deployment's chamber (TENANT): their own, or
	 * any for a super_admin. Default true; the session check of the panel shell sets false and
	 * compares itself, so it can say 'Access Denied' instead of 'sign in again'.
	 */
	deploymentTenant?: boolean;
}

/** Verifies the caller; throws an HttpError (401 or 403) that handleJson answers as `{error}`. */
export async function authenticate(
	req: Request,
	options: AuthenticateOptions = {},
): Promise<AdminSession> {
	const accessToken = bearerToken(req);
	if (!accessToken) throw new HttpError(401, 'Authentication required');
	const env = readClientEnv();
	const { data, error } = await createAuthClient(env).auth.getUser(accessToken);
	if (error || !data.user) {
		// 5xx from the identity service is our failure, not the caller's.
		if (error && (error.status ?? 0) >= 500) {
			throw new Error(`Identity service failed: ${error.message}`, { cause: error });
		}
		throw new HttpError(401, 'Your session has expired. Please sign in again.');
	}
	const client = getUserClient(accessToken, env);
	const user = await getAdminUser(client, data.user.id);
	if (!user) throw new HttpError(403, NO_PORTAL_ACCESS_MESSAGE);
	if (options.roles && !options.roles.includes(user.role)) {
		throw new HttpError(403, 'Your role does not allow this.');
	}
	if ((options.deploymentTenant ?? true) && !mayAccessChamber(user, env.TENANT)) {
		throw new HttpError(403, ACCESS_DENIED_MESSAGE);
	}
	return { user, accessToken, client };
}

// --- Sign-in ------------------------------------------------------------------------------------

/**
 * Sign-in attempts, counted before the password is checked: per client address (IPv4, or IPv6
 * /64), whatever the account …
 */
const LOGIN_ADDRESS_LIMITS = [
	{ limit: 20, windowSeconds: 300 },
	{ limit: 100, windowSeconds: 86_400 },
] as const;
/**
 * … and per address and account, in windows that make the waits grow: 5 in 5 minutes, then 10 in
 * an hour, then 20 in a day. No limit is per account alone: an attacker elsewhere must not be able
 * to lock its owner out.
 */
const LOGIN_ADDRESS_ACCOUNT_LIMITS = [
	{ limit: 5, windowSeconds: 300 },
	{ limit: 10, windowSeconds: 3600 },
	{ limit: 20, windowSeconds: 86_400 },
] as const;
/** Reset e-mails per address per hour; past it the answer looks the same and nothing is sent. */
const RESET_EMAIL_LIMIT = { limit: 3, windowSeconds: 3600 } as const;

export interface SignInResult {
	session: {
		access_token: string;
		refresh_token: string;
		expires_at: number;
		expires_in: number;
		token_type: string;
	};
	user: AdminUser;
}

function loginLimits(
	ipKey: string,
	email: string,
): { limits: RateLimit[]; address: string; pair: string } {
	const address = `login-ip:${ipKey}`;
	const pair = `login-ip-account:${ipKey}:${email.trim().toLowerCase()}`;
	return {
		limits: [
			...LOGIN_ADDRESS_LIMITS.map((l) => ({ bucket: address, ...l })),
			...LOGIN_ADDRESS_ACCOUNT_LIMITS.map((l) => ({ bucket: pair, ...l })),
		],
		address,
		pair,
	};
}

function tooMany(wait: number): HttpError {
	return new HttpError(
		429,
		`Too many sign-in attempts. Please try again in ${describeWait(wait)}.`,
		{ 'Retry-After': String(wait) },
	);
}

/**
 * Signs an admin in with the identity service, within the sign-in limits kept in the database (so
 * they hold across function instances): the attempt is counted before the password is checked, so
 * no burst checks more passwords than the limits allow; a wrong e-mail and a wrong password look
 * the same. A sign-in that succeeds forgets its address's failures on that account and does not
 * count against the address.
 */
export async function signIn(
	credentials: { email: string; password: string },
	clientIp: string,
	env: ClientEnv = readClientEnv(),
): Promise<SignInResult> {
	const service = getServiceClient(env);
	const { limits, address, pair } = loginLimits(ipRateKey(clientIp), credentials.email);
	const wait = await takeRateLimits(service, limits);
	if (wait > 0) throw tooMany(wait);

	const auth = createForwardingAuthClient(clientIp, env).auth;
	const { data, error } = await auth.signInWithPassword(credentials);
	if (error || !data.session) {
		if (error?.status === 429) throw tooMany(60);
		if (!error || (error.status ?? 0) >= 500 || error.status === 0) {
			throw new Error(`Identity service failed: ${error?.message ?? 'no session'}`, {
				cause: error,
			});
		}
		throw new HttpError(401, INVALID_LOGIN_MESSAGE);
	}
	// A sign-in that worked counts against nothing: its address's failures on the account are
	// forgotten, and its own attempt given back.
	await clearRateLimit(service, pair);
	await refundRateLimit(service, address);
	const session = data.session;
	const user = await getAdminUser(getUserClient(session.access_token, env), session.user.id);
	if (!user) {
		// A valid identity without an admin record: the session it just got is ended at once.
		await createAuthClient(env)
			.auth.admin.signOut(session.access_token, 'local')
			.catch(() => {});
		throw new HttpError(403, NO_PORTAL_ACCESS_MESSAGE);
	}
	return {
		session: {
			access_token: session.access_token,
			refresh_token: session.refresh_token,
			expires_at: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in,
			expires_in: session.expires_in,
			token_type: session.token_type,
		},
		user,
	};
}

/**
 * Asks the identity service to e-mail a password-reset link. The answer is the same whatever the
 * address, and so is its time: only this address's hourly limit is checked before answering, and
 * the identity service is asked afterwards (`later`, Netlify's waitUntil), since a known address
 * takes it longer (it writes a token and sends mail) and answers a second request within a minute
 * with 429. Nothing is sent past the limit; a failure to send is logged, never shown.
 */
export async function sendPasswordReset(
	email: string,
	{ clientIp, siteUrl, later }: AnsweredFirst,
	env: ClientEnv = readClientEnv(),
): Promise<void> {
	const limit = { bucket: `reset-email:${email}`, ...RESET_EMAIL_LIMIT };
	if ((await takeRateLimit(getServiceClient(env), limit)) > 0) return;
	const redirectTo = new URL('/reset-password', siteUrl).href;
	later(
		createForwardingAuthClient(clientIp, env)
			.auth.resetPasswordForEmail(email, { redirectTo })
			.then(({ error }) => {
				// GoTrue's own one-per-minute limit: the e-mail is on its way already.
				if (error && error.status !== 429) {
					console.error(`[auth] the reset e-mail was not sent: ${error.message}`);
				}
			}),
	);
}
