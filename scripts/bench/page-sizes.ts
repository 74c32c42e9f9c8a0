import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** No page of the site may be larger than this much HTML (uncompressed), at any chamber size. */
export const HTML_PAGE_BUDGET_BYTES = 300 * 1024;

export interface PageSize {
	/** The page's address: /category/retail/2/ for dist/category/retail/2/index.html. */
	path: string;
	bytes: number;
}

/** Every .html file under a build's output, as addresses with their sizes, largest first. */
export async function pageSizes(distDir: string): Promise<PageSize[]> {
	const files = await readdir(distDir, { recursive: true });
	const pages: PageSize[] = [];
	for (const file of files) {
		if (!file.endsWith('.html')) continue;
		const { size } = await stat(join(distDir, file));
		const path = `/${relative('.', file).split(sep).join('/')}`.replace(/(^|\/)index\.html$/, '$1');
		pages.push({ path, bytes: size });
	}
	return pages.sort((a, b) => b.bytes - a.bytes || a.path.localeCompare(b.path));
}

/** The pages over the budget (none when the build keeps it). */
export function overBudget(
	pages: readonly PageSize[],
	budget = HTML_PAGE_BUDGET_BYTES,
): PageSize[] {
	return pages.filter((page) => page.bytes > budget);
}

/** '  /category/retail/  104.2 KB' lines for the largest pages, marking those over the budget. */
export function describeLargest(pages: readonly PageSize[], count = 5): string[] {
	return pages
		.slice(0, count)
		.map(
			(page) =>
				`  ${(page.bytes / 1024).toFixed(1).padStart(8)} KB  ${page.path}${page.bytes > HTML_PAGE_BUDGET_BYTES ? '  (over the 300 KB budget)' : ''}`,
		);
}
