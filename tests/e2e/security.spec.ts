import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { profilePath } from '../../src/features/business/business.ts';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { changeDemoConfig } from './admin-support.ts';
import { watchViolations } from './csp-support.ts';
import { demoTenant, findBusiness } from './directory-helpers.ts';

// The security headers and the Content-Security-Policy as a browser gets them, on every
// kind of answer (built page, on-demand page, function), and no page breaking its own policy.

const ADMIN_PAGES = ['/chamber-login-v2/', '/forgot-password/', '/reset-password/'];

async function sitemapPaths(request: APIRequestContext): Promise<string[]> {
	const xml = await (await request.get('/sitemap.xml')).text();
	return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}

function policyOf(html: string): string | undefined {
	return /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/
		.exec(html)?.[1]
		?.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'");
}

test('every page allows exactly its own inline scripts, and has no inline handler or javascript: link', async ({
	request,
}) => {
	test.slow();
	const paths = [...(await sitemapPaths(request)), ...ADMIN_PAGES, '/no-such-page/'];
	expect(paths.length).toBeGreaterThan(20);
	const addresses = new Set(
		(demoTenant().businesses ?? []).map((b) => b.email?.toLowerCase()).filter(Boolean),
	);
	// A few at a time: a few hundred pages in one test. A built page carries its policy in a meta
	// tag; a page rendered on demand (a profile, an event) in its answer's header.
	const pages: [string, string, string | undefined][] = [];
	for (let i = 0; i < paths.length; i += 8) {
		const batch = paths.slice(i, i + 8);
		const answers = await Promise.all(
			batch.map(async (p) => {
				const response = await request.get(p);
				return [p, await response.text(), response.headers()['content-security-policy']] as const;
			}),
		);
		pages.push(...answers);
	}
	for (const [path, html, header] of pages) {
		const policy = policyOf(html) ?? header;
		expect(policy, path).toBeDefined();
		expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
		for (const [, attributes = '', body = ''] of html.matchAll(
			/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi,
		)) {
			if (/\bsrc=/.test(attributes) || /type="application\/(ld\+)?json"/.test(attributes)) {
				continue;
			}
			const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
			expect(policy, `${path}: ${body.slice(0, 60)}`).toContain(hash);
		}
		expect(html, path).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
		expect(html, path).not.toMatch(/(href|src|action)\s*=\s*["']?\s*javascript:/i);
		const shown = html.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
		expect(
			shown.filter((a) => addresses.has(a.toLowerCase())),
			path,
		).toEqual([]);
	}
});

test('static pages, on-demand pages and function answers carry the security headers', async ({
	request,
}) => {
	const events = (await (await request.get('/api/events')).json()) as { Result: Event[] };
	const event = events.Result[0]!;
	for (const path of ['/', '/search/', eventPath(event), '/api/businesses', '/api/events']) {
		const response = await request.get(path);
		expect(response.status(), path).toBe(200);
		const headers = response.headers();
		expect(headers['strict-transport-security'], path).toMatch(/max-age=\d{7,}/);
		expect(headers['x-content-type-options'], path).toBe('nosniff');
		expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
		expect(headers['permissions-policy'], path).toContain('camera=()');
		expect(headers['x-frame-options'], path).toBe('DENY');
		expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
	}
	// The on-demand page's full policy is its header (scripts by hash).
	const detail = await request.get(eventPath(event));
	expect(detail.headers()['content-security-policy']).toMatch(
		/script-src 'self'( 'sha256-[^']+')+/,
	);
	expect((await request.get('/api/businesses')).headers()['content-security-policy']).toBe(
		"default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
	);
});

test('a script written into the configuration’s texts never gets a hash in the policy', async ({
	request,
}) => {
	const injected = 'alert(document.cookie)';
	const script = `<script>${injected}</script>`;
	const hash = `'sha256-${createHash('sha256').update(injected).digest('base64')}'`;
	const before = await changeDemoConfig('content', (content) => ({
		...content,
		// An attribute value on every page, and text in every footer.
		metaKeywords: script,
		footerTagline: `"><script>${injected}</script>`,
	}));
	try {
		const events = (await (await request.get('/api/events')).json()) as { Result: Event[] };
		// An on-demand page reads the configuration as it is now.
		const detail = await request.get(eventPath(events.Result[0]!));
		const html = await detail.text();
		expect(html).toContain(`<meta name="keywords" content="${script}">`);
		expect(detail.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
		expect(detail.headers()['content-security-policy']).not.toContain(hash);
	} finally {
		await changeDemoConfig('content', () => before);
	}
});

test('no page kind breaks its policy in Chromium', async ({ page, context, baseURL }) => {
	test.slow();
	// Other hosts (map embeds, logos) are not reached from tests; an aborted request is no violation.
	const site = new URL(baseURL ?? 'http://localhost').host;
	await context.route(
		(url) => url.host !== site,
		(route) => route.abort(),
	);
	const violations = await watchViolations(page);
	const business = await findBusiness(
		page.request,
		'that takes messages',
		(b) => b.acceptsMessages,
	);
	const events = (await (await page.request.get('/api/events')).json()) as { Result: Event[] };

	await page.goto('/');
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await page.goto('/search/');
	await expect(page.getByRole('searchbox').first()).toBeEnabled();
	await page.goto('/category/');
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await page.goto(profilePath(business));
	await page.getByRole('button', { name: 'Send Message' }).click();
	await expect(page.getByRole('dialog', { name: `Contact ${business.name}` })).toBeVisible();
	for (const path of ['/events/', '/events-list/', '/community-events/']) {
		await page.goto(path);
		await expect(page.getByText('Loading events...')).toHaveCount(0);
	}
	await page.goto(eventPath(events.Result[0]!));
	await expect(page.getByRole('button', { name: 'Share Event' })).toBeVisible();
	await page.goto('/chamber-login-v2/');
	await expect(page.getByRole('button', { name: /sign in/i })).toBeEnabled();

	expect(violations).toEqual([]);
});
