import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Code and docs cite sections as `docs/behaviour.md#search`; a heading renamed without its
 * citations would leave them pointing nowhere. Anchors are GitHub's: the heading in lower case,
 * punctuation dropped, spaces as hyphens.
 */

const ROOT = resolve(import.meta.dirname, '../..');

function anchors(file: string): Set<string> {
	const headings = readFileSync(resolve(ROOT, file), 'utf8').match(/^#+ .*$/gm) ?? [];
	return new Set(
		headings.map((h) =>
			h
				.replace(/^#+ /, '')
				.trim()
				.toLowerCase()
				.replace(/[`*]/g, '')
				.replace(/[^\w\- ]/g, '')
				.replaceAll(' ', '-'),
		),
	);
}

it('every docs/…md#section cited in the code, the tests and the docs exists', () => {
	const cited = execFileSync('git', ['grep', '-ohE', String.raw`docs/[a-z-]+\.md#[a-z0-9-]+`], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter(Boolean);
	expect(cited.length).toBeGreaterThan(0);
	const missing = [...new Set(cited)].filter((citation) => {
		const [file, anchor] = citation.split('#') as [string, string];
		return !existsSync(resolve(ROOT, file)) || !anchors(file).has(anchor);
	});
	expect(missing).toEqual([]);
});
