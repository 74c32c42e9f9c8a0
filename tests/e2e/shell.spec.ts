import { expect, test, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { expectNoAxeViolations } from './a11y-support.ts';
import { expectFocusKeptIn } from './focus-support.ts';
import { expectSelfHostedFonts } from './font-support.ts';

// The site shell on every page: skip link, header (menu, dropdowns, Join Today, mobile menu),
// footer, fonts, the 404 page. Demo chamber settings: see tenants/demo/generate.ts.

const SITE = 'https://www.cedarvalleychamber.example';
const CATEGORY_PAGE = '/category/legal-services/';

const header = (page: Page) => page.locator('#site-header');

/** The header's code loads on the first interaction; this waits until it has wired things up. */
async function headerReady(page: Page): Promise<void> {
	await expect(header(page)).toHaveAttribute('data-enhanced', '');
}

test('a skip link leads past the header to the main content', async ({ page }) => {
	await page.goto(CATEGORY_PAGE);
	await page.keyboard.press('Tab');
	const skip = page.getByRole('link', { name: 'Skip to main content' });
	await expect(skip).toBeFocused();
	await expect(skip).toBeInViewport();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('main')).toBeFocused();
});

test.describe('header', () => {
	test('logo to the main website, the configured menu, Join Today in a new tab', async ({
		page,
	}) => {
		await page.goto('/');
		const logo = page.getByRole('banner').getByRole('link', {
			name: 'Cedar Valley Chamber of Commerce',
		});
		await expect(logo).toHaveAttribute('href', SITE);
		const nav = page.getByRole('navigation', { name: 'Main' });
		await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
		await expect(nav.getByRole('link', { name: 'Directory' })).toHaveAttribute('href', '/search');
		const news = nav.getByRole('link', { name: /^News/ });
		await expect(news).toHaveAttribute('href', `${SITE}/news`);
		await expect(news).toHaveAttribute('target', '_blank');
		await expect(nav.getByRole('button', { name: 'Events' })).toHaveAttribute(
			'aria-expanded',
			'false',
		);
		const join = page.getByRole('banner').getByRole('link', { name: /^Join Today/ });
		await expect(join).toHaveAttribute('href', `${SITE}/join`);
		await expect(join).toHaveAttribute('target', '_blank');
	});

	test('a dropdown opens 100 ms after the pointer arrives and closes 300 ms after it leaves', async ({
		page,
	}) => {
		// Fake timers, frozen from before the page loads, stepped through with runFor.
		await page.clock.install({ time: new Date('2030-01-01T10:00:00Z') });
		await page.clock.pauseAt(new Date('2030-01-01T10:00:01Z'));
		await page.goto('/');
		await page
			.getByRole('banner')
			.getByRole('link', { name: 'Cedar Valley Chamber of Commerce' })
			.hover();
		await headerReady(page);

		const about = page.getByRole('button', { name: 'About' });
		const panel = page.getByRole('link', { name: /^Our Team/ });
		await about.hover();
		await page.clock.runFor(90);
		await expect(panel).toBeHidden();
		await page.clock.runFor(20);
		await expect(panel).toBeVisible();
		await expect(about).toHaveAttribute('aria-expanded', 'true');

		// Moving into the panel keeps it open; leaving it closes it after the grace time.
		await panel.hover();
		await page.clock.runFor(500);
		await expect(panel).toBeVisible();
		await page.mouse.move(640, 600);
		await page.clock.runFor(250);
		await expect(panel).toBeVisible();
		await page.clock.runFor(100);
		await expect(panel).toBeHidden();
		await expect(about).toHaveAttribute('aria-expanded', 'false');
	});

	test('a dropdown works from the keyboard', async ({ page }) => {
		await page.goto('/');
		const about = page.getByRole('button', { name: 'About' });
		await about.focus();
		// The first key press may come before the header's code is in: it is replayed.
		await page.keyboard.press('Enter');
		await expect(about).toHaveAttribute('aria-expanded', 'true');
		await expect(page.getByRole('link', { name: /^About Us/ })).toBeVisible();

		await page.keyboard.press('ArrowDown');
		await expect(page.getByRole('link', { name: /^About Us/ })).toBeFocused();
		await page.keyboard.press('ArrowDown');
		await expect(page.getByRole('link', { name: /^Our Team/ })).toBeFocused();
		await page.keyboard.press('End');
		await expect(page.getByRole('link', { name: /^Annual Report/ })).toBeFocused();
		await page.keyboard.press('ArrowDown');
		await expect(page.getByRole('link', { name: /^About Us/ })).toBeFocused();
		await page.keyboard.press('Escape');
		await expect(about).toBeFocused();
		await expect(about).toHaveAttribute('aria-expanded', 'false');
		await expect(page.getByRole('link', { name: /^About Us/ })).toBeHidden();

		await page.keyboard.press('Space');
		await expect(about).toHaveAttribute('aria-expanded', 'true');
		await page.keyboard.press('Space');
		await expect(about).toHaveAttribute('aria-expanded', 'false');

		// Arrow keys move between the menu's top-level items.
		await page.keyboard.press('ArrowRight');
		await expect(page.getByRole('link', { name: /^News/ })).toBeFocused();
		await page.keyboard.press('ArrowLeft');
		await page.keyboard.press('ArrowLeft');
		await expect(page.getByRole('button', { name: 'Events' })).toBeFocused();
		await page.keyboard.press('ArrowDown');
		await expect(page.getByRole('link', { name: 'Chamber Events' })).toBeFocused();
		await expect(page.getByRole('link', { name: 'Chamber Events' })).toHaveAttribute(
			'href',
			'/events',
		);
	});

	test('one dropdown at a time; a click elsewhere closes it', async ({ page }) => {
		await page.goto('/');
		const events = page.getByRole('button', { name: 'Events' });
		const about = page.getByRole('button', { name: 'About' });
		await events.click();
		await headerReady(page);
		await expect(events).toHaveAttribute('aria-expanded', 'true');
		await about.click();
		await expect(about).toHaveAttribute('aria-expanded', 'true');
		await expect(events).toHaveAttribute('aria-expanded', 'false');
		await page.getByRole('heading', { level: 1 }).click();
		await expect(about).toHaveAttribute('aria-expanded', 'false');
	});
});

