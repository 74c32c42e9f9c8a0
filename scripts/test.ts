/**
 * npm test: what CI runs first. The browser the end-to-end tests drive is looked for before
 * anything runs. Then two lanes side by side: the database suite (PGlite works one statement at a
 * time, so it keeps one core busy), and on the other core the type check, the unit tests and, once
 * both passed, the end-to-end suite, which then shares the machine with what is left of the
 * database suite. A failing step stops its own lane; the command fails once both have ended.
 * One lane's output comes as it runs; a step of the other lane comes whole when it ends, between
 * two lines, or live once the first lane is done.
 *
 * With CI_RESULTS_DIR set (`.ci/run`), each step's time goes to its steps.jsonl and each test
 * file's to vitest-unit.json, vitest-db.json and e2e-report.json, for scripts/ci-summary.ts.
 */
import { access, constants, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from './lib/main.ts';
import { FULL_BROWSER_PATH, HEADLESS_SHELL_PATH } from '../tests/e2e/full-browser.ts';
import { heading, runPlan } from './lib/test-runner.ts';

const ROOT = join(import.meta.dirname, '..');
const results = process.env.CI_RESULTS_DIR;

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
				[{ name: 'npm run test:db', command: 'npm run --silent test:db', env: timings('db') }],
				[
					{ name: 'npm run typecheck', command: 'npm run --silent typecheck' },
					{
						name: 'npm run test:unit',
						command: 'npm run --silent test:unit',
						env: timings('unit'),
					},
					{ name: 'npm run test:e2e', command: 'npm run --silent test:e2e' },
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
