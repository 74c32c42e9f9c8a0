import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOCIAL_NETWORKS } from '../business/business.ts';
import { CATEGORY_ICONS } from '../categories/categories.ts';
import { iconSvg } from './icons.server.ts';
import { expectNoFileReads } from './imports.test-helpers.ts';

/** The icon names the pages' markup gives literally (<Icon name="…" />). */
async function literalIconNames(): Promise<string[]> {
	const src = join(import.meta.dirname, '../..');
	const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.astro'));
	const names = new Set<string>();
	for (const file of files) {
		const source = await readFile(join(src, file), 'utf8');
		for (const match of source.matchAll(/<Icon\s+name="([^"]+)"/g)) names.add(match[1]!);
	}
	return [...names];
}

describe('iconSvg', () => {
	it('draws a Tabler outline icon, hidden from assistive technology unless named', async () => {
		const decorative = await iconSvg('phone', { size: 18 });
		expect(decorative).toMatch(/^<svg [^>]*width="18" height="18"[^>]*aria-hidden="true"/);
		expect(decorative).toContain('<path');
		// Tabler's invisible bounding box is left out.
		expect(decorative).not.toContain('M0 0h24v24H0z');

		const named = await iconSvg('brand-facebook', { label: 'Demo "Chamber" on Facebook' });
		expect(named).toContain('role="img" aria-label="Demo &quot;Chamber&quot; on Facebook"');
		expect(named).not.toContain('aria-hidden');
	});

	it('fails the build for a name that is not an icon', async () => {
		await expect(iconSvg('no-such-icon-anywhere')).rejects.toThrow(/Unknown icon/);
		await expect(iconSvg('../../package')).rejects.toThrow(/Unknown icon/);
	});

	it('draws every icon a category, a social network or a page can ask for', async () => {
		const literal = await literalIconNames();
		expect(literal).toContain('chevron-down');
		const names = new Set([
			...Object.values(CATEGORY_ICONS),
			...SOCIAL_NETWORKS.map((network) => `brand-${network}`),
			...literal,
		]);
		for (const name of names) {
			expect(await iconSvg(name), name).toMatch(/^<svg [^>]*>.*<(path|circle|rect)\b.*<\/svg>$/);
		}
	});

	// Header and footer icons are drawn on the on-demand event page too, in Netlify's function
	// bundle.
	it('reads no file when a page renders', () =>
		expectNoFileReads(new URL('./icons.server.ts', import.meta.url), '@tabler/icons'));
});