test.describe('mobile menu (below 999 px)', () => {
	test.use({ viewport: { width: 800, height: 900 } });

	test('opens from its button, traps focus, locks scrolling, closes on Escape', async ({
		page,
	}) => {
		await page.goto('/');
		await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
		const toggle = page.getByRole('button', { name: 'Open menu' });
		await expect(toggle).toBeVisible();
		await toggle.click();

		const menu = page.getByRole('dialog', { name: 'Menu' });
		await expect(menu).toBeVisible();
		await headerReady(page);
		await expect(toggle).toHaveAttribute('aria-expanded', 'true');
		const nav = menu.getByRole('navigation', { name: 'Mobile' });
		await expect(nav.getByRole('link', { name: 'Directory' })).toHaveAttribute('href', '/search');
		await expect(nav.getByRole('link', { name: 'Community Events' })).toBeVisible();
		await expect(menu.getByRole('link', { name: /^Join Today/ })).toHaveAttribute(
			'target',
			'_blank',
		);
		expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
			'hidden',
		);

		await expectFocusKeptIn(page, '#mobile-menu', 20, 5);

		await page.keyboard.press('Escape');
		await expect(menu).toBeHidden();
		await expect(toggle).toBeFocused();
		await expect(toggle).toHaveAttribute('aria-expanded', 'false');
		expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe(
			'hidden',
		);
	});

	test('closes with its close button', async ({ page }) => {
		await page.goto('/');
		await page.getByRole('button', { name: 'Open menu' }).click();
		const menu = page.getByRole('dialog', { name: 'Menu' });
		await expect(menu).toBeVisible();
		await menu.getByRole('button', { name: 'Close menu' }).click();
		await expect(menu).toBeHidden();
	});

	test('has no WCAG 2.2 AA violations while open', async ({ page }) => {
		await page.goto('/');
		await page.getByRole('button', { name: 'Open menu' }).click();
		await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
		await headerReady(page);
		await expectNoAxeViolations(page);
	});
});

