import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import checkConfig from '../../astro.check.config.mjs';
import siteConfig from '../../astro.config.mjs';

// The type check runs beside the end-to-end suite's builds. Loading a configuration with the
// Netlify adapter empties .netlify/build, where a running build keeps its prerender chunks, so the
// check's configuration is the site's without the adapter, and `npm run typecheck` uses it.
describe("the type check's Astro configuration", () => {
	it("is the site's own without the Netlify adapter", () => {
		expect(siteConfig.adapter?.name).toBe('@astrojs/netlify');
		expect(checkConfig.adapter).toBeUndefined();
		const { adapter: _site, ...site } = siteConfig;
		const { adapter: _check, ...check } = checkConfig;
		expect(check).toEqual(site);
	});

	it('is the one `npm run typecheck` loads', async () => {
		const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(scripts.typecheck).toMatch(/^astro check --config astro\.check\.config\.mjs\b/);
	});
});
