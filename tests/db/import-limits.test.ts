import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from '../../src/features/members/import/limits.ts';
import { freePort, userClient } from '../support/db-clients.ts';
import { bigCsv, bigSheet, lyingSheetBomb, unusedPartsBomb } from '../support/hostile-files.ts';
import { db, service, stack } from './clients.ts';
import {
	importStaffChambers,
	removeChamberFiles,
	removeStaffChambers,
	type StaffChambers,
} from './fixtures.ts';

// Hostile member files against the functions in a server process of their own (the local
// Netlify server, as `npm start` runs it), its memory read from outside in /proc: a 50 MB
// decompression bomb, a workbook whose sheet unpacks to far more than it says, 500,000-row sheets
// and a JSON list of six million elements are each refused with a sentence for the chamber's
// staff; the server process never holds more than 600 MB, and the reading process (started per
// file, with its own heap limit) reports its own peak.

const DOMAIN = 'import-limits.test';
const ROOT = resolve(import.meta.dirname, '../..');
/** The most the server process may hold, at its peak, while it refuses them all. */
const MAX_RSS_MB = 600;
/** The most a reading process may hold: its heap limit and what V8 and the file add to it. */
const MAX_READER_MB = IMPORT_LIMITS.readerHeapMb + 200;
/** The files stay under the imports bucket's own limit, as an upload must. */
const FILE_BYTES = IMPORT_LIMITS.fileBytes - 64 * 1024;

let chambers: StaffChambers;
let server: ChildProcess;
let url: string;
let rssPeakKb = 0;
let sampler: NodeJS.Timeout;
const output: string[] = [];

/** A field of /proc/<pid>/status in kB (VmRSS now, VmHWM the process's peak). */
async function statusKb(field: 'VmRSS' | 'VmHWM'): Promise<number> {
	const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
	return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN);
}

async function startServer(): Promise<void> {
	const port = await freePort();
	server = spawn(process.execPath, ['tests/support/function-process.ts'], {
		cwd: ROOT,
		env: {
			...process.env,
			SUPABASE_URL: stack.supabaseUrl,
			SUPABASE_ANON_KEY: stack.anonKey,
			SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
			TENANT: chambers.slug,
			PORT: String(port),
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	await new Promise<void>((ready, fail) => {
		const onData = (chunk: Buffer) => {
			output.push(chunk.toString());
			const line = /listening (\S+)/.exec(output.join(''));
			if (line) {
				url = line[1]!;
				ready();
			}
		};
		server.stdout!.on('data', onData);
		server.stderr!.on('data', onData);
		server.once('exit', (code) =>
			fail(new Error(`The server exited (${code}):\n${output.join('').slice(-3000)}`)),
		);
	});
}

async function importFile(name: string, bytes: Buffer, type: string) {
	const path = `${chambers.tenantId}/${crypto.randomUUID()}-${name}`;
	const { error } = await userClient(stack, chambers.tokens.admin)
		.storage.from('imports')
		.upload(path, new Blob([new Uint8Array(bytes)], { type }), { contentType: type });
	expect(error).toBeNull();
	const answer = await fetch(`${url}/api/member-imports`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${chambers.tokens.admin}`,
			'content-type': 'application/json',
		},
		body: JSON.stringify({ chamber: chambers.slug, path, fileName: name }),
	});
	expect(answer.status).toBe(202);
	const { id } = (await answer.json()) as { id: string };
	for (;;) {
		const { rows } = await db.query(
			'select state, error from public.member_imports where id = $1',
			[id],
		);
		if (!['queued', 'reading', 'validating'].includes(rows[0].state)) return rows[0];
		await new Promise((r) => setTimeout(r, 200));
	}
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
	await db.connect();
	chambers = await importStaffChambers(stack, service, {
		prefix: 'lim',
		domain: DOMAIN,
		password: 'import-limits-password',
		name: 'Limits',
		businesses: [{ weblink_profile_id: '101', report_name: 'Lakeside Bakery' }],
	});
	await startServer();
	sampler = setInterval(() => {
		statusKb('VmRSS').then(
			(kb) => (rssPeakKb = Math.max(rssPeakKb, kb)),
			() => {},
		);
	}, 50);
});

afterAll(async () => {
	clearInterval(sampler);
	if (server && server.exitCode === null) {
		const exited = once(server, 'exit');
		server.kill('SIGTERM');
		await exited;
	}
	if (chambers) {
		await removeChamberFiles(db, 'imports', [chambers.tenantId, chambers.otherTenantId]);
		await removeStaffChambers(db, chambers, DOMAIN);
	}
	await db.end();
});

describe('hostile member files against the server process', () => {
	it('the imports bucket takes no larger file than the import reads', async () => {
		const { rows } = await db.query(
			`select file_size_limit from storage.buckets where id = 'imports'`,
		);
		expect(Number(rows[0].file_size_limit)).toBe(IMPORT_LIMITS.fileBytes);
	});

	it(
		'refuses a 50 MB decompression bomb, a lying sheet and 500,000-row sheets, staying under 600 MB',
		{ timeout: 600_000 },
		async () => {
			const before = await statusKb('VmRSS');
			const bomb = await unusedPartsBomb(FILE_BYTES);
			expect(bomb.byteLength).toBeGreaterThan(49 * 1024 * 1024);
			expect(await importFile('bomb.xlsx', bomb, XLSX)).toEqual({
				state: 'failed',
				error: LIMIT_MESSAGES.unpackedBytes,
			});

			const lying = await lyingSheetBomb(Math.floor(FILE_BYTES / 66_000));
			expect(lying.byteLength).toBeGreaterThan(45 * 1024 * 1024);
			expect(await importFile('lying.xlsx', lying, XLSX)).toEqual({
				state: 'failed',
				error:
					'The file is not a readable Excel workbook (.xlsx): one of its parts unpacks to more than the workbook says it holds.',
			});

			expect(await importFile('members.xlsx', await bigSheet(500_000), XLSX)).toEqual({
				state: 'failed',
				error: LIMIT_MESSAGES.rows,
			});
			expect(await importFile('members.csv', bigCsv(500_000), 'text/csv')).toEqual({
				state: 'failed',
				error: LIMIT_MESSAGES.rows,
			});
			const list = Buffer.from(`[${Array(6_000_000).fill('{"a":1}').join(',')}]`);
			expect(await importFile('members.json', list, 'application/json')).toEqual({
				state: 'failed',
				error: LIMIT_MESSAGES.rows,
			});

			// The server is alive and answers.
			expect((await fetch(`${url}/api/cache-version`)).status).toBeLessThan(500);
			const peakKb = Math.max(rssPeakKb, await statusKb('VmHWM'));
			console.log(
				`[import-limits] server RSS before ${Math.round(before / 1024)} MB, peak ${Math.round(peakKb / 1024)} MB`,
			);
			expect(peakKb / 1024).toBeLessThan(MAX_RSS_MB);
			const readers = [...output.join('').matchAll(/reader peak (\d+) MB/g)].map((m) =>
				Number(m[1]),
			);
			console.log(`[import-limits] reading processes' peaks: ${readers.join(', ')} MB`);
			expect(readers).toHaveLength(5);
			expect(Math.max(...readers)).toBeLessThan(MAX_READER_MB);
		},
	);
});
