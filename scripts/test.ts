/**
 * npm test: what CI runs first. The browser the end-to-end tests drive is looked for before
 * anything runs. Then three lanes side by side: the end-to-end suite, the longest, from the start;
 * beside it, at a lower priority so that they take only the processor time it leaves, the type
 * check then the unit tests, and the database suite. A failing step stops its own lane; the
 * command fails once all have ended. The end-to-end suite's output comes as it runs; each step of
 * the other lanes comes whole when it ends, between two of its lines.
 *
 * With CI_RESULTS_DIR set (`.ci/run`), each step's time goes to its steps.jsonl and each test
 * file's to vitest-unit.json, vitest-db.json and e2e-report.json, for scripts/ci-summary.ts.
 */
import { access, constants, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from './lib/main.ts';
import { FULL_BROWSER_PATH, HEADLESS_SHELL_PATH } from '../tests/e2e/full-browser.ts';
import { heading, runPlan } from './ci/test-runner.ts';

const ROOT = join(import.meta.dirname, '..');
const results = process.env.CI_RESULTS_DIR;

/**
 * The lane beside the end-to-end suite runs at a lower priority: the browser suite keeps about one
 * core and a half busy and waits for builds and pages in between, and what it leaves is enough for
 * the rest; at the same priority the rest would slow it, and it is the longest.
 */
const BESIDE = 'nice -n 5';

/** Whether `path` is a program this user may run. */
const runnable = (path: string) =>
	access(path, constants.X_OK).then(
		() => true,
		() => false,
	);

/**
 * The browsers the end-to-end tests drive, where playwright.config.ts looks for them: Chromium
 * (required), and its headless shell, without which every test runs in the full browser.
 */
async function checkBrowser(): Promise<void> {
	const path = FULL_BROWSER_PATH;
	if (!(await runnable(path))) {
		throw new Error(
			`The end-to-end tests drive Chromium, and there is none at ${path}: install Debian's ` +
				'(`apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable.',
		);
	}
	const shell = HEADLESS_SHELL_PATH;
	if (!(await runnable(shell))) {
		console.log(
			`No Chromium headless shell at ${shell}: every end-to-end test runs in the full browser, ` +
				'about half again as long (`apt-get install chromium-headless-shell`).',
		);
	}
}

/** The environment of a vitest run, writing its files' times where CI reads them. */
function timings(name: string): NodeJS.ProcessEnv {
	return results
		? { ...process.env, TEST_TIMINGS_FILE: join(results, `vitest-${name}.json`) }
		: process.env;
}

runMain(async () => {
	await checkBrowser();
	const records = await runPlan(
		{
			parent: 'npm test',
			lanes: [
				[{ name: 'npm run test:e2e', command: 'npm run --silent test:e2e' }],
				[
					{ name: 'npm run typecheck', command: `${BESIDE} npm run --silent typecheck` },
					{
						name: 'npm run test:unit',
						command: `${BESIDE} npm run --silent test:unit`,
						env: timings('unit'),
					},
				],
				[
					{
						name: 'npm run test:db',
						command: `${BESIDE} npm run --silent test:db`,
						env: timings('db'),
					},
				],
			],
		},
		(text) => process.stdout.write(text),
	);
	if (results) {
		// The end-to-end suite's report (playwright.config.ts), kept before another run replaces it.
		await copyFile(
			join(ROOT, 'test-results/e2e-report.json'),
			join(results, 'e2e-report.json'),
		).catch(() => {});
	}
	console.log(`\n${records.map((r) => `  ${heading(r)}`).join('\n')}`);
	const failed = records.filter((r) => r.code !== 0);
	if (failed.length > 0) throw new Error(`${failed.map((r) => r.name).join(', ')} failed`);
});
