import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openEmbeddedDatabase } from '../stack/database.ts';
import { runMigrations } from '../stack/migrate.ts';
import { startFromMigratedTemplate } from '../stack/template.ts';
import { freePort } from '../lib/free-port.ts';

/**
 * Runs `use` against a fresh embedded database with every migration applied, then removes it:
 * what supabase/schema.sql and the generated types are made from, the same whatever
 * database or data folder the caller otherwise uses. It is a copy of the migrated template
 * (scripts/stack/template.ts), made from scratch by the same migrations when there is none.
 */
export async function withMigratedDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
	const dir = await mkdtemp(join(tmpdir(), 'chamber-schema-'));
	try {
		await startFromMigratedTemplate(dir);
		// The stack's defaults: the schema does not depend on them.
		const database = await openEmbeddedDatabase(dir, await freePort(), {
			idleInTransactionMs: 10_000,
			sharedBuffers: '32MB',
		});
		try {
			// Applies none: a migration the template lacks would mean a template of other files.
			await runMigrations(database.url);
			const client = new pg.Client({ connectionString: database.url });
			await client.connect();
			try {
				return await use(client);
			} finally {
				await client.end();
			}
		} finally {
			await database.close();
		}
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}
