// Runs on: hosted — the rules below are SQL functions, and the docs quote them: proved on the
// production shape.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from './clients.ts';

// Facts the database holds once, as a function the others call, and that the docs repeat in
// words: each doc sentence that quotes one is held to the database's value here.

const ROOT = join(import.meta.dirname, '../..');

/** README, CONTRIBUTING and docs/*.md, by name. */
function docs(): Array<[string, string]> {
	const names = [
		'README.md',
		'CONTRIBUTING.md',
		...readdirSync(join(ROOT, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => `docs/${name}`),
	];
	return names.map((name) => [name, readFileSync(join(ROOT, name), 'utf8')]);
}

beforeAll(() => db.connect());
afterAll(() => db.end());

describe('how long a silent publish lives', () => {
	it('is one value, and every doc that quotes it says the same', async () => {
		const { rows } = await db.query<{ minutes: number; words: string }>(
			`select extract(epoch from public.publish_silence_limit())::integer / 60 as minutes,
				public.publish_silence_limit_text() as words`,
		);
		const { minutes, words } = rows[0]!;
		expect(words).toBe(`${minutes} minutes`);
		// The ways the docs say it: a build that 'reports nothing', publishes 'silent', a
		// publish 'nothing heard'.
		const quote = /(?:reports nothing|silent|nothing heard) for\s+(\d+) minutes/g;
		const quoted = docs().flatMap(([name, text]) =>
			[...text.matchAll(quote)].map((m) => `${name}: ${m[1]} minutes`),
		);
		expect(quoted.length).toBeGreaterThanOrEqual(3);
		for (const line of quoted) expect(line).toMatch(new RegExp(`: ${minutes} minutes$`));
	});
});

describe('the parts of a listing editors and members change', () => {
	it('are its descriptions: a change passes when the listings without them are as before', async () => {
		const { rows } = await db.query<{ keys: string[]; rest: unknown }>(
			`select public.listing_text_keys() as keys,
				public.listings_without_texts($1) as rest`,
			[
				JSON.stringify([
					{ description: 'New', short_description: 'Short', keywords: 'k', categories: ['A'] },
					{ description: 'Second', active: true },
				]),
			],
		);
		expect(rows[0]!.keys).toEqual(['description', 'short_description']);
		expect(rows[0]!.rest).toEqual([{ keywords: 'k', categories: ['A'] }, { active: true }]);
		const empty = await db.query('select public.listings_without_texts(null) as rest');
		expect(empty.rows[0].rest).toEqual([]);
	});
});
