import { PassThrough } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';

/**
 * Member files made to hurt a server, for the tests of the import's limits: a decompression
 * bomb (a workbook whose zip holds parts that unpack to gigabytes), a workbook whose sheet
 * unpacks to far more than its size in the zip's directory says, and a sheet with far too many
 * rows. The bombs are written here by hand because no zip library writes a lying or gigabyte part
 * without inflating it first; the workbooks around them are exceljs's own.
 */

export interface ZipPart {
	name: string;
	/** The part's bytes as stored (raw deflate). */
	data: Buffer;
	crc: number;
	/** What the part says it unpacks to (32 bits, so at most 4 GiB − 1 per part). */
	size: number;
}

/** A deflated part from its content (small parts: the workbook's own). */
export function deflatedPart(name: string, content: Buffer): ZipPart {
	return { name, data: deflateRawSync(content), crc: crc32(content), size: content.byteLength };
}

const SEGMENT_BYTES = 64 * 1024 * 1024;
let zeroSegment: Buffer | undefined;

/**
 * Raw deflate data that inflates to `segments` × 64 MiB of zeros, about 1,000 times smaller than
 * that: one segment compressed and flushed to a byte boundary, repeated, then an empty final
 * block. Its CRC is left 0: a reader learns that only after inflating all of it, which is what a
 * bomb is about.
 */
function zeros(segments: number): { data: Buffer; size: number } {
	zeroSegment ??= deflateRawSync(Buffer.alloc(SEGMENT_BYTES), {
		level: 9,
		finishFlush: constants.Z_SYNC_FLUSH,
	});
	const data = Buffer.concat([...Array(segments).fill(zeroSegment), Buffer.from([0x03, 0x00])]);
	return { data, size: segments * SEGMENT_BYTES };
}

/** A zip (no zip64, no data descriptors) of the parts, their sizes as given. */
export function zipOf(parts: readonly ZipPart[]): Buffer {
	const locals: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const part of parts) {
		const name = Buffer.from(part.name, 'utf8');
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4); // version needed
		local.writeUInt16LE(0x0800, 6); // UTF-8 names
		local.writeUInt16LE(8, 8); // deflate
		local.writeUInt32LE(0, 10); // time, date
		local.writeUInt32LE(part.crc >>> 0, 14);
		local.writeUInt32LE(part.data.byteLength, 18);
		local.writeUInt32LE(part.size, 22);
		local.writeUInt16LE(name.byteLength, 26);
		local.writeUInt16LE(0, 28);
		const header = Buffer.alloc(46);
		header.writeUInt32LE(0x02014b50, 0);
		header.writeUInt16LE(20, 4);
		header.writeUInt16LE(20, 6);
		header.writeUInt16LE(0x0800, 8);
		header.writeUInt16LE(8, 10);
		header.writeUInt32LE(0, 12);
		header.writeUInt32LE(part.crc >>> 0, 16);
		header.writeUInt32LE(part.data.byteLength, 20);
		header.writeUInt32LE(part.size, 24);
		header.writeUInt16LE(name.byteLength, 28);
		header.writeUInt32LE(offset, 42);
		locals.push(local, name, part.data);
		central.push(header, name);
		offset += local.byteLength + name.byteLength + part.data.byteLength;
	}
	const directory = Buffer.concat(central);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(parts.length, 8);
	end.writeUInt16LE(parts.length, 10);
	end.writeUInt32LE(directory.byteLength, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/** A real workbook (exceljs) of members, as its parts. */
export async function workbookParts(rows: readonly (readonly unknown[])[]): Promise<ZipPart[]> {
	const workbook = new ExcelJS.Workbook();
	const sheet = workbook.addWorksheet('Members');
	for (const row of rows) sheet.addRow([...row]);
	const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
	const zip = await yauzl.fromBufferPromise(bytes);
	const parts: ZipPart[] = [];
	for await (const entry of zip.eachEntry()) {
		const chunks: Buffer[] = [];
		for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
		parts.push(deflatedPart(entry.fileName, Buffer.concat(chunks)));
	}
	return parts;
}

export const MEMBERS = [
	['Profile ID', 'Organization Name', 'City'],
	[101, 'Lakeside Bakery', 'Lakeside'],
	[102, 'Harbor Hardware', 'Harbor'],
] as const;

/**
 * A workbook of two members and parts nobody reads (`xl/media/…`) that honestly say they unpack
 * to about 1,000 times the file's size: the review's 400 KB file with a 400 MB part, grown to
 * `fileBytes` (at most the bucket's 50 MB), which unpacks to about 50 GB.
 */
export async function unusedPartsBomb(fileBytes: number): Promise<Buffer> {
	const parts = await workbookParts(MEMBERS);
	const segment = zeros(1).data.byteLength;
	for (let i = 1; ; i += 1) {
		// 63 × 64 MiB at most: just under the 4 GiB a part may say without zip64.
		const room = fileBytes - zipOf(parts).byteLength - 200;
		const segments = Math.min(63, Math.floor(room / segment));
		if (segments < 1) return zipOf(parts);
		const bomb = zeros(segments);
		parts.push({ name: `xl/media/image${i}.bin`, data: bomb.data, crc: 0, size: bomb.size });
	}
}

/**
 * A workbook whose first sheet, said to be as small as the real one, inflates to `segments` ×
 * 64 MiB: only counting what comes out of zlib stops it.
 */
export async function lyingSheetBomb(segments: number): Promise<Buffer> {
	const parts = await workbookParts(MEMBERS);
	const bomb = zeros(segments);
	return zipOf(
		parts.map((part) =>
			part.name === 'xl/worksheets/sheet1.xml' ? { ...part, data: bomb.data, crc: 0 } : part,
		),
	);
}

/** A real workbook (exceljs's streaming writer) with `rows` members under the headings. */
export async function bigSheet(rows: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	const out = new PassThrough();
	out.on('data', (chunk: Buffer) => chunks.push(chunk));
	const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
	const sheet = workbook.addWorksheet('Members');
	sheet.addRow(['Profile ID', 'Organization Name', 'City', 'Phone']).commit();
	for (let i = 1; i <= rows; i += 1) {
		sheet.addRow([i, `Member ${i}`, 'Lakeside', '555-0100']).commit();
	}
	sheet.commit();
	await workbook.commit();
	return Buffer.concat(chunks);
}

/** A CSV with `rows` members under the headings. */
export function bigCsv(rows: number): Buffer {
	const lines = ['Profile ID,Organization Name,City,Phone'];
	for (let i = 1; i <= rows; i += 1) lines.push(`${i},Member ${i},Lakeside,555-0100`);
	return Buffer.from(`${lines.join('\r\n')}\r\n`);
}
