import { createHash, randomInt } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { verify as bcryptVerify } from '@node-rs/bcrypt';
import { z } from 'zod';
import { allowedRedirect, type AuthConfig } from './config.ts';
import { AuthError, OAuthError } from './errors.ts';
import { sendMagicLinkMail, sendRecoveryMail } from './mailer.ts';
import { decideRefresh, isEmailLinkFresh, passwordHashKind, RecentRefreshTokens } from './rules.ts';
import {
	deleteSessions,
	deleteUser,
	findActiveRefreshToken,
	findRefreshTokenForUpdate,
	findSession,
	findUserByEmail,
	findUserById,
	insertRefreshToken,
	insertSession,
	insertUser,
	listUsers,
	revokeRefreshToken,
	saveRecoveryToken,
	takeRecoveryToken,
	touchSession,
	updateUser,
	type AuthStore,
	type SessionRow,
	type UserRow,
} from './store.ts';
import { hashToken, newOpaqueToken, signAccessToken, verifyAccessToken } from './tokens.ts';

/**
 * What GoTrue does for the calls supabase-js makes, with the same answers: the password and
 * refresh-token grants (internal/api/token.go, internal/tokens/service.go), the user
 * (user.go), logout (logout.go), recovery and the e-mailed link (recover.go, mail.go, verify.go)
 * and the admin users API (admin.go, pagination.go). Each method names the GoTrue behaviour it
 * follows where it is not obvious.
 */

const INVALID_LOGIN = 'Invalid login credentials';
const PASSWORD_MIN_LENGTH = 6;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** Sessions that began from an e-mailed link (GoTrue's AuthenticationMethod.IsRecovery). */
const RECOVERY_METHODS: ReadonlySet<string> = new Set(['otp', 'magiclink', 'recovery']);

export interface UserJson {
	id: string;
	aud: string;
	role: string;
	email: string;
	email_confirmed_at?: string;
	phone: string;
	confirmed_at?: string;
	recovery_sent_at?: string;
	last_sign_in_at?: string;
	app_metadata: Record<string, unknown>;
	user_metadata: Record<string, unknown>;
	identities: Record<string, unknown>[];
	created_at: string;
	updated_at: string;
	is_anonymous: boolean;
}

export interface SessionJson {
	access_token: string;
	token_type: 'bearer';
	expires_in: number;
	expires_at: number;
	refresh_token: string;
	user: UserJson;
}

export interface RequestInfo {
	ip?: string;
	userAgent?: string;
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : undefined);

/** A user as GoTrue renders models.User (omitempty fields left out when unset). */
function userJson(row: UserRow): UserJson {
	const email = row.email ?? '';
	const appMetadata = { provider: 'email', providers: ['email'], ...(row.raw_app_meta_data ?? {}) };
	const identity = {
		identity_id: row.id,
		id: row.id,
		user_id: row.id,
		identity_data: {
			email,
			email_verified: row.email_confirmed_at !== null,
			phone_verified: false,
			sub: row.id,
		},
		provider: 'email',
		last_sign_in_at: iso(row.last_sign_in_at),
		created_at: row.created_at.toISOString(),
		updated_at: row.updated_at.toISOString(),
		email,
	};
	const json: UserJson = {
		id: row.id,
		aud: row.aud ?? 'authenticated',
		role: row.role ?? 'authenticated',
		email,
		email_confirmed_at: iso(row.email_confirmed_at),
		phone: row.phone ?? '',
		confirmed_at: iso(row.email_confirmed_at),
		recovery_sent_at: iso(row.recovery_sent_at),
		last_sign_in_at: iso(row.last_sign_in_at),
		app_metadata: appMetadata,
		user_metadata: row.raw_user_meta_data ?? {},
		identities: email ? [identity] : [],
		created_at: row.created_at.toISOString(),
		updated_at: row.updated_at.toISOString(),
		is_anonymous: false,
	};
	for (const key of Object.keys(json) as (keyof UserJson)[]) {
		if (json[key] === undefined) delete json[key];
	}
	return json;
}

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
	const result = schema.safeParse(body ?? {});
	if (!result.success) {
		throw new AuthError(
			400,
			'validation_failed',
			result.error.issues[0]?.message ?? 'Invalid request',
		);
	}
	return result.data;
}

