import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite served over the Postgres wire protocol to several clients (PostgREST's pool, the
 * identity and file services, migrations, tests). PGlite is one session, so one connection at a
 * time has it: a connection takes the session with its first message and keeps it until a Sync or
 * a simple query leaves the session outside a transaction block. Another connection's messages
 * therefore never land inside someone else's transaction or extended-protocol batch (Parse, Bind,
 * Execute … Sync share the unnamed statement and portal), which @electric-sql/pglite-socket's
 * message-by-message queue allows.
 *
 * A connection that holds the session and sends nothing is what an idle transaction is here: it
 * stops every other client. After `idleInTransactionMs` it is ended as Postgres ends one
 * (FATAL 25P03) and its transaction rolled back. PGlite itself has no timers to do this (setting
 * idle_in_transaction_session_timeout makes it spin) and cannot interrupt a running statement.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Sync: the end of an extended-protocol batch. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

export interface WireServerOptions {
	db: PGlite;
	host: string;
	port: number;
	/** How long a connection may hold the session without sending anything. */
	idleInTransactionMs: number;
	maxConnections?: number;
	log?: (line: string) => void;
}

export interface WireServer {
	/** Connections open, and those waiting for the session. */
	stats(): { connections: number; waiting: number; holding: boolean };
	close(): Promise<void>;
}

interface Connection {
	id: number;
	socket: Socket;
	buffer: Buffer;
	frames: Buffer[];
	startedUp: boolean;
	closed: boolean;
	idleTimer?: NodeJS.Timeout;
}

/** A Postgres ErrorResponse with the given severity, SQLSTATE and message. */
function errorResponse(severity: string, code: string, message: string): Buffer {
	const fields = Buffer.concat([
		...[
			['S', severity],
			['V', severity],
			['C', code],
			['M', message],
		].map(([type, value]) => Buffer.concat([Buffer.from(type!), Buffer.from(`${value}\0`)])),
		Buffer.from([0]),
	]);
	const head = Buffer.alloc(5);
	head.write('E', 0);
	head.writeInt32BE(fields.length + 4, 1);
	return Buffer.concat([head, fields]);
}

