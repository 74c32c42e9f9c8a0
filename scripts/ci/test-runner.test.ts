import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
	const console = () => {
		let printed = '';
		const output = new Output((text) => (printed += text.toString()));
		return { output, printed: () => printed };
	};

	it('puts a finished step between two lines of the live one, never inside one', () => {
		const { output, printed } = console();
		const database = output.open('database');
		const types = output.open('types');
		output.data(database, Buffer.from('line 1\nline 2 first half '));
		output.data(types, Buffer.from('checked\n'));
		output.close(types, 'types: passed');
		expect(printed()).toBe('\n── database ──\nline 1\nline 2 first half ');
		output.data(database, Buffer.from('second half\n'));
		output.data(database, Buffer.from('line 3\n'));
		expect(printed()).toBe(
			'\n── database ──\nline 1\nline 2 first half second half\n' +
				'\n── types: passed ──\nchecked\n\nline 3\n',
		);
	});

	it('prints the rest when the live step ends mid-line', () => {
		const { output, printed } = console();
		const database = output.open('database');
		const unit = output.open('unit');
		output.data(database, Buffer.from('no newline'));
		output.close(unit, 'unit: passed');
		output.close(database, 'database: passed');
		expect(printed()).toBe('\n── database ──\nno newline\n\n── unit: passed ──\n\n');
	});

	it('makes the next running step live when the live one ends, what it wrote first', () => {
		const { output, printed } = console();
		const database = output.open('database');
		const browser = output.open('browser');
		output.data(browser, Buffer.from('test 1\n'));
		output.data(database, Buffer.from('file 1\n'));
		output.close(database, 'database: passed');
		output.data(browser, Buffer.from('test 2\n'));
		expect(printed()).toBe('\n── database ──\nfile 1\n\n── browser ──\ntest 1\ntest 2\n');
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

	it('runs each lane’s steps in turn, the lanes side by side, each step with its record', async () => {
		const { printed, records } = await run({
			lanes: [
				[{ name: 'database', command: 'echo database ran' }],
				[
					{ name: 'types', command: 'echo types checked' },
					{ name: 'unit', command: 'echo unit ran' },
					{ name: 'browser', command: 'echo browser ran' },
				],
			],
		});
		expect(records.map((r) => [r.name, r.code, r.parent])).toEqual([
			['database', 0, 'test'],
			['types', 0, 'test'],
			['unit', 0, 'test'],
			['browser', 0, 'test'],
		]);
		expect(printed).toContain('types checked\n');
		// Which lane ends first is the machine's business: only the order within each is fixed.
		expect(printed.indexOf('database ran')).toBeGreaterThan(printed.indexOf('── database'));
		expect(printed.indexOf('unit ran')).toBeGreaterThan(printed.indexOf('types checked'));
		expect(printed.indexOf('browser ran')).toBeGreaterThan(printed.indexOf('unit ran'));
	});

	it('stops a lane at its failing step and lets the other lanes run to their end', async () => {
		// The database step ends only after the types step, however the machine schedules them.
		const done = join(await mkdtemp(join(tmpdir(), 'chamber-lanes-')), 'types-done');
		const { printed, records } = await run({
			lanes: [
				[
					{
						name: 'database',
						command: `until [ -e ${done} ]; do sleep 0.05; done; sleep 0.5; echo database ran`,
					},
				],
				[
					{ name: 'types', command: `echo wrong type; touch ${done}; exit 2` },
					{ name: 'unit', command: 'echo unit ran' },
				],
			],
		});
		expect(records.map((r) => [r.name, r.code])).toEqual([
			['database', 0],
			['types', 2],
		]);
		expect(printed).toContain('── types: failed (exit 2) in');
		expect(printed).toContain('wrong type');
		expect(printed).toContain('database ran');
		expect(printed).not.toContain('unit ran');
	});

	it('goes on in a lane whatever another lane’s step answered', async () => {
		const { records } = await run({
			lanes: [
				[{ name: 'database', command: 'exit 1' }],
				[
					{ name: 'types', command: 'sleep 0.2' },
					{ name: 'browser', command: 'true' },
				],
			],
		});
		expect(records.map((r) => [r.name, r.code])).toEqual([
			['database', 1],
			['types', 0],
			['browser', 0],
		]);
	});

	it('counts the CPU time of what a step started', async () => {
		const { records } = await run({
			// Busy until the child itself has used 0.2 s of CPU, however loaded the machine is.
			lanes: [[{ name: 'busy', command: `node -e 'while (process.cpuUsage().user < 200000);'` }]],
		});
		expect(records[0]!.cpu).toBeGreaterThanOrEqual(0.2);
	}, 30_000);
});
