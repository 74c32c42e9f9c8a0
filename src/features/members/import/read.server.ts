import { fork } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { TableRow } from './import.ts';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from './limits.ts';

// A member file as a table: its headings and its rows, whatever the format. CSV through
// papaparse row by row (UTF-8 with or without BOM, comma, semicolon or tab, quoted fields with
// line breaks), XLSX through xlsx.server.ts (the first worksheet, streamed), JSON as the tenant
// file's businesses or a list of objects. Every format is read in a process of its own with its own
// heap limit and a time limit (IMPORT_LIMITS), so a hostile file ends that process, not the server.

type FileFormat = 'csv' | 'xlsx' | 'json';

export interface Table {
	format: FileFormat;
	headers: string[];
	rows: TableRow[];
}

/** A file that cannot be read as a table: the message says why, for the person who chose it. */
export class UnreadableFileError extends Error {}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function detectFormat(name: string, bytes: Uint8Array): FileFormat {
	if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) return 'xlsx';
	const lower = name.toLowerCase();
	if (lower.endsWith('.xlsx')) return 'xlsx';
	if (lower.endsWith('.json')) return 'json';
	const start = new TextDecoder()
		.decode(bytes.subarray(0, 64))
		.replace(/^\uFEFF/, '')
		.trimStart();
	if (start.startsWith('{') || start.startsWith('[')) return 'json';
	return 'csv';
}

const NOT_UTF8 =
	'The file is not UTF-8 text: save it as "CSV UTF-8" (or as an Excel workbook) and try again.';

function decodeText(bytes: Uint8Array): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw new UnreadableFileError(NOT_UTF8);
	}
}

function uniqueHeaders(raw: readonly unknown[]): string[] {
	if (raw.length > IMPORT_LIMITS.columns) throw new UnreadableFileError(LIMIT_MESSAGES.columns);
	const headers = raw.map((h) => String(h ?? '').trim());
	const seen = new Set<string>();
	headers.forEach((header, index) => {
		if (header === '') return;
		if (seen.has(header)) {
			throw new UnreadableFileError(
				`Two columns have the heading "${header}" (column ${index + 1}): rename one.`,
			);
		}
		seen.add(header);
	});
	if (seen.size === 0) throw new UnreadableFileError('The first row has no headings.');
	return headers;
}

/**
 * Where a reader puts the rows as it reads them: the reading process passes them on in batches,
 * so it never holds a whole file's rows.
 */
interface TableSink {
	row(row: TableRow): void;
}

/** Counts the rows a table may hold: one more is refused before it is kept. */
function rowCounter(): () => void {
	let rows = 0;
	return () => {
		rows += 1;
		if (rows > IMPORT_LIMITS.rows) throw new UnreadableFileError(LIMIT_MESSAGES.rows);
	};
}

/** The bytes as UTF-8 text, a megabyte at a time (a BOM dropped); invalid UTF-8 is refused. */
async function* textChunks(bytes: Uint8Array): AsyncGenerator<string> {
	// TextDecoder drops a leading BOM itself.
	const decoder = new TextDecoder('utf-8', { fatal: true });
	const size = 1024 * 1024;
	try {
		for (let start = 0; start < bytes.byteLength; start += size) {
			yield decoder.decode(bytes.subarray(start, start + size), { stream: true });
		}
		yield decoder.decode();
	} catch {
		throw new UnreadableFileError(NOT_UTF8);
	}
}

/** CSV row by row as papaparse reads it from a stream of the text: never the whole text at once. */
async function readCsv(bytes: Uint8Array, sink: TableSink): Promise<string[]> {
	let headers: string[] | null = null;
	let line = 0;
	let rowNumber = 1;
	const count = rowCounter();
	await new Promise<void>((resolve, reject) => {
		Papa.parse<string[]>(Readable.from(textChunks(bytes)), {
			skipEmptyLines: 'greedy',
			delimitersToGuess: [',', ';', '\t', '|'],
			step: (result, parser) => {
				line += 1;
				try {
					const serious = result.errors.find((e) => e.type === 'Quotes');
					if (serious) {
						throw new UnreadableFileError(
							`The file is not a readable CSV: ${serious.message} (row ${line}).`,
						);
					}
					if (!headers) {
						headers = uniqueHeaders(result.data);
						return;
					}
					count();
					rowNumber += 1;
					const cells: Record<string, unknown> = {};
					headers.forEach((header, column) => {
						if (header !== '') cells[header] = result.data[column] ?? '';
					});
					sink.row({ rowNumber, cells });
				} catch (error) {
					// Before abort(), which calls complete.
					reject(error as Error);
					parser.abort();
				}
			},
			complete: () => resolve(),
			error: (error: Error) =>
				reject(error instanceof UnreadableFileError ? error : new UnreadableFileError(NOT_UTF8)),
		});
	});
	if (!headers) throw new UnreadableFileError('The file is empty.');
	return (headers as string[]).filter((h) => h !== '');
}

