import { minutes, recordStep, runStep, type StepRecord } from './steps.ts';

export interface Step {
	name: string;
	command: string;
	env?: NodeJS.ProcessEnv;
}

/**
 * What `npm test` runs: lanes side by side, each running its steps one after another and stopping
 * at a failing one.
 */
export interface Plan {
	lanes: Step[][];
	/** Recorded as each step's parent in steps.jsonl. */
	parent: string;
}

/**
 * Several steps' output on one console, none of it mixed within a line. One running step at a
 * time is live: its output comes as it is written. The others' is kept: a step that ends while
 * another is live comes whole, between two of the live one's lines; when the live step ends, the
 * longest-running of the others becomes live, what it had written first.
 */
export class Output {
	private atLineStart = true;
	private blocks: string[] = [];
	private live: Source | null = null;
	private readonly waiting: Source[] = [];

	private readonly write: (text: string | Buffer) => void;

	constructor(write: (text: string | Buffer) => void) {
		this.write = write;
	}

	/** A running step's output, from its heading on. */
	open(heading: string): Source {
		const source = new Source(heading);
		if (this.live) this.waiting.push(source);
		else this.goLive(source);
		return source;
	}

	/** What the step wrote. */
	data(source: Source, chunk: Buffer): void {
		if (source !== this.live) {
			source.kept.push(chunk);
			return;
		}
		this.write(chunk);
		this.atLineStart = chunk.at(-1) === 0x0a;
		if (this.atLineStart) this.flush();
	}

	/** The step ended: `summary` is the line that says how, for a step that was not live. */
	close(source: Source, summary: string): void {
		if (source === this.live) {
			if (!this.atLineStart) this.write('\n');
			this.atLineStart = true;
			this.live = null;
			this.flush();
			const next = this.waiting.shift();
			if (next) this.goLive(next);
			return;
		}
		this.waiting.splice(this.waiting.indexOf(source), 1);
		this.block(`\n── ${summary} ──\n${Buffer.concat(source.kept).toString()}\n`);
	}

	/** Text of its own, printed between two lines of the live step. */
	block(text: string): void {
		this.blocks.push(text);
		if (this.atLineStart) this.flush();
	}

	private goLive(source: Source): void {
		this.live = source;
		this.block(`\n── ${source.heading} ──\n`);
		for (const chunk of source.kept.splice(0)) this.data(source, chunk);
	}

	private flush(): void {
		for (const block of this.blocks.splice(0)) this.write(block);
	}
}

class Source {
	readonly kept: Buffer[] = [];
	readonly heading: string;
	constructor(heading: string) {
		this.heading = heading;
	}
}

export const heading = (record: StepRecord) =>
	`${record.name}: ${record.code === 0 ? 'passed' : `failed (exit ${record.code})`} in ` +
	`${minutes(record.end - record.start)}, ${Math.round(record.cpu)} s of CPU`;

/**
 * Runs the plan and answers every step's record, lane by lane; a failing step stops those after
 * it in its lane, never another lane.
 */
export async function runPlan(
	plan: Plan,
	write: (text: string | Buffer) => void,
): Promise<StepRecord[]> {
	const output = new Output(write);
	const lane = async (steps: Step[]) => {
		const done: StepRecord[] = [];
		for (const step of steps) {
			const source = output.open(step.name);
			const record = await runStep(step.name, step.command, {
				parent: plan.parent,
				env: step.env,
				write: (chunk) => output.data(source, chunk),
			});
			await recordStep(record);
			output.close(source, heading(record));
			done.push(record);
			if (record.code !== 0) break;
		}
		return done;
	};
	return (await Promise.all(plan.lanes.map(lane))).flat();
}
