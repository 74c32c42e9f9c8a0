import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { listBusinesses } from './directory-helpers.ts';
import { scriptRequests } from './script-budget.ts';
import { formatDistance } from '../../src/features/geo/rules.ts';
import type { BusinessLocations } from '../../src/features/directory/directory.ts';
import { startTileStandin, type TileStandin } from '../support/tile-standin.ts';
import { TILES_PORT } from './e2e-env.ts';

// 'Near me' and the map view of /search, on the demo chamber (its businesses have their own
// coordinates): the position asked only when pressed, rounded, sent with the search only; the
// list sorted and filtered by distance; the refusal; the map's clusters, pins, cards and 'Search
// this area', by keyboard too; its tiles from a stand-in; axe in the three colour sets; desktop
// and a 390 px phone. Nothing is saved: no build.

/** Cedarbrook's middle, as a browser reports a position (more decimals than the page sends). */
const HERE = { latitude: 41.97791, longitude: -91.66562 };
const SENT = '41.978,-91.666';

let tiles: TileStandin;

test.beforeAll(async () => {
	tiles = await startTileStandin(TILES_PORT);
});
test.afterAll(async () => {
	await tiles?.close();
});

function cardNames(page: Page) {
	return page.getByRole('main').getByRole('article').getByRole('heading', { level: 3 });
}

const found = (total: number) => `${total} ${total === 1 ? 'business' : 'businesses'} found`;

/** The search page once its island runs (its controls that act on change are enabled). */
async function openSearch(page: Page, path = '/search') {
	await page.goto(path);
	await expect(page.getByRole('button', { name: 'Near me' })).toBeEnabled();
}

function near(page: Page, radius: string) {
	return listBusinesses(page.request, { near: SENT, radius, unit: 'mi' });
}

test.describe('Near me, with the position shared', () => {
	test.use({ geolocation: HERE, permissions: ['geolocation'] });

	test('sorts and filters by distance, says how far each business is, and keeps the position out of the address', async ({
		page,
	}) => {
		const asked: URL[] = [];
		page.on('request', (r) => {
			if (r.url().includes('/api/businesses')) asked.push(new URL(r.url()));
		});
		await openSearch(page);
		const all = await listBusinesses(page.request);
		await page.getByRole('button', { name: 'Near me' }).click();

		const within10 = await near(page, '10');
		expect(within10.total).toBeGreaterThan(24);
		expect(within10.total).toBeLessThan(all.total);
		await expect(page.getByRole('status')).toHaveText(found(within10.total));
		await expect(cardNames(page)).toHaveText(within10.businesses.map((b) => b.name));
		const first = page.getByRole('main').getByRole('article').first();
		await expect(first).toContainText(
			`${formatDistance(within10.businesses[0]!.distance!, 'mi')} away`,
		);
		await expect(page.getByRole('combobox', { name: 'Within' })).toHaveValue('10');
		await expect(
			page.getByText('Your position, rounded, goes with this search only and is kept nowhere.'),
		).toBeVisible();
		await expect(page.getByText('Nearest first')).toBeVisible();
		await expect(page.getByRole('button', { name: 'Near me' })).toHaveAttribute(
			'aria-pressed',
			'true',
		);
		// The page sent the position rounded, and only with the search request.
		expect(asked.at(-1)!.searchParams.get('near')).toBe(SENT);
		expect(page.url()).toMatch(/\/search$/);
		await expectAccessibleInEveryTheme(page, 'near-me results');

		const radius = page.getByRole('combobox', { name: 'Within' });
		await expect(radius.getByRole('option')).toHaveText([
			'1 mile',
			'5 miles',
			'10 miles',
			'25 miles',
		]);
		await radius.selectOption('1');
		const within1 = await near(page, '1');
		expect(within1.total).toBeLessThan(within10.total);
		await expect(page.getByRole('status')).toHaveText(found(within1.total));
		await expect(cardNames(page)).toHaveText(within1.businesses.map((b) => b.name));
		for (const business of within1.businesses) expect(business.distance).toBeLessThanOrEqual(1);

		await page.getByRole('button', { name: 'Stop searching near you' }).click();
		await expect(page.getByRole('status')).toHaveText(found(all.total));
		await expect(page.getByText('Nearest first')).toHaveCount(0);
		await expect(page.getByText('Your position, rounded', { exact: false })).toHaveCount(0);
	});

	test('combines with the search box and the category', async ({ page }) => {
		await openSearch(page, '/search?category=Restaurants%20%26%20Catering');
		await page.getByRole('button', { name: 'Near me' }).click();
		const expected = await listBusinesses(page.request, {
			near: SENT,
			radius: '10',
			unit: 'mi',
			category: 'Restaurants & Catering',
		});
		await expect(page.getByRole('status')).toHaveText(found(expected.total));
		await expect(cardNames(page)).toHaveText(expected.businesses.map((b) => b.name));
	});
});

