/**
 * The embedded database's own process: PGlite (Postgres compiled to WebAssembly runs each
 * statement on the thread that calls it) and its wire-protocol server. Kept out of the process
 * that serves the site, so pages and functions never wait while a statement runs. Started and
 * supervised by database.ts; ends when that process goes away.
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { startWireServer } from './wire.ts';

const [dataDir, port, idleMs, sharedBuffers] = process.argv.slice(2);
if (!dataDir || !port || !idleMs || !sharedBuffers || !process.send) {
	console.error('database-process.ts is started by scripts/stack/database.ts');
	process.exit(2);
}

const log = (line: string) => console.error(`[database] ${line}`);

const db = await PGlite.create({
	dataDir: join(dataDir, 'pglite'),
	extensions: { pg_trgm, btree_gin },
	// Postgres's own cache lives in PGlite's WebAssembly memory, which never shrinks
	// (DB_SHARED_BUFFERS).
	startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
});
const server = await startWireServer({
	db,
	host: '127.0.0.1',
	port: Number(port),
	idleInTransactionMs: Number(idleMs),
	log,
});

let closing = false;
async function close(code: number): Promise<never> {
	if (!closing) {
		closing = true;
		await server.close().catch((error: Error) => log(error.message));
		await db.close().catch((error: Error) => log(error.message));
	}
	process.exit(code);
}

process.on('message', (message) => {
	if (message === 'close') void close(0);
});
// The stack's process is gone (ended or killed): nobody supervises this one any more.
process.on('disconnect', () => void close(0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	// Ctrl-C reaches the whole process group: the stack closes this process itself, in order.
	process.on(signal, () => {});
}
process.send('ready');
