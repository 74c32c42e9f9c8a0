import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { NodeFileTraceOptions, NodeFileTraceResult } from '@vercel/nft';
import { z } from 'zod';

/** The @vercel/nft the adapter itself depends on. */
const nft = createRequire(import.meta.resolve('@astrojs/netlify/package.json'))(
	'@vercel/nft',
) as typeof import('@vercel/nft');

/**
 * The Netlify adapter's file trace of the SSR function, reused by local publishes whose code did
 * not change. The adapter traces the function's entry (.netlify/build/entry.mjs) through every
 * import into node_modules (@vercel/nft) and copies what it finds into the function's folder: a
 * third of a build's CPU time, and the same answer for every build of the same code. A local build
 * (scripts/lib/site.ts) loads trace-reuse-preload.ts, which hands the adapter this module instead of
 * @vercel/nft; the adapter then copies the recorded files as it copies the traced ones, so the
 * function is the one a fresh trace would make. Netlify's own builds never load it.
 *
 * A recorded trace is used only when everything it was traced from is as it was: the code's
 * fingerprint (codeFingerprint: the site's code, its files and package-lock.json), the names of the
 * built entry's modules (content-hashed by the bundler: a changed import renames its module), and
 * every file of the trace still there. Anything else is traced afresh and recorded.
 */

/** Set by the local publisher's builds: where traces are recorded, and the code's fingerprint. */
export const TRACE_CACHE_ENV = 'CHAMBER_TRACE_CACHE_DIR';
export const FINGERPRINT_ENV = 'CHAMBER_CODE_FINGERPRINT';

const recordSchema = z.object({
	fingerprint: z.string(),
	/** The built modules beside the entry (relative to the trace's base), sorted. */
	modules: z.array(z.string()),
	/** The trace: every file the function needs, relative to the trace's base. */
	fileList: z.array(z.string()),
});
type TraceRecord = z.output<typeof recordSchema>;

/** The bundler's modules of a built entry: .mjs files beside it and in its chunks folder. */
async function builtModules(entry: string, base: string): Promise<string[]> {
	const dir = dirname(entry);
	const found: string[] = [];
	for (const folder of [dir, join(dir, 'chunks')]) {
		for (const name of await readdir(folder).catch(() => [] as string[])) {
			if (name.endsWith('.mjs'))
				found.push(relative(base, join(folder, name)).split(sep).join('/'));
		}
	}
	return found.sort();
}

async function readRecord(file: string): Promise<TraceRecord | null> {
	const text = await readFile(file, 'utf8').catch(() => null);
	if (text === null) return null;
	const parsed = recordSchema.safeParse(JSON.parse(text));
	return parsed.success ? parsed.data : null;
}

async function allExist(base: string, files: readonly string[]): Promise<boolean> {
	for (const file of files) {
		if (!(await stat(join(base, file)).catch(() => null))) return false;
	}
	return true;
}

/**
 * @vercel/nft's nodeFileTrace for one entry, answered from the recorded trace of the same code
 * where there is one (see above); otherwise traced and recorded. Without the environment of a
 * local build, or for anything but one entry, it is nodeFileTrace itself.
 */
export async function nodeFileTrace(
	files: string[],
	options: NodeFileTraceOptions = {},
): Promise<NodeFileTraceResult> {
	const cacheDir = process.env[TRACE_CACHE_ENV];
	const fingerprint = process.env[FINGERPRINT_ENV];
	const base = options.base ?? process.cwd();
	if (!cacheDir || !fingerprint || files.length !== 1) return nft.nodeFileTrace(files, options);
	const recordFile = join(cacheDir, 'ssr-trace.json');
	const modules = await builtModules(files[0]!, base);
	const kept = await readRecord(recordFile);
	if (
		kept &&
		kept.fingerprint === fingerprint &&
		kept.modules.join('\n') === modules.join('\n') &&
		(await allExist(base, kept.fileList))
	) {
		console.log(`[trace-reuse] the function's files as traced for code ${fingerprint}`);
		return {
			fileList: new Set(kept.fileList),
			esmFileList: new Set(),
			reasons: new Map(),
			warnings: new Set(),
		};
	}
	const result = await nft.nodeFileTrace(files, options);
	const record: TraceRecord = { fingerprint, modules, fileList: [...result.fileList].sort() };
	await mkdir(cacheDir, { recursive: true });
	// Written beside and renamed over: a build stopped halfway leaves the old record or the new.
	const temporary = `${recordFile}.${process.pid}.tmp`;
	await writeFile(temporary, JSON.stringify(record));
	await rename(temporary, recordFile);
	return result;
}

export const resolve = nft.resolve;