export async function startWireServer(options: WireServerOptions): Promise<WireServer> {
	const { db } = options;
	const log = options.log ?? (() => {});
	const connections = new Set<Connection>();
	/** Connections with messages, waiting for the session, first come first served. */
	const waiting: Connection[] = [];
	let holder: Connection | null = null;
	let pumping = false;
	let nextId = 1;

	function clearIdle(conn: Connection) {
		if (conn.idleTimer) clearTimeout(conn.idleTimer);
		conn.idleTimer = undefined;
	}

	/** Starts the holder's idle clock, unless it runs already (others' messages do not reset it). */
	function armIdle(conn: Connection) {
		if (conn.idleTimer) return;
		conn.idleTimer = setTimeout(() => {
			if (holder !== conn || conn.frames.length > 0 || conn.closed) return;
			log(
				`connection ${conn.id}: idle in a transaction for ${options.idleInTransactionMs} ms, ended`,
			);
			conn.socket.end(
				errorResponse(
					'FATAL',
					'25P03',
					'terminating connection due to idle-in-transaction timeout',
				),
			);
			conn.socket.destroySoon();
			drop(conn);
		}, options.idleInTransactionMs);
		conn.idleTimer.unref();
	}

	/** Puts the session back as it was before the connection that left took it. */
	async function reset(): Promise<void> {
		try {
			await db.execProtocolRaw(new Uint8Array(SYNC));
			if (db.isInTransaction()) await db.exec('rollback');
		} catch (error) {
			log(`reset after a dropped connection failed: ${(error as Error).message}`);
		}
	}

	function drop(conn: Connection) {
		if (conn.closed) return;
		conn.closed = true;
		clearIdle(conn);
		conn.frames.length = 0;
		connections.delete(conn);
		const index = waiting.indexOf(conn);
		if (index >= 0) waiting.splice(index, 1);
		void pump();
	}

	/** Whether the message ends a unit of work after which the session may change hands. */
	function endsUnit(frame: Buffer, startup: boolean): boolean {
		if (startup) return true;
		const type = frame[0];
		return type === 0x53 /* S */ || type === 0x51; /* Q */
	}

	async function pump(): Promise<void> {
		if (pumping) return;
		pumping = true;
		try {
			for (;;) {
				if (holder?.closed) {
					holder = null;
					await reset();
					continue;
				}
				if (!holder) {
					holder = waiting.shift() ?? null;
					if (!holder) break;
				}
				const conn = holder;
				const frame = conn.frames.shift();
				if (!frame) {
					// Inside a transaction or a batch: the session stays this connection's.
					armIdle(conn);
					break;
				}
				clearIdle(conn);
				const startup = !conn.startedUp;
				conn.startedUp = true;
				try {
					await db.execProtocolRawStream(new Uint8Array(frame), {
						// A copy: the chunk is a view of PGlite's memory, which its next chunk overwrites,
						// and a socket that cannot send at once queues the view itself. An answer of a few
						// megabytes (the map's points of a large chamber) arrived garbled and the client
						// waited for ever.
						onRawData: (data) => {
							if (!conn.closed && conn.socket.writable) conn.socket.write(Buffer.from(data));
						},
					});
				} catch (error) {
					log(`connection ${conn.id}: ${(error as Error).message}`);
					conn.socket.destroy();
					drop(conn);
					continue;
				}
				if (conn.closed) continue;
				if (endsUnit(frame, startup) && !db.isInTransaction()) {
					holder = null;
					if (conn.frames.length > 0) waiting.push(conn);
				}
			}
		} finally {
			pumping = false;
		}
	}

	/** Splits what arrived into whole messages; answers SSL and GSS requests itself. */
	function receive(conn: Connection, data: Buffer) {
		conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, data]) : data;
		let queued = false;
		for (;;) {
			const buffer = conn.buffer;
			if (!conn.startedUp && conn.frames.length === 0) {
				if (buffer.length < 8) break;
				const length = buffer.readInt32BE(0);
				const code = buffer.readInt32BE(4);
				if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
					conn.socket.write('N');
					conn.buffer = buffer.subarray(8);
					continue;
				}
				if (code === CANCEL_REQUEST) {
					// No backend to signal: the statement runs to its end.
					conn.buffer = buffer.subarray(buffer.length);
					conn.socket.end();
					return;
				}
				if (code !== PROTOCOL_3) {
					conn.socket.end(errorResponse('FATAL', '08P01', 'unsupported frontend protocol'));
					drop(conn);
					return;
				}
				if (buffer.length < length) break;
				conn.frames.push(buffer.subarray(0, length));
				conn.buffer = buffer.subarray(length);
				queued = true;
				continue;
			}
			if (buffer.length < 5) break;
			const length = 1 + buffer.readInt32BE(1);
			if (buffer.length < length) break;
			const frame = buffer.subarray(0, length);
			conn.buffer = buffer.subarray(length);
			if (frame[0] === 0x58 /* X: Terminate */) {
				conn.socket.end();
				drop(conn);
				return;
			}
			conn.frames.push(frame);
			queued = true;
		}
		if (!queued) return;
		if (holder !== conn && !waiting.includes(conn)) waiting.push(conn);
		void pump();
	}

	const server: Server = createServer((socket) => {
		if (connections.size >= (options.maxConnections ?? 64)) {
			socket.end(errorResponse('FATAL', '53300', 'sorry, too many clients already'));
			return;
		}
		socket.setNoDelay(true);
		const conn: Connection = {
			id: nextId++,
			socket,
			buffer: Buffer.alloc(0),
			frames: [],
			startedUp: false,
			closed: false,
		};
		connections.add(conn);
		socket.on('data', (data) => receive(conn, data));
		socket.on('error', () => drop(conn));
		socket.on('close', () => drop(conn));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	return {
		stats: () => ({
			connections: connections.size,
			waiting: waiting.length,
			holding: holder !== null,
		}),
		async close() {
			for (const conn of connections) {
				conn.socket.destroy();
				drop(conn);
			}
			await new Promise<void>((resolve) => server.close(() => resolve()));
			while (pumping) await new Promise((r) => setTimeout(r, 10));
		},
	};
}
