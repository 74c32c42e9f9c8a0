/**
 * npm run db:types: writes src/lib/database.types.ts, the schema's types for supabase-js, from a
 * fresh embedded database migrated from scratch (scripts/db/type-generator.ts).
 */
import { writeFile } from 'node:fs/promises';
import { databaseTypesText, TYPES_FILE } from './db/type-generator.ts';
import { runMain } from './lib/main.ts';
import { withMigratedDatabase } from './db/migrated-database.ts';

runMain(async () => {
	await writeFile(TYPES_FILE, await withMigratedDatabase(databaseTypesText));
	console.log(`wrote ${TYPES_FILE}`);
});
