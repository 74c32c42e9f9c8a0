import { describe, expect, it } from 'vitest';
import {
	resolveMapping,
	normalizeHeader,
	MAPPING_TARGETS,
	BUILT_IN_HEADINGS,
	TARGET_LABELS,
} from './fields.ts';
import {
	confirmDecision,
	decideRow,
	documentToInput,
	fieldLabel,
	formatSummary,
	type ExistingBusiness,
} from './import.ts';
import { readTable } from './read.server.ts';
import { IMPORT_LIMITS, LIMIT_MESSAGES } from './limits.ts';
import ExcelJS from 'exceljs';
import {
	deflatedPart,
	lyingSheetBomb,
	MEMBERS,
	unusedPartsBomb,
	workbookParts,
	zipOf,
} from '../../../../tests/support/hostile-files.ts';

const encode = (text: string) => new TextEncoder().encode(text);

// Each read starts the reading process: seconds on a busy machine.
describe('reading a member file', { timeout: 60_000 }, () => {
	it('reads CSV with a BOM, semicolons and a quoted field with a line break', async () => {
		const csv =
			'\uFEFFProfile ID;Organization Name;Description\r\n42;"Bakery; Café";"Fresh bread\nevery day"\r\n';
		const table = await readTable(encode(csv), 'export.csv');
		expect(table.headers).toEqual(['Profile ID', 'Organization Name', 'Description']);
		expect(table.rows).toEqual([
			{
				rowNumber: 2,
				cells: {
					'Profile ID': '42',
					'Organization Name': 'Bakery; Café',
					Description: 'Fresh bread\nevery day',
				},
			},
		]);
	});

	it('reads comma-separated CSV without a BOM and numbers rows as a spreadsheet does', async () => {
		const table = await readTable(encode('id,name\n1,A\n\n2,B\n'), 'x.csv');
		expect(table.rows.map((r) => r.rowNumber)).toEqual([2, 3]);
	});

	it('refuses two columns with one heading, naming it', async () => {
		await expect(readTable(encode('Name,Name\na,b\n'), 'x.csv')).rejects.toThrow(
			'Two columns have the heading "Name"',
		);
	});

	it('reads the first worksheet of an XLSX file, dates as dates', async () => {
		const workbook = new ExcelJS.Workbook();
		const sheet = workbook.addWorksheet('Members');
		sheet.addRow(['Account Number', 'Member Name', 'Join Date']);
		sheet.addRow([7, 'Riverside Hardware', new Date(Date.UTC(2019, 2, 4))]);
		const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
		const table = await readTable(bytes, 'members.xlsx');
		expect(table.format).toBe('xlsx');
		expect(table.rows[0]!.cells['Account Number']).toBe(7);
		expect(table.rows[0]!.cells['Join Date']).toBeInstanceOf(Date);
	});

	it('reads the tenant file JSON and the membership system envelope', async () => {
		const file = {
			tenant: { slug: 'x', name: 'X' },
			businesses: [{ weblink_profile_id: '5', report_name: 'A' }],
		};
		expect((await readTable(encode(JSON.stringify(file)), 'x.json')).rows).toHaveLength(1);
		const envelope = { Result: [{ weblink_profile_id: 6, report_name: 'B' }] };
		expect((await readTable(encode(JSON.stringify(envelope)), 'x')).format).toBe('json');
	});
});

