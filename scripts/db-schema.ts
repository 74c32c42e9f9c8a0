/**
 * npm run db:schema: writes supabase/schema.sql, the schema after every migration, from a fresh
 * embedded database migrated from scratch (scripts/db/schema-dump.ts says what it holds).
 * `npm run db:schema -- --database-url URL` prints the same text for another database instead,
 * to compare the schema two sets of migrations make on one server.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runMain } from './lib/main.ts';
import { withMigratedDatabase } from './db/migrated-database.ts';
import { dumpSchema, SCHEMA_FILE, schemaFileText } from './db/schema-dump.ts';

runMain(async () => {
	const { values } = parseArgs({ options: { 'database-url': { type: 'string' } } });
	const url = values['database-url'];
	if (url) {
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		try {
			process.stdout.write(await dumpSchema(client));
		} finally {
			await client.end();
		}
		return;
	}
	const text = await withMigratedDatabase(async (client) =>
		schemaFileText(await dumpSchema(client)),
	);
	await writeFile(SCHEMA_FILE, text);
	console.log(`wrote ${SCHEMA_FILE}`);
});
