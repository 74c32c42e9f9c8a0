import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * The identity service's rows, in GoTrue's tables and shape (scripts/stack/platform/auth.sql):
 * auth.users with their auth.identities, auth.sessions with auth.mfa_amr_claims (how each session
 * began), auth.refresh_tokens and auth.one_time_tokens. Users are found the way GoTrue finds them
 * (internal/models/user.go): by instance_id (always the nil uuid) and aud too, so a row GoTrue could
 * not find is not found here either. Every change that must not half-happen runs in one
 * transaction (`transaction`).
 */

/** GoTrue's instance_id: one instance, the nil uuid (models.User.DONTUSEINSTANCEID). */
const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
/** GoTrue's default audience (GOTRUE_JWT_AUD) and role (GOTRUE_JWT_DEFAULT_GROUP_NAME). */
const AUDIENCE = 'authenticated';

export interface UserRow {
	instance_id: string | null;
	id: string;
	email: string | null;
	encrypted_password: string | null;
	email_confirmed_at: Date | null;
	last_sign_in_at: Date | null;
	recovery_sent_at: Date | null;
	banned_until: Date | null;
	raw_app_meta_data: Record<string, unknown> | null;
	raw_user_meta_data: Record<string, unknown> | null;
	aud: string | null;
	role: string | null;
	phone: string | null;
	created_at: Date;
	updated_at: Date;
	/** GoTrue scans these into Go strings and ints: NULL in any of them breaks every read. */
	confirmation_token: string | null;
	recovery_token: string | null;
	email_change_token_new: string | null;
	email_change_token_current: string | null;
	email_change: string | null;
	phone_change: string | null;
	phone_change_token: string | null;
	reauthentication_token: string | null;
	email_change_confirm_status: number | null;
	is_anonymous: boolean;
}

export interface SessionRow {
	id: string;
	user_id: string;
	/** From auth.mfa_amr_claims: how the session began (password, otp …). */
	authentication_method: string;
	/**
	 * When it was authenticated that way: the claim's updated_at, which GoTrue puts in the token's
	 * amr as the entry's timestamp (Session.CalculateAALAndAMR), refresh after refresh.
	 */
	authenticated_at: Date;
	created_at: Date;
	refreshed_at: Date | null;
	not_after: Date | null;
}

export interface RefreshTokenRow {
	id: string;
	token: string;
	revoked: boolean;
	updated_at: Date;
	parent: string | null;
	session_id: string;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

const USER_COLUMNS = `instance_id, id, email, encrypted_password, email_confirmed_at,
	last_sign_in_at, recovery_sent_at, banned_until, raw_app_meta_data, raw_user_meta_data, aud, role,
	phone, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new,
	email_change_token_current, email_change, phone_change, phone_change_token,
	reauthentication_token, email_change_confirm_status, is_anonymous`;

/** The columns GoTrue's models.User reads into non-nullable Go values. */
const GO_NOT_NULL: (keyof UserRow)[] = [
	'instance_id',
	'aud',
	'role',
	'created_at',
	'updated_at',
	'confirmation_token',
	'recovery_token',
	'email_change_token_new',
	'email_change_token_current',
	'email_change',
	'phone_change',
	'phone_change_token',
	'reauthentication_token',
	'email_change_confirm_status',
];

/**
 * A row GoTrue could not read fails here too: GoTrue's scan of a NULL into one of those columns
 * errors, and every call that reads the user answers 500 "Database error querying schema" (a
 * user row written by hand with only id, email and password is the classic cause).
 */
export class UnreadableUserError extends Error {
	readonly column: string;
	constructor(column: string) {
		super(`auth.users row has NULL in ${column}, which GoTrue cannot read`);
		this.column = column;
	}
}

function readable(row: UserRow | undefined): UserRow | null {
	if (!row) return null;
	for (const column of GO_NOT_NULL) {
		if (row[column] === null) throw new UnreadableUserError(column);
	}
	return row;
}

export class AuthStore {
	readonly #pool: pg.Pool;

	constructor(databaseUrl: string) {
		// One connection: PGlite has one session, and its socket server interleaves the messages of
		// concurrent connections one by one, so two connections' parameterised queries (Parse, Bind,
		// Execute) overwrite each other's unnamed portal ('portal "" does not exist'). Concurrent
		// requests wait for the pool instead.
		this.#pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
		// An idle connection whose database went away (restarted): the pool drops it and opens
		// another for the next query; unhandled, the error would end the process.
		this.#pool.on('error', (error) =>
			console.error(`[auth] database connection lost: ${error.message}`),
		);
	}

	close(): Promise<void> {
		return this.#pool.end();
	}

	async transaction<T>(fn: (db: Queryable) => Promise<T>): Promise<T> {
		const client = await this.#pool.connect();
		try {
			await client.query('begin');
			const result = await fn(client);
			await client.query('commit');
			return result;
		} catch (error) {
			await client.query('rollback').catch(() => {});
			throw error;
		} finally {
			client.release();
		}
	}