describe('the limits of a member file', { timeout: 60_000 }, () => {
	const csvRows = (rows: number) =>
		encode(
			['Profile ID,Name', ...Array.from({ length: rows }, (_, i) => `${i + 1},M${i}`)].join('\n'),
		);

	it('refuses a file larger than 50 MB before reading it', async () => {
		expect(IMPORT_LIMITS.fileBytes).toBe(50 * 1024 * 1024);
		await expect(readTable(new Uint8Array(IMPORT_LIMITS.fileBytes + 1), 'x.csv')).rejects.toThrow(
			LIMIT_MESSAGES.fileBytes,
		);
	});

	it('refuses more than 100,000 rows, in CSV and in JSON', async () => {
		await expect(readTable(csvRows(IMPORT_LIMITS.rows + 1), 'x.csv')).rejects.toThrow(
			LIMIT_MESSAGES.rows,
		);
		const list = JSON.stringify(
			Array.from({ length: IMPORT_LIMITS.rows + 1 }, (_, i) => ({ id: i })),
		);
		await expect(readTable(encode(list), 'x.json')).rejects.toThrow(LIMIT_MESSAGES.rows);
	});

	it('refuses more than 500 columns', async () => {
		const headings = Array.from({ length: IMPORT_LIMITS.columns + 1 }, (_, i) => `C${i}`);
		await expect(readTable(encode(`${headings.join(',')}\n`), 'x.csv')).rejects.toThrow(
			LIMIT_MESSAGES.columns,
		);
	});

	it('refuses a workbook whose parts say they unpack to gigabytes, inflating none of them', async () => {
		const bomb = await unusedPartsBomb(5 * 1024 * 1024);
		await expect(readTable(new Uint8Array(bomb), 'x.xlsx')).rejects.toThrow(
			LIMIT_MESSAGES.unpackedBytes,
		);
	});

	it('stops a sheet that inflates to more than it says, while inflating', async () => {
		const bomb = await lyingSheetBomb(2);
		await expect(readTable(new Uint8Array(bomb), 'x.xlsx')).rejects.toThrow(
			'one of its parts unpacks to more than the workbook says it holds',
		);
	});

	it('refuses a workbook of more than 1,000 parts', async () => {
		const parts = await workbookParts(MEMBERS);
		for (let i = 0; parts.length <= IMPORT_LIMITS.zipEntries; i += 1) {
			parts.push(deflatedPart(`xl/media/part${i}.bin`, Buffer.from('x')));
		}
		await expect(readTable(new Uint8Array(zipOf(parts)), 'x.xlsx')).rejects.toThrow(
			LIMIT_MESSAGES.zipEntries,
		);
	});

	it('reads a workbook whose parts are all there, unused ones included', async () => {
		const parts = await workbookParts(MEMBERS);
		parts.push(deflatedPart('xl/media/logo.bin', Buffer.alloc(1024)));
		const table = await readTable(new Uint8Array(zipOf(parts)), 'x.xlsx');
		expect(table.rows.map((r) => r.cells['Organization Name'])).toEqual([
			'Lakeside Bakery',
			'Harbor Hardware',
		]);
	});

	it('refuses text that is not UTF-8', async () => {
		await expect(
			readTable(new Uint8Array([0x61, 0x2c, 0x62, 0x0a, 0xff, 0xfe]), 'x.csv'),
		).rejects.toThrow('The file is not UTF-8 text');
	});
});

