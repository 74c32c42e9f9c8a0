import { expect, test, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { profilePath } from '../../src/features/business/business.ts';
import { axeViolations, expectAccessibleInEveryTheme } from './a11y-support.ts';
import { changeDemoConfig, openPanel, panelTab, PANEL } from './admin-support.ts';
import { findBusiness, listBusinesses } from './directory-helpers.ts';

// Every page template, checked by axe-core at WCAG 2.2 A and AA in three chambers' colours (how
// and why without a build per colour set: tests/e2e/a11y-support.ts). Zero violations; the
// rules turned off, none now, are listed there with their reasons.

// axe reads every element of a page: several seconds a page on a busy machine, three times.
test.describe.configure({ timeout: 600_000 });

async function firstEvent(
	page: Page,
	path: '/api/events' | '/api/community-events',
): Promise<Event> {
	const response = await page.request.get(path);
	expect(response.status()).toBe(200);
	const event = ((await response.json()) as { Result: Event[] }).Result[0];
	if (!event) throw new Error(`${path} answered no event`);
	return event;
}

/** Opens `path` and waits for its main heading, so islands that render it are there. */
async function open(page: Page, path: string, heading?: string | RegExp): Promise<void> {
	await page.goto(path);
	await expect(
		page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) }),
	).toBeVisible();
}

// The checker itself: what it is given to find, it finds, in the page, a part of it and a frame.
test('the checker reports violations in the page, only in the part asked, and in a frame of this site', async ({
	page,
}) => {
	await open(page, '/accessibility');
	expect(await axeViolations(page)).toEqual([]);
	const flawed = `<div id="flawed"><img src="/favicon.ico"><p style="color:#bbb;background:#fff">Faint text</p></div>`;
	await page.evaluate(
		(html) => document.querySelector('main')!.insertAdjacentHTML('beforeend', html),
		flawed,
	);
	const ids = async (options?: Parameters<typeof axeViolations>[1]) =>
		(await axeViolations(page, options)).map((v) => v.id).sort();
	expect(await ids()).toEqual(['color-contrast', 'image-alt']);
	expect(await ids({ include: '#flawed' })).toEqual(['color-contrast', 'image-alt']);
	expect(await ids({ include: 'header' })).toEqual([]);
	expect(await ids({ exclude: ['#flawed'] })).toEqual([]);
	expect(await ids({ rules: ['image-alt'] })).toEqual(['image-alt']);

	// A document of this site in a frame: on a sign-in page, whose policy lets this site's frames
	// in, as the panel's preview needs (the site's own pages refuse to be framed).
	await open(page, '/chamber-login-v2');
	await page.route('**/a-framed-document', (route) =>
		route.fulfill({
			contentType: 'text/html',
			body: '<!doctype html><html lang="en"><title>Framed</title><main><h1>Framed</h1><img src="/favicon.ico"></main></html>',
		}),
	);
	await page.evaluate(() => {
		const frame = Object.assign(document.createElement('iframe'), {
			src: '/a-framed-document',
			title: 'A framed document',
		});
		document.body.append(frame);
	});
	await expect(
		page.frameLocator('iframe[title="A framed document"]').getByRole('heading', { name: 'Framed' }),
	).toBeVisible();
	expect(await ids()).toEqual(['image-alt']);
	expect(await ids({ exclude: ['iframe'] })).toEqual([]);
});

