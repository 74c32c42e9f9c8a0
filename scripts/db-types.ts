/**
 * npm run db:types: writes src/lib/database.types.ts, the schema's types for supabase-js, from a
 * fresh embedded database migrated from scratch (scripts/lib/database-types.ts).
 */
import { writeFile } from 'node:fs/promises';
import { databaseTypesText, TYPES_FILE } from './lib/database-types.ts';
import { runMain } from './lib/main.ts';
import { withMigratedDatabase } from './lib/migrated-database.ts';

runMain(async () => {
	await writeFile(TYPES_FILE, await withMigratedDatabase(databaseTypesText));
	console.log(`wrote ${TYPES_FILE}`);
});
