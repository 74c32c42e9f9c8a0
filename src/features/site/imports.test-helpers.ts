import { builtinModules } from 'node:module';
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';

/**
 * Fails when a module could read files when it runs: an import of a Node built-in (node:fs …),
 * require or createRequire, readFile, import.meta.resolve. Files of the `assets` package must come
 * in as `?url` or `?raw` imports, which the build resolves. Pages rendered on demand run in
 * Netlify's function bundle, which holds only the packages the adapter traced, so what a page
 * renders must not read package files at run time.
 */
export async function expectNoFileReads(module: URL, assets: string): Promise<void> {
	const source = await readFile(module, 'utf8');
	const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map(
		(m) => m[1]!,
	);
	expect(specifiers.length).toBeGreaterThan(0);
	const builtins = new Set(builtinModules);
	for (const specifier of specifiers) {
		expect(specifier.startsWith('node:') || builtins.has(specifier), specifier).toBe(false);
		if (specifier.startsWith(assets)) expect(specifier, specifier).toMatch(/\?(url|raw)$/);
	}
	expect(source).not.toMatch(/\brequire\s*\(|createRequire|readFile|import\.meta\.resolve/);
}
