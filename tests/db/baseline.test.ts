// Runs on: PGlite — it opens an embedded database of its own, whatever the suite runs on.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../scripts/stack/database.ts';
import { runMigrations } from '../../scripts/stack/migrate.ts';
import { freePort } from '../support/db-clients.ts';

// A database whose recorded migrations are the ones the baseline replaced (a data folder made by
// an older checkout) is refused before anything runs, with what to do, not with the baseline's
// first "already exists". A fresh embedded database of its own: the suite's stack is migrated.

let dir: string;
let database: EmbeddedDatabase;

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'chamber-baseline-'));
	database = await openEmbeddedDatabase(dir, await freePort(), {
		idleInTransactionMs: 10_000,
		sharedBuffers: '32MB',
	});
});

afterAll(async () => {
	await database?.close();
	await rm(dir, { recursive: true, force: true });
});

it('refuses a database migrated before the baseline, saying to start from an empty one', async () => {
	const client = new pg.Client({ connectionString: database.url });
	await client.connect();
	try {
		await client.query(`
			create schema supabase_migrations;
			create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
			insert into supabase_migrations.schema_migrations (version, name)
				values ('20261122000000', 'bootstrap'), ('20261122000001', 'tenants');
		`);
		await expect(runMigrations(database.url)).rejects.toThrow(
			/migrated before the schema was squashed into its baseline[^]*delete its data folder/,
		);
		const { rows } = await client.query<{ n: number }>(
			"select count(*)::int as n from pg_tables where schemaname = 'public'",
		);
		expect(rows[0]!.n).toBe(0);
	} finally {
		await client.end();
	}
});