test.describe('Near me, with the position refused', () => {
	test.use({ permissions: [] });

	test('leaves the list as it was and says why', async ({ page }) => {
		await openSearch(page);
		const all = await listBusinesses(page.request);
		await page.getByRole('button', { name: 'Near me' }).click();
		await expect(
			page.getByText(
				'Your browser did not share your location, so the list is as it was. To search near you, allow this site to use your location and press Near me again.',
			),
		).toBeVisible();
		await expect(page.getByRole('status')).toHaveText(found(all.total));
		await expect(cardNames(page)).toHaveText(all.businesses.map((b) => b.name));
		await expect(page.getByRole('button', { name: 'Near me' })).toHaveAttribute(
			'aria-pressed',
			'false',
		);
		await expectAccessibleInEveryTheme(page, 'near-me refused');
	});
});

test.describe('the map view', () => {
	test('loads its code only when opened, shows every result in clusters a keyboard reaches, and opens a card', async ({
		page,
	}) => {
		const scripts = scriptRequests(page);
		// Each script's gzipped size, kept as it arrives (read once its body has come).
		const weights = new Map<string, Promise<number>>();
		page.on('response', (response) => {
			if (response.request().resourceType() !== 'script') return;
			weights.set(
				new URL(response.url()).pathname,
				response.body().then((body) => gzipSync(body).length),
			);
		});
		await openSearch(page);
		await page.waitForLoadState('networkidle');
		const listScripts = [...scripts];
		expect(listScripts.some((url) => /directory-map|leaflet|near-me/i.test(url))).toBe(false);

		const points = (await (
			await page.request.get('/api/business-locations')
		).json()) as BusinessLocations;
		await page.getByRole('button', { name: 'Map' }).click();
		await expect(page).toHaveURL(/\/search\?view=map$/);
		await expect(
			page.getByText(`The map shows ${points.located} businesses.`, { exact: false }),
		).toBeVisible();
		const map = page.getByRole('region', { name: 'Map of the businesses found' });
		await expect(map).toBeVisible();

		// Its code came now, within its budget: 120 KB gzipped.
		await page.waitForLoadState('networkidle');
		const mapScripts = scripts.filter((url) => !listScripts.includes(url));
		// The map's own file (src/features/search/map/directory-map.ts), and whatever came with it.
		expect(mapScripts).toContainEqual(expect.stringMatching(/\/directory-map[^/]*\.js$/));
		const mapWeights = await Promise.all(
			mapScripts.map((url) => {
				const weight = weights.get(new URL(url).pathname);
				expect(weight, `the weight of ${url}`).toBeDefined();
				return weight!;
			}),
		);
		const mapBytes = mapWeights.reduce((sum, bytes) => sum + bytes, 0);
		expect(mapBytes, `the map's scripts: ${mapScripts.join(', ')}`).toBeLessThanOrEqual(120 * 1024);
		// Tiles from the configured host only, attributed.
		await expect.poll(() => tiles.requests.length).toBeGreaterThan(0);
		await expect(map.getByText('Test tiles')).toBeVisible();

		// Every business is in a cluster or a pin of the first view. Pins are the buttons without
		// text (a cluster shows its count, the zoom buttons their signs).
		const clusters = map.getByRole('button', { name: /^[\d,]+ businesses here: zoom in$/ });
		const pins = map.getByRole('button').filter({ hasNotText: /./ });
		await expect(clusters.first()).toBeVisible();
		const counts = await clusters.evaluateAll((buttons) =>
			buttons.map((b) => Number((b.getAttribute('title') ?? '').split(' ')[0]!.replace(/,/g, ''))),
		);
		expect(counts.reduce((a, b) => a + b, 0) + (await pins.count())).toBe(points.located);
		await expectAccessibleInEveryTheme(page, 'the map view');

		// By keyboard: a cluster zooms in on Enter, until single pins show; a pin opens its card.
		const drawn = () =>
			map
				.getByRole('button')
				.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title')).join('|'));
		for (let step = 0; step < 12 && (await pins.count()) === 0; step++) {
			const before = await drawn();
			await clusters.first().focus();
			await page.keyboard.press('Enter');
			await expect(page.getByRole('button', { name: 'Search this area' })).toBeVisible();
			// The markers of the new view are drawn once the zoom has ended.
			await expect.poll(drawn).not.toBe(before);
		}
		await expect(pins.first()).toBeVisible();
		const name = (await pins.first().getAttribute('title'))!;
		await pins.first().focus();
		await page.keyboard.press('Enter');
		const card = page
			.getByRole('region', { name: 'Map' })
			.getByRole('article')
			.filter({ has: page.getByRole('heading', { name, level: 3 }) });
		await expect(card).toBeVisible();
		await expect(card.getByRole('link', { name: `View Profile of ${name}` })).toHaveAttribute(
			'href',
			/^\/business\/[0-9a-f-]+\/[a-z0-9-]+$/,
		);
		await expectAccessibleInEveryTheme(page, "the map with a business's card");

		// 'Search this area' lists the businesses in the map's view, nearest its middle first.
		await page.getByRole('button', { name: 'Search this area' }).click();
		await expect
			.poll(() => new URL(page.url()).searchParams.get('area'))
			.toMatch(/^-?[\d.]+,-?[\d.]+,-?[\d.]+,-?[\d.]+$/);
		const area = new URL(page.url()).searchParams.get('area')!;
		const inArea = await listBusinesses(page.request, { bounds: area, unit: 'mi' });
		expect(inArea.total).toBeLessThan(points.located);
		await expect(page.getByRole('status')).toHaveText(found(inArea.total));
		await expect(page.getByText('In the map’s area')).toBeVisible();
	});

	test('a reload of a map address shows the map again, and List goes back to the list', async ({
		page,
	}) => {
		await openSearch(page, '/search?view=map');
		await expect(page.getByRole('region', { name: 'Map of the businesses found' })).toBeVisible();
		await expect(page.getByRole('button', { name: 'Map' })).toHaveAttribute('aria-pressed', 'true');
		await page.getByRole('button', { name: 'List' }).click();
		await expect(page).toHaveURL(/\/search$/);
		await expect(page.getByRole('region', { name: 'Map of the businesses found' })).toHaveCount(0);
		await page.goBack();
		await expect(page.getByRole('region', { name: 'Map of the businesses found' })).toBeVisible();
	});
});

