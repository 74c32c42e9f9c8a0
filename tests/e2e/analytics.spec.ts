import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { onDemandProfilePath } from '../../src/features/business/business.server.ts';
import { changeDemoConfig, DEMO_PASSWORD } from './admin-support.ts';
import { watchViolations } from './csp-support.ts';
import { findBusiness } from './directory-helpers.ts';

// Analytics (services.googleAnalyticsId): nothing without a measurement id; with one, set in the
// database, public pages ask Google's host for gtag.js for that id only after the page has
// loaded, never before interaction as a script file of the page, never on admin pages and never
// when the visitor's browser sends Global Privacy Control. The pages with an id are the ones
// rendered on demand (an event, a profile, the panel's preview), which read the configuration on
// each request: the same layout and loader as the built pages, without a build for each change of
// the id. There is no internet here: Playwright answers the request to Google's host, which is
// where the test sees it was made.

const MEASUREMENT_ID = 'G-E2ETEST12';
const GTAG = /^https:\/\/www\.googletagmanager\.com\/gtag\/js/;

test.describe.configure({ mode: 'serial' });

/** Every request for gtag.js the page makes (and when), answered here with an empty script. */
async function gtagRequests(page: Page): Promise<{ url: string; at: number }[]> {
	const seen: { url: string; at: number }[] = [];
	await page.route(GTAG, async (route) => {
		seen.push({ url: route.request().url(), at: Date.now() });
		await route.fulfill({ contentType: 'text/javascript', body: '' });
	});
	return seen;
}

/**
 * Resolves once the page has loaded and the loader's moment has passed: it starts when the
 * browser is idle after load, at the latest 5 s after (requestIdleCallback's timeout). The page's
 * clock (installed by the test before the page opens) is moved past that, so a busy machine, never
 * idle, does not make the test wait.
 */
async function loadedAndIdle(page: Page): Promise<void> {
	await page.waitForLoadState('load');
	await page.clock.runFor(5_000);
}

/** What the loader queued for gtag.js: undefined if it never ran. */
function dataLayer(page: Page): Promise<unknown[][] | undefined> {
	return page.evaluate(() => {
		const layer = (window as { dataLayer?: IArguments[] }).dataLayer;
		return layer?.map((entry) => [...entry].map((v) => (v instanceof Date ? 'date' : v)));
	});
}

async function setMeasurementId(id: string): Promise<void> {
	await changeDemoConfig('services', (services) => ({ ...services, googleAnalyticsId: id }));
}

/** A demo event's page, rendered on demand. */
async function eventPage(request: APIRequestContext): Promise<string> {
	const response = await request.get('/api/events');
	expect(response.status()).toBe(200);
	const { Result } = (await response.json()) as { Result: Event[] };
	const event = Result.find((e) => e.EventName === 'Annual Gala & Awards Night');
	if (!event) throw new Error('The demo has no gala');
	return eventPath(event);
}

/** Only the site's own host and Google's (answered above) are reached: a map embed is not. */
async function stayOnSite(page: Page, baseURL: string | undefined): Promise<void> {
	const site = new URL(baseURL ?? 'http://localhost').host;
	await page.route(
		(url) => url.host !== site && !GTAG.test(url.href),
		(route) => route.abort(),
	);
}

test('without a measurement id, no page carries the loader or asks for gtag.js', async ({
	page,
}) => {
	await page.clock.install();
	const requests = await gtagRequests(page);
	for (const path of ['/', '/search/', '/events/']) {
		const response = await page.goto(path);
		expect(await response?.text()).not.toContain('googletagmanager');
		await loadedAndIdle(page);
		expect(await dataLayer(page), path).toBeUndefined();
	}
	expect(requests).toEqual([]);
});

