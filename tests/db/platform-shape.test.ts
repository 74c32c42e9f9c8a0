// Runs on: both — on PGlite the stack's stand-in tables must have the recorded hosted shape; on
// the hosted shape the record must still be that shape.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from './clients.ts';
import { readPlatformShape, type PlatformShape } from '../../scripts/stack/platform/shape.ts';

// The auth and storage tables are Supabase's. Locally the stack creates them itself
// (scripts/stack/platform/); on a hosted project they are GoTrue's and Storage's own. Whichever
// database this suite runs on, its tables must have the shape read from a hosted-shaped database
// (scripts/platform-shape.ts wrote it): a column, default, index or constraint the services rely
// on cannot differ between the stand-in and the real thing.

beforeAll(() => db.connect());
afterAll(() => db.end());

describe("the platform's auth and storage tables", () => {
	it('have the hosted shape, column by column', async () => {
		const hosted = JSON.parse(
			await readFile('scripts/stack/platform/hosted-shape.json', 'utf8'),
		) as PlatformShape;
		const here = await readPlatformShape(db);
		for (const [table, shape] of Object.entries(hosted.tables)) {
			expect(here.tables[table]?.columns, `${table} columns`).toEqual(shape.columns);
			expect(here.tables[table]?.indexes, `${table} indexes`).toEqual(shape.indexes);
			expect(here.tables[table]?.constraints, `${table} constraints`).toEqual(shape.constraints);
			expect(here.tables[table]?.triggers, `${table} triggers`).toEqual(shape.triggers);
		}
		expect(here.enums).toEqual(hosted.enums);
	});
});
