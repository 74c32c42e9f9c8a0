// Runs on: PGlite — it reads an embedded database of its own, whatever the suite runs on.
import { readFile } from 'node:fs/promises';
import { beforeAll, expect, it } from 'vitest';
import { databaseTypesText, TYPES_FILE } from '../../scripts/db/type-generator.ts';
import { withMigratedDatabase } from '../../scripts/db/migrated-database.ts';
import { dumpSchema, SCHEMA_FILE, schemaFileText } from '../../scripts/db/schema-dump.ts';

// The checked-in schema and types are what the migrations make: a fresh embedded database, a
// copy of the migrated template, which the same migrations made from scratch (not the suite's
// stack, which may be Postgres and holds test data).

let made: { schema: string; types: string };

/** Where a checked-in file first differs from what was made, for the failure's message. */
function firstDifference(checkedIn: string, expected: string): string {
	const a = checkedIn.split('\n');
	const b = expected.split('\n');
	const line = a.findIndex((text, i) => text !== b[i]);
	const at = line === -1 ? a.length : line;
	return `line ${at + 1}: has ${JSON.stringify(a[at] ?? '(end)')}, made ${JSON.stringify(b[at] ?? '(end)')}`;
}

beforeAll(async () => {
	made = await withMigratedDatabase(async (client) => ({
		schema: schemaFileText(await dumpSchema(client)),
		types: await databaseTypesText(client),
	}));
});

it('supabase/schema.sql is the schema the migrations make (else: npm run db:schema)', async () => {
	const checkedIn = await readFile(SCHEMA_FILE, 'utf8');
	expect(
		checkedIn === made.schema,
		`${SCHEMA_FILE} is stale (${firstDifference(checkedIn, made.schema)}): run npm run db:schema`,
	).toBe(true);
});

it('src/lib/database.types.ts are the types of that schema (else: npm run db:types)', async () => {
	const checkedIn = await readFile(TYPES_FILE, 'utf8');
	expect(
		checkedIn === made.types,
		`${TYPES_FILE} is stale (${firstDifference(checkedIn, made.types)}): run npm run db:types`,
	).toBe(true);
});