	get db(): Queryable {
		return this.#pool;
	}
}

// --- Users -----------------------------------------------------------------------------------------

/** FindUserByEmailAndAudience. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users
		where instance_id = $1 and lower(email) = lower($2) and aud = $3 and is_sso_user = false`,
		[INSTANCE_ID, email, AUDIENCE],
	);
	return readable(rows[0]);
}

export async function findUserById(
	db: Queryable,
	id: string,
	options: { forUpdate?: boolean } = {},
): Promise<UserRow | null> {
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users
		where instance_id = $1 and id = $2${options.forUpdate ? ' for update' : ''}`,
		[INSTANCE_ID, id],
	);
	return readable(rows[0]);
}

/** FindUsersInAudience, newest first, with GoTrue's optional `filter` on the address. */
export async function listUsers(
	db: Queryable,
	page: number,
	perPage: number,
	filter = '',
): Promise<{ users: UserRow[]; total: number }> {
	const where = `instance_id = $1 and aud = $2 and ($3 = '' or email like '%' || $3 || '%')`;
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users where ${where}
		order by created_at desc, id limit $4 offset $5`,
		[INSTANCE_ID, AUDIENCE, filter, perPage, (page - 1) * perPage],
	);
	const count = await db.query<{ n: string }>(
		`select count(*) as n from auth.users where ${where}`,
		[INSTANCE_ID, AUDIENCE, filter],
	);
	return {
		users: rows.map((row) => readable(row)!),
		total: Number(count.rows[0]?.n ?? 0),
	};
}

/**
 * A new user and its e-mail identity, written as GoTrue's adminUserCreate writes them: the nil
 * instance, the audience and role, empty strings in the token columns, an `email` identity whose
 * provider_id is the user's id.
 */
export async function insertUser(
	db: Queryable,
	user: {
		id?: string;
		email: string;
		passwordHash: string;
		confirmed: boolean;
		appMetadata: Record<string, unknown>;
		userMetadata: Record<string, unknown>;
		now: Date;
	},
): Promise<UserRow> {
	const id = user.id ?? randomUUID();
	const { rows } = await db.query<UserRow>(
		`insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
			email_confirmed_at, confirmation_token, recovery_token, email_change_token_new,
			email_change_token_current, email_change, phone_change, phone_change_token,
			reauthentication_token, email_change_confirm_status, raw_app_meta_data, raw_user_meta_data,
			created_at, updated_at, is_sso_user, is_anonymous)
		values ($1, $2, $3, $3, lower($4), $5, $6, '', '', '', '', '', '', '', '', 0, $7, $8,
			$9::timestamptz, $9::timestamptz, false, false)
		returning ${USER_COLUMNS}`,
		[
			INSTANCE_ID,
			id,
			AUDIENCE,
			user.email,
			user.passwordHash,
			user.confirmed ? user.now : null,
			user.appMetadata,
			user.userMetadata,
			user.now,
		],
	);
	const created = rows[0]!;
	await db.query(
		`insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
		values ($1::text, $1::uuid, $2, 'email', $3::timestamptz, $3::timestamptz)`,
		[
			id,
			{ sub: id, email: created.email, email_verified: user.confirmed, phone_verified: false },
			user.now,
		],
	);
	return created;
}

export async function updateUser(
	db: Queryable,
	id: string,
	changes: Partial<{
		encrypted_password: string | null;
		email_confirmed_at: Date | null;
		last_sign_in_at: Date;
		recovery_sent_at: Date | null;
		raw_app_meta_data: Record<string, unknown>;
		raw_user_meta_data: Record<string, unknown>;
		banned_until: Date | null;
	}>,
	now: Date,
): Promise<UserRow> {
	const entries = Object.entries(changes);
	const sets = entries.map(([column], i) => `${column} = $${i + 2}`);
	const { rows } = await db.query<UserRow>(
		`update auth.users set ${[...sets, `updated_at = $${entries.length + 2}`].join(', ')}
		where id = $1 returning ${USER_COLUMNS}`,
		[id, ...entries.map(([, value]) => value), now],
	);
	if (!rows[0]) throw new Error('User vanished during update');
	return rows[0];
}

/** The user and, by the foreign keys' cascade, its identities, sessions and one-time tokens. */
export async function deleteUser(db: Queryable, id: string): Promise<void> {
	await db.query('delete from auth.users where instance_id = $1 and id = $2', [INSTANCE_ID, id]);
}

// --- Sessions and refresh tokens ---------------------------------------------------------------------

/** A session at aal1 and its amr claim (GoTrue's NewSession and AddClaimToSession). */
export async function insertSession(
	db: Queryable,
	session: { userId: string; method: string; now: Date; userAgent?: string; ip?: string },
): Promise<SessionRow> {
	const id = randomUUID();
	await db.query(
		`insert into auth.sessions (id, user_id, aal, created_at, updated_at, refreshed_at, user_agent, ip)
		values ($1, $2, 'aal1', $3::timestamptz, $3::timestamptz, $3::timestamptz, $4, $5)`,
		[
			id,
			session.userId,
			session.now,
			session.userAgent ?? null,
			session.ip && /^[0-9a-f.:]+$/i.test(session.ip) ? session.ip : null,
		],
	);
	await db.query(
		`insert into auth.mfa_amr_claims (id, session_id, authentication_method, created_at, updated_at)
		values ($1, $2, $3, $4::timestamptz, $4::timestamptz)`,
		[randomUUID(), id, session.method, session.now],
	);
	return (await findSession(db, id))!;
}

export async function findSession(db: Queryable, id: string): Promise<SessionRow | null> {
	const { rows } = await db.query<SessionRow>(
		`select s.id, s.user_id, s.created_at, s.refreshed_at, s.not_after,
			coalesce(c.authentication_method, 'password') as authentication_method,
			coalesce(c.updated_at, s.created_at) as authenticated_at
		from auth.sessions s
		left join lateral (
			select c.authentication_method, c.updated_at from auth.mfa_amr_claims c
			where c.session_id = s.id order by c.created_at limit 1
		) c on true
		where s.id = $1`,
		[id],
	);
	return rows[0] ?? null;
}

export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
	await db.query(
		'update auth.sessions set refreshed_at = $2::timestamptz, updated_at = $2::timestamptz where id = $1',
		[id, now],
	);
}

/** scope: one session, every session of the user, or every session but one. */
export async function deleteSessions(
	db: Queryable,
	target: { sessionId: string } | { userId: string; except?: string },
): Promise<void> {
	if ('sessionId' in target) {
		await db.query('delete from auth.sessions where id = $1', [target.sessionId]);
	} else {
		await db.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
			target.userId,
			target.except ?? null,
		]);
	}
}

export async function insertRefreshToken(
	db: Queryable,
	token: { hash: string; userId: string; sessionId: string; parent: string | null; now: Date },
): Promise<void> {
	await db.query(
		`insert into auth.refresh_tokens (instance_id, token, user_id, session_id, parent, revoked,
			created_at, updated_at)
		values ($1, $2, $3, $4, $5, false, $6::timestamptz, $6::timestamptz)`,
		[INSTANCE_ID, token.hash, token.userId, token.sessionId, token.parent, token.now],
	);
}

/** The refresh token stored under this hash, locked for the rest of the transaction. */
export async function findRefreshTokenForUpdate(
	db: Queryable,
	hash: string,
): Promise<RefreshTokenRow | null> {
	const { rows } = await db.query<RefreshTokenRow>(
		`select id::text, token, revoked, updated_at, parent, session_id
		from auth.refresh_tokens where token = $1 for update`,
		[hash],
	);
	return rows[0] ?? null;
}

export async function findActiveRefreshToken(
	db: Queryable,
	sessionId: string,
): Promise<RefreshTokenRow | null> {
	const { rows } = await db.query<RefreshTokenRow>(
		`select id::text, token, revoked, updated_at, parent, session_id
		from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
		[sessionId],
	);
	return rows[0] ?? null;
}