test.describe('public pages', () => {
	test('home, search with results and without, categories', async ({ page }) => {
		await open(page, '/');
		await expect(page.getByRole('region', { name: /featured/i }).first()).toBeVisible();
		await expectAccessibleInEveryTheme(page, 'the home page');

		const bakeries = await listBusinesses(page.request, { searchQuery: 'bakery' });
		expect(bakeries.total).toBeGreaterThan(0);
		await open(page, '/search?q=bakery');
		await expect(page.getByRole('status')).toHaveText(
			`${bakeries.total} ${bakeries.total === 1 ? 'business' : 'businesses'} found`,
		);
		await expectAccessibleInEveryTheme(page, 'search with results');

		await open(page, '/search?q=zzqx-nothing-matches');
		await expect(page.getByRole('status')).toHaveText('0 businesses found');
		await expectAccessibleInEveryTheme(page, 'search without results');

		await open(page, '/category/');
		await expectAccessibleInEveryTheme(page, 'the category index');
		await open(page, '/category/legal-services/');
		await expectAccessibleInEveryTheme(page, 'a category page');
	});

	test('profiles, classic and modern', async ({ page }) => {
		const business = await findBusiness(page.request, 'with every section', (b) =>
			Boolean(b.acceptsMessages && b.website && b.phone && b.address.street && b.logoUrl),
		);
		await open(page, profilePath(business), business.name);
		await expectAccessibleInEveryTheme(page, 'a classic profile');
		await page.getByRole('button', { name: 'Send Message' }).click();
		await expect(page.getByRole('dialog')).toBeVisible();
		await expectAccessibleInEveryTheme(page, 'the contact dialog', { include: 'dialog[open]' });

		// The modern layout is a configuration choice: the on-demand profile (the page chambers
		// above PRERENDERED_PROFILES_MAX serve) renders it from the stored configuration at once.
		const before = await changeDemoConfig('features', (f) => ({
			...f,
			businessDetailLayout: 'modern',
		}));
		try {
			await open(page, `/business-page/${business.id}`, business.name);
			await expect(page.locator('.profile--modern')).toBeVisible();
			await expectAccessibleInEveryTheme(page, 'a modern profile');
		} finally {
			await changeDemoConfig('features', () => before);
		}
	});

	test('calendars and event pages', async ({ page }) => {
		for (const path of ['/events', '/community-events', '/events-list']) {
			await open(page, path);
			await expect(page.getByText('Loading events...')).toHaveCount(0);
			await expectAccessibleInEveryTheme(page, path);
		}
		await page.setViewportSize({ width: 600, height: 900 });
		await open(page, '/events');
		await expect(page.getByText('Loading events...')).toHaveCount(0);
		await expectAccessibleInEveryTheme(page, 'the events list view');
		await page.setViewportSize({ width: 1280, height: 720 });

		await open(page, eventPath(await firstEvent(page, '/api/events')));
		await expectAccessibleInEveryTheme(page, 'an event page', { exclude: ['iframe'] });
		await open(page, eventPath(await firstEvent(page, '/api/community-events')));
		await expectAccessibleInEveryTheme(page, 'a community event page', { exclude: ['iframe'] });
		await page.goto('/events/999999/no-such-event');
		await expectAccessibleInEveryTheme(page, 'an event that does not exist');
	});

	test('statements and error pages', async ({ page }) => {
		for (const path of ['/privacy/statistics', '/accessibility']) {
			await open(page, path);
			await expectAccessibleInEveryTheme(page, path);
		}
		for (const path of ['/no-such-page', '/business-not-found/', '/business-gone/', '/500']) {
			await page.goto(path);
			await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
			await expectAccessibleInEveryTheme(page, path);
		}
	});
});

test.describe('sign-in pages and the panel', () => {
	test('sign-in and password pages', async ({ page }) => {
		for (const path of ['/chamber-login-v2', '/forgot-password', '/reset-password']) {
			await page.goto(path);
			await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
			await expectAccessibleInEveryTheme(page, path);
		}
	});

	test('every tab of the panel', async ({ page }) => {
		await openPanel(page, 'super@demo.test');
		const tabs = await page
			.getByRole('tablist', { name: 'Settings' })
			.getByRole('tab')
			.allTextContents();
		expect(tabs.length).toBeGreaterThan(10);
		for (const name of tabs) {
			const panel = await panelTab(page, name);
			await expect(panel).toBeVisible();
			await expect(panel.getByText(/^Loading/)).toHaveCount(0);
			await expectAccessibleInEveryTheme(page, `the panel's ${name} tab`);
		}
		expect(page.url()).toContain(PANEL);
	});

	test("the panel's dialogs", async ({ page }) => {
		await openPanel(page, 'super@demo.test');
		// The dialogs: each checked while open; closed with Escape, each gives the focus back.
		for (const [tab, opener] of [
			[null, 'Change password'],
			['Users', 'Create User'],
		] as const) {
			if (tab) await panelTab(page, tab);
			const button = page.getByRole('button', { name: opener, exact: true });
			await button.focus();
			await page.keyboard.press('Enter');
			await expect(page.getByRole('dialog')).toBeVisible();
			await expectAccessibleInEveryTheme(page, `the ${opener} dialog`, { include: 'dialog[open]' });
			await page.keyboard.press('Escape');
			await expect(page.getByRole('dialog')).toHaveCount(0);
			await expect(button).toBeFocused();
		}
	});
});

