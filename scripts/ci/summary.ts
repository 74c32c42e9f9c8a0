import { stripVTControlCharacters } from 'node:util';
import type { FileTimings } from '../../tests/support/timings-reporter.ts';
import type { StepRecord } from './steps.ts';

/**
 * What one CI run measured, read from its results folder (CI_RESULTS_DIR): the steps of
 * `.ci/run` and of the commands it runs (steps.jsonl), each vitest run's files and tests
 * (vitest-*.json, tests/support/timings-reporter.ts) and the end-to-end suite's Playwright JSON
 * report (e2e-report.json).
 */
export interface RunResults {
	steps: StepRecord[];
	/** By suite: 'unit', 'db', 'hosted-db', 'e2e', 'hosted-e2e'. */
	files: Record<string, FileTimings[]>;
}

/** What the README's table is made from, kept in .ci/last-run.json. */
export interface RunDigest {
	/** When the run started, ISO 8601. */
	date: string;
	/** Minutes, one decimal; null where a run did not record it. */
	wall: number;
	cpu: number | null;
	load: [number, number | null];
	steps: Array<{
		name: string;
		parent: string;
		at: number;
		wall: number;
		cpu: number | null;
		code: number;
	}>;
}

const min = (ms: number) => Math.round(ms / 6000) / 10;
const pad = (text: string, width: number) => text.padEnd(width);
const lpad = (text: string, width: number) => text.padStart(width);

/** One line of steps.jsonl each; a line that is not JSON (a run cut short) is left out. */
export function parseSteps(text: string): StepRecord[] {
	return text
		.split('\n')
		.filter((line) => line.trim())
		.flatMap((line) => {
			try {
				return [JSON.parse(line) as StepRecord];
			} catch {
				return [];
			}
		});
}

interface PlaywrightSuite {
	title: string;
	file?: string;
	specs?: Array<{
		title: string;
		file?: string;
		tests: Array<{
			projectName?: string;
			results: Array<{ duration: number; status: string; error?: { message?: string } }>;
		}>;
	}>;
	suites?: PlaywrightSuite[];
}

/** A test's (or one run's) state that is none of these failed: failed, timedOut, interrupted. */
const NOT_FAILED = new Set(['passed', 'skipped', 'flaky', 'pending', 'todo']);
const isFailure = (state: string) => !NOT_FAILED.has(state);

/**
 * A Playwright JSON report as files and tests: a file's time is the sum of its tests' runs. A test
 * that failed and then passed on its retry is 'flaky'; a failing test keeps its first error line.
 */
export function playwrightFiles(report: { suites?: PlaywrightSuite[] }): FileTimings[] {
	const byFile = new Map<string, FileTimings>();
	const visit = (suite: PlaywrightSuite, titles: string[], file: string) => {
		for (const spec of suite.specs ?? []) {
			// Playwright names a file from the config's folder, the repository's root.
			const path = spec.file ?? file;
			const entry = byFile.get(path) ?? {
				file: path,
				project: 'e2e',
				ms: 0,
				state: 'passed',
				tests: [],
			};
			byFile.set(path, entry);
			for (const test of spec.tests) {
				const ms = test.results.reduce((sum, r) => sum + r.duration, 0);
				const last = test.results.at(-1)?.status ?? 'skipped';
				const failedRun = test.results.find((r) => isFailure(r.status));
				const state = last === 'passed' && failedRun ? 'flaky' : last;
				const error = firstErrorLine(failedRun?.error?.message);
				entry.ms += ms;
				entry.tests.push({
					name: [...titles, spec.title].join(' > '),
					ms,
					state,
					...(error ? { error } : {}),
				});
				if (isFailure(state)) entry.state = 'failed';
			}
		}
		for (const child of suite.suites ?? []) visit(child, [...titles, child.title], file);
	};
	for (const top of report.suites ?? []) visit(top, [], top.file ?? top.title);
	return [...byFile.values()];
}

