import { minutes, recordStep, runStep, type StepRecord } from './steps.ts';

export interface Step {
	name: string;
	command: string;
	env?: NodeJS.ProcessEnv;
}

/** What `npm test` runs: `beside` one after another while `live` runs, then `after`. */
export interface Plan {
	beside: Step[];
	live: Step;
	after: Step;
	/** Recorded as each step's parent in steps.jsonl. */
	parent: string;
}

/** A live step's output as it comes, with whole blocks of other steps put between two of its lines. */
export class Output {
	private atLineStart = true;
	private blocks: string[] = [];

	private readonly write: (text: string | Buffer) => void;

	constructor(write: (text: string | Buffer) => void) {
		this.write = write;
	}

	live = (chunk: Buffer): void => {
		this.write(chunk);
		this.atLineStart = chunk.at(-1) === 0x0a;
		if (this.atLineStart) this.flush();
	};

	block(text: string): void {
		this.blocks.push(text);
		if (this.atLineStart) this.flush();
	}

	/** The live step ended: a line of its own for what comes next. */
	end(): void {
		if (!this.atLineStart) this.write('\n');
		this.atLineStart = true;
		this.flush();
	}

	private flush(): void {
		for (const block of this.blocks.splice(0)) this.write(block);
	}
}

export const heading = (record: StepRecord) =>
	`${record.name}: ${record.code === 0 ? 'passed' : `failed (exit ${record.code})`} in ` +
	`${minutes(record.end - record.start)}, ${Math.round(record.cpu)} s of CPU`;

/**
 * Runs the plan and answers every step's record; a failing step stops those after it on its
 * side, and `after` runs only when every other step passed.
 */
export async function runPlan(
	plan: Plan,
	write: (text: string | Buffer) => void,
): Promise<StepRecord[]> {
	const output = new Output(write);
	const run = async (step: Step, sink: (chunk: Buffer) => void) => {
		const record = await runStep(step.name, step.command, {
			parent: plan.parent,
			env: step.env,
			write: sink,
		});
		await recordStep(record);
		return record;
	};
	const liveStep = async (step: Step) => {
		write(`\n── ${step.name} ──\n`);
		const record = await run(step, output.live);
		output.end();
		return record;
	};
	const besideSteps = async () => {
		const done: StepRecord[] = [];
		for (const step of plan.beside) {
			const chunks: Buffer[] = [];
			const record = await run(step, (chunk) => chunks.push(chunk));
			output.block(`\n── ${heading(record)} ──\n${Buffer.concat(chunks).toString()}\n`);
			done.push(record);
			if (record.code !== 0) break;
		}
		return done;
	};
	const [beside, live] = await Promise.all([besideSteps(), liveStep(plan.live)]);
	const records = [...beside, live];
	if (beside.length === plan.beside.length && records.every((r) => r.code === 0)) {
		records.push(await liveStep(plan.after));
	}
	return records;
}
