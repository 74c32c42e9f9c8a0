/**
 * npm run ci:summary: where a CI run's minutes went, read from its results folder
 * (CI_RESULTS_DIR, `.ci/results` by default, which `.ci/run` fills and ends by printing this):
 * each step of `.ci/run` and of the commands it runs, with when it started, its wall and CPU
 * time; then each suite's slowest test files and tests; last, the tests that failed or passed
 * only on a retry.
 *
 * --readme also writes the run's digest to .ci/last-run.json and the README's test table from
 * it (the 'Takes' column and the line under it); tests/unit/ci-summary.test.ts keeps the two in
 * step. Commit both after a clean-clone run.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import prettier from 'prettier';
import type { FileTimings } from '../tests/support/timings-reporter.ts';
import {
	digest,
	outcomes,
	parseSteps,
	playwrightFiles,
	readmeWithTimes,
	slowest,
	stepsTable,
	type RunResults,
} from './ci/summary.ts';
import { runMain } from './lib/main.ts';

const ROOT = join(import.meta.dirname, '..');
const DIGEST = join(ROOT, '.ci/last-run.json');
const README = join(ROOT, 'README.md');

const readText = (path: string) => readFile(path, 'utf8').catch(() => null);

async function readResults(dir: string): Promise<RunResults> {
	const files: Record<string, FileTimings[]> = {};
	for (const name of (await readdir(dir).catch(() => [])).sort()) {
		const match = /^vitest-(.+)\.json$/.exec(name);
		if (match) {
			files[match[1]!] = (
				JSON.parse((await readText(join(dir, name)))!) as { files: FileTimings[] }
			).files;
		}
	}
	for (const [suite, file] of [
		['e2e', 'e2e-report.json'],
		['hosted-e2e', 'hosted-e2e-report.json'],
	] as const) {
		const report = await readText(join(dir, file));
		if (report) files[suite] = playwrightFiles(JSON.parse(report));
	}
	return { steps: parseSteps((await readText(join(dir, 'steps.jsonl'))) ?? ''), files };
}

runMain(async () => {
	const { values } = parseArgs({ options: { readme: { type: 'boolean' } } });
	const dir = process.env.CI_RESULTS_DIR || join(ROOT, '.ci/results');
	const results = await readResults(dir);
	const run = digest(results);
	if (!run) throw new Error(`No steps were recorded in ${dir}/steps.jsonl: run .ci/run first`);
	console.log(`\n${stepsTable(run)}\n`);
	console.log(`${slowest(results.files)}\n`);
	if (!('e2e' in results.files)) {
		console.log(`(No end-to-end report in ${dir}/e2e-report.json: its files are not listed.)\n`);
	}
	console.log(`${outcomes(results.files)}\n`);
	if (values.readme) {
		const formatted = async (text: string, path: string) =>
			prettier.format(text, { ...(await prettier.resolveConfig(path)), filepath: path });
		await writeFile(DIGEST, await formatted(JSON.stringify(run), DIGEST));
		const readme = readmeWithTimes(await readFile(README, 'utf8'), run);
		await writeFile(README, await formatted(readme, README));
		console.log("Wrote .ci/last-run.json and the README's test table: commit both.");
	}
});