test.describe('on a 390 px phone', () => {
	test.use({
		viewport: { width: 390, height: 844 },
		hasTouch: true,
		geolocation: HERE,
		permissions: ['geolocation'],
	});

	test('Near me and the map work, and pass axe', async ({ page }) => {
		await openSearch(page);
		await page.getByRole('button', { name: 'Near me' }).click();
		const within10 = await near(page, '10');
		await expect(page.getByRole('status')).toHaveText(found(within10.total));
		await expect(cardNames(page).first()).toHaveText(within10.businesses[0]!.name);
		await page.getByRole('button', { name: 'Map' }).click();
		const points = (await (
			await page.request.get(`/api/business-locations?near=${SENT}&radius=10&unit=mi`)
		).json()) as BusinessLocations;
		expect(points.located).toBe(within10.total);
		await expect(page.getByText(`The map shows ${points.located} businesses.`)).toBeVisible();
		const map = page.getByRole('region', { name: 'Map of the businesses found' });
		const box = await map.boundingBox();
		expect(box!.width).toBeLessThanOrEqual(390);
		await expect(
			map.getByRole('button', { name: /businesses here: zoom in/ }).first(),
		).toBeVisible();
		await map
			.getByRole('button', { name: /businesses here: zoom in/ })
			.first()
			.tap();
		await expect(page.getByRole('button', { name: 'Search this area' })).toBeVisible();
		await expectAccessibleInEveryTheme(page, 'the map on a phone');
	});
});
