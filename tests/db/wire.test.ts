// Runs on: PGlite — the embedded stack's wire server is the subject: large answers reach a client
// whole.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from './clients.ts';

// Answers of several megabytes through the wire server, as the map's points of a large chamber
// are: the client must get every byte as PGlite wrote it, however slowly it reads. A chunk the
// socket could not send at once used to be overwritten by PGlite's next one: an answer of varied
// bytes then arrived garbled, and the client waited for ever.

beforeAll(() => db.connect());
afterAll(() => db.end());

it('answers megabytes of varied text whole, as one value and as many rows', async () => {
	const { rows } = await db.query<{ text: string; md5: string }>(
		`select string_agg(md5(g::text), '' order by g) as text,
			md5(string_agg(md5(g::text), '' order by g)) as md5
		from generate_series(1, 200000) g`,
	);
	const [row] = rows;
	expect(row!.text).toHaveLength(6_400_000);
	expect(createHash('md5').update(row!.text).digest('hex')).toBe(row!.md5);

	const many = await db.query<{ line: string }>(
		`select md5(g::text) || repeat(chr(65 + g % 26), 40) as line from generate_series(1, 100000) g order by g`,
	);
	expect(many.rows).toHaveLength(100_000);
	expect(many.rows[99_999]!.line).toBe(
		`${createHash('md5').update('100000').digest('hex')}${String.fromCharCode(65 + (100000 % 26)).repeat(40)}`,
	);
	// The same client goes on: the next answer starts where this one ended.
	expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
});
