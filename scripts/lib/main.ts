/**
 * Runs a command's body and turns a failure into one readable line and exit code 1:
 * the people running these commands need the message, not a stack trace.
 * Whatever the command started (registered with onShutdown) is stopped on every way out:
 * success, failure, Ctrl-C or SIGTERM. Servers pass keepAlive and end on a signal.
 */
const cleanups: Array<() => Promise<void>> = [];
let exiting = false;

/** Registers something to stop before the process exits; the last registered stops first. */
export function onShutdown(stop: () => Promise<void>): void {
	cleanups.push(stop);
}

async function exit(code: number): Promise<never> {
	if (!exiting) {
		exiting = true;
		for (const stop of cleanups.reverse())
			await stop().catch((error: unknown) => console.error(error));
	}
	process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (exiting) return;
		console.log(`\n${signal}: stopping…`);
		void exit(0);
	});
}

export function runMain(body: () => Promise<void>, options: { keepAlive?: boolean } = {}): void {
	body().then(
		() => {
			// A command may set process.exitCode to fail without a message of its own (doctor).
			if (!options.keepAlive) void exit(Number(process.exitCode ?? 0));
		},
		(error: unknown) => {
			const message = error instanceof Error ? error.message : String(error);
			console.error(`\nError: ${message}`);
			if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
			void exit(1);
		},
	);
}

/** A command's whole-number option (`--runs 5`), or a one-line error naming the option. */
export function wholeNumber(
	option: string,
	value: string,
	{ min = 1, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {},
): number {
	const number = Number(value);
	if (!(Number.isInteger(number) && number >= min && number <= max)) {
		throw new Error(
			max === Number.MAX_SAFE_INTEGER
				? `--${option} takes a whole number from ${min}`
				: `--${option} takes ${min} to ${max}`,
		);
	}
	return number;
}