test.describe('reflow and motion', () => {
	const PAGES = ['/', '/search?q=bakery', '/category/legal-services/', '/events', '/accessibility'];

	/** The page's content is wider than its window: it scrolls sideways (WCAG 1.4.10). */
	async function overflow(page: Page): Promise<string[]> {
		return page.evaluate(() => {
			const width = document.documentElement.clientWidth;
			const wide = [...document.querySelectorAll('body *')].filter((el) => {
				const box = el.getBoundingClientRect();
				return box.width > 0 && box.right > width + 1 && getComputedStyle(el).position !== 'fixed';
			});
			// The innermost offenders, not every ancestor of them.
			return wide
				.filter((el) => !wide.some((other) => other !== el && el.contains(other)))
				.slice(0, 5)
				.map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
		});
	}

	test(
		'320 px wide and 200 % zoom: nothing scrolls sideways or is cut off',
		IN_FULL_BROWSER,
		async ({ browser }) => {
			const business = await findBusiness(
				(await browser.newContext()).request,
				'with a logo',
				(b) => Boolean(b.logoUrl && b.address.street),
			);
			for (const [label, options] of [
				['320 px', { viewport: { width: 320, height: 640 } }],
				// A 1280 × 720 window at 200 %: half as many CSS pixels, each drawn twice.
				['200 %', { viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 }],
			] as const) {
				const context = await browser.newContext({
					...options,
					baseURL: test.info().project.use.baseURL,
				});
				const page = await context.newPage();
				for (const path of [...PAGES, profilePath(business)]) {
					await page.goto(path);
					await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
					expect.soft(await overflow(page), `${path} at ${label}`).toEqual([]);
				}
				await context.close();
			}
		},
	);

	test('prefers-reduced-motion stops every transition and animation', async ({ page }) => {
		await page.emulateMedia({ reducedMotion: 'reduce' });
		await page.goto('/');
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
		const moving = await page.evaluate(() =>
			[...document.querySelectorAll('*')]
				.map((el) => ({ el, style: getComputedStyle(el) }))
				.filter(({ style }) =>
					[style.transitionDuration, style.animationDuration].some((d) =>
						d.split(',').some((part) => parseFloat(part) * (part.includes('ms') ? 1 : 1000) > 1),
					),
				)
				.map(({ el }) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
		);
		expect(moving).toEqual([]);
	});
});

test('a logo that fails to load shows the placeholder, not its alt text over the card', async ({
	page,
}) => {
	const business = await findBusiness(page.request, 'with a logo', (b) => Boolean(b.logoUrl));
	await page.route(
		(url) => url.href === new URL(business.logoUrl!, url).href,
		(route) => route.fulfill({ status: 404, body: '' }),
	);
	await page.route('**/demo/logos/**', (route) => route.fulfill({ status: 404, body: '' }));
	await open(page, profilePath(business), business.name);
	const logo = page.locator('.profile-header__logo');
	await expect
		.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
		.toBe(0);
	// Kept to its 96 px box, covered by the placeholder (drawn only on an image that failed).
	expect(await logo.boundingBox()).toMatchObject({ width: 96, height: 96 });
	const cover = await logo.evaluate((img) => {
		const before = getComputedStyle(img, '::before');
		const after = getComputedStyle(img, '::after');
		return {
			before: before.backgroundColor,
			icon: after.maskImage.startsWith('url("data:image/svg'),
		};
	});
	expect(cover).toEqual({ before: 'rgb(249, 250, 251)', icon: true });
	// The header's logo falls back to the chamber's name, within the header.
	const header = page.locator('.site-header__logo img');
	const box = (await header.boundingBox())!;
	expect(box.height).toBeLessThanOrEqual(56);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
		page.viewportSize()!.width,
	);
	await expectAccessibleInEveryTheme(page, 'a profile whose logos do not load');
});
