import { spawn } from 'node:child_process';
import { appendFile, mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** One line of $CI_RESULTS_DIR/steps.jsonl, as scripts/ci/steps.sh writes them too. */
export interface StepRecord {
	name: string;
	/** The step this one is part of ('' at the top). */
	parent: string;
	/** Epoch milliseconds. */
	start: number;
	end: number;
	/** CPU seconds (user + system) of everything the step ran. */
	cpu: number;
	code: number;
	/** The 1-minute load average at the start and the end. */
	load: [number, number];
}

/** The children's CPU seconds in the second line of bash's `times`. */
function parseTimes(output: string): number {
	const line = output.trim().split('\n')[1] ?? '';
	return line
		.trim()
		.split(/\s+/)
		.map((part) => /^(\d+)m([\d.]+)s$/.exec(part))
		.reduce((sum, m) => sum + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);
}

/**
 * Runs `command` through bash, whose `times` then counts the CPU of everything it started, and
 * hands its output to `write` as it comes. Resolves with the step's record (never rejects on a
 * failing command: its exit code is in the record).
 */
export function runStep(
	name: string,
	command: string,
	options: { parent?: string; env?: NodeJS.ProcessEnv; write: (chunk: Buffer) => void },
): Promise<StepRecord> {
	const start = Date.now();
	const load = loadavg()[0]!;
	const child = spawn('bash', ['-c', `${command}\ncode=$?\ntimes >&3\nexit $code`], {
		env: options.env ?? process.env,
		stdio: ['inherit', 'pipe', 'pipe', 'pipe'],
	});
	let times = '';
	child.stdout!.on('data', options.write);
	child.stderr!.on('data', options.write);
	(child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (times += chunk));
	return new Promise((resolve) => {
		child.on('close', (code, signal) =>
			resolve({
				name,
				parent: options.parent ?? '',
				start,
				end: Date.now(),
				cpu: Math.round(parseTimes(times) * 10) / 10,
				code: code ?? (signal ? 128 : 1),
				load: [load, loadavg()[0]!],
			}),
		);
	});
}

/** Appends the record to $CI_RESULTS_DIR/steps.jsonl when CI_RESULTS_DIR is set. */
export async function recordStep(record: StepRecord): Promise<void> {
	const dir = process.env.CI_RESULTS_DIR;
	if (!dir) return;
	await mkdir(dir, { recursive: true });
	await appendFile(join(dir, 'steps.jsonl'), JSON.stringify(record) + '\n');
}

export const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
