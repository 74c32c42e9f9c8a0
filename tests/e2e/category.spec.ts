import { expect, test } from '@playwright/test';

// Crawlable pages: one per category, the list of categories, the sitemap and robots.txt.

interface Category {
	name: string;
	count: number;
}

test('the category list links every category to its page', async ({ page, request }) => {
	const categories = (await (await request.get('/api/categories')).json()) as Category[];
	await page.goto('/category/');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('All Categories');
	const links = page.getByRole('main').getByRole('link', { name: / \d+ business(es)?$/ });
	await expect(links).toHaveCount(categories.length);
	for (const category of categories) {
		const link = page.getByRole('link', {
			name: `${category.name} ${category.count} ${category.count === 1 ? 'business' : 'businesses'}`,
			exact: true,
		});
		const href = (await link.getAttribute('href')) ?? '';
		expect(href).toMatch(/^\/category\/[a-z0-9-]+\/$/);
		expect((await request.get(href)).status(), href).toBe(200);
	}
});

test('a category page lists its businesses as cards linking to their profiles', async ({
	page,
	request,
}) => {
	const categories = (await (await request.get('/api/categories')).json()) as Category[];
	const legal = categories.find((c) => c.name === 'Legal Services');
	expect(legal).toBeDefined();

	await page.goto('/category/legal-services/');
	await expect(page).toHaveTitle('Legal Services Businesses | Cedar Valley Chamber of Commerce');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Legal Services');
	await expect(page.getByText(`${legal?.count} businesses`, { exact: true })).toBeVisible();
	const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
	await expect(breadcrumb.getByRole('link')).toHaveText(['Home', 'Categories']);

	const cards = page.getByRole('main').getByRole('article');
	await expect(cards).toHaveCount(legal?.count ?? -1);
	const search = page.getByRole('link', { name: 'Search Legal Services in the directory' });
	await expect(search).toHaveAttribute('href', '/search?category=Legal+Services&page=1');

	// The search for the category finds the same businesses.
	const api = (await (
		await request.get('/api/businesses?category=Legal+Services&pageSize=100&sortBy=nameAsc')
	).json()) as { businesses: { name: string }[]; total: number };
	expect(api.total).toBe(legal?.count);
	const names = await cards.getByRole('heading', { level: 3 }).allTextContents();
	expect(names.map((n) => n.trim()).sort()).toEqual(api.businesses.map((b) => b.name).sort());

	// Every link on the page leads somewhere that exists.
	const hrefs = await page
		.getByRole('main')
		.getByRole('link')
		.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
	const internal = [...new Set(hrefs.filter((href) => href.startsWith('/')))];
	expect(internal.filter((href) => href.startsWith('/business/'))).toHaveLength(legal?.count ?? -1);
	for (const href of internal) {
		expect((await request.get(href)).status(), href).toBe(200);
	}
});

test('a category page ships no script and describes itself to search engines', async ({ page }) => {
	await page.goto('/category/legal-services/');
	await expect(page.locator('script[src], astro-island')).toHaveCount(0);
	await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
		'href',
		/\/category\/legal-services\/$/,
	);
	await expect(page.locator('meta[name="description"]')).toHaveAttribute(
		'content',
		/^Legal Services: \d+ businesses in the Cedar Valley Chamber of Commerce member directory\.$/,
	);
	const jsonLd = JSON.parse(
		(await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
	) as { '@type': string; mainEntity: { numberOfItems: number } };
	expect(jsonLd['@type']).toBe('CollectionPage');
	await expect(page.getByRole('main').getByRole('article')).toHaveCount(
		jsonLd.mainEntity.numberOfItems,
	);
});

test('the sitemap lists the home, search and category pages and every business profile', async ({
	request,
}) => {
	const response = await request.get('/sitemap.xml');
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('xml');
	const xml = await response.text();
	const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
	expect(paths).toContain('/');
	expect(paths).toContain('/search');
	expect(paths).toContain('/category/legal-services/');

	const categories = (await (await request.get('/api/categories')).json()) as Category[];
	expect(paths.filter((p) => /^\/category\/.+\/$/.test(p))).toHaveLength(categories.length);

	const all = (await (await request.get('/api/businesses?pageSize=1')).json()) as { total: number };
	const profiles = paths.filter((p) => p.startsWith('/business/'));
	expect(profiles).toHaveLength(all.total);
	for (const path of profiles) {
		expect(path).toMatch(/^\/business\/[0-9a-f-]{36}\/[a-z0-9-]+$/);
	}
	expect(new Set(paths).size).toBe(paths.length);
	for (const path of profiles.slice(0, 5)) {
		expect((await request.get(path)).status(), path).toBe(200);
	}
});

test('robots.txt allows crawling and points at the sitemap', async ({ request }) => {
	const response = await request.get('/robots.txt');
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('text/plain');
	const text = await response.text();
	expect(text).toContain('User-agent: *');
	expect(text).toContain('Disallow: /api/');
	expect(text).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
});
