import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Lighthouse and chrome-launcher, which only `npm run bench:pages` uses, live in tools/bench with
 * their own lockfile, outside the install CI needs (about 200 packages). They are loaded from
 * there by path; the types below are the few parts of them the benchmark uses.
 */
const TOOLS = join(import.meta.dirname, '../../tools/bench');

interface LighthouseResult {
	lhr: {
		runtimeError?: { message: string };
		environment: { benchmarkIndex: number };
		categories: Record<string, { score: number | null } | undefined>;
		audits: Record<string, { displayValue?: string } | undefined>;
	};
}

export type Lighthouse = (
	url: string,
	flags: { port: number; output: 'json'; logLevel: 'error'; onlyCategories: string[] },
	config: { extends: 'lighthouse:default'; settings: { throttling: object } },
) => Promise<LighthouseResult | undefined>;

export interface ChromeLauncher {
	launch(options: {
		chromePath: string;
		chromeFlags: string[];
	}): Promise<{ port: number; kill(): void | Promise<void> }>;
}

/** A module of tools/bench, or an error saying how to install them. */
export async function loadBenchTool<T>(specifier: string): Promise<T> {
	let path: string;
	try {
		path = createRequire(join(TOOLS, 'package.json')).resolve(specifier);
	} catch {
		throw new Error(
			`${specifier} is not installed: the benchmarks' own tools live in tools/bench, outside the ` +
				'site’s dependencies. Install them with `npm install --prefix tools/bench`.',
		);
	}
	return (await import(pathToFileURL(path).href)) as T;
}
