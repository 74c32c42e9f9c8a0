import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
	url: string;
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

/** Opens PGlite in `<dataDir>/pglite` and serves it over the Postgres wire protocol on loopback. */
export async function openEmbeddedDatabase(
	dataDir: string,
	port: number,
): Promise<EmbeddedDatabase> {
	await mkdir(dataDir, { recursive: true });
	const release = await acquireLock(join(dataDir, 'pglite.lock'));
	let db: PGlite | undefined;
	try {
		db = await PGlite.create({
			dataDir: join(dataDir, 'pglite'),
			extensions: { pg_trgm, btree_gin },
		});
		// Several clients (PostgREST, migrations, tests) share the one PGlite session; the socket
		// server queues their queries and keeps a transaction to the connection that opened it.
		const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 32 });
		await server.start();
		const opened = db;
		return {
			url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
			async close() {
				await server.stop();
				await opened.close();
				await release();
			},
		};
	} catch (error) {
		await db?.close().catch(() => {});
		await release();
		throw error;
	}
}
