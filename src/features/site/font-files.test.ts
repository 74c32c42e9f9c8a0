import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FONT_CHOICES } from '../config/config.ts';
import { FONT_FILES, UNICODE_RANGES } from './font-files.ts';

// The hand-written table of font files against the fontsource packages themselves. Under vitest
// a `?url` import is the file's path from the project root (/node_modules/…); a build turns the
// same imports into /_astro/ URLs.

const ROOT = join(import.meta.dirname, '../../..');
const WEIGHTS = [400, 500, 600, 700];

async function readJson<T>(path: string): Promise<T> {
	return JSON.parse(await readFile(path, 'utf8')) as T;
}

describe('FONT_FILES', () => {
	it('has every font of the configuration', () => {
		expect(Object.keys(FONT_FILES).sort()).toEqual([...FONT_CHOICES].sort());
	});

	it.each(FONT_CHOICES)(
		'%s: latin and latin-ext files of its package, for weights 400-700',
		async (font) => {
			const sets = FONT_FILES[font];
			const files = sets.flatMap((set) => [set.latin, set.latinExt]);
			const dir = dirname(dirname(join(ROOT, files[0]!)));
			const meta = await readJson<{ id: string; weights: number[]; variable: unknown }>(
				join(dir, 'metadata.json'),
			);
			const ranges = await readJson<Record<string, string>>(join(dir, 'unicode.json'));
			// A variable font covers 400-700 with one file; a static one needs a file per weight.
			const expected = meta.variable
				? [{ weight: '400 700', file: 'wght' }]
				: WEIGHTS.filter((w) => meta.weights.includes(w)).map((w) => ({
						weight: String(w),
						file: String(w),
					}));
			expect(
				sets.map((set) => ({
					weight: set.weight,
					latin: basename(set.latin),
					latinExt: basename(set.latinExt),
				})),
			).toEqual(
				expected.map(({ weight, file }) => ({
					weight,
					latin: `${meta.id}-latin-${file}-normal.woff2`,
					latinExt: `${meta.id}-latin-ext-${file}-normal.woff2`,
				})),
			);
			for (const file of files) {
				expect(dirname(join(ROOT, file)), file).toBe(join(dir, 'files'));
				expect((await stat(join(ROOT, file))).size, file).toBeGreaterThan(1000);
			}
			expect(UNICODE_RANGES).toEqual({ latin: ranges.latin, latinExt: ranges['latin-ext'] });
		},
	);
});
