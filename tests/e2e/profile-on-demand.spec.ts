import { expect, test } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { profilePath } from '../../src/features/business/business.ts';
import { onDemandProfilePath } from '../../src/features/business/business.server.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { slugify } from '../../src/features/directory/rules.ts';
import { getTenantBySlug, importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { serviceClient } from './admin-support.ts';
import { findBusiness } from './directory-helpers.ts';
import { expectScriptOnlyOnSendMessage } from './script-budget.ts';

/**
 * Profiles rendered on demand, on the suite's own server, as every chamber's are by default
 * (PRERENDERED_PROFILES_MAX 0): the business-legacy function answers a canonical profile address
 * with the page the site's on-demand route renders, with the CDN's cache headers and the
 * business's tag, for a business published since the last build too. A chamber that pre-renders
 * its profiles (PRERENDERED_PROFILES_MAX above its size) gets the same page from the build: both
 * routes render ProfilePage with the same business.
 */

/** The text of a page's <main>, as served. */
function mainOf(html: string): string {
	const match = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html);
	if (!match) throw new Error('The page has no <main>');
	return match[1]!;
}

const complete = (b: Business) =>
	Boolean(b.acceptsMessages && b.website && b.phone && b.address.street && b.logoUrl);

test("a profile's address answers the page rendered on demand, with the CDN cache headers", async ({
	request,
}) => {
	const business = await findBusiness(request, 'with every section', complete);
	const route = await request.get(onDemandProfilePath(business.id), { maxRedirects: 0 });
	expect(route.status()).toBe(200);
	const response = await request.get(profilePath(business), { maxRedirects: 0 });
	expect(response.status()).toBe(200);
	const headers = response.headers();
	expect(headers['content-type']).toMatch(/^text\/html/);
	expect(headers['netlify-cdn-cache-control']).toMatch(
		/^public, durable, s-maxage=\d+, stale-while-revalidate=\d+$/,
	);
	expect(headers['netlify-cache-tag']?.split(',')).toEqual([
		'demo',
		'demo:businesses',
		`demo:business:${business.id}`,
	]);
	expect(headers['content-security-policy']).toContain("script-src 'self' 'sha256-");

	// The canonical address serves the on-demand route's page.
	expect(mainOf(await response.text())).toBe(mainOf(await route.text()));
	expect(mainOf(await response.text())).toContain(business.name);
});

test(
	'rendered on demand, a profile loads no script until Send Message is clicked, then only the dialog',
	IN_FULL_BROWSER,
	async ({ page }) => {
		const business = await findBusiness(page.request, 'with every section', complete);
		await expectScriptOnlyOnSendMessage(page, onDemandProfilePath(business.id), business.name);
	},
);

test('a profile address with no pre-rendered file is answered with the profile rendered on demand', async ({
	request,
}) => {
	const service = await serviceClient();
	const tenant = await getTenantBySlug(service, 'demo');
	const name = `Lantern Row Books ${Date.now().toString(36)}`;
	const weblinkId = String(970_000 + (Date.now() % 10_000));
	// Published in the database, with no publish since: the live build has no page for it.
	await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug: 'demo', name: tenant.name },
				businesses: [
					{
						weblink_profile_id: weblinkId,
						report_name: name,
						city: 'Cedarbrook',
						work_phone: '(319) 555-0177',
						categories: ['Retail'],
						listings: [{ description: '<p>Open late on Fridays.</p>' }],
					},
				],
			},
			'on-demand profile e2e',
		),
		{ only: ['businesses'], replaceBusinesses: false },
	);
	try {
		const { data } = await service
			.from('profiles')
			.select('id')
			.eq('tenant_id', tenant.id)
			.eq('weblink_profile_id', weblinkId)
			.single<{ id: string }>();
		const path = `/business/${data!.id}/${slugify(name)}`;
		const response = await request.get(path, { maxRedirects: 0 });
		expect(response.status()).toBe(200);
		expect(response.headers()['netlify-cache-tag']?.split(',')).toContain(
			`demo:business:${data!.id}`,
		);
		const html = await response.text();
		expect(mainOf(html)).toContain(name);
		expect(mainOf(html)).toContain('Open late on Fridays.');
	} finally {
		await service
			.from('profiles')
			.delete()
			.eq('tenant_id', tenant.id)
			.eq('weblink_profile_id', weblinkId);
	}
});
