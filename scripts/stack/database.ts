import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { supervise, type Supervised } from './supervisor.ts';

export interface EmbeddedDatabase {
	url: string;
	/** The database's process, as its supervisor sees it. */
	process: Supervised;
	close(): Promise<void>;
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * PGlite takes no lock of its own: a second process opening the same folder would silently
 * lose its writes. The lock file holds the owner's pid; a lock whose owner is gone is stale.
 */
async function acquireLock(lockFile: string): Promise<() => Promise<void>> {
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			const handle = await open(lockFile, 'wx');
			await handle.writeFile(String(process.pid));
			await handle.close();
			return () => rm(lockFile, { force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const owner = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
			if (owner && isAlive(owner) && owner !== process.pid) {
				throw new Error(
					`The database in ${lockFile.replace(/\/[^/]+$/, '')} is already open in process ${owner}. ` +
						'Only one process may own it: stop that process, or run this command while the stack ' +
						'is fully started so it can use it.',
					{ cause: error },
				);
			}
			await rm(lockFile, { force: true });
		}
	}
	throw new Error(`Could not take the database lock ${lockFile}`);
}

/** What the database process printed last, for the message when it cannot start. */
function keepTail(child: ChildProcess, tail: string[]): void {
	child.stderr?.on('data', (chunk: Buffer) => {
		const text = chunk.toString();
		if (process.env.STACK_DEBUG) process.stderr.write(text);
		tail.push(text);
		tail.splice(0, Math.max(0, tail.length - 30));
	});
}

interface DatabaseOptions {
	idleInTransactionMs: number;
	/** Postgres's shared_buffers inside PGlite. */
	sharedBuffers: string;
	onRestart?: () => void | Promise<void>;
}

function startProcess(
	dataDir: string,
	port: number,
	options: DatabaseOptions,
): Promise<ChildProcess> {
	const child = spawn(
		process.execPath,
		[
			join(import.meta.dirname, 'database-process.ts'),
			dataDir,
			String(port),
			String(options.idleInTransactionMs),
			options.sharedBuffers,
		],
		{ stdio: ['ignore', 'inherit', 'pipe', 'ipc'] },
	);
	const tail: string[] = [];
	keepTail(child, tail);
	return new Promise((resolve, reject) => {
		const failed = (reason: string) => {
			child.kill('SIGKILL');
			reject(new Error(`The embedded database did not start: ${reason}\n${tail.join('')}`));
		};
		child.once('message', (message) => {
			if (message === 'ready') resolve(child);
			else failed(`unexpected message ${String(message)}`);
		});
		child.once('exit', (code, signal) => failed(`it exited (${signal ?? `code ${code}`})`));
		child.once('error', (error) => failed(error.message));
	});
}

async function stopProcess(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	// PGlite writes its files on close: ask first, kill only if it does not end.
	if (child.connected) child.send('close');
	else child.kill('SIGKILL');
	const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
	await exited;
	clearTimeout(timer);
}

/**
 * Opens PGlite in `<dataDir>/pglite` in a process of its own and serves it over the Postgres
 * wire protocol on loopback (wire.ts). The process is supervised: if it dies, it is started
 * again (PGlite recovers from its write-ahead log as Postgres does) and `onRestart` runs.
 */
export async function openEmbeddedDatabase(
	dataDir: string,
	port: number,
	options: DatabaseOptions,
): Promise<EmbeddedDatabase> {
	await mkdir(dataDir, { recursive: true });
	const release = await acquireLock(join(dataDir, 'pglite.lock'));
	try {
		const database = await supervise({
			name: 'the embedded database',
			start: () => startProcess(dataDir, port, options),
			stop: stopProcess,
			onRestart: options.onRestart,
			backoff: { initialMs: 250, maxMs: 10_000, resetAfterMs: 30_000 },
		});
		return {
			url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
			process: database,
			async close() {
				await database.stop();
				await release();
			},
		};
	} catch (error) {
		await release();
		throw error;
	}
}