/**
 * An error message's first line without its terminal colours, as a summary line shows it: the
 * Playwright reports' and the vitest timings' (tests/support/timings-reporter.ts) alike.
 */
export function firstErrorLine(message: string | undefined): string | undefined {
	const line = message && stripVTControlCharacters(message).trim().split('\n')[0]?.trim();
	return line ? line.slice(0, 200) : undefined;
}

/**
 * The tests that failed, then the ones that passed only on a retry, each with its suite, file and
 * first error line: printed last, so a log cut to its end still names them.
 */
export function outcomes(files: Record<string, FileTimings[]>): string {
	const all = Object.entries(files).flatMap(([suite, list]) =>
		list.flatMap((f) => f.tests.map((t) => ({ ...t, suite, file: f.file }))),
	);
	const line = (t: (typeof all)[number]) =>
		`  ${pad(t.suite, 10)} ${t.file} > ${t.name}` + (t.error ? `\n             ${t.error}` : '');
	const failed = all.filter((t) => isFailure(t.state));
	const flaky = all.filter((t) => t.state === 'flaky');
	return [
		failed.length === 0 ? 'No test failed.' : `${failed.length} failed:`,
		...failed.map(line),
		...(flaky.length === 0
			? []
			: ['', `${flaky.length} passed only on a retry:`, ...flaky.map(line)]),
	].join('\n');
}

export function digest(results: RunResults): RunDigest | null {
	const top = results.steps.filter((s) => !s.parent);
	if (top.length === 0) return null;
	const start = Math.min(...results.steps.map((s) => s.start));
	const end = Math.max(...results.steps.map((s) => s.end));
	const first = top.reduce((a, b) => (a.start <= b.start ? a : b));
	const last = top.reduce((a, b) => (a.end >= b.end ? a : b));
	return {
		date: new Date(start).toISOString().replace(/\.\d+Z$/, 'Z'),
		wall: min(end - start),
		cpu: Math.round(top.reduce((sum, s) => sum + s.cpu, 0) / 6) / 10,
		load: [first.load[0], last.load[1]],
		steps: results.steps.map((s) => ({
			name: s.name,
			parent: s.parent,
			at: min(s.start - start),
			wall: min(s.end - s.start),
			cpu: Math.round(s.cpu / 6) / 10,
			code: s.code,
		})),
	};
}

const loads = (run: RunDigest) =>
	`load ${run.load[0].toFixed(1)} at its start` +
	(run.load[1] === null ? '' : `, ${run.load[1].toFixed(1)} at its end`);

/** The table printed at the end of `.ci/run`: each step, when it started, its wall and CPU time. */
export function stepsTable(run: RunDigest): string {
	const rows = [
		['Step', 'Starts', 'Takes', 'CPU', ''],
		...orderSteps(run.steps).map((s) => [
			`${s.parent ? '  ' : ''}${s.name}`,
			`${s.at.toFixed(1)} min`,
			`${s.wall.toFixed(1)} min`,
			s.cpu === null ? '' : `${s.cpu.toFixed(1)} min`,
			s.code === 0 ? '' : `failed (exit ${s.code})`,
		]),
	];
	const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
	const lines = rows.map((r) =>
		r
			.map((cell, i) => (i === 0 || i === 4 ? pad(cell, widths[i]!) : lpad(cell, widths[i]!)))
			.join('  ')
			.trimEnd(),
	);
	return [
		`CI run of ${run.date}: ${run.wall.toFixed(1)} min` +
			(run.cpu === null ? '' : `, ${run.cpu.toFixed(1)} min of CPU`) +
			`, ${loads(run)}`,
		'',
		...lines,
	].join('\n');
}

/** Each top step followed by the steps that are part of it, in the order they started. */
function orderSteps<T extends { name: string; parent: string; at: number }>(steps: T[]): T[] {
	const byStart = [...steps].sort((a, b) => a.at - b.at);
	const tops = byStart.filter((s) => !s.parent || !steps.some((p) => p.name === s.parent));
	return tops.flatMap((top) => [top, ...byStart.filter((s) => s.parent === top.name)]);
}

