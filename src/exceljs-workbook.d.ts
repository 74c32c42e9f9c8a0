// exceljs's Workbook on its own (read.server.ts): the package's entry also loads its streaming
// reader and writer (unzipper, archiver and their dependencies), which the import never uses and
// which would trace about 0.7 MB more into the background function's zip.
declare module 'exceljs/lib/doc/workbook.js' {
	const Workbook: typeof import('exceljs').Workbook;
	export default Workbook;
}
