import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FINGERPRINT_ENV, nodeFileTrace, TRACE_CACHE_ENV } from './trace-reuse.ts';

// The adapter's trace reused for unchanged code: the same files as a fresh trace of the same
// build, and a fresh trace whenever the code, the built modules or the traced files changed.

/** The @vercel/nft the adapter uses (and trace-reuse.ts calls). */
const nft = createRequire(import.meta.resolve('@astrojs/netlify/package.json'))(
	'@vercel/nft',
) as typeof import('@vercel/nft');

let base: string;
let entry: string;

/** A built function as the adapter finds it: an entry, a chunk, a package with a file of its own. */
async function makeBuild(chunk = 'page_Abc123.mjs'): Promise<void> {
	await mkdir(join(base, 'build/chunks'), { recursive: true });
	await mkdir(join(base, 'node_modules/greeting/lib'), { recursive: true });
	await writeFile(
		join(base, 'node_modules/greeting/package.json'),
		JSON.stringify({ name: 'greeting', main: 'index.js' }),
	);
	await writeFile(
		join(base, 'node_modules/greeting/index.js'),
		"module.exports = require('./lib/words.js');",
	);
	await writeFile(join(base, 'node_modules/greeting/lib/words.js'), "module.exports = 'hello';");
	await writeFile(
		join(base, `build/chunks/${chunk}`),
		"import words from 'greeting';\nexport default words;",
	);
	await writeFile(entry, `export { default } from './chunks/${chunk}';`);
}

const fresh = async () => [...(await nft.nodeFileTrace([entry], { base })).fileList].sort();
const traced = async () => [...(await nodeFileTrace([entry], { base })).fileList].sort();

beforeEach(async () => {
	base = await mkdtemp(join(tmpdir(), 'chamber-trace-reuse-'));
	entry = join(base, 'build/entry.mjs');
	await makeBuild();
	vi.stubEnv(TRACE_CACHE_ENV, join(base, 'traces'));
	vi.stubEnv(FINGERPRINT_ENV, 'code-1');
});

afterEach(async () => {
	vi.unstubAllEnvs();
	vi.restoreAllMocks();
	await rm(base, { recursive: true, force: true });
});

describe("the function's trace", () => {
	it('is reused for the same code, and is the file list a fresh trace makes', async () => {
		const first = await traced();
		expect(first).toEqual(await fresh());
		expect(first).toContain('node_modules/greeting/lib/words.js');
		const trace = vi.spyOn(nft, 'nodeFileTrace');
		expect(await traced()).toEqual(first);
		expect(trace).not.toHaveBeenCalled();
	});

	it('is traced afresh when the code changed (another fingerprint)', async () => {
		await traced();
		vi.stubEnv(FINGERPRINT_ENV, 'code-2');
		const trace = vi.spyOn(nft, 'nodeFileTrace');
		expect(await traced()).toEqual(await fresh());
		expect(trace).toHaveBeenCalledTimes(2);
		const record = JSON.parse(await readFile(join(base, 'traces/ssr-trace.json'), 'utf8'));
		expect(record.fingerprint).toBe('code-2');
	});

	it('is traced afresh when the built modules are others (a changed import renames its module)', async () => {
		await traced();
		await rm(join(base, 'build/chunks/page_Abc123.mjs'));
		await makeBuild('page_Def456.mjs');
		const trace = vi.spyOn(nft, 'nodeFileTrace');
		const again = await traced();
		expect(trace).toHaveBeenCalledTimes(1);
		expect(again).toContain('build/chunks/page_Def456.mjs');
		expect(again).not.toContain('build/chunks/page_Abc123.mjs');
	});

	it('is traced afresh when a file it lists is gone', async () => {
		await traced();
		await rename(join(base, 'node_modules/greeting/lib'), join(base, 'node_modules/greeting/gone'));
		const trace = vi.spyOn(nft, 'nodeFileTrace');
		expect(await traced()).not.toContain('node_modules/greeting/lib/words.js');
		expect(trace).toHaveBeenCalledTimes(1);
	});

	it('is always traced outside a local build (no fingerprint in the environment)', async () => {
		vi.stubEnv(FINGERPRINT_ENV, '');
		await traced();
		const trace = vi.spyOn(nft, 'nodeFileTrace');
		await traced();
		expect(trace).toHaveBeenCalledTimes(1);
	});
});
