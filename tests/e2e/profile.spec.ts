import { expect, test } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { mapLinks, profilePath, socialLinks } from '../../src/features/business/business.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { UNSAFE_DESCRIPTION } from '../../tenants/demo/generate.ts';
import { demoConfig, demoTenant, findBusiness, htmlText } from './directory-helpers.ts';
import { expectScriptOnlyOnSendMessage, scriptRequests } from './script-budget.ts';

const config = demoConfig();

/** A business with every section filled: the classic layout shows them all. */
const complete = (b: Business) =>
	Boolean(
		b.acceptsMessages &&
		b.website &&
		b.phone &&
		b.address.street &&
		b.logoUrl &&
		b.membershipLevel !== 'Business Partner' &&
		b.badges.some((badge) => badge.iconUrl) &&
		socialLinks(b.socialMedia).length >= 2,
	);

test.describe('business profile', () => {
	test('the classic layout shows every section of the business', async ({ page }) => {
		const business = await findBusiness(page.request, 'with every section', complete);
		await page.goto(profilePath(business));
		const main = page.getByRole('main');
		await expect(main.locator('[data-layout]')).toHaveAttribute('data-layout', 'classic');

		// Header card
		await expect(main.getByRole('heading', { level: 1 })).toHaveText(business.name);
		await expect(main.getByRole('img', { name: `${business.name} logo` })).toHaveAttribute(
			'src',
			business.logoUrl,
		);
		await expect(
			main.getByText(`${business.address.city}, ${business.address.state}`, { exact: true }),
		).toBeVisible();
		const phone = main.getByRole('link', { name: business.phone }).first();
		await expect(phone).toHaveAttribute('href', /^tel:[\d+]+/);
		await expect(main.getByText(business.membershipLevel, { exact: true }).first()).toBeVisible();
		const chips = main.getByRole('list', { name: 'Categories' });
		for (const category of business.categories) {
			await expect(chips.getByRole('link', { name: category })).toHaveAttribute(
				'href',
				`/search?${new URLSearchParams({ category })}`,
			);
		}
		// The mobile buttons are for narrow screens only.
		await expect(main.getByRole('button', { name: 'Contact', exact: true })).toBeHidden();

		// About, sanitised rich text
		await expect(main.getByRole('heading', { name: `About ${business.name}` })).toBeVisible();

		// Location
		const location = main.getByRole('region', { name: 'Location' });
		await expect(location.getByText(business.address.street, { exact: true })).toBeVisible();
		const map = location.locator('iframe');
		await expect(map).toHaveAttribute('title', `Map of ${business.name}`);
		await expect(map).toHaveAttribute('loading', 'lazy');
		await expect(map).toHaveAttribute('src', mapLinks(business).embed);
		expect(await map.evaluate((frame) => frame.getBoundingClientRect().height)).toBe(300);
		const directions = location.getByRole('link', { name: /Get Directions/ });
		await expect(directions).toHaveAttribute('href', mapLinks(business).directions);
		await expect(directions).toHaveAttribute('target', '_blank');

		// Contact Information: the e-mail address is never printed
		const contact = main.getByRole('region', { name: 'Contact Information' });
		await expect(contact.getByRole('button', { name: 'Send Message' })).toBeVisible();
		await expect(contact.getByRole('link', { name: /Visit Website/ })).toHaveAttribute(
			'href',
			new URL(business.website).href,
		);
		await expect(contact.getByRole('link', { name: /Visit Website/ })).toHaveAttribute(
			'rel',
			'noopener noreferrer',
		);
		const address = (demoTenant().businesses ?? []).find(
			(b) => b.weblink_profile_id === business.weblinkProfileId,
		)?.email;
		expect(address).toContain('@');
		expect(await page.content()).not.toContain(address);
		// Main contacts are switched off in the demo configuration.
		await expect(contact.getByText('Main Contact')).toHaveCount(0);

		// Social Media: one icon link per known network
		const social = main.getByRole('region', { name: 'Social Media' });
		for (const link of socialLinks(business.socialMedia)) {
			await expect(
				social.getByRole('link', { name: `${business.name} on ${link.label}` }),
			).toHaveAttribute('href', link.url);
		}

		// Member Affiliations link to the badge URL
		const affiliations = main.getByRole('region', { name: 'Member Affiliations' });
		for (const badge of business.badges.filter((b) => b.iconUrl)) {
			await expect(affiliations.getByRole('link', { name: badge.iconText })).toHaveAttribute(
				'href',
				new URL(badge.iconUrl).href,
			);
		}

		// Actions, promo box, way back
		await expect(main.getByRole('button', { name: 'Share Business' })).toBeVisible();
		await expect(main.getByRole('link', { name: /View on Map/ })).toHaveAttribute(
			'href',
			mapLinks(business).view,
		);
		const promo = main.getByRole('complementary', { name: config.content.sidebarTitle });
		await expect(promo.getByText(config.content.sidebarTagline)).toBeVisible();
		const join = promo.getByRole('link', { name: new RegExp(config.content.sidebarButtonText) });
		await expect(join).toHaveAttribute('href', config.urls.joinUrl);
		await expect(join).toHaveAttribute('target', '_blank');
		await expect(main.getByRole('link', { name: 'Back to Directory' })).toHaveAttribute(
			'href',
			'/search',
		);
	});

	test('a Business Partner website is plain text, never a link', async ({ page }) => {
		const partner = await findBusiness(
			page.request,
			'at the Business Partner level with a website',
			(b) => b.membershipLevel === 'Business Partner' && b.website !== '',
		);
		await page.goto(profilePath(partner));
		const contact = page.getByRole('region', { name: 'Contact Information' });
		await expect(
			contact.getByText(partner.website.replace(/^https?:\/\//, '').replace(/\/$/, '')),
		).toBeVisible();
		await expect(page.getByRole('main').getByRole('link', { name: /Visit Website/ })).toHaveCount(
			0,
		);
	});

	test('without social links it says so, and without e-mail there is no message button', async ({
		page,
	}) => {
		const quiet = await findBusiness(
			page.request,
			'without social links or e-mail',
			(b) => socialLinks(b.socialMedia).length === 0 && !b.acceptsMessages,
		);
		await page.goto(profilePath(quiet));
		await expect(page.getByText('No social media links available')).toBeVisible();
		await expect(page.getByRole('button', { name: 'Send Message' })).toHaveCount(0);
	});

	test('the breadcrumb carries the search category', async ({ page }) => {
		const business = await findBusiness(
			page.request,
			'with a category',
			(b) => b.categories.length > 0,
		);
		const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
		await page.goto(profilePath(business));
		await expect(crumbs.getByRole('listitem')).toHaveText(['Home', 'Businesses', business.name]);
		await expect(crumbs.getByRole('link', { name: 'Businesses' })).toHaveAttribute(
			'href',
			'/search',
		);

		const category = business.categories[0]!;
		await page.goto(profilePath(business, category));
		await expect(crumbs.getByRole('listitem')).toHaveText(['Home', category, business.name]);
		await expect(crumbs.getByRole('link', { name: category })).toHaveAttribute(
			'href',
			`/search?${new URLSearchParams({ category })}`,
		);
		await expect(crumbs.getByText(business.name)).toHaveAttribute('aria-current', 'page');
	});

	test('the head carries title, description, canonical, social tags and LocalBusiness data', async ({
		page,
	}) => {
		const business = await findBusiness(page.request, 'with every section', complete);
		await page.goto(profilePath(business));
		const head = page.locator('head');
		await expect(page).toHaveTitle(`${business.name} | ${config.name}`);
		const description = await head.locator('meta[name="description"]').getAttribute('content');
		expect(description?.length).toBeGreaterThan(20);
		expect(description!.length).toBeLessThanOrEqual(160);
		const canonical = await head.locator('link[rel="canonical"]').getAttribute('href');
		expect(new URL(canonical!).pathname).toBe(profilePath(business));
		await expect(head.locator('meta[property="og:title"]')).toHaveAttribute(
			'content',
			`${business.name} | ${config.name}`,
		);
		await expect(head.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical!);
		await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
			'content',
			new RegExp(`${business.logoUrl}$`),
		);
		await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary');
		await expect(head.locator('meta[name="twitter:description"]')).toHaveAttribute(
			'content',
			description!,
		);

		const blocks = await head.locator('script[type="application/ld+json"]').allTextContents();
		const data = blocks.map((text) => JSON.parse(text)).find((d) => d['@type'] === 'LocalBusiness');
		expect(data).toMatchObject({
			'@context': 'https://schema.org',
			name: business.name,
			url: canonical,
			telephone: business.phone,
			image: expect.stringContaining(business.logoUrl),
			address: {
				'@type': 'PostalAddress',
				addressLocality: business.address.city,
				postalCode: business.address.zip,
			},
			sameAs: socialLinks(business.socialMedia).map((s) => s.url),
		});
	});

	test('a weblink profile id, a missing or wrong slug and a name lead to the canonical page', async ({
		request,
	}) => {
		const business = await findBusiness(request, 'with a weblink id', (b) =>
			/^\d+$/.test(b.weblinkProfileId),
		);
		const canonical = profilePath(business);
		for (const path of [
			`/business/${business.weblinkProfileId}/${business.slug}`,
			`/business/${business.weblinkProfileId}/anything`,
			`/business/${business.id}/not-the-slug`,
			`/business/${business.id}`,
			`/business/${business.weblinkProfileId}`,
		]) {
			const response = await request.get(path, { maxRedirects: 0 });
			expect(response.status(), path).toBe(301);
			expect(new URL(response.headers().location!, 'http://x').pathname, path).toBe(canonical);
		}
		const withCategory = await request.get(
			`/business/${business.weblinkProfileId}/x?category=Golf`,
			{
				maxRedirects: 0,
			},
		);
		expect(withCategory.headers().location).toMatch(/\?category=Golf$/);
		const followed = await request.get(`/business/${business.weblinkProfileId}/${business.slug}`);
		expect(followed.status()).toBe(200);
		expect(htmlText(await followed.text())).toContain(
			`<h1 class="profile-header__name">${business.name}</h1>`,
		);
	});

	test('the deprecated /business/{name} route finds a business by name prefix', async ({
		request,
	}) => {
		const target = await findBusiness(request, 'with a long name', (b) => b.name.length > 10);
		const prefix = target.name.slice(0, 8);
		const response = await request.get(`/business/${encodeURIComponent(prefix)}`, {
			maxRedirects: 0,
		});
		expect(response.status()).toBe(301);
		const location = new URL(response.headers().location!, 'http://x').pathname;
		const found = await findBusiness(
			request,
			'at that location',
			(b) => profilePath(b) === location,
		);
		expect(found.name.toLowerCase().startsWith(prefix.toLowerCase())).toBe(true);
	});

	for (const path of [
		'/business/Zzzz-no-such-business',
		'/business/00000000-0000-4000-8000-000000000000/nobody',
	]) {
		test(`an unknown business (${path}) gets the Business Not Found view with a 404`, async ({
			page,
		}) => {
			const response = await page.goto(path);
			expect(response?.status()).toBe(404);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Business Not Found');
			await expect(page.getByText('Business not found', { exact: true })).toBeVisible();
			await expect(
				page.getByText('This might be due to a recent update. Try refreshing the page.'),
			).toBeVisible();
			await expect(
				page.getByRole('main').getByRole('link', { name: 'Back to Directory' }),
			).toHaveAttribute('href', '/search');
			await page.getByRole('button', { name: 'Refresh Page' }).click();
			await expect(page).toHaveURL(path);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Business Not Found');
		});
	}

	test(
		'loads no script until Send Message is clicked, then only the dialog',
		IN_FULL_BROWSER,
		async ({ page }) => {
			const business = await findBusiness(page.request, 'with every section', complete);
			await expectScriptOnlyOnSendMessage(page, profilePath(business), business.name);
		},
	);

	test(
		'Share Business copies the link where there is no share sheet',
		IN_FULL_BROWSER,
		async ({ page, context }) => {
			await context.grantPermissions(['clipboard-read', 'clipboard-write']);
			await page.addInitScript(() => {
				Object.defineProperty(Navigator.prototype, 'share', { value: undefined });
			});
			const business = await findBusiness(page.request, 'with every section', complete);
			const scripts = scriptRequests(page);
			await page.goto(profilePath(business, 'Golf'));
			const alerts: string[] = [];
			page.on('dialog', async (dialog) => {
				alerts.push(dialog.message());
				await dialog.accept();
			});
			await page.getByRole('button', { name: 'Share Business' }).click();
			await expect.poll(() => alerts).toEqual(['Business link copied to clipboard!']);
			const copied = await page.evaluate(() => navigator.clipboard.readText());
			expect(copied).toBe(new URL(profilePath(business), page.url()).href);
			expect(scripts).toHaveLength(1);
			expect(scripts[0]).toMatch(/\/_astro\/share-[\w-]+\.js$/);
		},
	);

	test('Share Business uses the native share sheet when there is one', async ({ page }) => {
		await page.addInitScript(() => {
			Object.defineProperty(Navigator.prototype, 'share', {
				value: async (data: ShareData) => {
					(window as unknown as { shared: ShareData }).shared = data;
				},
			});
		});
		const business = await findBusiness(page.request, 'with every section', complete);
		await page.goto(profilePath(business));
		page.on('dialog', () => {
			throw new Error('no alert expected');
		});
		await page.getByRole('button', { name: 'Share Business' }).click();
		await expect
			.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared))
			.toEqual({ title: business.name, url: new URL(profilePath(business), page.url()).href });
	});

	test('a description with script payloads renders as safe text and runs none of them', async ({
		page,
	}) => {
		const alerts: string[] = [];
		page.on('dialog', async (dialog) => {
			alerts.push(dialog.message());
			await dialog.dismiss();
		});
		const last = (demoTenant().businesses ?? []).at(-1)!;
		expect(last.listings?.[0]?.description).toContain(UNSAFE_DESCRIPTION);
		const business = await findBusiness(
			page.request,
			'with the payloads',
			(b) => b.name === last.report_name,
		);
		await page.goto(profilePath(business));
		const about = page.getByRole('region', { name: `About ${business.name}` });
		await expect(about.getByText('Ask about our seasonal specials.')).toBeVisible();
		// The javascript: href is gone, so the anchor is no longer a link at all.
		await expect(about.getByRole('link', { name: 'Our specials' })).toHaveCount(0);
		const link = about.getByText('Our specials');
		await expect(link).toBeVisible();
		expect(await link.getAttribute('href')).toBeNull();
		await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
		expect(await about.innerHTML()).not.toMatch(/<script|onerror|onmouseover|javascript:/i);
		await about.getByText('Our specials').hover();
		await link.click();
		await page.waitForTimeout(500);
		expect(alerts).toEqual([]);
	});

	test('on an 800 px screen the Visit Website and Contact buttons show under the name', async ({
		page,
	}) => {
		await page.setViewportSize({ width: 800, height: 1000 });
		const business = await findBusiness(page.request, 'with every section', complete);
		await page.goto(profilePath(business));
		const header = page.getByRole('main').locator('.profile-mobile-actions');
		await expect(header.getByRole('link', { name: /Visit Website/ })).toBeVisible();
		await header.getByRole('button', { name: 'Contact', exact: true }).click();
		await expect(page.getByRole('dialog', { name: `Contact ${business.name}` })).toBeVisible();
	});
});
