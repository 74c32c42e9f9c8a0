// Runs on: hosted — a real build reads the chamber through the data API, as Netlify's build reads
// the hosted project; what it proves is the build's paging, so it runs once.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service, stack } from './clients.ts';
import { describeLargest, overBudget, pageSizes } from '../../scripts/bench/page-sizes.ts';
import { buildSite } from '../../scripts/lib/site.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { fixtureBusiness, randomSlug } from './fixtures.ts';

// Category pages at any size: a chamber built for real (astro build) whose largest category
// needs three pages of 48. Small enough for the normal suite (no profile is pre-rendered), large
// enough that the paging, the sitemap, the counts and the page-size budget are all exercised;
// the same budget is checked at 50,000 businesses by `npm run bench:build -- --sizes 50000`.

const slug = randomSlug('paging');
const BAKERIES = 110;
let outDir: string;
let tenantId: string;

const read = (path: string) => readFile(join(outDir, path), 'utf8');

/** The names on a category page's cards, in order. */
function cardNames(html: string): string[] {
	return [...html.matchAll(/<article\b[\s\S]*?<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((m) =>
		m[1]!.replace(/<[^>]+>/g, '').trim(),
	);
}

const link = (html: string, rel: string) =>
	new RegExp(`<link rel="${rel}" href="([^"]+)"`).exec(html)?.[1] ?? null;

beforeAll(async () => {
	const business = (name: string, categories: string[]) => {
		const b = fixtureBusiness({ name, published: true });
		return { ...b, categories, listings: b.listings!.map((l) => ({ ...l, categories })) };
	};
	const businesses = [
		...Array.from({ length: BAKERIES }, (_, i) =>
			business(`Bakery ${String(i + 1).padStart(3, '0')}`, ['Bakeries']),
		),
		...['Rose', 'Tulip', 'Lily'].map((name) => business(`${name} Florist`, ['Florists'])),
	];
	tenantId = (
		await importTenant(
			service,
			parseTenantFile(
				{ tenant: { slug, name: `Paging ${slug}` }, businesses },
				'category pages fixture',
			),
		)
	).tenant_id;
	outDir = await mkdtemp(join(tmpdir(), 'chamber-category-pages-'));
	await buildSite(
		{
			env: {
				SUPABASE_URL: stack.supabaseUrl,
				SUPABASE_ANON_KEY: stack.anonKey,
				SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
				PRERENDERED_PROFILES_MAX: '0',
				SITE_URL: 'https://paging.example',
			},
		},
		slug,
		{ outDir, quiet: true },
	);
}, 600_000);

afterAll(async () => {
	if (outDir) await rm(outDir, { recursive: true, force: true });
	if (tenantId) await service.from('tenants').delete().eq('id', tenantId);
});

describe('a category of 110 businesses', () => {
	it('is three pages of at most 48 cards, each business once, in name order', async () => {
		const pages = await Promise.all(
			[
				'category/bakeries/index.html',
				'category/bakeries/2/index.html',
				'category/bakeries/3/index.html',
			].map(read),
		);
		expect(existsSync(join(outDir, 'category/bakeries/4/index.html'))).toBe(false);
		expect(existsSync(join(outDir, 'category/bakeries/1/index.html'))).toBe(false);
		const names = pages.map(cardNames);
		expect(names.map((n) => n.length)).toEqual([48, 48, 14]);
		expect(names.flat()).toEqual(
			Array.from({ length: BAKERIES }, (_, i) => `Bakery ${String(i + 1).padStart(3, '0')}`),
		);
	});

	it('links its pages with rel=prev/next and page links, and says which page it is', async () => {
		const [first, second, last] = await Promise.all(
			[
				'category/bakeries/index.html',
				'category/bakeries/2/index.html',
				'category/bakeries/3/index.html',
			].map(read),
		);
		expect([link(first!, 'prev'), link(first!, 'next')]).toEqual([
			null,
			'https://paging.example/category/bakeries/2/',
		]);
		expect([link(second!, 'prev'), link(second!, 'next')]).toEqual([
			'https://paging.example/category/bakeries/',
			'https://paging.example/category/bakeries/3/',
		]);
		expect([link(last!, 'prev'), link(last!, 'next')]).toEqual([
			'https://paging.example/category/bakeries/2/',
			null,
		]);
		expect(link(second!, 'canonical')).toBe('https://paging.example/category/bakeries/2/');
		expect(second).toContain('<title>Bakeries Businesses, page 2 of 3 | ');
		expect(second).toContain('<p class="category__count"');
		expect(second).toMatch(/>110 businesses<\/p>/);
		expect(second).toMatch(/>Page 2 of 3: businesses 49–96 of 110<\/p>/);
		const nav = /<nav class="pages"[^>]*aria-label="Pages of this category"[\s\S]*?<\/nav>/.exec(
			second!,
		)?.[0];
		expect(nav).toBeDefined();
		const links = [
			...nav!.matchAll(/<a [^>]*href="([^"]+)"[^>]*aria-label="([^"]+)"([^>]*)>/g),
		].map((m) => [m[2], m[1], m[3]!.includes('aria-current="page"')]);
		expect(links).toEqual([
			['Previous page', '/category/bakeries/', false],
			['Page 1', '/category/bakeries/', false],
			['Page 2', '/category/bakeries/2/', true],
			['Page 3', '/category/bakeries/3/', false],
			['Next page', '/category/bakeries/3/', false],
		]);
	});

	it('loads no script (0 KB of JavaScript)', async () => {
		for (const path of ['category/bakeries/index.html', 'category/bakeries/3/index.html']) {
			const html = await read(path);
			expect(html).not.toMatch(/<script[^>]+src=/);
			expect(html).not.toContain('<astro-island');
		}
	});

	it('a category that fits on one page has no page links', async () => {
		const florists = await read('category/florists/index.html');
		expect(cardNames(florists)).toHaveLength(3);
		expect(florists).not.toContain('aria-label="Pages of this category"');
		expect(link(florists, 'next')).toBeNull();
		expect(florists).not.toContain('Page 1 of');
	});

	it('the home tiles and the category list count what the pages show', async () => {
		const home = await read('index.html');
		expect(home).toMatch(
			/<span class="tile__name"[^>]*>Bakeries<\/span>\s*<span class="tile__count"[^>]*>110 businesses<\/span>/,
		);
		const list = await read('category/index.html');
		expect(list).toMatch(
			/>Bakeries<\/span>\s*<span class="categories__count"[^>]*>110 businesses</,
		);
	});

	it('the sitemap lists every page of every category', async () => {
		const xml = await read('sitemap.xml');
		const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
		expect(paths.filter((p) => p.startsWith('/category/'))).toEqual([
			'/category/',
			'/category/bakeries/',
			'/category/bakeries/2/',
			'/category/bakeries/3/',
			'/category/florists/',
		]);
		expect(paths.filter((p) => p.startsWith('/business/'))).toHaveLength(BAKERIES + 3);
	});

	it('pre-renders no profile (the legacy route renders them on demand), only the not-found page', () => {
		expect(existsSync(join(outDir, 'business'))).toBe(false);
		expect(existsSync(join(outDir, 'business-not-found/index.html'))).toBe(true);
	});
});

describe('the size of every page', () => {
	it('no page of the build is over 300 KB of HTML', async () => {
		const pages = await pageSizes(outDir);
		expect(pages.length).toBeGreaterThan(5);
		expect(overBudget(pages), describeLargest(pages).join('\n')).toEqual([]);
	});
});
