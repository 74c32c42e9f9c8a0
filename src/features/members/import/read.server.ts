import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { TableRow } from './import.ts';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from './limits.ts';
import { readFirstSheet, XlsxRefused } from './xlsx.server.ts';

// A member file as a table: its headings and its rows, whatever the format. CSV through
// papaparse row by row (UTF-8 with or without BOM, comma, semicolon or tab, quoted fields with
// line breaks), XLSX through xlsx.server.ts (the first worksheet, streamed), JSON as the tenant
// file's businesses or a list of objects. Every format is read in a worker thread with its own
// heap limit and a time limit (IMPORT_LIMITS), so a hostile file ends that worker, not the server.

export type FileFormat = 'csv' | 'xlsx' | 'json';

export interface Table {
	format: FileFormat;
	headers: string[];
	rows: TableRow[];
}

/** A file that cannot be read as a table: the message says why, for the person who chose it. */
export class UnreadableFileError extends Error {}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function detectFormat(name: string, bytes: Uint8Array): FileFormat {
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

function decodeText(bytes: Uint8Array): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
	} catch {
		throw new UnreadableFileError(
			'The file is not UTF-8 text: save it as "CSV UTF-8" (or as an Excel workbook) and try again.',
		);
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

/** The rows a table may hold: one more is refused, before it is kept. */
function countRow(rows: readonly TableRow[]): void {
	if (rows.length >= IMPORT_LIMITS.rows) throw new UnreadableFileError(LIMIT_MESSAGES.rows);
}

function readCsv(bytes: Uint8Array): Table {
	const text = decodeText(bytes);
	let headers: string[] | null = null;
	const rows: TableRow[] = [];
	let line = 0;
	let failure: Error | null = null;
	// Row by row (papaparse's step): the file's rows are never all held as arrays too.
	Papa.parse<string[]>(text, {
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
				countRow(rows);
				const cells: Record<string, unknown> = {};
				headers.forEach((header, column) => {
					if (header !== '') cells[header] = result.data[column] ?? '';
				});
				rows.push({ rowNumber: rows.length + 2, cells });
			} catch (error) {
				failure = error as Error;
				parser.abort();
			}
		},
	});
	if (failure) throw failure;
	if (!headers) throw new UnreadableFileError('The file is empty.');
	return { format: 'csv', headers: (headers as string[]).filter((h) => h !== ''), rows };
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

async function readXlsx(bytes: Uint8Array): Promise<Table> {
	let headers: string[] | null = null;
	const rows: TableRow[] = [];
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
			countRow(rows);
			rows.push({ rowNumber: row.number, cells });
		});
	} catch (error) {
		throw error instanceof XlsxRefused ? new UnreadableFileError(error.message) : error;
	}
	if (!headers) throw new UnreadableFileError('The workbook is empty.');
	return { format: 'xlsx', headers: (headers as string[]).filter((h) => h !== ''), rows };
}

function readJson(bytes: Uint8Array): Table {
	let data: unknown;
	try {
		data = JSON.parse(decodeText(bytes));
	} catch (error) {
		if (error instanceof UnreadableFileError) throw error;
		throw new UnreadableFileError(`The file is not readable JSON: ${(error as Error).message}`);
	}
	// A list, the tenant file's businesses, or a list in the membership system's { Result } envelope.
	const wrapped = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
	const list = Array.isArray(data)
		? data
		: Array.isArray(wrapped.businesses)
			? wrapped.businesses
			: Array.isArray(wrapped.Result)
				? wrapped.Result
				: null;
	if (!list) {
		throw new UnreadableFileError(
			'Expected the tenant file (with "businesses") or a list of businesses.',
		);
	}
	if (list.length > IMPORT_LIMITS.rows) throw new UnreadableFileError(LIMIT_MESSAGES.rows);
	const headers = new Set<string>();
	const rows: TableRow[] = list.map((item, index) => {
		if (!item || typeof item !== 'object' || Array.isArray(item)) {
			return { rowNumber: index + 1, cells: {} };
		}
		for (const key of Object.keys(item)) headers.add(key);
		return { rowNumber: index + 1, cells: item as Record<string, unknown> };
	});
	if (headers.size > IMPORT_LIMITS.columns) throw new UnreadableFileError(LIMIT_MESSAGES.columns);
	return { format: 'json', headers: [...headers], rows };
}

/** Reads a member file in this thread: the worker's side of readTable. */
async function readHere(bytes: Uint8Array, name: string): Promise<Table> {
	const format = detectFormat(name, bytes);
	if (format === 'xlsx') return readXlsx(bytes);
	if (format === 'json') return readJson(bytes);
	return readCsv(bytes);
}

// --- The worker ----------------------------------------------------------------------------------

/** Marks the worker this module starts, whichever file the module was bundled into. */
const WORKER_KEY = 'chamber.memberFileReader';

type WorkerAnswer = { table: Table } | { refused: string } | { failed: string };

interface WorkerInput {
	[WORKER_KEY]: true;
	bytes: Uint8Array;
	name: string;
}

// The worker runs this very file (import.meta.url): on Netlify that is the function's bundle, in
// development the module itself, so there is no second entry file to ship.
if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.[WORKER_KEY] === true) {
	const input = workerData as WorkerInput;
	readHere(input.bytes, input.name).then(
		(table) => parentPort!.postMessage({ table } satisfies WorkerAnswer),
		(error: unknown) =>
			parentPort!.postMessage(
				(error instanceof UnreadableFileError
					? { refused: error.message }
					: {
							failed: error instanceof Error ? error.message : String(error),
						}) satisfies WorkerAnswer,
			),
	);
}

/**
 * Reads a member file (its name helps tell the format) into its headings and rows, in a worker
 * thread bounded by IMPORT_LIMITS (size, rows, columns, zip parts and unpacked bytes, time, heap).
 * Throws UnreadableFileError with a sentence for the person when the file is refused.
 */
export async function readTable(bytes: Uint8Array, name: string): Promise<Table> {
	if (bytes.byteLength > IMPORT_LIMITS.fileBytes) {
		throw new UnreadableFileError(LIMIT_MESSAGES.fileBytes);
	}
	const worker = new Worker(new URL(import.meta.url), {
		workerData: { [WORKER_KEY]: true, bytes, name } satisfies WorkerInput,
		resourceLimits: { maxOldGenerationSizeMb: IMPORT_LIMITS.readerHeapMb },
		// The server's own flags (a debugger, a heap size) are not the reader's.
		execArgv: [],
	});
	try {
		return await new Promise<Table>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new UnreadableFileError(LIMIT_MESSAGES.readMs)),
				IMPORT_LIMITS.readMs,
			);
			const settle = () => clearTimeout(timer);
			worker.once('message', (answer: WorkerAnswer) => {
				settle();
				if ('table' in answer) resolve(answer.table);
				else if ('refused' in answer) reject(new UnreadableFileError(answer.refused));
				else reject(new Error(`The member file reader failed: ${answer.failed}`));
			});
			worker.once('error', (error: NodeJS.ErrnoException) => {
				settle();
				reject(
					error.code === 'ERR_WORKER_OUT_OF_MEMORY'
						? new UnreadableFileError(LIMIT_MESSAGES.readerHeapMb)
						: new Error(`The member file reader failed: ${error.message}`, { cause: error }),
				);
			});
			worker.once('exit', (code) => {
				settle();
				reject(new Error(`The member file reader stopped (exit code ${code}) without an answer.`));
			});
		});
	} finally {
		await worker.terminate();
	}
}
