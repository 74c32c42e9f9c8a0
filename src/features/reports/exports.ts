import { toCsv } from '../../lib/csv.ts';
import type { MemberTotals, MonthTotals } from './reports.ts';

/**
 * The Reports tab's CSV exports (staff's, and a member's own report): each exactly the table it
 * is under, written by the one CSV helper, which escapes text a spreadsheet would run as a
 * formula (business names and search words come from outside the chamber's staff).
 */

/** The members table: Business, Shown, Profile views, Actions, in the table's order. */
export function membersCsv(rows: readonly MemberTotals[]): string {
	return toCsv(
		['Business', 'Shown', 'Profile views', 'Actions'],
		rows.map((r) => [r.name, r.shown, r.views, r.actions]),
	);
}

/** A business's 12 months: Month (yyyy-mm), Shown, Profile views, Actions. */
export function monthsCsv(months: readonly MonthTotals[]): string {
	return toCsv(
		['Month', 'Shown', 'Profile views', 'Actions'],
		months.map((m) => [m.month, m.shown, m.views, m.actions]),
	);
}

/** A table of labels and their counts (actions by kind, top search words). */
export function countsCsv(
	columns: readonly [string, string],
	rows: readonly (readonly [string, number])[],
): string {
	return toCsv(columns, rows);
}
