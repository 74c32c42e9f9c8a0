/**
 * What one member file may be, whether a person uploaded it or the sync read it from the
 * membership system: the one place each cap is set (docs/member-imports.md#limits). The panel
 * checks the size before uploading; the server checks everything while it reads, in a worker
 * thread with its own memory limit, so a hostile file can end that worker and nothing else.
 */
export const IMPORT_LIMITS = {
	/** Bytes of the file: the imports bucket's own limit, and the membership system's export's. */
	fileBytes: 50 * 1024 * 1024,
	/** Members (rows under the headings); a 50,000-member export is the benchmarked size. */
	rows: 100_000,
	/** Columns (headings). */
	columns: 500,
	/** Parts in an Excel workbook's zip (a member list has about ten). */
	zipEntries: 1_000,
	/**
	 * Bytes an Excel workbook unpacks to: the sizes all its parts declare, and the bytes actually
	 * inflated of the parts read (counted while inflating; a part that inflates to more than it
	 * declares is refused at that point).
	 */
	unpackedBytes: 500 * 1024 * 1024,
	/** How long reading one file may take, from the first byte to the last row. */
	readMs: 120_000,
	/** The reading worker's JavaScript heap, in MB. */
	readerHeapMb: 256,
} as const;

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

/** Why a file was refused, in words for the chamber's staff (shown in the panel as they are). */
export const LIMIT_MESSAGES = {
	fileBytes: `The file is larger than ${megabytes(IMPORT_LIMITS.fileBytes)}, the most one import reads. Save only the member list (as CSV, or as a new workbook) and import that.`,
	rows: `The file has more than ${count(IMPORT_LIMITS.rows)} rows, the most one import takes. Split it into smaller files and import them one after another, keeping members missing from each part listed.`,
	columns: `The file has more than ${count(IMPORT_LIMITS.columns)} columns. Remove the columns the directory does not need and import it again.`,
	zipEntries: `The workbook holds more than ${count(IMPORT_LIMITS.zipEntries)} parts, far more than a member list needs. Copy the member list into a new workbook (or save it as CSV) and import that.`,
	unpackedBytes: `The workbook unpacks to more than ${megabytes(IMPORT_LIMITS.unpackedBytes)}, far more than a member list needs (it may hold pictures or other sheets). Copy the member list into a new workbook (or save it as CSV) and import that.`,
	readMs: `Reading the file took longer than ${IMPORT_LIMITS.readMs / 60_000} minutes, the most one import may take. Save the member list as CSV, or split it, and import it again.`,
	readerHeapMb:
		'Reading the file needed more memory than an import may use. Save the member list as CSV, or split it, and import it again.',
} as const satisfies Record<keyof typeof IMPORT_LIMITS, string>;
