import { readFile } from 'node:fs/promises';
import prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import {
	digest,
	parseSteps,
	outcomes,
	playwrightFiles,
	readmeWithTimes,
	slowest,
	stepsTable,
	type RunDigest,
} from '../../scripts/ci/summary.ts';
import type { StepRecord } from '../../scripts/ci/steps.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 28, 6, 0, 0);

function step(name: string, parent: string, from: number, to: number, cpu = 30): StepRecord {
	return {
		name,
		parent,
		start: T0 + from * MINUTE,
		end: T0 + to * MINUTE,
		cpu,
		code: 0,
		load: [1, 2],
	};
}

describe("the README's test table", () => {
	it('is what `npm run ci:summary -- --readme` makes of .ci/last-run.json', async () => {
		const readme = await readFile('README.md', 'utf8');
		const run = JSON.parse(await readFile('.ci/last-run.json', 'utf8')) as RunDigest;
		const made = await prettier.format(readmeWithTimes(readme, run), {
			...(await prettier.resolveConfig('README.md')),
			filepath: 'README.md',
		});
		expect(made).toBe(readme);
	});

	it('has a row for a step only where .ci/run or npm test records one of that name', async () => {
		const readme = await readFile('README.md', 'utf8');
		const section = readme.slice(
			readme.indexOf('<!-- ci-times:start -->'),
			readme.indexOf('<!-- ci-times:end -->'),
		);
		const commands = [...section.matchAll(/^\| [^|]+\| `([^`]+)`/gm)].map((m) => m[1]);
		const recorded = [
			...(await readFile('.ci/run', 'utf8')).matchAll(/timed '([^']+)'/g),
			...(await readFile('scripts/test.ts', 'utf8')).matchAll(/name: '([^']+)'/g),
		].map((m) => m[1]);
		expect(commands.length).toBeGreaterThan(5);
		for (const command of commands) expect(recorded).toContain(command);
	});

	it('refuses a run that has no step for one of its rows', () => {
		const readme =
			'<!-- ci-times:start -->\n| Layer | Command | Takes |\n| - | - | - |\n| types | `npm run typecheck` | 1 min |\n<!-- ci-times:end -->\n';
		const run = digest({ steps: [step('npm test', '', 0, 10)], files: {} })!;
		expect(() => readmeWithTimes(readme, run)).toThrow('The run has no step "npm run typecheck"');
	});
});

describe('the CI summary', () => {
	const steps = [
		step('npm install', '', 0, 3, 120),
		step('npm test', '', 3, 13, 900),
		step('npm run typecheck', 'npm test', 3, 4, 70),
		step('npm run test:db', 'npm test', 3, 6, 200),
		step('npm run test:e2e', 'npm test', 6, 13, 600),
	];

	it('prints each step under the one it is part of, with when it started, its wall and CPU time', () => {
		const run = digest({ steps, files: {} })!;
		expect(run).toMatchObject({ date: '2026-11-28T06:00:00Z', wall: 13, cpu: 17, load: [1, 2] });
		expect(stepsTable(run).split('\n')).toEqual([
			'CI run of 2026-11-28T06:00:00Z: 13.0 min, 17.0 min of CPU, load 1.0 at its start, 2.0 at its end',
			'',
			'Step                  Starts     Takes       CPU',
			'npm install          0.0 min   3.0 min   2.0 min',
			'npm test             3.0 min  10.0 min  15.0 min',
			'  npm run typecheck  3.0 min   1.0 min   1.2 min',
			'  npm run test:db    3.0 min   3.0 min   3.3 min',
			'  npm run test:e2e   6.0 min   7.0 min  10.0 min',
		]);
	});

	it('leaves out a line a run cut short', () => {
		const text = `${JSON.stringify(steps[0])}\n{"name":"npm te`;
		expect(parseSteps(text)).toEqual([steps[0]]);
	});

	it("reads Playwright's JSON report by file, a file's time the sum of its tests'", () => {
		const files = playwrightFiles({
			suites: [
				{
					title: 'tests/e2e/auth.spec.ts',
					file: 'tests/e2e/auth.spec.ts',
					specs: [
						{ title: 'signs in', tests: [{ results: [{ duration: 1200, status: 'passed' }] }] },
					],
					suites: [
						{
							title: 'sign-out',
							specs: [
								{
									title: 'signs out',
									file: 'tests/e2e/auth.spec.ts',
									tests: [{ results: [{ duration: 800, status: 'failed' }] }],
								},
							],
						},
					],
				},
			],
		});
		expect(files).toEqual([
			{
				file: 'tests/e2e/auth.spec.ts',
				project: 'e2e',
				ms: 2000,
				state: 'failed',
				tests: [
					{ name: 'signs in', ms: 1200, state: 'passed' },
					{ name: 'sign-out > signs out', ms: 800, state: 'failed' },
				],
			},
		]);
	});

	it('lists the slowest files and tests of every suite, and says when none were recorded', () => {
		expect(slowest({})).toBe('No test file times were recorded.');
		const text = slowest({
			db: [
				{
					file: 'tests/db/a.test.ts',
					project: 'db',
					ms: 9000,
					state: 'passed',
					tests: [{ name: 'x', ms: 8000, state: 'passed' }],
				},
			],
			unit: [
				{
					file: 'src/b.test.ts',
					project: 'unit',
					ms: 2000,
					state: 'passed',
					tests: [{ name: 'y', ms: 100, state: 'passed' }],
				},
			],
		});
		expect(text).toContain('  db         1 files, 1 tests, 9.0 s in all');
		expect(text).toContain('     9.0 s  db         tests/db/a.test.ts (1 tests)');
		expect(text.indexOf('tests/db/a.test.ts')).toBeLessThan(text.indexOf('src/b.test.ts'));
		expect(text).toContain('     8.0 s  db         tests/db/a.test.ts > x');
	});

	it('names last the tests that failed, with their first error line, then those passed only on a retry', () => {
		const files = playwrightFiles({
			suites: [
				{
					title: 'tests/e2e/panel.spec.ts',
					file: 'tests/e2e/panel.spec.ts',
					specs: [
						{
							title: 'saves',
							tests: [
								{
									results: [
										{
											duration: 900,
											status: 'failed',
											error: { message: '\u001b[31mError: lost\u001b[39m\n  at x' },
										},
										{ duration: 800, status: 'passed' },
									],
								},
							],
						},
						{
							title: 'publishes',
							tests: [
								{
									results: [
										{
											duration: 900,
											status: 'timedOut',
											error: { message: 'Test timeout of 60000ms exceeded.' },
										},
										{ duration: 900, status: 'timedOut' },
									],
								},
							],
						},
					],
				},
			],
		});
		expect(files[0]!.tests.map((t) => t.state)).toEqual(['flaky', 'timedOut']);
		expect(files[0]!.state).toBe('failed');
		expect(
			outcomes({
				e2e: files,
				db: [
					{
						file: 'tests/db/a.test.ts',
						project: 'db',
						ms: 10,
						state: 'passed',
						tests: [{ name: 'x', ms: 10, state: 'passed' }],
					},
				],
			}).split('\n'),
		).toEqual([
			'1 failed:',
			'  e2e        tests/e2e/panel.spec.ts > publishes',
			'             Test timeout of 60000ms exceeded.',
			'',
			'1 passed only on a retry:',
			'  e2e        tests/e2e/panel.spec.ts > saves',
			'             Error: lost',
		]);
		expect(outcomes({ db: [] })).toBe('No test failed.');
	});
});