test.describe('footer', () => {
	test('quick links, resources and contact details from the configuration', async ({ page }) => {
		await page.goto('/');
		const footer = page.getByRole('contentinfo');
		const quick = footer.getByRole('navigation', { name: 'Quick Links' });
		await expect(quick.getByRole('link', { name: 'Directory Home' })).toHaveAttribute('href', '/');
		await expect(quick.getByRole('link', { name: 'Search Directory' })).toHaveAttribute(
			'href',
			'/search',
		);
		// The demo's default calendar is 'events'.
		await expect(quick.getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/events');
		await expect(quick.getByRole('link', { name: /^Join the Chamber/ })).toHaveAttribute(
			'href',
			`${SITE}/join`,
		);
		const resources = footer.getByRole('navigation', { name: 'Resources' });
		await expect(resources.getByRole('link')).toHaveText([
			/Small Business Resources/,
			/Workforce Development/,
			/Community Guide/,
			/Job Board/,
		]);
		await expect(resources.getByRole('link', { name: /^Job Board/ })).toHaveAttribute(
			'href',
			`${SITE}/jobs`,
		);
		await expect(footer.getByText('Suite 100')).toBeVisible();
		await expect(footer.getByText('Cedarbrook, IA 52901')).toBeVisible();
		await expect(footer.getByRole('link', { name: '(319) 555-0100' })).toHaveAttribute(
			'href',
			'tel:3195550100',
		);
		await expect(
			footer.getByRole('link', { name: 'info@cedarvalleychamber.example' }),
		).toHaveAttribute('href', 'mailto:info@cedarvalleychamber.example');
		await expect(footer.getByRole('link', { name: /^Privacy Policy/ })).toHaveAttribute(
			'href',
			`${SITE}/privacy`,
		);
	});

	test('social icons for the five configured networks, each with an accessible name', async ({
		page,
	}) => {
		await page.goto('/');
		const social = page.getByRole('contentinfo').getByRole('link', {
			name: /^Cedar Valley Chamber of Commerce on /,
		});
		const networks = ['Facebook', 'Twitter', 'LinkedIn', 'Instagram', 'YouTube'];
		await expect(social).toHaveCount(networks.length);
		for (const [index, network] of networks.entries()) {
			await expect(social.nth(index)).toHaveAccessibleName(
				`Cedar Valley Chamber of Commerce on ${network}`,
			);
			await expect(social.nth(index).locator('svg')).toHaveCount(1);
		}
		await expect(social.first()).toHaveAttribute(
			'href',
			'https://www.facebook.com/CedarValleyChamberDemo',
		);
	});

	test('the copyright shows the current year, corrected in the browser when it has changed', async ({
		page,
	}) => {
		await page.goto('/');
		const footer = page.getByRole('contentinfo');
		await expect(footer.getByText(/^© \d{4} Cedar Valley Chamber of Commerce\./)).toContainText(
			`© ${new Date().getFullYear()} Cedar Valley Chamber of Commerce. All rights reserved.`,
		);

		await page.clock.setFixedTime(new Date('2031-03-01T12:00:00Z'));
		await page.reload();
		await expect(footer.getByText(/^© \d{4}/)).toContainText('© 2031 Cedar Valley');
	});
});

test(
	'category pages load no JavaScript until the visitor interacts with the header',
	IN_FULL_BROWSER,
	async ({ page }) => {
		const scripts: string[] = [];
		page.on('request', (request) => {
			if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
		});
		await page.goto(CATEGORY_PAGE);
		await page.waitForLoadState('networkidle');
		expect(scripts).toEqual([]);
		await page.getByRole('button', { name: 'About' }).hover();
		await headerReady(page);
		expect(scripts).toEqual([expect.stringMatching(/^\/_astro\/header-menu-.*\.js$/)]);
	},
);

test('fonts come from this site, never from a third party', async ({ page, baseURL }) => {
	const origins = new Set<string>();
	page.on('request', (request) => origins.add(new URL(request.url()).origin));
	await expectSelfHostedFonts(page, '/');
	expect([...origins]).toEqual([new URL(baseURL ?? '').origin]);
});

test('an unknown address gets the branded 404 page', async ({ page }) => {
	const response = await page.goto('/no-such-page');
	expect(response?.status()).toBe(404);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
	await expect(page.getByRole('banner').getByRole('navigation', { name: 'Main' })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
	await expect(page.getByRole('link', { name: 'Search the Directory' })).toHaveAttribute(
		'href',
		'/search',
	);
	await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});
