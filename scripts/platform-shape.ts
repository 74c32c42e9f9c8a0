/**
 * node scripts/platform-shape.ts POSTGRES_URL
 * Writes scripts/stack/platform/hosted-shape.json from a hosted-shaped database (or a Supabase
 * project's database): the shape the local stack's auth and storage tables must keep
 * (tests/db/platform-shape.test.ts). Run it when Supabase's own schema moves on.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { runMain } from './lib/main.ts';
import { readPlatformShape } from './stack/platform/shape.ts';

runMain(async () => {
	const url = process.argv[2];
	if (!url) throw new Error('Usage: node scripts/platform-shape.ts POSTGRES_URL');
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		const shape = await readPlatformShape(client);
		const file = join(import.meta.dirname, 'stack/platform/hosted-shape.json');
		await writeFile(file, `${JSON.stringify(shape, null, 2)}\n`);
		console.log(`Wrote ${file}`);
	} finally {
		await client.end();
	}
});
