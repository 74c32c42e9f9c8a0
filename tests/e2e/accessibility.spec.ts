import { expect, test, type Page } from '@playwright/test';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { profilePath } from '../../src/features/business/business.ts';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
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
});