describe('mapping headings', () => {
	it('maps the usual exports by name and leaves the unknown to a person', () => {
		const resolved = resolveMapping(
			['Account Number', 'Member Name', 'Membership Type', 'Join Date', 'Favourite colour'],
			new Map(),
		);
		expect(resolved.mapping).toEqual({
			'Account Number': 'weblink_profile_id',
			'Member Name': 'report_name',
			'Membership Type': 'membership_level_name',
			'Join Date': 'member_since_date',
		});
		expect(resolved.unknown).toEqual(['Favourite colour']);
		expect(resolved.byId).toBe(true);
	});

	it('uses a chamber’s saved mapping before the built-in one; without an id column it matches by rules', () => {
		const resolved = resolveMapping(['Name', 'Colour'], new Map([[normalizeHeader('Colour'), '']]));
		expect(resolved.mapping).toEqual({ Name: 'report_name', Colour: '' });
		expect(resolved.byId).toBe(false);
	});

	it('maps a plain member list by itself: Business, Phone, Email, Website, Category', () => {
		const resolved = resolveMapping(
			['Business', 'Phone', 'Email', 'Website', 'Category'],
			new Map(),
		);
		expect(resolved).toEqual({
			mapping: {
				Business: 'report_name',
				Phone: 'work_phone',
				Email: 'email',
				Website: 'website',
				Category: 'categories',
			},
			unknown: [],
			byId: false,
		});
	});

	it.each([
		[
			'report_name',
			[
				'Business',
				'Business Name',
				'Company',
				'Company Name',
				'Organization',
				'Organisation',
				'Member Name',
				'DBA',
				'Trading Name',
			],
		],
		[
			'work_phone',
			[
				'Phone',
				'Phone Number',
				'Phone #',
				'Tel',
				'Tel.',
				'Telephone',
				'Office Phone',
				'Contact Phone',
			],
		],
		[
			'email',
			['Email', 'E-mail', 'E-Mail Address', 'Email Address', 'Contact Email', 'Work Email'],
		],
		['website', ['Website', 'Web Site', 'Web', 'URL', 'Web Address', 'Site', 'Homepage', 'WWW']],
		[
			'categories',
			[
				'Category',
				'Categories',
				'Business Category',
				'Business Type',
				'Type of Business',
				'Industry',
			],
		],
		['city', ['City', 'Town', 'City/Town']],
	] as const)('recognises the everyday headings of %s', (field, headings) => {
		for (const heading of headings) {
			expect(resolveMapping([heading], new Map()).mapping, heading).toEqual({ [heading]: field });
		}
	});

	it('names every field a column can fill apart from the others, as the Members tab does', () => {
		const labels = MAPPING_TARGETS.map((t) => TARGET_LABELS[t]);
		expect(new Set(labels).size).toBe(labels.length);
		expect([TARGET_LABELS.city, TARGET_LABELS.membership_level_name]).toEqual([
			'City',
			'Membership level',
		]);
		expect([TARGET_LABELS.address1, TARGET_LABELS.zip, TARGET_LABELS.email]).toEqual([
			'Address line 1',
			'ZIP code',
			'E-mail',
		]);
		expect(['twitter', 'social_media', 'listings'].map(fieldLabel)).toEqual([
			'X (Twitter)',
			'Social links',
			'Descriptions',
		]);
	});

	it('claims every built-in heading for one field only', () => {
		const all = MAPPING_TARGETS.flatMap((t) => BUILT_IN_HEADINGS[t]);
		expect(new Set(all).size).toBe(all.length);
	});
});

const mapping = {
	'Profile ID': 'weblink_profile_id',
	Name: 'report_name',
	Website: 'website',
	Since: 'member_since_date',
	Facebook: 'facebook',
	Description: 'description',
} as const;

const existing = (overrides: string[] = []): ExistingBusiness => ({
	id: '00000000-0000-0000-0000-000000000001',
	version: 3,
	removed: false,
	overrides,
	document: documentToInput({
		id: 'ignored',
		weblink_profile_id: '42',
		report_name: 'Bakery',
		website: 'https://old.example',
		city: 'Lakeside',
		membership_rank: null,
		listing_position: 1000,
		member_since_date: null,
		listings: [{ description: 'Old', categories: ['Food'], primary_listing: true }],
		social_media: [{ platform: 'Twitter', url: 'https://x.com/bakery' }],
	}),
});

describe("the dry run of a row and the business's location", () => {
	const placed = (overrides: string[] = []): ExistingBusiness => {
		const business = existing(overrides);
		return {
			...business,
			document: { ...business.document, location: { latitude: 41.97791, longitude: -91.66562 } },
		};
	};

	it('leaves the location of a business where it is when the file does not give one', () => {
		const decision = decideRow(
			{ rowNumber: 2, cells: { 'Profile ID': '42', Website: 'https://new.example' } },
			mapping,
			placed(),
		);
		expect(decision.changes.map((c) => c.field)).toEqual(['website']);
		// The apply writes no location: the geocoder's, or a pin placed by hand, stays.
		expect(decision.record).not.toHaveProperty('location');
		const whole = decideRow(
			{
				rowNumber: 2,
				cells: { weblink_profile_id: '42', report_name: 'Bakery', city: 'Lakeside' },
			},
			{ weblink_profile_id: 'weblink_profile_id', report_name: 'report_name', city: 'city' },
			placed(),
			{ whole: true },
		);
		expect(whole.changes.map((c) => c.field)).not.toContain('location');
	});

	it("takes a JSON file's coordinates, and keeps a pin placed by hand against them", () => {
		const cells = {
			'Profile ID': '42',
			location: { latitude: 41.5, longitude: -91.5 },
		};
		const moved = decideRow({ rowNumber: 2, cells }, mapping, placed());
		expect(moved.changes).toEqual([
			{
				field: 'location',
				before: { latitude: 41.97791, longitude: -91.66562 },
				after: { latitude: 41.5, longitude: -91.5 },
			},
		]);
		const kept = decideRow({ rowNumber: 2, cells }, mapping, placed(['location']));
		expect(kept.action).toBe('unchanged');
		expect(kept.changes).toEqual([expect.objectContaining({ field: 'location', kept: true })]);
	});

	it("reads a table's column named Location as no location (a neighbourhood's name is text)", () => {
		const decision = decideRow(
			{ rowNumber: 2, cells: { 'Profile ID': '42', location: 'Downtown' } },
			mapping,
			placed(),
		);
		expect(decision.action).toBe('unchanged');
	});
});