test.describe('with a measurement id', () => {
	test.beforeAll(async () => {
		await setMeasurementId(MEASUREMENT_ID);
	});

	test.afterAll(async () => {
		await setMeasurementId('');
	});

	test('a public page asks for gtag.js for the id once it has loaded, within its policy', async ({
		page,
		baseURL,
	}) => {
		const path = await eventPage(page.request);
		await stayOnSite(page, baseURL);
		const violations = await watchViolations(page);
		const requests = await gtagRequests(page);
		await page.goto(path);
		await expect.poll(() => requests.length).toBe(1);
		expect(requests[0]?.url).toBe(`https://www.googletagmanager.com/gtag/js?id=${MEASUREMENT_ID}`);
		// Asked for after the load event ended, not by the HTML: never render-blocking (an async
		// script inserted before load would hold the load event back until it arrived).
		const loadEnd = await page.evaluate(() => {
			const [navigation] = performance.getEntriesByType(
				'navigation',
			) as PerformanceNavigationTiming[];
			return navigation && navigation.loadEventEnd > 0
				? performance.timeOrigin + navigation.loadEventEnd
				: null;
		});
		expect(loadEnd).not.toBeNull();
		expect(requests[0]?.at).toBeGreaterThanOrEqual(Math.floor(loadEnd ?? Infinity));
		expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(1);
		expect(await dataLayer(page)).toEqual([
			['js', 'date'],
			[
				'config',
				MEASUREMENT_ID,
				{ allow_google_signals: false, allow_ad_personalization_signals: false },
			],
		]);
		expect(violations).toEqual([]);
	});

	test(
		'a profile still ships no script of its own before interaction; gtag.js comes after load',
		IN_FULL_BROWSER,
		async ({ page }) => {
			const business = await findBusiness(page.request, 'any', () => true);
			const own: string[] = [];
			page.on('request', (request) => {
				if (request.resourceType() === 'script' && !GTAG.test(request.url()))
					own.push(request.url());
			});
			const requests = await gtagRequests(page);
			await page.goto(onDemandProfilePath(business.id));
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(business.name);
			await expect.poll(() => requests.length).toBe(1);
			await page.waitForLoadState('networkidle');
			expect(own).toEqual([]);
		},
	);

	test("nothing on the admin pages: the panel's preview of the public home page", async ({
		request,
	}) => {
		const login = await request.post('/api/auth/supabase-login', {
			data: { email: 'admin@demo.test', password: DEMO_PASSWORD },
		});
		expect(login.status()).toBe(200);
		const { session } = (await login.json()) as { session: { access_token: string } };
		// The preview renders the public home page, with the configuration it is sent, at an admin
		// address: the id is in that configuration, the loader is not on the page.
		const response = await request.post('/chamber-config-v2/preview', {
			headers: { Authorization: `Bearer ${session.access_token}` },
			data: {
				config: {
					name: 'Cedar Valley Chamber of Commerce',
					slug: 'demo',
					services: { googleAnalyticsId: MEASUREMENT_ID },
				},
			},
		});
		expect(response.status()).toBe(200);
		const html = await response.text();
		expect(html).toContain('Cedar Valley Chamber of Commerce');
		expect(html).not.toContain('googletagmanager');
		expect(html).not.toContain(MEASUREMENT_ID);
	});

	test('nothing when the browser sends Global Privacy Control', async ({ page, baseURL }) => {
		const path = await eventPage(page.request);
		await stayOnSite(page, baseURL);
		await page.clock.install();
		await page.addInitScript(() => {
			Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });
		});
		const requests = await gtagRequests(page);
		const response = await page.goto(path);
		// The page carries the loader; the browser's signal stops it.
		expect(await response?.text()).toContain(MEASUREMENT_ID);
		await loadedAndIdle(page);
		expect(await dataLayer(page)).toBeUndefined();
		await page.mouse.click(10, 10);
		await page.keyboard.press('Tab');
		expect(await dataLayer(page)).toBeUndefined();
		expect(requests).toEqual([]);
	});
});