/** An exceljs cell value as text, number, boolean or Date. */
function excelValue(value: ExcelJS.CellValue): unknown {
	if (value === null || value === undefined) return '';
	if (value instanceof Date || typeof value !== 'object') return value;
	if ('richText' in value) return value.richText.map((part) => part.text).join('');
	if ('hyperlink' in value) return value.text ?? value.hyperlink;
	if ('formula' in value || 'sharedFormula' in value) {
		return excelValue((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
	}
	if ('error' in value) return '';
	return String(value);
}

async function readXlsx(bytes: Uint8Array, sink: TableSink): Promise<string[]> {
	let headers: string[] | null = null;
	const count = rowCounter();
	// Loaded only for a workbook: the reading process starts faster for CSV and JSON.
	const { readFirstSheet, XlsxRefused } = await import('./xlsx.server.ts');
	try {
		await readFirstSheet(bytes, (row) => {
			if (!headers) {
				if (row.number !== 1) throw new UnreadableFileError('The first row has no headings.');
				const raw: unknown[] = [];
				for (let c = 1; c <= row.cellCount; c += 1) raw.push(excelValue(row.getCell(c).value));
				headers = uniqueHeaders(raw);
				return;
			}
			const cells: Record<string, unknown> = {};
			let filled = false;
			headers.forEach((header, index) => {
				if (header === '') return;
				const value = excelValue(row.getCell(index + 1).value);
				if (value !== '') filled = true;
				cells[header] = value;
			});
			if (!filled) return;
			count();
			sink.row({ rowNumber: row.number, cells });
		});
	} catch (error) {
		throw error instanceof XlsxRefused ? new UnreadableFileError(error.message) : error;
	}
	if (!headers) throw new UnreadableFileError('The workbook is empty.');
	return (headers as string[]).filter((h) => h !== '');
}

const NOT_A_LIST = 'Expected the tenant file (with "businesses") or a list of businesses.';

/**
 * JSON element by element (@streamparser/json): a list, the tenant file's businesses, or a list
 * in the membership system's { Result } envelope. Emitted elements are not kept by the parser.
 */
async function readJson(bytes: Uint8Array, sink: TableSink): Promise<string[]> {
	const first = /\S/.exec(
		new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, ''),
	)?.[0];
	if (first !== '[' && first !== '{') throw new UnreadableFileError(NOT_A_LIST);
	const { JSONParser } = await import('@streamparser/json');
	const parser = new JSONParser({
		paths: first === '[' ? ['$.*'] : ['$.businesses.*', '$.Result.*'],
		keepStack: false,
	});
	const headers = new Set<string>();
	const count = rowCounter();
	let list: unknown = undefined;
	let rows = 0;
	parser.onValue = ({ value, key, stack }) => {
		// The tenant file's businesses win over an envelope's Result, as they always did.
		const from = stack[1]?.key ?? '$';
		if (list === undefined) list = from;
		if (from !== list) return;
		count();
		rows += 1;
		const rowNumber = Number(key) + 1;
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			sink.row({ rowNumber, cells: {} });
			return;
		}
		for (const name of Object.keys(value)) headers.add(name);
		if (headers.size > IMPORT_LIMITS.columns) throw new UnreadableFileError(LIMIT_MESSAGES.columns);
		sink.row({ rowNumber, cells: value as Record<string, unknown> });
	};
	try {
		for await (const chunk of textChunks(bytes)) if (chunk) parser.write(chunk);
		if (!parser.isEnded) parser.end();
	} catch (error) {
		if (error instanceof UnreadableFileError) throw error;
		throw new UnreadableFileError(`The file is not readable JSON: ${(error as Error).message}`);
	}
	// No element: an empty list, or an object with none of the lists (small, or refused above).
	if (rows === 0 && first === '{') {
		const data = JSON.parse(decodeText(bytes)) as Record<string, unknown>;
		if (!Array.isArray(data.businesses) && !Array.isArray(data.Result)) {
			throw new UnreadableFileError(NOT_A_LIST);
		}
	}
	return [...headers];
}

/** Reads a member file in this thread, row by row into `sink`: the worker's side of readTable. */
async function readHere(
	bytes: Uint8Array,
	name: string,
	sink: TableSink,
): Promise<{ format: FileFormat; headers: string[] }> {
	const format = detectFormat(name, bytes);
	const headers =
		format === 'xlsx'
			? await readXlsx(bytes, sink)
			: format === 'json'
				? await readJson(bytes, sink)
				: await readCsv(bytes, sink);
	return { format, headers };
}

// --- The reading process -------------------------------------------------------------------------

// Not a worker thread: V8 ends a whole process, not only the worker, when some allocations (one
// large array growing, as JSON.parse or a shared-strings list do) pass a worker's heap limit
// (nodejs/node#47224; Node documents the limit as best-effort). A process of its own with its
// own heap limit is ended alone, and its memory is not the server's.