/** The slowest files and tests of every suite that reported them. */
export function slowest(files: Record<string, FileTimings[]>, count = 10): string {
	const all = Object.entries(files).flatMap(([suite, list]) => list.map((f) => ({ ...f, suite })));
	if (all.length === 0) return 'No test file times were recorded.';
	const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
	const fileLines = [...all]
		.sort((a, b) => b.ms - a.ms)
		.slice(0, count)
		.map(
			(f) => `  ${lpad(seconds(f.ms), 8)}  ${pad(f.suite, 10)} ${f.file} (${f.tests.length} tests)`,
		);
	const testLines = all
		.flatMap((f) => f.tests.map((t) => ({ ...t, suite: f.suite, file: f.file })))
		.sort((a, b) => b.ms - a.ms)
		.slice(0, count)
		.map((t) => `  ${lpad(seconds(t.ms), 8)}  ${pad(t.suite, 10)} ${t.file} > ${t.name}`);
	const totals = Object.entries(files).map(
		([suite, list]) =>
			`  ${pad(suite, 10)} ${list.length} files, ${list.reduce((n, f) => n + f.tests.length, 0)} tests, ` +
			`${seconds(list.reduce((n, f) => n + f.ms, 0))} in all`,
	);
	return [
		'Suites (a file counts from its import to its last hook):',
		...totals,
		'',
		`The ${fileLines.length} slowest test files:`,
		...fileLines,
		'',
		`The ${testLines.length} slowest tests:`,
		...testLines,
	].join('\n');
}

/** Prose in lines of at most 100 characters, as the README's are. */
function wrap(text: string): string[] {
	const lines: string[] = [];
	for (const word of text.split(' ')) {
		const last = lines.at(-1);
		if (last !== undefined && last.length + 1 + word.length <= 100)
			lines[lines.length - 1] = `${last} ${word}`;
		else lines.push(word);
	}
	return lines;
}

const START = '<!-- ci-times:start -->';
const END = '<!-- ci-times:end -->';

/**
 * The README's test table with its last column ('Takes') and the line under it taken from the
 * run: each row's command is the name of the step that ran it. Fails when a row's command is not
 * a step of the run, so no number is left from an older one.
 */
export function readmeWithTimes(readme: string, run: RunDigest): string {
	const from = readme.indexOf(START);
	const to = readme.indexOf(END);
	if (from === -1 || to === -1) throw new Error(`README.md has no ${START} … ${END} section`);
	const section = readme.slice(from + START.length, to);
	const lines = section.split('\n');
	const table = lines.filter((line) => line.startsWith('|'));
	const rows = table.map((line) =>
		line
			.slice(1, -1)
			.split('|')
			.map((cell) => cell.trim()),
	);
	const out = rows.map((cells, i) => {
		if (i === 0) return cells;
		if (i === 1) return cells.map(() => '---');
		const command = /`([^`]+)`/.exec(cells[1] ?? '')?.[1];
		const step = run.steps.find((s) => s.name === command);
		if (!step) throw new Error(`The run has no step "${command}" for README's row "${cells[0]}"`);
		return [...cells.slice(0, -1), `${step.wall.toFixed(1)} min`];
	});
	const installs = run.steps
		.filter((s) => !s.parent && /install/.test(s.name))
		.reduce((sum, s) => sum + s.wall, 0);
	const note =
		`Measured in the clean-clone run of \`.ci/run\` of ${run.date.slice(0, 10)}: ` +
		`${run.wall.toFixed(1)} min in all, ${installs.toFixed(1)} of them installs; ${loads(run)} ` +
		'(`npm run ci:summary` prints where each minute went). The stages run side by side, so each ' +
		'time above is with the others running beside it.';
	const body = [
		'',
		...out.map((cells) => `| ${cells.join(' | ')} |`),
		'',
		...wrap(note),
		'',
		'',
	].join('\n');
	return readme.slice(0, from + START.length) + body + readme.slice(to);
}
