import type ExcelJS from 'exceljs';
import Workbook from 'exceljs/lib/doc/workbook.js';
import Papa from 'papaparse';
import type { TableRow } from './import.ts';

// A member file as a table: its headings and its rows, whatever the format. CSV through
// papaparse (UTF-8 with or without BOM, comma, semicolon or tab, quoted fields with line breaks),
// XLSX through exceljs's Workbook (the first worksheet; that module alone, see
// src/exceljs-workbook.d.ts), JSON as the tenant file's businesses or a list of objects.

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

function readCsv(bytes: Uint8Array): Table {
	const text = decodeText(bytes);
	const parsed = Papa.parse<string[]>(text, {
		skipEmptyLines: 'greedy',
		delimitersToGuess: [',', ';', '\t', '|'],
	});
	const serious = parsed.errors.find((e) => e.type === 'Quotes');
	if (serious) {
		throw new UnreadableFileError(
			`The file is not a readable CSV: ${serious.message} (row ${(serious.row ?? 0) + 1}).`,
		);
	}
	const [head, ...body] = parsed.data;
	if (!head) throw new UnreadableFileError('The file is empty.');
	const headers = uniqueHeaders(head);
	const rows: TableRow[] = body.map((values, index) => {
		const cells: Record<string, unknown> = {};
		headers.forEach((header, column) => {
			if (header !== '') cells[header] = values[column] ?? '';
		});
		return { rowNumber: index + 2, cells };
	});
	return { format: 'csv', headers: headers.filter((h) => h !== ''), rows };
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
	const workbook = new Workbook();
	try {
		await workbook.xlsx.load(
			bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
		);
	} catch {
		throw new UnreadableFileError('The file is not a readable Excel workbook (.xlsx).');
	}
	const sheet = workbook.worksheets[0];
	if (!sheet || sheet.rowCount === 0) throw new UnreadableFileError('The workbook is empty.');
	const headRow = sheet.getRow(1);
	const raw: unknown[] = [];
	for (let c = 1; c <= sheet.columnCount; c += 1) raw.push(excelValue(headRow.getCell(c).value));
	const headers = uniqueHeaders(raw);
	const rows: TableRow[] = [];
	sheet.eachRow({ includeEmpty: false }, (row, number) => {
		if (number === 1) return;
		const cells: Record<string, unknown> = {};
		let filled = false;
		headers.forEach((header, index) => {
			if (header === '') return;
			const value = excelValue(row.getCell(index + 1).value);
			if (value !== '') filled = true;
			cells[header] = value;
		});
		if (filled) rows.push({ rowNumber: number, cells });
	});
	return { format: 'xlsx', headers: headers.filter((h) => h !== ''), rows };
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
	const headers = new Set<string>();
	const rows: TableRow[] = list.map((item, index) => {
		if (!item || typeof item !== 'object' || Array.isArray(item)) {
			return { rowNumber: index + 1, cells: {} };
		}
		for (const key of Object.keys(item)) headers.add(key);
		return { rowNumber: index + 1, cells: item as Record<string, unknown> };
	});
	return { format: 'json', headers: [...headers], rows };
}

/** Reads a member file (its name helps tell the format) into its headings and rows. */
export async function readTable(bytes: Uint8Array, name: string): Promise<Table> {
	const format = detectFormat(name, bytes);
	if (format === 'xlsx') return readXlsx(bytes);
	if (format === 'json') return readJson(bytes);
	return readCsv(bytes);
}
