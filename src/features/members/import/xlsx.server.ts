import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import RelationshipsXform from 'exceljs/lib/xlsx/xform/core/relationships-xform.js';
import WorkbookXform from 'exceljs/lib/xlsx/xform/book/workbook-xform.js';
import SharedStringsXform from 'exceljs/lib/xlsx/xform/strings/shared-strings-xform.js';
import StylesXform from 'exceljs/lib/xlsx/xform/style/styles-xform.js';
import WorksheetReader from 'exceljs/lib/stream/xlsx/worksheet-reader.js';
import yauzl from 'yauzl';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from './limits.ts';

/**
 * The first worksheet of an Excel workbook, row by row, without trusting the zip. yauzl reads the
 * zip's directory; only the parts a worksheet needs are inflated (the workbook, its
 * relationships, the shared strings, the styles, the first sheet), in that order, each byte
 * counted as it comes out of zlib; every other part, whatever it declares, is never inflated.
 * exceljs's own parsers read those parts (its streaming WorksheetReader for the sheet): its
 * WorkbookReader is not used because it inflates parts in the zip's order, writes a sheet that
 * comes before the shared strings to a temporary file, and counts nothing.
 */

/** A failure whose message is for the person who chose the file. */
export class XlsxRefused extends Error {}

const UNREADABLE = 'The file is not a readable Excel workbook (.xlsx).';
const LYING_PART =
	'The file is not a readable Excel workbook (.xlsx): one of its parts unpacks to more than the workbook says it holds.';

/** Bytes still allowed to come out of the zip, shared by every part read. */
class InflateBudget {
	private left: number = IMPORT_LIMITS.unpackedBytes;
	take(bytes: number): void {
		this.left -= bytes;
		if (this.left < 0) throw new XlsxRefused(LIMIT_MESSAGES.unpackedBytes);
	}
}

type Entries = Map<string, yauzl.Entry>;

async function openZip(bytes: Uint8Array): Promise<{ zip: yauzl.ZipFile; entries: Entries }> {
	let zip: yauzl.ZipFile;
	try {
		zip = await yauzl.fromBufferPromise(
			Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
			{
				validateEntrySizes: true,
				strictFileNames: false,
			},
		);
	} catch {
		throw new XlsxRefused(UNREADABLE);
	}
	if (zip.entryCount > IMPORT_LIMITS.zipEntries) throw new XlsxRefused(LIMIT_MESSAGES.zipEntries);
	const entries: Entries = new Map();
	let declared = 0;
	try {
		for await (const entry of zip.eachEntry()) {
			declared += entry.uncompressedSize;
			// What the parts say they unpack to is enough to refuse; what they really do is counted
			// while inflating (a part that claims less is cut off by yauzl at its claim).
			if (declared > IMPORT_LIMITS.unpackedBytes)
				throw new XlsxRefused(LIMIT_MESSAGES.unpackedBytes);
			entries.set(entry.fileName, entry);
		}
	} catch (error) {
		throw error instanceof XlsxRefused ? error : new XlsxRefused(UNREADABLE);
	}
	return { zip, entries };
}

/** A part's text as it inflates, counted against the budget; the stream is destroyed on refusal. */
async function* partText(
	zip: yauzl.ZipFile,
	entry: yauzl.Entry,
	budget: InflateBudget,
): AsyncGenerator<string> {
	if (entry.isEncrypted())
		throw new XlsxRefused(
			'The workbook is protected by a password: save it without one and import it again.',
		);
	let stream: Readable;
	try {
		stream = await zip.openReadStreamPromise(entry);
	} catch {
		throw new XlsxRefused(UNREADABLE);
	}
	// Decoded as one stream, so a character split between two chunks stays one character.
	const decoder = new TextDecoder('utf-8');
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			budget.take(chunk.byteLength);
			yield decoder.decode(chunk, { stream: true });
		}
	} catch (error) {
		stream.destroy();
		if (error instanceof XlsxRefused) throw error;
		// yauzl's count of what came out against the size the part declares.
		if (/too many bytes/.test((error as Error).message)) throw new XlsxRefused(LYING_PART);
		throw new XlsxRefused(UNREADABLE);
	}
	const rest = decoder.decode();
	if (rest) yield rest;
}

/** Where a relationship's target lives in the zip (relative to xl/, or absolute). */
function partName(target: string): string {
	return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target));
}

interface Relationship {
	Id: string;
	Type: string;
	Target: string;
}

/** An exceljs row as the streaming reader hands it out. */
export type XlsxRow = ExcelJS.Row;

/**
 * Reads the first worksheet (in the workbook's order) and hands each row to `onRow`, which may
 * throw to stop. Everything about the zip is checked against IMPORT_LIMITS.
 */
export async function readFirstSheet(
	bytes: Uint8Array,
	onRow: (row: XlsxRow) => void,
): Promise<void> {
	const { zip, entries } = await openZip(bytes);
	const budget = new InflateBudget();
	const part = (name: string) => {
		const entry = entries.get(name);
		return entry ? partText(zip, entry, budget) : null;
	};

	const relsText = part('xl/_rels/workbook.xml.rels');
	const workbookText = part('xl/workbook.xml');
	if (!relsText || !workbookText) throw new XlsxRefused(UNREADABLE);
	const rels = ((await new RelationshipsXform().parseStream(relsText)) ?? []) as Relationship[];
	const workbook = new WorkbookXform();
	await workbook.parseStream(workbookText);
	const first = workbook.model?.sheets?.[0];
	const sheetRel = first && rels.find((r) => r.Id === first.rId);
	const sheetText = sheetRel ? part(partName(sheetRel.Target)) : null;
	if (!sheetText) throw new XlsxRefused('The workbook is empty.');

	const byType = (type: string) => rels.find((r) => r.Type.endsWith(`/${type}`));
	const stringsRel = byType('sharedStrings');
	const stringsText = stringsRel ? part(partName(stringsRel.Target)) : null;
	const sharedStrings = new SharedStringsXform();
	if (stringsText) await sharedStrings.parseStream(stringsText);
	const stylesRel = byType('styles');
	const stylesText = stylesRel ? part(partName(stylesRel.Target)) : null;
	const styles = new StylesXform();
	styles.init();
	if (stylesText) await styles.parseStream(stylesText);

	const reader = new WorksheetReader({
		workbook: {
			sharedStrings: sharedStrings.values,
			styles,
			properties: workbook.map.workbookPr,
		},
		id: 1,
		iterator: sheetText,
		options: { worksheets: 'emit', hyperlinks: 'ignore' },
	});
	for await (const row of reader) onRow(row);
}