/** The argument that makes this module read a file for its parent instead of serving. */
const READER_FLAG = '--chamber-member-file-reader';
/** Rows passed from the reader to the server at a time. */
const BATCH = 2000;

type ReaderMessage =
	| { rows: TableRow[] }
	| { done: { format: FileFormat; headers: string[] }; peakKb: number }
	| { refused: string; peakKb: number }
	| { failed: string };

/** The file's bytes from the reader's standard input, at most the size limit. */
async function readInput(): Promise<Uint8Array> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
		size += chunk.byteLength;
		if (size > IMPORT_LIMITS.fileBytes) throw new UnreadableFileError(LIMIT_MESSAGES.fileBytes);
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

// The reader runs this very file (import.meta.url): on Netlify that is the function's bundle, in
// development the module itself, so there is no second entry file to ship.
if (process.argv.includes(READER_FLAG) && process.send) {
	const send = (message: ReaderMessage) =>
		new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
	const peakKb = () => process.resourceUsage().maxRSS;
	process.once('message', ({ name }: { name: string }) => {
		let batch: TableRow[] = [];
		const sink: TableSink = {
			row(row) {
				batch.push(row);
				if (batch.length === BATCH) {
					void send({ rows: batch });
					batch = [];
				}
			},
		};
		readInput()
			.then((bytes) => readHere(bytes, name, sink))
			.then(
				async (done) => {
					if (batch.length > 0) await send({ rows: batch });
					await send({ done, peakKb: peakKb() });
				},
				(error: unknown) =>
					send(
						error instanceof UnreadableFileError
							? { refused: error.message, peakKb: peakKb() }
							: { failed: error instanceof Error ? error.message : String(error) },
					),
			)
			.finally(() => process.disconnect());
	});
}

/**
 * Reads a member file (its name helps tell the format) into its headings and rows, in a process
 * of its own bounded by IMPORT_LIMITS (size, rows, columns, zip parts and unpacked bytes, time,
 * heap). The file goes to that process's standard input as it comes (a download is streamed
 * through, never held here). Throws UnreadableFileError with a sentence for the person when the
 * file is refused.
 */
export async function readTable(
	file: Uint8Array | ReadableStream<Uint8Array>,
	name: string,
): Promise<Table> {
	if (file instanceof Uint8Array && file.byteLength > IMPORT_LIMITS.fileBytes) {
		throw new UnreadableFileError(LIMIT_MESSAGES.fileBytes);
	}
	const reader = fork(fileURLToPath(import.meta.url), [READER_FLAG], {
		// The server's own flags (a debugger, a loader) are not the reader's.
		execArgv: [`--max-old-space-size=${IMPORT_LIMITS.readerHeapMb}`],
		serialization: 'advanced',
		stdio: ['pipe', 'inherit', 'pipe', 'ipc'],
	});
	let stderr = '';
	reader.stderr!.on('data', (chunk: Buffer) => {
		stderr = (stderr + chunk.toString()).slice(-4000);
	});
	const rows: TableRow[] = [];
	const input =
		file instanceof Uint8Array
			? Readable.from([file])
			: Readable.fromWeb(file as import('node:stream/web').ReadableStream<Uint8Array>);
	try {
		return await new Promise<Table>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new UnreadableFileError(LIMIT_MESSAGES.readMs)),
				IMPORT_LIMITS.readMs,
			);
			reader.on('message', (message: ReaderMessage) => {
				if ('rows' in message) {
					rows.push(...message.rows);
					return;
				}
				clearTimeout(timer);
				if ('peakKb' in message) {
					console.log(
						`[member-import] read ${name}: ${'done' in message ? `${rows.length} rows` : 'refused'}, reader peak ${Math.round(message.peakKb / 1024)} MB`,
					);
				}
				if ('done' in message) resolve({ ...message.done, rows });
				else if ('refused' in message) reject(new UnreadableFileError(message.refused));
				else reject(new Error(`The member file reader failed: ${message.failed}`));
			});
			reader.once('error', (error) => {
				clearTimeout(timer);
				reject(new Error(`The member file reader could not start: ${error.message}`));
			});
			reader.once('exit', (code, signal) => {
				clearTimeout(timer);
				reject(
					/heap out of memory|Allocation failed/.test(stderr)
						? new UnreadableFileError(LIMIT_MESSAGES.readerHeapMb)
						: new Error(
								`The member file reader stopped (${signal ?? `exit code ${code}`}) without an answer: ${stderr.slice(-500)}`,
							),
				);
			});
			reader.send({ name });
			// The reader stops reading (and says why) past the size limit; a closed pipe is its doing.
			reader.stdin!.on('error', () => {});
			input.on('error', (error) => {
				clearTimeout(timer);
				console.error(`[member-import] reading ${name} broke off: ${error.message}`);
				reject(new UnreadableFileError('The file could not be read to its end.'));
			});
			input.pipe(reader.stdin!);
		});
	} finally {
		input.destroy();
		if (reader.exitCode === null && reader.signalCode === null) reader.kill('SIGKILL');
	}
}