describe('the dry run of a row', () => {
	it('names the row, column and message of every bad cell', () => {
		const decision = decideRow(
			{
				rowNumber: 3,
				cells: { 'Profile ID': '42', Name: 'Bakery', Since: '31/31/2020', Website: 'nope' },
			},
			mapping,
			existing(),
		);
		expect(decision.action).toBe('invalid');
		expect(decision.errors).toEqual([
			{
				column: 'Since',
				field: 'member_since_date',
				message: 'Expected a date like 2027-03-15 or 3/15/2027',
			},
		]);
	});

	it('shows each changed field before and after, and keeps fields the file does not have', () => {
		const decision = decideRow(
			{
				rowNumber: 2,
				cells: {
					'Profile ID': '0042',
					Website: 'https://new.example',
					Facebook: 'https://fb.com/b',
					Description: 'New',
				},
			},
			mapping,
			existing(),
		);
		expect(decision.action).toBe('change');
		expect(decision.changes.map((c) => c.field)).toEqual(['website', 'listings', 'social_media']);
		expect(decision.record).toMatchObject({
			id: '00000000-0000-0000-0000-000000000001',
			city: 'Lakeside',
			website: 'https://new.example',
			listings: [{ description: 'New', categories: ['Food'] }],
			social_media: [
				{ platform: 'Twitter', url: 'https://x.com/bakery' },
				{ platform: 'Facebook', url: 'https://fb.com/b' },
			],
		});
	});

	it('reads an Opening Hours column in the text form, and names the cell of a bad one', () => {
		const hoursMapping = { ...mapping, 'Opening Hours': 'hours' } as const;
		expect(resolveMapping(['Opening Hours', 'Hours of Operation'], new Map()).mapping).toEqual({
			'Opening Hours': 'hours',
		});
		const decision = decideRow(
			{
				rowNumber: 2,
				cells: { 'Profile ID': '42', 'Opening Hours': 'Mon-Fri 9-17; By appointment' },
			},
			hoursMapping,
			existing(),
		);
		expect(decision.action).toBe('change');
		expect(decision.changes.map((c) => c.field)).toEqual(['hours']);
		expect(decision.record).toMatchObject({
			hours: {
				mon: [{ open: '09:00', close: '17:00' }],
				fri: [{ open: '09:00', close: '17:00' }],
				sat: [],
				note: 'By appointment',
			},
		});
		const bad = decideRow(
			{
				rowNumber: 3,
				cells: { 'Profile ID': '42', 'Opening Hours': 'Mon 9:00-13:00, 12:00-17:00' },
			},
			hoursMapping,
			existing(),
		);
		expect(bad.action).toBe('invalid');
		expect(bad.errors).toEqual([
			expect.objectContaining({
				column: 'Opening Hours',
				message: expect.stringMatching(/in order and not overlap/),
			}),
		]);
	});

	it('leaves a field staff changed here, and says so', () => {
		const decision = decideRow(
			{ rowNumber: 2, cells: { 'Profile ID': '42', Website: 'https://new.example' } },
			mapping,
			existing(['website']),
		);
		expect(decision.action).toBe('unchanged');
		expect(decision.changes).toEqual([
			{ field: 'website', before: 'https://old.example', after: 'https://new.example', kept: true },
		]);
	});

	it('adds a new business and refuses one without a name', () => {
		expect(
			decideRow({ rowNumber: 2, cells: { 'Profile ID': '7', Name: 'New Co' } }, mapping, null)
				.action,
		).toBe('add');
		const nameless = decideRow({ rowNumber: 4, cells: { 'Profile ID': '8' } }, mapping, null);
		expect(nameless.errors).toEqual([
			{ column: 'report_name', field: 'report_name', message: 'A new business needs its name' },
		]);
	});

	it('summarises the same way everywhere', () => {
		expect(
			formatSummary({ added: 1, changed: 2, unchanged: 3, missing: 0, invalid: 1, kept: 0 }),
		).toBe('1 business to add, 2 to change, 3 unchanged, 0 missing from the file, 1 invalid row.');
		expect(
			formatSummary({
				added: 0,
				changed: 0,
				unchanged: 1,
				missing: 0,
				invalid: 0,
				kept: 0,
				confirm: 2,
				skipped: 1,
			}),
		).toBe(
			'0 businesses to add, 0 to change, 1 unchanged, 0 missing from the file, 0 invalid rows, 2 rows to confirm, 1 row skipped.',
		);
	});
});