const optionalString = z.string().optional();
const passwordGrantSchema = z.object({
	email: optionalString,
	phone: optionalString,
	password: z.string({ error: 'missing password' }).default(''),
});
const refreshGrantSchema = z.object({ refresh_token: z.string().default('') });
const updateUserSchema = z.object({
	email: optionalString,
	password: z.string().optional(),
	current_password: z.string().optional(),
	data: z.record(z.string(), z.unknown()).optional(),
	app_metadata: z.record(z.string(), z.unknown()).optional(),
});
const recoverSchema = z.object({ email: z.string().default('') });
const verifyPostSchema = z.object({
	type: z.string().default(''),
	token_hash: z.string().default(''),
	token: z.string().default(''),
	email: z.string().default(''),
	phone: z.string().default(''),
	redirect_to: z.string().default(''),
});
/** A JSON string GoTrue decodes into a Go string: absent and null are ''. */
const goString = z
	.string()
	.nullish()
	.transform((v) => v ?? '');
const otpSchema = z.object({
	email: goString,
	phone: goString,
	create_user: z
		.boolean()
		.nullish()
		.transform((v) => v ?? true),
	data: z.record(z.string(), z.unknown()).nullish(),
	channel: goString,
	code_challenge_method: goString,
	code_challenge: goString,
	gotrue_meta_security: z.unknown().optional(),
});

/** The e-mailed link types verify redeems from the one recovery token a user holds. */
const RECOVERY_TOKEN_TYPES: ReadonlySet<string> = new Set(['recovery', 'magiclink', 'email']);
/** Types GoTrue verifies from a confirmation token, which this service never issues. */
const CONFIRMATION_TOKEN_TYPES: ReadonlySet<string> = new Set(['signup', 'invite']);
const LINK_INVALID = 'Email link is invalid or has expired';
const CODE_INVALID = 'Token has expired or is invalid';

/** GoTrue's crypto.GenerateTokenHash: SHA-224 of the address and the code, hex. */
function gotrueTokenHash(email: string, otp: string): string {
	return createHash('sha224')
		.update(email + otp)
		.digest('hex');
}
const adminUserSchema = z.object({
	id: z.string().optional(),
	email: z.string().optional(),
	password: z.string().optional(),
	password_hash: z.string().optional(),
	email_confirm: z.boolean().optional(),
	user_metadata: z.record(z.string(), z.unknown()).optional(),
	app_metadata: z.record(z.string(), z.unknown()).optional(),
	ban_duration: z.string().optional(),
});

function checkPassword(password: string): void {
	if (password.length < PASSWORD_MIN_LENGTH) {
		throw new AuthError(
			422,
			'weak_password',
			`Password should be at least ${PASSWORD_MIN_LENGTH} characters.`,
			{ weak_password: { reasons: ['length'] } },
		);
	}
}

/** A user keeps its address here: changing it is GoTrue's confirmation e-mail flow, not offered. */
function refuseEmailChange(user: UserRow, email: string | undefined): void {
	if (email && email.trim().toLowerCase() !== user.email) {
		throw new AuthError(
			422,
			'feature_disabled',
			'Changing the e-mail address is not available in the local identity service',
		);
	}
}

/** Metadata updates merge into what the user has, as GoTrue's do. */
function merged(
	current: Record<string, unknown> | null,
	update: Record<string, unknown>,
): Record<string, unknown> {
	return { ...(current ?? {}), ...update };
}

const EMAIL = z.email();

function checkEmail(email: string): string {
	const value = email.trim().toLowerCase();
	if (!EMAIL.safeParse(value).success) {
		throw new AuthError(
			400,
			'validation_failed',
			'Unable to validate email address: invalid format',
		);
	}
	return value;
}

