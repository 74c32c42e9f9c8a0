import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * The identity service's rows: auth.users (which the tenant import writes too), auth.sessions,
 * auth.refresh_tokens and auth.one_time_tokens (migration 20261123000020). Every change that must
 * not half-happen runs in one transaction (`transaction`).
 */

export interface UserRow {
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
}

export interface SessionRow {
	id: string;
	user_id: string;
	authentication_method: string;
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

const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, last_sign_in_at,
	recovery_sent_at, banned_until, raw_app_meta_data, raw_user_meta_data, aud, role, phone,
	created_at, updated_at`;

export class AuthStore {
	readonly #pool: pg.Pool;

	constructor(databaseUrl: string) {
		// One connection: PGlite has one session, and its socket server interleaves the messages of
		// concurrent connections one by one, so two connections' parameterised queries (Parse, Bind,
		// Execute) overwrite each other's unnamed portal ('portal "" does not exist'). Concurrent
		// requests wait for the pool instead.
		this.#pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
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

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users where lower(email) = lower($1)`,
		[email],
	);
	return rows[0] ?? null;
}

export async function findUserById(
	db: Queryable,
	id: string,
	options: { forUpdate?: boolean } = {},
): Promise<UserRow | null> {
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users where id = $1${options.forUpdate ? ' for update' : ''}`,
		[id],
	);
	return rows[0] ?? null;
}

export async function listUsers(
	db: Queryable,
	page: number,
	perPage: number,
): Promise<{ users: UserRow[]; total: number }> {
	const { rows } = await db.query<UserRow>(
		`select ${USER_COLUMNS} from auth.users order by created_at desc, id limit $1 offset $2`,
		[perPage, (page - 1) * perPage],
	);
	const count = await db.query<{ n: string }>('select count(*) as n from auth.users');
	return { users: rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function insertUser(
	db: Queryable,
	user: {
		email: string;
		passwordHash: string | null;
		confirmed: boolean;
		appMetadata: Record<string, unknown>;
		userMetadata: Record<string, unknown>;
		now: Date;
	},
): Promise<UserRow> {
	const { rows } = await db.query<UserRow>(
		`insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
			raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
		values ($1, 'authenticated', 'authenticated', lower($2), $3, $4, $5, $6, $7::timestamptz, $7::timestamptz)
		returning ${USER_COLUMNS}`,
		[
			randomUUID(),
			user.email,
			user.passwordHash,
			user.confirmed ? user.now : null,
			user.appMetadata,
			user.userMetadata,
			user.now,
		],
	);
	return rows[0]!;
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

export async function deleteUser(db: Queryable, id: string): Promise<void> {
	await db.query('delete from auth.users where id = $1', [id]);
}

// --- Sessions and refresh tokens ---------------------------------------------------------------------

export async function insertSession(
	db: Queryable,
	session: { userId: string; method: string; now: Date; userAgent?: string; ip?: string },
): Promise<SessionRow> {
	const { rows } = await db.query<SessionRow>(
		`insert into auth.sessions (id, user_id, authentication_method, created_at, updated_at,
			refreshed_at, user_agent, ip)
		values ($1, $2, $3, $4::timestamptz, $4::timestamptz, $4::timestamptz, $5, $6)
		returning id, user_id, authentication_method, created_at, refreshed_at, not_after`,
		[
			randomUUID(),
			session.userId,
			session.method,
			session.now,
			session.userAgent ?? null,
			session.ip && /^[0-9a-f.:]+$/i.test(session.ip) ? session.ip : null,
		],
	);
	return rows[0]!;
}

export async function findSession(db: Queryable, id: string): Promise<SessionRow | null> {
	const { rows } = await db.query<SessionRow>(
		`select id, user_id, authentication_method, created_at, refreshed_at, not_after
		from auth.sessions where id = $1`,
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
		`insert into auth.refresh_tokens (token, user_id, session_id, parent, created_at, updated_at)
		values ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz)`,
		[token.hash, token.userId, token.sessionId, token.parent, token.now],
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
