import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../supabase/migrations');
/** What Supabase provides before a project's migrations run (roles, auth, storage). */
export const PLATFORM_FILES = ['roles.sql', 'auth.sql', 'storage.sql'].map((f) =>
	join(import.meta.dirname, 'platform', f),
);

export interface MigrationResult {
	applied: string[];
	skipped: number;
}

/**
 * The rights the stack needs of DATABASE_URL's user: a superuser on plain PostgreSQL (the stack
 * creates Supabase's roles and its auth and storage schemas there, and sets PostgREST's
 * pre-request check on the authenticator role), or a Supabase database's own `postgres` role
 * (everything of the platform's is there already; supautils lets it set `pgrst.*`).
 */
async function checkDatabaseRights(client: pg.Client): Promise<void> {
	const { rows } = await client.query<{ user: string; superuser: boolean; supabase: boolean }>(
		`select current_user as user, r.rolsuper as superuser,
			exists (select 1 from pg_roles where rolname = 'supabase_admin') as supabase
		from pg_roles r where r.rolname = current_user`,
	);
	const me = rows[0]!;
	if (me.superuser || (me.supabase && me.user === 'postgres')) return;
	throw new Error(
		`The database user "${me.user}" may not set the database up: use a superuser on plain ` +
			'PostgreSQL, or the postgres role on a Supabase database (docs/local-stack.md, Postgres mode).',
	);
}

/**
 * The schema starts from the baseline files (`*_baseline_*.sql`, the earliest). A database that
 * recorded migrations but none of them was migrated by the files the baseline replaced: applying
 * the baseline on top would fail on its first table, so say what to do instead.
 */
function refuseHistoryBeforeBaseline(files: string[], done: Set<string>): void {
	const baseline = files.filter((f) => /^\d+_baseline_/.test(f)).map((f) => f.split('_')[0]!);
	if (done.size === 0 || baseline.length === 0 || baseline.some((v) => done.has(v))) return;
	throw new Error(
		'This database was migrated before the schema was squashed into its baseline ' +
			"(supabase/migrations/*_baseline_*.sql), so its migrations are not this checkout's. " +
			'Start from an empty database: stop the stack and delete its data folder ' +
			'(CHAMBER_DATA_DIR, .data by default), or point DATABASE_URL at a new database ' +
			'(docs/operations.md#start-again-from-nothing).',
	);
}

/**
 * Applies supabase/migrations in order, each in its own transaction, recording them in the
 * table the Supabase CLI uses, so `supabase db push` and this runner agree on what is applied.
 */
export async function runMigrations(databaseUrl: string): Promise<MigrationResult> {
	const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
	const client = new pg.Client({ connectionString: databaseUrl });
	await client.connect();
	try {
		await checkDatabaseRights(client);
		// The platform's part: each object only where it is missing, so on a Supabase-shaped
		// database (postgres mode against one) nothing is created or altered.
		for (const file of PLATFORM_FILES) await client.query(await readFile(file, 'utf8'));
		await client.query(`
			create schema if not exists supabase_migrations;
			create table if not exists supabase_migrations.schema_migrations (
				version text primary key,
				statements text[],
				name text
			);
		`);
		const { rows } = await client.query<{ version: string }>(
			'select version from supabase_migrations.schema_migrations',
		);
		const done = new Set(rows.map((r) => r.version));
		refuseHistoryBeforeBaseline(files, done);
		const applied: string[] = [];
		for (const file of files) {
			const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
			if (!version || done.has(version)) continue;
			const sql = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
			try {
				await client.query('begin');
				await client.query(sql);
				await client.query(
					'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
					[version, rest.join('_'), [sql]],
				);
				await client.query('commit');
			} catch (error) {
				await client.query('rollback').catch(() => {});
				throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
			}
			applied.push(file);
		}
		return { applied, skipped: files.length - applied.length };
	} finally {
		await client.end();
	}
}
