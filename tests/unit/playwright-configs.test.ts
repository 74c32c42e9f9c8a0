import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface Suite {
	file: string;
	suites?: Suite[];
	specs?: Array<{ title: string; tags: string[]; tests: Array<{ projectName: string }> }>;
}

/** What a Playwright config would run, as `playwright test --list` reports it. */
async function listed(config: string): Promise<Suite[]> {
	const { stdout } = await promisify(execFile)(
		'npx',
		['playwright', 'test', '--config', config, '--list', '--reporter=json'],
		{ cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
	);
	return (JSON.parse(stdout) as { suites: Suite[] }).suites;
}

/** The files a Playwright config would run. */
async function listedFiles(config: string): Promise<string[]> {
	return [...new Set((await listed(config)).map((suite) => suite.file))].sort();
}

/** Each listed test as `file › title`, its project and its tags (the JSON report drops the @). */
function listedTests(suites: Suite[]): Array<{ name: string; project: string; tags: string[] }> {
	return suites.flatMap((suite) => [
		...(suite.specs ?? []).flatMap((spec) =>
			spec.tests.map((test) => ({
				name: `${suite.file} › ${spec.title}`,
				project: test.projectName,
				tags: spec.tags,
			})),
		),
		...listedTests((suite.suites ?? []).map((inner) => ({ ...inner, file: suite.file }))),
	]);
}

// Listing loads every spec file: seconds, more on a busy machine.
describe('the Playwright configs run what their stage is for', { timeout: 60_000 }, () => {
	it("the hosted stage's browser pass runs its own spec only, not the end-to-end suite", async () => {
		expect(await listedFiles('playwright.hosted.config.ts')).toEqual(['publish.spec.ts']);
	});

	it('each end-to-end test runs once: in the full browser when tagged @browser, else in the shell', async () => {
		const tests = listedTests(await listed('playwright.config.ts')).filter(
			(test) => test.project !== 'contract',
		);
		const browser = tests.filter((test) => test.project === 'browser');
		const shell = tests.filter((test) => test.project === 'chromium');
		expect(browser.length).toBeGreaterThan(0);
		expect(browser.every((test) => test.tags.includes('browser'))).toBe(true);
		expect(shell.some((test) => test.tags.includes('browser'))).toBe(false);
		expect(shell.length + browser.length).toBe(tests.length);
		const names = tests.map((test) => test.name);
		expect(new Set(names).size).toBe(names.length);
	});
});
