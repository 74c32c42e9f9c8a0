import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Output, runPlan, type Plan } from './test-runner.ts';

/** A plan of shell one-liners, and what it printed. */
async function run(plan: Omit<Plan, 'parent'>) {
	let printed = '';
	const records = await runPlan(
		{ ...plan, parent: 'test' },
		(text) => (printed += text.toString()),
	);
	return { printed, records };
}

describe('npm test’s output', () => {
	it('puts a block between two lines of the live step, never inside one', () => {
		let printed = '';
		const output = new Output((text) => (printed += text.toString()));
		output.live(Buffer.from('line 1\nline 2 first half '));
		output.block('[types passed]\n');
		expect(printed).toBe('line 1\nline 2 first half ');
		output.live(Buffer.from('second half\n'));
		output.live(Buffer.from('line 3\n'));
		expect(printed).toBe('line 1\nline 2 first half second half\n[types passed]\nline 3\n');
	});

	it('prints a block at once between lines, and the rest when the live step ends mid-line', () => {
		let printed = '';
		const output = new Output((text) => (printed += text.toString()));
		output.live(Buffer.from('line 1\n'));
		output.block('[types passed]\n');
		output.live(Buffer.from('no newline'));
		output.block('[unit passed]\n');
		output.end();
		expect(printed).toBe('line 1\n[types passed]\nno newline\n[unit passed]\n');
	});
});

describe('npm test’s steps', () => {
	// These plans' records are the test's own: never lines in the steps of a CI run that runs it.
	beforeEach(() => {
		vi.stubEnv('CI_RESULTS_DIR', '');
	});
	afterEach(() => {
		vi.unstubAllEnvs();
	});

	it('runs the steps beside the live one in turn, then the last, each with its record', async () => {
		const { printed, records } = await run({
			beside: [
				{ name: 'types', command: 'echo types checked' },
				{ name: 'unit', command: 'echo unit ran' },
			],
			live: { name: 'database', command: 'echo database ran' },
			after: { name: 'browser', command: 'echo browser ran' },
		});
		expect(records.map((r) => [r.name, r.code, r.parent])).toEqual([
			['types', 0, 'test'],
			['unit', 0, 'test'],
			['database', 0, 'test'],
			['browser', 0, 'test'],
		]);
		expect(printed).toMatch(/── types: passed in [\d.]+ min, \d+ s of CPU ──\ntypes checked\n/);
		// Which side ends first is the machine's business: only the order within each is fixed.
		expect(printed.indexOf('database ran')).toBeGreaterThan(printed.indexOf('── database ──\n'));
		expect(printed.indexOf('unit ran')).toBeGreaterThan(printed.indexOf('types checked'));
		expect(printed.indexOf('browser ran')).toBeGreaterThan(printed.indexOf('unit ran'));
	});

	it('stops its side at a failing step, lets the other side end, and then runs nothing after', async () => {
		const { printed, records } = await run({
			beside: [
				{ name: 'types', command: 'echo wrong type; exit 2' },
				{ name: 'unit', command: 'echo unit ran' },
			],
			live: { name: 'database', command: 'echo database ran' },
			after: { name: 'browser', command: 'echo browser ran' },
		});
		expect(records.map((r) => [r.name, r.code])).toEqual([
			['types', 2],
			['database', 0],
		]);
		expect(printed).toContain('── types: failed (exit 2) in');
		expect(printed).toContain('database ran');
		expect(printed).not.toContain('unit ran');
		expect(printed).not.toContain('browser ran');
	});

	it('runs nothing after a failing live step', async () => {
		const { records } = await run({
			beside: [{ name: 'types', command: 'true' }],
			live: { name: 'database', command: 'exit 1' },
			after: { name: 'browser', command: 'true' },
		});
		expect(records.map((r) => [r.name, r.code])).toEqual([
			['types', 0],
			['database', 1],
		]);
	});

	it('counts the CPU time of what a step started', async () => {
		const { records } = await run({
			beside: [],
			// Busy until the child itself has used 0.2 s of CPU, however loaded the machine is.
			live: { name: 'busy', command: `node -e 'while (process.cpuUsage().user < 200000);'` },
			after: { name: 'after', command: 'true' },
		});
		expect(records[0]!.cpu).toBeGreaterThanOrEqual(0.2);
	}, 30_000);
});
