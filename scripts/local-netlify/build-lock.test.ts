import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';

let root: string;
beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), 'chamber-build-lock-'));
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe('the build lock', () => {
	it('lets builds of one checkout take turns, in whichever order they came', async () => {
		const events: string[] = [];
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const first = withBuildLock(root, async () => {
			events.push('first starts');
			await held;
			events.push('first ends');
		});
		// The second asks while the first holds it.
		await expect.poll(() => events).toEqual(['first starts']);
		const second = withBuildLock(root, async () => {
			events.push('second runs');
		});
		// It waits as long as the first holds the lock (several of its polls).
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect(events).toEqual(['first starts']);
		release();
		await Promise.all([first, second]);
		expect(events).toEqual(['first starts', 'first ends', 'second runs']);
	});

	it('is let go when the build fails', async () => {
		await expect(
			withBuildLock(root, async () => {
				throw new Error('The site could not be built');
			}),
		).rejects.toThrow('The site could not be built');
		await expect(withBuildLock(root, async () => 'next')).resolves.toBe('next');
	});

	it('is taken over from a process killed while it held it', async () => {
		// A process that takes the lock and is killed before it can let it go.
		const child = spawn(
			process.execPath,
			[
				'--input-type=module',
				'-e',
				`const { withBuildLock } = await import(${JSON.stringify(new URL('./build-lock.ts', import.meta.url).href)});
				await withBuildLock(${JSON.stringify(root)}, async () => {
					console.log('held');
					// Held until killed: a timer keeps the process from ending by itself.
					setInterval(() => {}, 1000);
					await new Promise(() => {});
				});`,
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		await new Promise<void>((resolve, reject) => {
			const read = (chunk: Buffer) => {
				output += chunk;
				if (output.includes('held')) resolve();
			};
			child.stdout!.on('data', read);
			child.stderr!.on('data', read);
			child.once('exit', (code) => reject(new Error(`the holder ended (${code}): ${output}`)));
		});
		child.kill('SIGKILL');
		await new Promise((resolve) => child.once('exit', resolve));
		expect(existsSync(join(root, '.netlify/build.lock'))).toBe(true);
		await expect(withBuildLock(root, async () => 'taken over')).resolves.toBe('taken over');
	}, 30_000);

	it('stops waiting when the build is called off', async () => {
		let release!: () => void;
		const held = withBuildLock(root, () => new Promise<void>((resolve) => (release = resolve)));
		await expect.poll(() => existsSync(join(root, '.netlify/build.lock'))).toBe(true);
		const stop = new AbortController();
		const waiting = withBuildLock(root, async () => 'ran', stop.signal);
		stop.abort(new Error('The build was stopped'));
		await expect(waiting).rejects.toThrow('The build was stopped');
		release();
		await held;
	});
});
