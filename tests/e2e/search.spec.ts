import { expect, test, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { sortLabel } from '../../src/features/directory/rules.ts';
import { RANDOM_SEED_KEY } from '../../src/features/search/search.ts';
import { demoConfig, htmlText, listBusinesses } from './directory-helpers.ts';
import { holdIsland } from './island-support.ts';
import { expectWithinScriptBudget } from './script-budget.ts';

const config = demoConfig();
/** A demo category with enough businesses for two pages' worth of tests. */
const CATEGORY = 'Restaurants & Catering';

function cardNames(page: Page) {
	return page.getByRole('main').getByRole('article').getByRole('heading', { level: 3 });
}

/** The page shows exactly the businesses the API answers for the same query. */
async function expectListing(page: Page, params: Record<string, string>) {
	const expected = await listBusinesses(page.request, params);
	const noun = expected.total === 1 ? 'business' : 'businesses';
	await expect(page.getByRole('status')).toHaveText(`${expected.total} ${noun} found`);
	await expect(cardNames(page)).toHaveText(expected.businesses.map((b) => b.name));
	return expected;
}

function query(page: Page): Record<string, string> {
	return Object.fromEntries(new URL(page.url()).searchParams);
}

test.describe('search page', () => {
	test('the first page of the default listing is in the HTML before any script runs', async ({
		request,
	}) => {
		const html = htmlText(await (await request.get('/search')).text());
		const first = await listBusinesses(request);
		expect(first.businesses).toHaveLength(24);
		for (const business of first.businesses) expect(html).toContain(`>${business.name}</a>`);
		expect(html).toContain(`${first.total} businesses found`);
	});

	test('shows the default listing without fetching it, 24 per page in two columns', async ({
		page,
	}) => {
		const fetched: string[] = [];
		page.on('request', (r) => r.url().includes('/api/businesses') && fetched.push(r.url()));
		await page.goto('/search');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(config.content.directoryTitle);
		await expectListing(page, {});
		await expect(cardNames(page)).toHaveCount(24);
		const columns = await page
			.getByRole('main')
			.getByRole('article')
			.evaluateAll((cards) => new Set(cards.map((c) => c.getBoundingClientRect().left)).size);
		expect(columns).toBe(2);
		await page.waitForLoadState('networkidle');
		expect(fetched).toEqual([]);
	});

	test('before the island runs, an address with other results shows skeletons, never the default listing', async ({
		page,
	}) => {
		// Holds the island's module, so the page stays as the browser paints it from the HTML.
		const island = await holdIsland(page, 'SearchDirectory');
		const first = await listBusinesses(page.request);
		const skeletons = page.locator('.search__grid[aria-busy="true"]');

		await page.goto('/search', { waitUntil: 'domcontentloaded' });
		await expect(cardNames(page)).toHaveText(first.businesses.map((b) => b.name));
		await expect(skeletons).toBeHidden();

		await page.goto('/search?page=2', { waitUntil: 'domcontentloaded' });
		await expect(page.getByRole('main').locator('article')).toHaveCount(24);
		await expect(cardNames(page)).toHaveCount(0);
		await expect(page.getByText(first.businesses[0]!.name, { exact: true })).toBeHidden();
		await expect(page.getByRole('navigation', { name: 'Pagination' })).toBeHidden();
		await expect(page.getByRole('status').getByText('Searching…')).toBeVisible();
		await expect(page.getByText(`${first.total} businesses found`)).toBeHidden();
		await expect(skeletons).toBeVisible();

		island.release();
		await expectListing(page, { page: '2' });
		await expect(skeletons).toBeHidden();
	});

	test('a search made before the island runs is a plain form: it loads its results', async ({
		page,
	}) => {
		const island = await holdIsland(page, 'SearchDirectory');
		await page.goto('/search', { waitUntil: 'domcontentloaded' });
		await page.getByRole('searchbox', { name: 'Search businesses' }).fill('service');
		await page.getByRole('button', { name: 'Search', exact: true }).click();
		await page.waitForURL(/\/search\?q=service/);
		await expect(page.getByRole('status').getByText('Searching…')).toBeVisible();
		island.release();
		await expectListing(page, { searchQuery: 'service' });
		await expect(page.getByRole('searchbox', { name: 'Search businesses' })).toHaveValue('service');
	});

	test('a category chosen before the island runs is applied once it does', async ({ page }) => {
		const island = await holdIsland(page, 'SearchDirectory');
		await page.goto('/search', { waitUntil: 'domcontentloaded' });
		await page.getByRole('combobox', { name: 'Category' }).selectOption(CATEGORY);
		// The options that act on change wait for the island, visibly.
		await expect(page.getByRole('combobox', { name: 'Sort by' })).toBeDisabled();
		island.release();
		await expectListing(page, { category: CATEGORY });
		expect(query(page)).toEqual({ category: CATEGORY });
		await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue(CATEGORY);
	});

	test('the search box searches and resets to page 1', async ({ page }) => {
		await page.goto('/search?page=3');
		await expect(page.getByRole('link', { name: 'Page 3', exact: true })).toHaveAttribute(
			'aria-current',
			'page',
		);
		await page.getByRole('searchbox', { name: 'Search businesses' }).fill('bank');
		await page.getByRole('button', { name: 'Search', exact: true }).click();
		await expect(page).toHaveURL(/\/search\?q=bank$/);
		const found = await expectListing(page, { searchQuery: 'bank' });
		expect(found.total).toBeGreaterThan(0);
		expect(found.total).toBeLessThan((await listBusinesses(page.request)).total);
	});

	test('the category dropdown filters, names the page and adds a removable chip', async ({
		page,
	}) => {
		await page.goto('/search?page=2');
		const category = page.getByRole('combobox', { name: 'Category' });
		await expect(category).toHaveValue('');
		await expect(category.getByRole('option').first()).toHaveText('All Categories');
		// The field works from the first paint: chosen before the island runs, it is applied then.
		await category.selectOption(CATEGORY);
		await expect.poll(() => query(page)).toEqual({ category: CATEGORY });
		await expectListing(page, { category: CATEGORY });
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(CATEGORY);
		const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
		await expect(crumbs.getByRole('link', { name: config.content.directoryTitle })).toHaveAttribute(
			'href',
			'/search',
		);
		await expect(crumbs.getByText(CATEGORY)).toHaveAttribute('aria-current', 'page');
		// Cards carry the category over to the profile's breadcrumb.
		await expect(
			page.getByRole('main').getByRole('article').first().getByRole('link').first(),
		).toHaveAttribute('href', new RegExp(`\\?category=${encodeURIComponent(CATEGORY)}$`));

		await page.getByRole('button', { name: `Remove Category filter ${CATEGORY}` }).click();
		expect(query(page)).toEqual({});
		await expectListing(page, {});
	});

	test('More Filters shows the configured filters with their options', async ({ page }) => {
		const optionRequests: string[] = [];
		page.on(
			'request',
			(r) => r.url().includes('/api/filter-options') && optionRequests.push(r.url()),
		);
		await page.goto('/search');
		const toggle = page.getByRole('button', { name: 'More Filters' });
		await expect(toggle).toHaveAttribute('aria-expanded', 'false');
		await expect(page.getByRole('combobox', { name: 'City' })).toBeHidden();
		expect(optionRequests).toEqual([]);

		await toggle.click();
		await expect(page.getByRole('button', { name: 'Hide Filters' })).toHaveAttribute(
			'aria-expanded',
			'true',
		);
		const labels = {
			city: 'All Cities',
			county: 'All Counties',
			zip: 'All Zip Codes',
			affiliation: 'All Member Groups',
		};
		const names = { city: 'City', county: 'County', zip: 'Zip Code', affiliation: 'Member Group' };
		for (const filter of config.searchPage.availableFilters) {
			const select = page.getByRole('combobox', { name: names[filter] });
			await expect(select.getByRole('option').first()).toHaveText(labels[filter]);
			await expect.poll(() => select.getByRole('option').count()).toBeGreaterThan(1);
		}
		// Member groups show their counts.
		await expect(
			page.getByRole('combobox', { name: 'Member Group' }).getByRole('option').nth(1),
		).toHaveText(/^.+ \(\d+\)$/);
		expect(new Set(optionRequests.map((u) => new URL(u).searchParams.get('type')))).toEqual(
			new Set(['cities', 'counties', 'zips', 'affiliations']),
		);

		await page.getByRole('button', { name: 'Hide Filters' }).click();
		await expect(page.getByRole('combobox', { name: 'City' })).toBeHidden();
	});

	for (const [param, label, chip, apiParam] of [
		['city', 'City', 'City', 'city'],
		['county', 'County', 'County', 'county'],
		['zip', 'Zip Code', 'Zip', 'zip'],
		['affiliation', 'Member Group', 'Member Group', 'affiliation'],
	] as const) {
		test(`the ${label} filter filters, resets to page 1 and its chip removes it`, async ({
			page,
		}) => {
			await page.goto('/search?page=2');
			await page.getByRole('button', { name: 'More Filters' }).click();
			const select = page.getByRole('combobox', { name: label });
			await expect.poll(() => select.getByRole('option').count()).toBeGreaterThan(1);
			const value = await select.getByRole('option').nth(1).getAttribute('value');
			expect(value).toBeTruthy();
			await select.selectOption(value!);
			expect(query(page)).toEqual({ [param]: value });
			await expectListing(page, { [apiParam]: value! });

			await page.getByRole('button', { name: `Remove ${chip} filter ${value}` }).click();
			expect(query(page)).toEqual({});
			await expect(select).toHaveValue('');
			await expectListing(page, {});
		});
	}

	test('New Members Only filters to members of the last 90 days', async ({ page }) => {
		await page.goto('/search?page=2');
		await page.getByRole('checkbox', { name: 'New Members Only' }).check();
		expect(query(page)).toEqual({ newMembers: 'true' });
		const found = await expectListing(page, { newMembersOnly: 'true' });
		expect(found.businesses.every((b) => b.isNewMember)).toBe(true);
		await page.getByRole('checkbox', { name: 'New Members Only' }).uncheck();
		expect(query(page)).toEqual({});
	});

	test('Sort by offers the configured sorts with their labels and reorders', async ({ page }) => {
		await page.goto('/search?page=4');
		const sort = page.getByRole('combobox', { name: 'Sort by' });
		await expect(sort.getByRole('option')).toHaveText(
			config.searchPage.availableSorts.map(sortLabel),
		);
		await expect(sort).toHaveValue(config.searchPage.defaultSort);
		const before = await cardNames(page).allTextContents();

		await sort.selectOption({ label: 'Name A-Z' });
		expect(query(page)).toEqual({ sort: 'nameAsc' });
		const ascending = await expectListing(page, { sortBy: 'nameAsc' });
		const names = ascending.businesses.map((b) => b.name);
		expect(names).not.toEqual(before);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));

		await sort.selectOption({ label: 'Name Z-A' });
		const descending = await expectListing(page, { sortBy: 'nameDesc' });
		expect(descending.businesses[0]?.name.localeCompare(names[0] ?? '', 'en')).toBeGreaterThan(0);
	});

	for (const [stored, sent] of [
		['0.25', '0.25'],
		['0', '0'],
		['7', '0.5'],
		['abc', '0.5'],
	] as const) {
		test(`a random sort sends the session seed ${stored} as ${sent}`, async ({ page }) => {
			const seeds: (string | null)[] = [];
			page.on('request', (r) => {
				if (r.url().includes('/api/businesses')) {
					seeds.push(new URL(r.url()).searchParams.get('randomSeed'));
				}
			});
			await page.addInitScript(
				([key, value]) => sessionStorage.setItem(key!, value!),
				[RANDOM_SEED_KEY, stored],
			);
			await page.goto('/search?sort=random');
			await expectListing(page, { sortBy: 'random', randomSeed: sent });
			expect(seeds).toEqual([sent]);
		});
	}

	test('a session without a seed draws one and keeps it', async ({ page }) => {
		await page.goto('/search?sort=random');
		// The island draws the seed when it hydrates; the pre-rendered cards are there before that.
		const storedSeed = () => page.evaluate((key) => sessionStorage.getItem(key), RANDOM_SEED_KEY);
		await expect.poll(storedSeed).not.toBeNull();
		const seed = await storedSeed();
		expect(Number(seed)).toBeGreaterThanOrEqual(0);
		expect(Number(seed)).toBeLessThanOrEqual(1);
		await expectListing(page, { sortBy: 'random', randomSeed: seed! });
		await page.reload();
		await expectListing(page, { sortBy: 'random', randomSeed: seed! });
	});

	test('pagination: page buttons, ellipses, aria-current, scroll to top', async ({ page }) => {
		await page.goto('/search');
		const first = await listBusinesses(page.request);
		expect(first.totalPages).toBeGreaterThan(7);
		const pager = page.getByRole('navigation', { name: 'Pagination' });
		await expect(pager.getByRole('link', { name: 'Page 1', exact: true })).toHaveAttribute(
			'aria-current',
			'page',
		);
		await expect(pager.getByRole('listitem')).toHaveText([
			'‹ Previous',
			'1',
			'2',
			'…',
			String(first.totalPages),
			'Next ›',
		]);

		await page.mouse.wheel(0, 4000);
		await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
		await pager.getByRole('link', { name: 'Page 2', exact: true }).click();
		expect(query(page)).toEqual({ page: '2' });
		await expectListing(page, { page: '2' });
		await expect(pager.getByRole('link', { name: 'Page 2', exact: true })).toHaveAttribute(
			'aria-current',
			'page',
		);
		await expect(pager.getByRole('link', { name: 'Page 1', exact: true })).not.toHaveAttribute(
			'aria-current',
		);
		await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

		await page.goto('/search?page=5');
		await expect(pager.getByRole('listitem')).toHaveText([
			'‹ Previous',
			'1',
			'…',
			'4',
			'5',
			'6',
			'…',
			String(first.totalPages),
			'Next ›',
		]);
		await pager.getByRole('link', { name: 'Next page' }).click();
		expect(query(page)).toEqual({ page: '6' });
		await expectListing(page, { page: '6' });
		await pager.getByRole('link', { name: 'Previous page' }).click();
		expect(query(page)).toEqual({ page: '5' });
	});

	test('the URL holds the whole state: reload and the back button restore it', async ({ page }) => {
		await page.goto('/search?q=service&city=Cedarbrook&sort=nameDesc&page=2');
		const params = { searchQuery: 'service', city: 'Cedarbrook', sortBy: 'nameDesc', page: '2' };
		await expectListing(page, params);
		await expect(page.getByRole('searchbox', { name: 'Search businesses' })).toHaveValue('service');
		await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('nameDesc');
		await expect(page.getByRole('button', { name: 'Remove City filter Cedarbrook' })).toBeVisible();
		// A panel filter in the URL opens the panel.
		await expect(page.getByRole('combobox', { name: 'City' })).toHaveValue('Cedarbrook');

		await page.reload();
		await expectListing(page, params);

		await page.getByRole('combobox', { name: 'Category' }).selectOption(CATEGORY);
		await expectListing(page, { ...params, page: '1', category: CATEGORY });
		await page.goBack();
		expect(query(page)).toEqual({ q: 'service', city: 'Cedarbrook', sort: 'nameDesc', page: '2' });
		await expectListing(page, params);
		await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue('');
		await page.goForward();
		await expectListing(page, { ...params, page: '1', category: CATEGORY });
	});

	test('a search without matches says so', async ({ page }) => {
		await page.goto('/search?q=qqqxyzzyqqq');
		await expect(page.getByRole('status')).toHaveText('0 businesses found');
		await expect(page.getByText('No businesses found')).toBeVisible();
		await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
	});

	test('shows the error screen when the directory cannot be loaded', async ({ page }) => {
		let calls = 0;
		await page.route('**/api/businesses**', (route) => {
			calls++;
			return route.fulfill({ status: 500, json: { error: 'Failed to fetch businesses: boom' } });
		});
		await page.goto('/search?q=bank');
		await expect(
			page.getByRole('heading', { name: 'Unable to Load Business Directory' }),
		).toBeVisible({ timeout: 10_000 });
		await expect(page.getByText('Failed to fetch businesses: boom')).toBeVisible();
		await expect(
			page.getByText(
				'This might be due to a temporary issue or a recent update. Please refresh the page to try again.',
			),
		).toBeVisible();
		expect(calls).toBe(4);
		await page.unroute('**/api/businesses**');
		await page.getByRole('button', { name: 'Refresh Page' }).click();
		await expectListing(page, { searchQuery: 'bank' });
	});

	test(
		'ships at most 80 KB of gzipped script, React included',
		IN_FULL_BROWSER,
		async ({ page }) => {
			await expectWithinScriptBudget(page, '/search');
		},
	);
});
