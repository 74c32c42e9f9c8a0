import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/**
 * Builds of one checkout take turns, whichever process runs them. `astro build` writes the
 * Netlify adapter's SSR function to the checkout's own `.netlify/` (and Vite's and Astro's caches
 * under node_modules/) whatever the output folder, so two builds at once (a publish of
 * `npm start`, a database test's build, a build of another suite) would write over each other.
 *
 * The lock is a folder that its holder keeps fresh; one that has not been refreshed for
 * STALE_MS (its process was killed) is taken over.
 */
const STALE_MS = 5_000;
const POLL_MS = 200;

/** Runs `fn` while holding the checkout's build lock, waiting for it as long as it takes. */
export async function withBuildLock<T>(
	root: string,
	fn: () => Promise<T>,
	signal?: AbortSignal,
): Promise<T> {
	const dir = join(root, '.netlify');
	await mkdir(dir, { recursive: true });
	const target = join(dir, 'build');
	let release: (() => Promise<void>) | null = null;
	while (!release) {
		signal?.throwIfAborted();
		try {
			release = await lockfile.lock(target, {
				realpath: false,
				stale: STALE_MS,
				lockfilePath: `${target}.lock`,
				onCompromised: () => {
					// Only a holder that stopped refreshing for STALE_MS loses it: a process so stalled
					// that another build already started. Its own build fails on its own if it must.
				},
			});
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
			await sleep(POLL_MS, undefined, { signal }).catch(() => {});
		}
	}
	try {
		return await fn();
	} finally {
		await release().catch(() => {});
	}
}
