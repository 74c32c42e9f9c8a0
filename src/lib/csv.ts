import Papa from 'papaparse';

/**
 * Every CSV file the product writes, written here: papaparse quotes what needs quoting, and a
 * text cell that a spreadsheet would run as a formula is escaped. Visitors' and members' text
 * reaches these files (search words, business names), and a cell such as
 * `=HYPERLINK("https://…"&A1,"Open report")` would otherwise run in the spreadsheet of the
 * admin who opens the export.
 */

/**
 * A cell starting with one of these is read as a formula, or has it stripped first (tab, return):
 * OWASP's list for CSV injection. papaparse's own `escapeFormulae: true` pattern misses a cell with
 * a line break after its first line (`.` stops at a newline), so the start alone is tested.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell: text, or a number (numbers are never escaped: -3 stays a number). */
export type CsvCell = string | number;

/**
 * CSV for another program, not a person's spreadsheet: rows only, no header, every cell as it is
 * (no formula escaping, which would change an address). The Census geocoder's batch file.
 */
export function toMachineCsv(rows: readonly (readonly CsvCell[])[]): string {
	return Papa.unparse(
		rows.map((row) => [...row]),
		{ newline: '\n' },
	);
}

/** The CSV of a table: its header row, then its rows; text cells that start a formula escaped. */
export function toCsv(fields: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
	return Papa.unparse(
		{ fields: [...fields], data: rows.map((row) => [...row]) },
		{ escapeFormulae: FORMULA_START },
	);
}
