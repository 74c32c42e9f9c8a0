import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../supabase/migrations');

export interface MigrationResult {
	applied: string[];
	skipped: number;
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