/** GoTrue's CompareHashAndPassword: argon2 (the import's) or bcrypt (GoTrue's own) hashes. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
	const kind = passwordHashKind(stored);
	if (kind === 'argon2') return argon2Verify(stored!, password).catch(() => false);
	if (kind === 'bcrypt') return bcryptVerify(password, stored!).catch(() => false);
	return false;
}

export class AuthService {
	readonly #config: AuthConfig;
	readonly #store: AuthStore;
	readonly #now: () => Date;
	readonly #send: typeof sendRecoveryMail;
	readonly #sendMagicLink: typeof sendMagicLinkMail;
	/** For GoTrue's reuse interval: the plain child of each recently rotated refresh token. */
	readonly #recentlyIssued: RecentRefreshTokens;

	constructor(
		config: AuthConfig,
		store: AuthStore,
		deps: {
			now?: () => Date;
			sendRecoveryMail?: typeof sendRecoveryMail;
			sendMagicLinkMail?: typeof sendMagicLinkMail;
		} = {},
	) {
		this.#config = config;
		this.#store = store;
		this.#now = deps.now ?? (() => new Date());
		this.#send = deps.sendRecoveryMail ?? sendRecoveryMail;
		this.#sendMagicLink = deps.sendMagicLinkMail ?? sendMagicLinkMail;
		this.#recentlyIssued = new RecentRefreshTokens(config.refreshTokenReuseSeconds);
	}

	get config(): AuthConfig {
		return this.#config;
	}

	// --- Tokens ---------------------------------------------------------------------------------

	async #accessToken(user: UserRow, session: SessionRow, now: Date) {
		const json = userJson(user);
		return signAccessToken(
			this.#config.jwtSecret,
			{
				iss: `${this.#config.externalUrl}/auth/v1`,
				sub: user.id,
				aud: json.aud,
				email: json.email,
				phone: json.phone,
				app_metadata: json.app_metadata,
				user_metadata: json.user_metadata,
				role: json.role,
				aal: 'aal1',
				amr: [
					{
						method: session.authentication_method,
						timestamp: Math.floor(session.authenticated_at.getTime() / 1000),
					},
				],
				session_id: session.id,
				is_anonymous: false,
			},
			{ now, expiresInSeconds: this.#config.jwtExpirySeconds },
		);
	}

	async #sessionJson(
		user: UserRow,
		session: SessionRow,
		refreshToken: string,
		now: Date,
	): Promise<SessionJson> {
		const { token, expiresAt } = await this.#accessToken(user, session, now);
		return {
			access_token: token,
			token_type: 'bearer',
			expires_in: expiresAt - Math.floor(now.getTime() / 1000),
			expires_at: expiresAt,
			refresh_token: refreshToken,
			user: userJson(user),
		};
	}

	/** A new session with its first refresh token (GoTrue IssueRefreshToken). */
	async #startSession(
		db: Parameters<Parameters<AuthStore['transaction']>[0]>[0],
		user: UserRow,
		method: string,
		info: RequestInfo,
		now: Date,
	): Promise<SessionJson> {
		const session = await insertSession(db, {
			userId: user.id,
			method,
			now,
			userAgent: info.userAgent,
			ip: info.ip,
		});
		const refreshToken = newOpaqueToken();
		await insertRefreshToken(db, {
			hash: hashToken(refreshToken),
			userId: user.id,
			sessionId: session.id,
			parent: null,
			now,
		});
		const signedIn = await updateUser(db, user.id, { last_sign_in_at: now }, now);
		return this.#sessionJson(signedIn, session, refreshToken, now);
	}

	/** POST /token?grant_type=password (ResourceOwnerPasswordGrant). */
	async passwordGrant(body: unknown, info: RequestInfo): Promise<SessionJson> {
		const params = parseBody(passwordGrantSchema, body);
		if (params.email && params.phone) {
			throw new AuthError(
				400,
				'validation_failed',
				'Only an email address or phone number should be provided on login.',
			);
		}
		if (!params.email) {
			if (params.phone) {
				throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled');
			}
			throw new AuthError(400, 'validation_failed', 'missing email or phone');
		}
		const now = this.#now();
		return this.#store.transaction(async (db) => {
			const user = await findUserByEmail(db, params.email!);
			// One answer for an unknown address, no password and a wrong password: no enumeration.
			if (!user || !(await passwordMatches(user.encrypted_password, params.password))) {
				throw new AuthError(400, 'invalid_credentials', INVALID_LOGIN);
			}
			if (user.banned_until && user.banned_until > now) {
				throw new AuthError(400, 'user_banned', 'User is banned');
			}
			if (!user.email_confirmed_at) {
				throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
			}
			return this.#startSession(db, user, 'password', info, now);
		});
	}

	/**
	 * POST /token?grant_type=refresh_token (RefreshTokenGrant): single use and rotated. A spent
	 * token that is the parent of the session's active one, presented within the reuse interval,
	 * gets that active token back (the client lost the previous answer); any other reuse revokes
	 * the whole session and answers refresh_token_already_used.
	 */
	async refreshGrant(body: unknown): Promise<SessionJson> {
		const { refresh_token: presented } = parseBody(refreshGrantSchema, body);
		if (!presented) throw new OAuthError('invalid_request', 'refresh_token required');
		const now = this.#now();
		const presentedHash = hashToken(presented);
		const outcome = await this.#store.transaction(async (db): Promise<SessionJson | 'reused'> => {
			const stored = await findRefreshTokenForUpdate(db, presentedHash);
			if (!stored) {
				throw new AuthError(
					400,
					'refresh_token_not_found',
					'Invalid Refresh Token: Refresh Token Not Found',
				);
			}
			const session = await findSession(db, stored.session_id);
			if (!session) {
				throw new AuthError(
					400,
					'session_not_found',
					'Invalid Refresh Token: No Valid Session Found',
				);
			}
			if (session.not_after && session.not_after <= now) {
				throw new AuthError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
			}
			const user = await findUserById(db, session.user_id);
			if (!user) throw new AuthError(403, 'user_not_found', 'User not found');
			if (user.banned_until && user.banned_until > now) {
				throw new AuthError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
			}

			const decision = decideRefresh({
				presented: { hash: presentedHash, revoked: stored.revoked, revokedAt: stored.updated_at },
				active: stored.revoked
					? await findActiveRefreshToken(db, session.id).then((row) =>
							row ? { hash: row.token, parent: row.parent } : null,
						)
					: null,
				reissuable: this.#recentlyIssued.childOf(presentedHash, now),
				now,
				reuseSeconds: this.#config.refreshTokenReuseSeconds,
				hash: hashToken,
			});
			if (decision.kind === 'return-active') {
				await touchSession(db, session.id, now);
				return this.#sessionJson(user, session, decision.token, now);
			}
			if (decision.kind === 'reuse-detected') {
				// Possible abuse: a spent token came back. The whole session goes (its refresh tokens
				// and, through the session check, its access tokens), committed before the refusal.
				await deleteSessions(db, { sessionId: session.id });
				return 'reused';
			}

			await revokeRefreshToken(db, stored.id, now);
			const next = newOpaqueToken();
			await insertRefreshToken(db, {
				hash: hashToken(next),
				userId: user.id,
				sessionId: session.id,
				parent: presentedHash,
				now,
			});
			await touchSession(db, session.id, now);
			this.#recentlyIssued.remember(presentedHash, next, now);
			return this.#sessionJson(user, session, next, now);
		});
		if (outcome === 'reused') {
			throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
		}
		return outcome;
	}

	// --- The signed-in user -------------------------------------------------------------------------

	/**
	 * GoTrue's requireAuthentication: a valid token of this secret, a user that exists, and the
	 * token's session still there (after a logout or a password change, its session_id is refused
	 * with 403 session_not_found, which makes supabase-js clear its stored session).
	 */
	async #authenticate(
		bearer: string | null,
	): Promise<{ user: UserRow; session: SessionRow | null; claims: Record<string, unknown> }> {
		if (!bearer) {
			throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
		}
		const now = this.#now();
		const claims = await verifyAccessToken(this.#config.jwtSecret, bearer, now);
		if (typeof claims.sub !== 'string' || claims.sub === '') {
			throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
		}
		if (!UUID.test(claims.sub)) {
			throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
		}
		const user = await findUserById(this.#store.db, claims.sub);
		if (!user) {
			throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
		}
		let session: SessionRow | null = null;
		if (typeof claims.session_id === 'string' && claims.session_id !== '') {
			if (!UUID.test(claims.session_id)) {
				throw new AuthError(403, 'bad_jwt', 'invalid claim: session_id claim must be a UUID');
			}
			session = await findSession(this.#store.db, claims.session_id);
			if (!session) {
				throw new AuthError(
					403,
					'session_not_found',
					'Session from session_id claim in JWT does not exist',
				);
			}
		}
		if (user.banned_until && user.banned_until > now) {
			throw new AuthError(403, 'user_banned', 'User is banned');
		}
		return { user, session, claims };
	}

	/** GET /user */
	async getUser(bearer: string | null): Promise<UserJson> {
		const { user, claims } = await this.#authenticate(bearer);
		if (claims.aud !== (user.aud ?? 'authenticated')) {
			throw new AuthError(
				400,
				'validation_failed',
				"Token audience doesn't match request audience",
			);
		}
		return userJson(user);
	}

	/**
	 * PUT /user (UserUpdate): a new password (at least 6 characters, not the current one) signs out
	 * the user's other sessions; user_metadata merges. app_metadata needs an admin, and changing the
	 * e-mail address (a confirmation e-mail flow) is not offered by this local service.
	 */
	async updateUser(bearer: string | null, body: unknown): Promise<UserJson> {
		const { user, session } = await this.#authenticate(bearer);
		const params = parseBody(updateUserSchema, body);
		if (params.app_metadata) {
			throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
		}
		refuseEmailChange(user, params.email);
		const now = this.#now();
		const changes: Parameters<typeof updateUser>[2] = {};
		if (params.password !== undefined && params.password !== '') {
			// GoTrue's SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD (user.go UserUpdate): a
			// session that came from an e-mailed link may set a new password; any other must know
			// the current one, so a stolen access token cannot take the account over.
			const recovery = session !== null && RECOVERY_METHODS.has(session.authentication_method);
			if (this.#config.requireCurrentPassword && !recovery) {
				const current = params.current_password ?? '';
				if (!current) {
					throw new AuthError(
						400,
						'current_password_required',
						'Current password required when setting new password.',
					);
				}
				if (!(await passwordMatches(user.encrypted_password, current))) {
					throw new AuthError(
						400,
						'current_password_mismatch',
						'Current password required when setting new password.',
					);
				}
			}
			checkPassword(params.password);
			if (await passwordMatches(user.encrypted_password, params.password)) {
				throw new AuthError(
					422,
					'same_password',
					'New password should be different from the old password.',
				);
			}
			changes.encrypted_password = await argon2Hash(params.password);
			// Completing a reset proves the address: as GoTrue confirms it on verify.
			if (!user.email_confirmed_at) changes.email_confirmed_at = now;
		}
		if (params.data) changes.raw_user_meta_data = merged(user.raw_user_meta_data, params.data);
		return this.#store.transaction(async (db) => {
			const updated = Object.keys(changes).length
				? await updateUser(db, user.id, changes, now)
				: user;
			if (changes.encrypted_password) {
				await deleteSessions(db, { userId: user.id, except: session?.id });
			}
			return userJson(updated);
		});
	}

	/** POST /logout?scope=global|local|others → 204 (Logout). */
	async logout(bearer: string | null, scope: string | null): Promise<void> {
		const chosen = scope ?? 'global';
		if (!['', 'global', 'local', 'others'].includes(chosen)) {
			throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${chosen}"`);
		}
		const { user, session } = await this.#authenticate(bearer);
		if (session && chosen === 'local')
			await deleteSessions(this.#store.db, { sessionId: session.id });
		else if (session && chosen === 'others') {
			await deleteSessions(this.#store.db, { userId: user.id, except: session.id });
		} else await deleteSessions(this.#store.db, { userId: user.id });
	}

	// --- Password recovery ----------------------------------------------------------------------------

	/**
	 * GoTrue's SMTP_MAX_FREQUENCY: one e-mailed link (recovery or magic link, which share the
	 * user's recovery_sent_at) per user per interval.
	 */
	#refuseEarlyEmail(user: UserRow, now: Date): void {
		if (!user.recovery_sent_at) return;
		const next = user.recovery_sent_at.getTime() + this.#config.emailMinIntervalSeconds * 1000;
		if (next > now.getTime()) {
			const left = Math.floor((next - now.getTime()) / 1000);
			throw new AuthError(
				429,
				'over_email_send_rate_limit',
				`For security purposes, you can only request this after ${left} seconds.`,
			);
		}
	}

	/**
	 * POST /recover (Recover, sendPasswordRecovery): 200 {} whether or not the address is known, one
	 * e-mail per user per minute (429 over_email_send_rate_limit), a one-hour single-use link.
	 */
	async recover(body: unknown, redirectTo: string | null): Promise<Record<string, never>> {
		const params = parseBody(recoverSchema, body);
		if (!params.email) {
			throw new AuthError(400, 'validation_failed', 'Password recovery requires an email');
		}
		const email = checkEmail(params.email);
		const now = this.#now();
		await this.#store.transaction(async (db) => {
			const user = await findUserByEmail(db, email);
			if (!user) return;
			this.#refuseEarlyEmail(user, now);
			const token = newOpaqueToken();
			await saveRecoveryToken(db, { userId: user.id, hash: hashToken(token), email, now });
			await updateUser(db, user.id, { recovery_sent_at: now }, now);
			const link = new URL(`${this.#config.externalUrl}/auth/v1/verify`);
			link.searchParams.set('token', token);
			link.searchParams.set('type', 'recovery');
			link.searchParams.set('redirect_to', allowedRedirect(this.#config, redirectTo));
			try {
				await this.#send(this.#config, email, link.href, now);
			} catch (error) {
				console.error(`[auth] the recovery e-mail could not be sent: ${(error as Error).message}`);
				throw new AuthError(500, 'unexpected_failure', 'Error sending recovery email');
			}
		});
		return {};
	}

	// --- Sign-in links (magic links) ---------------------------------------------------------------

	/**
	 * POST /otp (Otp, MagicLink, sendMagicLink): an e-mailed sign-in link for a confirmed user,
	 * 200 {}. `create_user` false and no such user (or an address that is not one): 422
	 * otp_disabled, as GoTrue's shouldCreateUser answers. A new or unconfirmed user would be signed
	 * up, which this service does not offer (422 signup_disabled, as with signups off). One e-mail
	 * per user per minute, counted with recovery e-mails (429 over_email_send_rate_limit): the link
	 * is the recovery token under another template, valid once for one hour. Phone OTPs and the
	 * PKCE flow are not offered.
	 */
	async otp(body: unknown, redirectTo: string | null): Promise<Record<string, never>> {
		const params = parseBody(otpSchema, body);
		if (params.email && params.phone) {
			throw new AuthError(
				400,
				'validation_failed',
				'Only an email address or phone number should be provided',
			);
		}
		if (params.email && params.channel) {
			throw new AuthError(
				400,
				'validation_failed',
				'Channel should only be specified with Phone OTP',
			);
		}
		if ((params.code_challenge === '') !== (params.code_challenge_method === '')) {
			throw new AuthError(
				400,
				'validation_failed',
				'PKCE flow requires code_challenge_method and code_challenge',
			);
		}
		if (params.code_challenge) {
			throw new AuthError(
				422,
				'feature_disabled',
				'The PKCE flow is not available in the local identity service',
			);
		}
		const otpDisabled = () => new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
		if (!params.create_user && (params.email || params.phone)) {
			if (params.phone) throw otpDisabled();
			let email: string;
			try {
				email = checkEmail(params.email);
			} catch {
				throw otpDisabled();
			}
			if (!(await findUserByEmail(this.#store.db, email))) throw otpDisabled();
		}
		if (params.email) return this.#magicLink(params.email, redirectTo);
		if (params.phone) {
			throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
		}
		throw new AuthError(400, 'validation_failed', 'One of email or phone must be set');
	}

	async #magicLink(address: string, redirectTo: string | null): Promise<Record<string, never>> {
		const email = checkEmail(address);
		const now = this.#now();
		await this.#store.transaction(async (db) => {
			const user = await findUserByEmail(db, email);
			if (!user || !user.email_confirmed_at) {
				throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
			}
			this.#refuseEarlyEmail(user, now);
			// GoTrue's link carries the token hash of a code of MAILER_OTP_LENGTH digits
			// (crypto.GenerateOtp); only the hash's own SHA-256 is stored.
			const length = this.#config.emailOtpLength;
			const code = String(randomInt(0, 10 ** length)).padStart(length, '0');
			const tokenHash = gotrueTokenHash(email, code);
			await saveRecoveryToken(db, { userId: user.id, hash: hashToken(tokenHash), email, now });
			await updateUser(db, user.id, { recovery_sent_at: now }, now);
			const link = new URL(`${this.#config.externalUrl}/auth/v1/verify`);
			link.searchParams.set('token', tokenHash);
			link.searchParams.set('type', 'magiclink');
			link.searchParams.set('redirect_to', allowedRedirect(this.#config, redirectTo));
			try {
				await this.#sendMagicLink(
					this.#config,
					email,
					link.href,
					user.raw_user_meta_data ?? {},
					now,
					code,
				);
			} catch (error) {
				console.error(`[auth] the sign-in e-mail could not be sent: ${(error as Error).message}`);
				throw new AuthError(500, 'unexpected_failure', 'Error sending magic link email');
			}
		});
		return {};
	}

	// --- Redeeming an e-mailed link ---------------------------------------------------------------

	/**
	 * An e-mailed link's token (recovery or sign-in) → a new session, or GoTrue's otp_expired
	 * (verifyTokenHash, verifyUserAndToken, recoverVerify). The token is used up whether it was
	 * fresh or not. The session's method is GoTrue's for the implicit flow (verify.go issues it with
	 * models.OTP): amr `otp`. `email` names the user a six-digit code was sent to.
	 */
	async #redeem(
		storedHash: string,
		info: RequestInfo,
		invalidMessage: string,
		email?: string,
	): Promise<SessionJson> {
		const now = this.#now();
		const invalid = () => new AuthError(403, 'otp_expired', invalidMessage);
		const redeemed = await this.#store.transaction(async (db) => {
			if (email !== undefined) {
				const owner = await findUserByEmail(db, email);
				if (!owner) return 'invalid' as const;
			}
			const taken = await takeRecoveryToken(db, storedHash);
			if (!taken || !isEmailLinkFresh(taken.sentAt, now, this.#config.emailLinkSeconds)) {
				return 'invalid' as const;
			}
			const user = await findUserById(db, taken.userId);
			if (!user || (email !== undefined && user.email !== email)) return 'invalid' as const;
			if (user.banned_until && user.banned_until > now) return 'banned' as const;
			const confirmed = user.email_confirmed_at
				? user
				: await updateUser(db, user.id, { email_confirmed_at: now }, now);
			return this.#startSession(db, confirmed, 'otp', info, now);
		});
		// An expired link is used up too (its row is gone): that is committed, then refused.
		if (redeemed === 'invalid') throw invalid();
		if (redeemed === 'banned') throw new AuthError(403, 'user_banned', 'User is banned');
		return redeemed;
	}

	/** verifyTokenHash's choice of token by type: the recovery token, or none this service issues. */
	#redeemTokenHash(type: string, tokenHash: string, info: RequestInfo): Promise<SessionJson> {
		if (CONFIRMATION_TOKEN_TYPES.has(type)) {
			return Promise.reject(new AuthError(403, 'otp_expired', LINK_INVALID));
		}
		if (!RECOVERY_TOKEN_TYPES.has(type)) {
			return Promise.reject(
				new AuthError(400, 'validation_failed', 'Invalid email verification type'),
			);
		}
		return this.#redeem(hashToken(tokenHash), info, LINK_INVALID);
	}

	/**
	 * GET /verify (Verify, verifyGet): the e-mailed link. 303 to redirect_to with the session in the
	 * URL fragment and the link's type (`recovery`: supabase-js then emits PASSWORD_RECOVERY;
	 * `magiclink` for a sign-in link, and for `email`, as GoTrue renames it), or with GoTrue's error
	 * fragment. A missing type or token is answered directly (400), as GoTrue validates first.
	 */
	async verifyLink(query: URLSearchParams, info: RequestInfo): Promise<string> {
		const type = query.get('type') ?? '';
		const token = query.get('token') ?? '';
		if (!type) {
			throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
		}
		if (!token) {
			throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
		}
		const redirectTo = allowedRedirect(this.#config, query.get('redirect_to'));
		const fragment = new URLSearchParams();
		try {
			const session = await this.#redeemTokenHash(type, token, info);
			fragment.set('access_token', session.access_token);
			fragment.set('expires_at', String(session.expires_at));
			fragment.set('expires_in', String(session.expires_in));
			fragment.set('refresh_token', session.refresh_token);
			fragment.set('token_type', 'bearer');
			fragment.set('type', type === 'email' ? 'magiclink' : type);
		} catch (error) {
			if (!(error instanceof AuthError)) throw error;
			const oauth: Record<number, string> = {
				400: 'invalid_request',
				401: 'unauthorized_client',
				403: 'access_denied',
				500: 'server_error',
			};
			if (oauth[error.status]) fragment.set('error', oauth[error.status]!);
			fragment.set('error_code', error.code);
			fragment.set('error_description', error.message);
		}
		// GoTrue marks its redirects with `sb` and encodes the fragment with Go's url.Values, keys sorted.
		fragment.set('sb', '');
		fragment.sort();
		const target = new URL(redirectTo);
		target.hash = fragment.toString();
		return target.href;
	}

	/**
	 * POST /verify (Verify, verifyPost; supabase-js verifyOtp): {type, token_hash} alone, or
	 * {type, email, token} with the six-digit code; the session as JSON.
	 */
	async verifyPost(body: unknown, info: RequestInfo): Promise<SessionJson> {
		const params = parseBody(verifyPostSchema, body);
		if (!params.type) {
			throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
		}
		if ((params.token === '') === (params.token_hash === '')) {
			throw new AuthError(
				400,
				'validation_failed',
				'Verify requires either a token or a token hash',
			);
		}
		if (params.token_hash) {
			if (params.email || params.phone || params.redirect_to) {
				throw new AuthError(
					400,
					'validation_failed',
					'Only the token_hash and type should be provided',
				);
			}
			return this.#redeemTokenHash(params.type, params.token_hash, info);
		}
		if (params.phone && !params.email) {
			throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
		}
		if (!params.email || params.phone) {
			throw new AuthError(
				400,
				'validation_failed',
				'Only an email address or phone number should be provided on verify',
			);
		}
		let email: string;
		try {
			email = checkEmail(params.email);
		} catch {
			throw new AuthError(422, 'validation_failed', 'Invalid email format');
		}
		if (!RECOVERY_TOKEN_TYPES.has(params.type)) {
			if (CONFIRMATION_TOKEN_TYPES.has(params.type)) {
				throw new AuthError(403, 'otp_expired', CODE_INVALID);
			}
			throw new AuthError(400, 'validation_failed', 'Unsupported verification type');
		}
		return this.#redeem(hashToken(gotrueTokenHash(email, params.token)), info, CODE_INVALID, email);
	}

	// --- Admin users (service role) --------------------------------------------------------------------

	/** GoTrue's requireAdmin: a token of this secret whose role is service_role. */
	async requireAdmin(bearer: string | null): Promise<void> {
		if (!bearer) {
			throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
		}
		const claims = await verifyAccessToken(this.#config.jwtSecret, bearer, this.#now());
		if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
			throw new AuthError(403, 'not_admin', 'User not allowed');
		}
	}

	/** GET /admin/users (adminUsers): `filter` matches part of the address, as GoTrue's does. */
	async adminListUsers(page: number, perPage: number, filter = '') {
		const { users, total } = await listUsers(this.#store.db, page, perPage, filter);
		return { users: users.map(userJson), aud: 'authenticated', total };
	}

	async #adminFind(id: string): Promise<UserRow> {
		if (!UUID.test(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
		const user = await findUserById(this.#store.db, id);
		if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
		return user;
	}

	async adminGetUser(id: string): Promise<UserJson> {
		return userJson(await this.#adminFind(id));
	}

	/**
	 * POST /admin/users (adminUserCreate): a password or an existing hash (argon2i/argon2id, as
	 * GoTrue's crypto.ParseArgon2Hash accepts, or bcrypt), never both; without either, a random
	 * password nobody knows (set through the recovery e-mail). The given id is kept.
	 */
	async adminCreateUser(body: unknown): Promise<UserJson> {
		const params = parseBody(adminUserSchema, body);
		if (!params.email) {
			throw new AuthError(
				400,
				'validation_failed',
				'Cannot create a user without either an email or phone',
			);
		}
		const email = checkEmail(params.email);
		if (params.password !== undefined && params.password_hash) {
			throw new AuthError(
				400,
				'validation_failed',
				'Only a password or a password hash should be provided',
			);
		}
		if (params.id !== undefined && !UUID.test(params.id)) {
			throw new AuthError(400, 'validation_failed', 'ID must conform to the uuid v4 format');
		}
		if (params.id === NIL_UUID) {
			throw new AuthError(400, 'validation_failed', 'ID cannot be a nil uuid');
		}
		let passwordHash: string;
		if (params.password_hash) {
			// GoTrue answers a hash it cannot parse with its generic 500.
			if (!passwordHashKind(params.password_hash)) {
				throw new AuthError(500, 'unexpected_failure', 'Error creating user');
			}
			passwordHash = params.password_hash;
		} else {
			if (params.password) checkPassword(params.password);
			passwordHash = await argon2Hash(params.password || newOpaqueToken());
		}
		const now = this.#now();
		return this.#store.transaction(async (db) => {
			if (await findUserByEmail(db, email)) {
				throw new AuthError(
					422,
					'email_exists',
					'A user with this email address has already been registered',
				);
			}
			if (params.id && (await findUserById(db, params.id))) {
				throw new AuthError(500, 'unexpected_failure', 'Database error creating new user');
			}
			const user = await insertUser(db, {
				id: params.id,
				email,
				passwordHash,
				confirmed: params.email_confirm ?? false,
				appMetadata: { provider: 'email', providers: ['email'], ...(params.app_metadata ?? {}) },
				userMetadata: params.user_metadata ?? {},
				now,
			});
			return userJson(user);
		});
	}

	/** PUT /admin/users/{id} (adminUserUpdate): password, confirmation, metadata, ban. */
	async adminUpdateUser(id: string, body: unknown): Promise<UserJson> {
		const user = await this.#adminFind(id);
		const params = parseBody(adminUserSchema, body);
		refuseEmailChange(user, params.email);
		const now = this.#now();
		const changes: Parameters<typeof updateUser>[2] = {};
		if (params.password !== undefined) {
			checkPassword(params.password);
			changes.encrypted_password = await argon2Hash(params.password);
		}
		if (params.email_confirm) changes.email_confirmed_at = user.email_confirmed_at ?? now;
		if (params.user_metadata) {
			changes.raw_user_meta_data = merged(user.raw_user_meta_data, params.user_metadata);
		}
		if (params.app_metadata) {
			changes.raw_app_meta_data = merged(user.raw_app_meta_data, params.app_metadata);
		}
		if (params.ban_duration !== undefined) {
			if (params.ban_duration === 'none') changes.banned_until = null;
			else {
				const match = /^(\d+)h$/.exec(params.ban_duration);
				if (!match) {
					throw new AuthError(
						400,
						'validation_failed',
						`invalid format for ban duration: ${params.ban_duration}`,
					);
				}
				changes.banned_until = new Date(now.getTime() + Number(match[1]) * 3_600_000);
			}
		}
		if (Object.keys(changes).length === 0) return userJson(user);
		return userJson(await updateUser(this.#store.db, user.id, changes, now));
	}

	/** DELETE /admin/users/{id} → 200 {} (adminUserDelete; its sessions and admin row go with it). */
	async adminDeleteUser(id: string): Promise<Record<string, never>> {
		const user = await this.#adminFind(id);
		await deleteUser(this.#store.db, user.id);
		return {};
	}
}
