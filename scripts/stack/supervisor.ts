import type { ChildProcess } from 'node:child_process';

/**
 * Keeps one of the stack's processes (the database, PostgREST) running: when it exits without
 * being asked to, it is started again, at once the first time and then with growing pauses
 * (back-off) while it keeps failing, so a process that cannot start does not spin. A process that
 * stays up for a while counts as recovered and the pauses start small again. An optional liveness
 * check ends a process that no longer answers (a hung one is restarted like a dead one).
 */

export interface SupervisorOptions {
	name: string;
	/** Starts the process and resolves once it serves; rejects when it cannot start. */
	start: () => Promise<ChildProcess>;
	/** Stops it when asked (the supervisor then does not restart it). */
	stop: (child: ChildProcess) => Promise<void>;
	/** Called after each restart that succeeded. */
	onRestart?: () => void | Promise<void>;
	/** Pauses between attempts: the first, the longest, and the uptime that resets them. */
	backoff?: { initialMs: number; maxMs: number; resetAfterMs: number };
	liveness?: {
		check: () => Promise<boolean>;
		intervalMs: number;
		/** Consecutive failed checks after which the process is killed and restarted. */
		failures: number;
	};
	log?: (line: string) => void;
}

type SupervisedState = 'running' | 'restarting' | 'stopped';

export interface Supervised {
	state(): SupervisedState;
	pid(): number | undefined;
	/** How often it was restarted since the stack started. */
	restarts(): number;
	/** The process now serving (it changes with each restart). */
	child(): ChildProcess | undefined;
	/** Resolves once it runs (at once when it does), or rejects when stopped meanwhile. */
	running(): Promise<void>;
	stop(): Promise<void>;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 10_000, resetAfterMs: 30_000 };

export async function supervise(options: SupervisorOptions): Promise<Supervised> {
	const backoff = options.backoff ?? DEFAULT_BACKOFF;
	const log = options.log ?? ((line: string) => console.error(`[stack] ${line}`));
	let current: ChildProcess | undefined = await options.start();
	let state: SupervisedState = 'running';
	let restarts = 0;
	let failuresInARow = 0;
	let startedAt = Date.now();
	let timer: NodeJS.Timeout | undefined;
	let waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

	function settle(error?: Error) {
		for (const waiter of waiters) {
			if (error) waiter.reject(error);
			else waiter.resolve();
		}
		waiters = [];
	}

	function watch(child: ChildProcess) {
		child.once('exit', (code, signal) => {
			if (state === 'stopped' || child !== current) return;
			current = undefined;
			const uptime = Date.now() - startedAt;
			// A process that ran for a while recovered; one that keeps dying soon after starting waits longer each time.
			failuresInARow = uptime >= backoff.resetAfterMs ? 0 : failuresInARow + 1;
			log(
				`${options.name} exited (${signal ?? `code ${code}`}) after ${(uptime / 1000).toFixed(1)} s: restarting`,
			);
			schedule();
		});
	}

	function schedule() {
		state = 'restarting';
		const delay =
			failuresInARow === 0
				? 0
				: Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failuresInARow - 1));
		timer = setTimeout(() => void attempt(), delay);
		timer.unref();
	}

	/** A start under way: stop() waits for it, so a process started meanwhile is not left behind. */
	let starting: Promise<ChildProcess> | undefined;

	async function attempt() {
		if (state === 'stopped') return;
		try {
			starting = options.start();
			const child = await starting.finally(() => (starting = undefined));
			// stop() may have been called while it started.
			if ((state as SupervisedState) === 'stopped') {
				await options.stop(child);
				return;
			}
			current = child;
			state = 'running';
			restarts++;
			startedAt = Date.now();
			watch(child);
			log(`${options.name} is back (pid ${child.pid}, restart ${restarts})`);
			settle();
			await options.onRestart?.();
		} catch (error) {
			failuresInARow++;
			log(`${options.name} could not start: ${(error as Error).message.split('\n')[0]}`);
			schedule();
		}
	}

	watch(current);

	let liveTimer: NodeJS.Timeout | undefined;
	if (options.liveness) {
		const { check, intervalMs, failures } = options.liveness;
		let missed = 0;
		let checking = false;
		liveTimer = setInterval(() => {
			if (checking || state !== 'running' || !current) return;
			checking = true;
			const child = current;
			void check()
				.catch(() => false)
				.then((alive) => {
					checking = false;
					if (child !== current) return;
					missed = alive ? 0 : missed + 1;
					if (missed >= failures) {
						missed = 0;
						log(`${options.name} stopped answering (${failures} checks): killing it`);
						child.kill('SIGKILL');
					}
				});
		}, intervalMs);
		liveTimer.unref();
	}

	return {
		state: () => state,
		pid: () => current?.pid,
		restarts: () => restarts,
		child: () => current,
		running() {
			if (state === 'running') return Promise.resolve();
			if (state === 'stopped') return Promise.reject(new Error(`${options.name} was stopped`));
			return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
		},
		async stop() {
			state = 'stopped';
			if (timer) clearTimeout(timer);
			if (liveTimer) clearInterval(liveTimer);
			settle(new Error(`${options.name} was stopped`));
			const child = current ?? (await starting?.catch(() => undefined));
			current = undefined;
			if (child && child.exitCode === null && child.signalCode === null) await options.stop(child);
		},
	};
}
