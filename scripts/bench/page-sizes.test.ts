import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLargest, HTML_PAGE_BUDGET_BYTES, overBudget, pageSizes } from './page-sizes.ts';

let dist: string;

beforeAll(async () => {
	dist = await mkdtemp(join(tmpdir(), 'page-sizes-'));
	await mkdir(join(dist, 'category/retail/2'), { recursive: true });
	await writeFile(join(dist, 'index.html'), 'x'.repeat(100));
	await writeFile(join(dist, 'category/retail/index.html'), 'x'.repeat(HTML_PAGE_BUDGET_BYTES + 1));
	await writeFile(join(dist, 'category/retail/2/index.html'), 'x'.repeat(2000));
	await writeFile(join(dist, '404.html'), 'x'.repeat(50));
	await writeFile(join(dist, 'sitemap.xml'), 'x'.repeat(HTML_PAGE_BUDGET_BYTES * 2));
});

afterAll(() => rm(dist, { recursive: true, force: true }));

describe('pageSizes', () => {
	it('lists every HTML page by address, largest first; other files are not pages', async () => {
		const pages = await pageSizes(dist);
		expect(pages).toEqual([
			{ path: '/category/retail/', bytes: HTML_PAGE_BUDGET_BYTES + 1 },
			{ path: '/category/retail/2/', bytes: 2000 },
			{ path: '/', bytes: 100 },
			{ path: '/404.html', bytes: 50 },
		]);
		expect(overBudget(pages).map((p) => p.path)).toEqual(['/category/retail/']);
		expect(describeLargest(pages, 2)).toEqual([
			'     300.0 KB  /category/retail/  (over the 300 KB budget)',
			'       2.0 KB  /category/retail/2/',
		]);
	});
});
