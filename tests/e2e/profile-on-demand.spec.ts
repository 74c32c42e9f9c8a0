import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { profilePath } from '../../src/features/business/business.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { startSiteServer, type SiteServer } from '../../scripts/lib/netlify-local.ts';
import { astroSiteBuilder, ROOT } from '../../scripts/lib/site.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { freePort } from '../support/db-clients.ts';
import { DATA_DIR, STACK_URL } from './admin-support.ts';
import { findBusiness } from './directory-helpers.ts';
import { expectScriptOnlyOnSendMessage } from './script-budget.ts';

/**
 * A chamber above PRERENDERED_PROFILES_MAX: the demo built again with the limit at 0, so no
 * profile is pre-rendered, and served by a second local server (the Netlify stand-in, with the
 * functions and the on-demand function of that build) beside the suite's own. Its profiles must
 * be the pre-rendered ones of the suite's server, rendered on demand.
 */

let site: SiteServer;
let buildDir: string;
const savedEnv: Record<string, string | undefined> = {};

/** The text of a page's <main>, as served. */
function mainOf(html: string): string {
	const match = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html);
	if (!match) throw new Error('The page has no <main>');
	return match[1]!;
}

const complete = (b: Business) =>
	Boolean(b.acceptsMessages && b.website && b.phone && b.address.street && b.logoUrl);

test.describe('profiles of a chamber above PRERENDERED_PROFILES_MAX', () => {
	test.beforeAll(async () => {
		// A whole astro build of the demo, on a machine shared with other work.
		test.setTimeout(600_000);
		const keys = await loadOrCreateKeys(DATA_DIR);
		const env = {
			SUPABASE_URL: STACK_URL,
			SUPABASE_ANON_KEY: keys.anonKey,
			SUPABASE_SERVICE_ROLE_KEY: keys.serviceKey,
			TENANT: 'demo',
		};
		buildDir = await mkdtemp(join(tmpdir(), 'chamber-on-demand-'));
		const built = await astroSiteBuilder(
			{ env: { ...env, PRERENDERED_PROFILES_MAX: '0' } },
			'demo',
		)(buildDir, new AbortController().signal);
		// The functions and the on-demand function run in this process, reading its environment
		// (put back afterwards: later specs spawn commands with this process's environment).
		for (const name of Object.keys(env)) savedEnv[name] = process.env[name];
		Object.assign(process.env, env);
		site = await startSiteServer({
			distDir: built.distDir,
			functionsDir: join(ROOT, 'netlify/functions'),
			ssrDir: built.ssrDir,
			port: await freePort(),
		});
	});

	test.afterAll(async () => {
		await site?.close();
		if (buildDir) await rm(buildDir, { recursive: true, force: true });
		for (const [name, value] of Object.entries(savedEnv)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	test('no profile is pre-rendered, and the sitemap still lists every one', async ({ request }) => {
		expect(existsSync(join(buildDir, 'dist/business'))).toBe(false);
		expect(existsSync(join(buildDir, 'dist/business-not-found/index.html'))).toBe(true);
		const business = await findBusiness(request, 'with every section', complete);
		const onDemand = await playwrightRequest.newContext({ baseURL: site.url });
		const sitemap = await (await onDemand.get('/sitemap.xml')).text();
		// Absolute against the site's own address (SITE_URL), whichever server answers.
		expect(sitemap).toContain(`${profilePath(business)}</loc>`);
		expect(sitemap.match(/<loc>[^<]*\/business\//g)?.length).toBeGreaterThan(100);
		await onDemand.dispose();
	});

	test('a profile is the pre-rendered page rendered on demand, with the CDN cache headers', async ({
		request,
	}) => {
		const business = await findBusiness(request, 'with every section', complete);
		const path = profilePath(business);
		const onDemand = await playwrightRequest.newContext({ baseURL: site.url });
		const response = await onDemand.get(path, { maxRedirects: 0 });
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

		// The same component and data as the suite's pre-rendered page: the same <main>.
		const prerendered = await request.get(path);
		expect(prerendered.status()).toBe(200);
		expect(mainOf(await response.text())).toBe(mainOf(await prerendered.text()));
		await onDemand.dispose();
	});

	test('loads no script until Send Message is clicked, then only the dialog', async ({ page }) => {
		const business = await findBusiness(page.request, 'with every section', complete);
		const url = new URL(profilePath(business), site.url).href;
		await expectScriptOnlyOnSendMessage(page, url, business.name);
	});

	test('a wrong slug leads to the profile, an unknown business to Business Not Found', async ({
		page,
	}) => {
		const business = await findBusiness(page.request, 'with a weblink id', (b) =>
			/^\d+$/.test(b.weblinkProfileId),
		);
		const onDemand = await playwrightRequest.newContext({ baseURL: site.url });
		for (const path of [
			`/business/${business.id}/not-the-slug`,
			`/business/${business.weblinkProfileId}/${business.slug}`,
		]) {
			const response = await onDemand.get(path, { maxRedirects: 0 });
			expect(response.status(), path).toBe(301);
			expect(response.headers().location, path).toBe(profilePath(business));
		}
		await onDemand.dispose();

		const unknown = '/business/00000000-0000-4000-8000-000000000000/nobody';
		const response = await page.goto(new URL(unknown, site.url).href);
		expect(response?.status()).toBe(404);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Business Not Found');
		await expect(page.getByText('Business not found', { exact: true })).toBeVisible();
	});
});