describe('a file without ids', () => {
	const plain = { Business: 'report_name', Phone: 'work_phone', Email: 'email' } as const;
	const bakery = existing();

	it('compares a row with the business the rules found, and adds one they found none for', () => {
		const change = decideRow(
			{ rowNumber: 2, cells: { Business: 'Lakeside Bakery', Phone: '555-0100', Email: '' } },
			plain,
			bakery,
			{ byId: false },
		);
		expect(change.action).toBe('change');
		expect(change.record).toMatchObject({ id: bakery.id, weblink_profile_id: '42' });
		const add = decideRow(
			{ rowNumber: 3, cells: { Business: 'New Florist', Phone: '', Email: 'f@florist.example' } },
			plain,
			null,
			{ byId: false },
		);
		expect(add.action).toBe('add');
		// The number is the database's to give, when the import is applied.
		expect(add.record?.weblink_profile_id).toBeUndefined();
		// With an id column, a row still needs its id.
		expect(
			decideRow({ rowNumber: 4, cells: { Business: 'X' } }, plain, null).errors[0]?.message,
		).toBe('Every row needs its membership-system id');
	});

	it('offers a row to confirm each business it may be, a new one, and nothing when it is invalid', () => {
		const entry = {
			id: bakery.id,
			weblinkProfileId: '42',
			name: 'Lakeside Bakery',
			city: 'Lakeside',
			email: null,
			website: null,
		};
		const decision = confirmDecision(
			{ rowNumber: 5, cells: { Business: 'Lakeside Bakery Shop', Phone: '555-0101', Email: '' } },
			plain,
			[{ entry, on: 'similar_name', existing: bakery }],
		);
		expect(decision).toMatchObject({ action: 'confirm', name: 'Lakeside Bakery Shop' });
		expect(decision.candidates?.map((c) => [c.profileId, c.action, c.on])).toEqual([
			[bakery.id, 'change', 'similar_name'],
			[null, 'add', null],
		]);
		const bad = confirmDecision(
			{ rowNumber: 6, cells: { Business: 'Lakeside Bakery Shop', Phone: 'x'.repeat(500) } },
			plain,
			[{ entry, on: 'similar_name', existing: bakery }],
		);
		expect(bad.action).toBe('invalid');
	});

	it('reads the chamber’s own numbers in an id column, and refuses one no business has', () => {
		const ids = { ID: 'weblink_profile_id', Business: 'report_name' } as const;
		const own = { ...bakery, document: { ...bakery.document, weblink_profile_id: 'chamber-3' } };
		expect(
			decideRow({ rowNumber: 2, cells: { ID: 'Chamber-003', Business: 'Bakery' } }, ids, own)
				.action,
		).toBe('unchanged');
		expect(
			decideRow({ rowNumber: 3, cells: { ID: 'chamber-9', Business: 'Made Up' } }, ids, null)
				.errors,
		).toEqual([
			{
				column: 'ID',
				field: 'weblink_profile_id',
				message: 'No business of this chamber has the id chamber-9',
			},
		]);
	});
});