export async function revokeRefreshToken(db: Queryable, id: string, now: Date): Promise<void> {
	await db.query('update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1', [
		id,
		now,
	]);
}

// --- E-mailed one-time tokens -------------------------------------------------------------------------

/** One recovery link per user at a time, as GoTrue keeps one recovery_token per user. */
export async function saveRecoveryToken(
	db: Queryable,
	token: { userId: string; hash: string; email: string; now: Date },
): Promise<void> {
	await db.query(
		`insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
		values ($1, $2, 'recovery_token', $3, $4, $5::timestamptz, $5::timestamptz)
		on conflict (user_id, token_type) do update
			set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
				created_at = excluded.created_at, updated_at = excluded.updated_at`,
		[randomUUID(), token.userId, token.hash, token.email, token.now],
	);
}

/**
 * Takes a recovery token: removes it (a link works once, fresh or not) and answers its user and
 * when it was sent, or null for an unknown or already used one.
 */
export async function takeRecoveryToken(
	db: Queryable,
	hash: string,
): Promise<{ userId: string; sentAt: Date } | null> {
	// created_at is GoTrue's `timestamp` (no zone): read back as an instant in the database's own
	// zone, the one it was written in, whatever this process's TZ.
	const { rows } = await db.query<{ user_id: string; created_at: Date }>(
		`delete from auth.one_time_tokens
		where token_hash = $1 and token_type = 'recovery_token'
		returning user_id, created_at::timestamptz as created_at`,
		[hash],
	);
	const row = rows[0];
	return row ? { userId: row.user_id, sentAt: row.created_at } : null;
}
