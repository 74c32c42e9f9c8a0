// exceljs's parsers on their own (src/features/members/import/xlsx.server.ts): the package's
// entry also loads its writers and its zip readers (unzipper, jszip, archiver), which the import
// never uses and which would trace into the background function's zip. Only what the import
// calls is declared.

declare module 'exceljs/lib/xlsx/xform/core/relationships-xform.js' {
	export default class RelationshipsXform {
		parseStream(text: AsyncIterable<string>): Promise<unknown>;
	}
}

declare module 'exceljs/lib/xlsx/xform/book/workbook-xform.js' {
	export default class WorkbookXform {
		parseStream(text: AsyncIterable<string>): Promise<unknown>;
		model?: { sheets?: { name: string; id: number; rId: string; state?: string }[] };
		map: { workbookPr: unknown };
	}
}

declare module 'exceljs/lib/xlsx/xform/strings/shared-strings-xform.js' {
	export default class SharedStringsXform {
		parseStream(text: AsyncIterable<string>): Promise<unknown>;
		readonly values: unknown[];
	}
}

declare module 'exceljs/lib/xlsx/xform/style/styles-xform.js' {
	export default class StylesXform {
		init(): void;
		parseStream(text: AsyncIterable<string>): Promise<unknown>;
	}
}

declare module 'exceljs/lib/stream/xlsx/worksheet-reader.js' {
	import type { Row } from 'exceljs';
	export default class WorksheetReader implements AsyncIterable<Row> {
		constructor(options: {
			workbook: { sharedStrings: unknown[]; styles: unknown; properties: unknown };
			id: number;
			iterator: AsyncIterable<string>;
			options: { worksheets: 'emit'; hyperlinks: 'ignore' };
		});
		[Symbol.asyncIterator](): AsyncIterator<Row>;
	}
}
