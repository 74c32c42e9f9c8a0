import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** The files a Playwright config would run, as `playwright test --list` names them. */
async function listedFiles(config: string): Promise<string[]> {
	const { stdout } = await promisify(execFile)(
		'npx',
		['playwright', 'test', '--config', config, '--list', '--reporter=json'],
		{ cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
	);
	const report = JSON.parse(stdout) as { suites: Array<{ file: string }> };
	return [...new Set(report.suites.map((suite) => suite.file))].sort();
}

// Listing loads every spec file: seconds, more on a busy machine.
describe('the Playwright configs run what their stage is for', { timeout: 60_000 }, () => {
	it("the hosted stage's browser pass runs its own spec only, not the end-to-end suite", async () => {
		expect(await listedFiles('playwright.hosted.config.ts')).toEqual(['publish.spec.ts']);
	});
});
