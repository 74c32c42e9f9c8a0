// Runs on: hosted — every directory function against the production shape.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import type { Context } from '@netlify/functions';
import { bannerImageHandler } from '../../netlify/functions/banner-image.ts';
import { createPublicFetch, isPublicAddress } from '../../src/lib/public-fetch.server.ts';
import { freePort } from '../support/db-clients.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';

// Every directory function over real HTTP: the local Netlify server runs netlify/functions/* in
// this process against the test stack, with stand-in servers on 127.0.0.1 for the banner image
// host and for reCAPTCHA's siteverify.

// A 1×1 PNG.
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

let fx: DirectoryFixture;
let site: FunctionServer;
let upstream: Server;
let upstreamUrl: string;
/** The upstream as the test fetch knows it: a test host name that resolves to 127.0.0.1. */
let imagesUrl: string;
/** Paths the banner image host was asked for. */
const upstreamRequests: string[] = [];
let siteverify: Server;
let siteverifyUrl: string;
let outbox: string;
/** What the siteverify stand-in received, newest last. */
const verifications: { contentType: string; form: URLSearchParams }[] = [];

async function listen(server: Server): Promise<string> {
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The banner image host: a PNG, a web page posing as a PNG, a hanging request, a huge file,
 * redirects. It listens on 127.0.0.1, which the proxy refuses: tests that need its images go
 * through the proxy with a test fetch that knows the host as images.test (bannerImageHandler).
 */
function upstreamHandler(req: IncomingMessage, res: ServerResponse) {
	upstreamRequests.push(req.url ?? '');
	switch (req.url) {
		case '/banner.png':
		case '/members/images/relative.png':
			res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
			return;
		case '/fake.png':
			res
				.writeHead(200, { 'content-type': 'image/png' })
				.end('<html><body>Not an image</body></html>');
			return;
		case '/huge.png':
			res.writeHead(200, { 'content-type': 'image/png' });
			res.end(Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]));
			return;
		case '/hang.png':
			// Never answers; the proxy must give up on its own.
			return;
		case '/moved.png':
			res.writeHead(302, { location: '/banner.png' }).end();
			return;
		case '/to-internal.png':
			// A banner host sending the proxy to this machine's other services.
			res.writeHead(302, { location: `http://127.0.0.2:${req.socket.localPort}/banner.png` }).end();
			return;
		default:
			res.writeHead(404).end();
	}
}

/** reCAPTCHA's siteverify protocol: form-encoded secret + response, JSON verdict. */
async function siteverifyHandler(req: IncomingMessage, res: ServerResponse) {
	let body = '';
	for await (const chunk of req) body += chunk;
	const form = new URLSearchParams(body);
	verifications.push({ contentType: req.headers['content-type'] ?? '', form });
	const verdicts: Record<string, object> = {
		good: { success: true, score: 0.9, action: 'submit', hostname: 'localhost' },
		'low-score': { success: true, score: 0.3, action: 'submit', hostname: 'localhost' },
		'wrong-action': { success: true, score: 0.9, action: 'login', hostname: 'localhost' },
		'wrong-host': { success: true, score: 0.9, action: 'submit', hostname: 'evil.example' },
	};
	const known = form.get('secret') === 'test-secret';
	const verdict = (known && verdicts[form.get('response') ?? '']) || {
		success: false,
		'error-codes': ['invalid-input-response'],
	};
	res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
}

beforeAll(async () => {
	await db.connect();
	upstream = createServer(upstreamHandler);
	upstreamUrl = await listen(upstream);
	imagesUrl = upstreamUrl.replace('127.0.0.1', 'images.test');
	siteverify = createServer((req, res) => void siteverifyHandler(req, res));
	siteverifyUrl = await listen(siteverify);
	fx = await seedDirectoryTenants(service, {
		prefix: 'fn',
		config: {
			urls: { eventRegistrationBaseUrl: `${imagesUrl}/members` },
			services: { emailDomain: 'cedarchamber.example' },
		},
		banners: [
			{ banner_name: 'Demo banner', image_url: '/demo/banners/banner-1.svg', position: 1 },
			{ banner_name: 'Sponsor', image_url: `${imagesUrl}/banner.png`, position: 2 },
			{ banner_name: 'Relative', image_url: 'images/relative.png', position: 3 },
			{ banner_name: 'Fake', image_url: `${imagesUrl}/fake.png`, position: 4 },
			{ banner_name: 'Huge', image_url: `${imagesUrl}/huge.png`, position: 5 },
			{ banner_name: 'Hanging', image_url: `${imagesUrl}/hang.png`, position: 6 },
			{ banner_name: 'Gone', image_url: `${imagesUrl}/gone.png`, position: 7 },
			{ banner_name: 'Moved', image_url: `${imagesUrl}/moved.png`, position: 8 },
			{ banner_name: 'To internal', image_url: `${imagesUrl}/to-internal.png`, position: 9 },
			{ banner_name: 'Loopback', image_url: `${upstreamUrl}/banner.png`, position: 10 },
			{
				banner_name: 'Localhost',
				image_url: `${upstreamUrl.replace('127.0.0.1', 'localhost')}/banner.png`,
				position: 11,
			},
			{
				banner_name: 'Metadata',
				image_url: 'http://169.254.169.254/latest/meta-data/',
				position: 12,
			},
			{ banner_name: 'Escape', image_url: '/demo/../_headers', position: 13 },
			{ banner_name: 'Retired', image_url: `${imagesUrl}/banner.png?retired`, active: false },
		],
	});
	outbox = await mkdtemp(join(tmpdir(), 'chamber-outbox-'));
	// public/ stands in for the built site: the demo banner is one of its files.
	site = await startFunctionServer(stack, {
		tenant: fx.a.slug,
		env: { OUTBOX_DIR: outbox, SMTP_URL: undefined, RECAPTCHA_SECRET: undefined },
	});
});

afterAll(async () => {
	await site?.close();
	upstream?.closeAllConnections();
	upstream?.close();
	siteverify?.close();
	if (fx) await removeDirectoryTenants(db, fx);
	await db.end();
	if (outbox) await rm(outbox, { recursive: true, force: true });
});

async function get(path: string) {
	const response = await fetch(`${site.url}${path}`);
	const type = response.headers.get('content-type') ?? '';
	const body = type.includes('json')
		? await response.json()
		: Buffer.from(await response.arrayBuffer());
	return { status: response.status, headers: response.headers, body };
}

/**
 * A request from a chosen loopback address, so each test has its own rate-limit bucket (the
 * contact function limits per client IP).
 */
function send(
	method: string,
	path: string,
	body: unknown,
	from: string,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
	const url = `${site.url.replace('localhost', '127.0.0.1')}${path}`;
	return new Promise((resolve, reject) => {
		const payload = typeof body === 'string' ? body : JSON.stringify(body);
		const req = request(
			url,
			{
				method,
				localAddress: from,
				// As the site's own page sends it (a browser adds Origin to every POST).
				headers: { 'content-type': 'application/json', origin: new URL(url).origin, ...headers },
			},
			async (res) => {
				let text = '';
				for await (const chunk of res) text += chunk;
				resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
			},
		);
		req.on('error', reject);
		req.end(method === 'GET' ? undefined : payload);
	});
}

function expectCdnCache(headers: Headers, tag: string) {
	expect(headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
	expect(headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, s-maxage=\d+/);
	expect(headers.get('netlify-cache-tag')?.split(',')).toEqual([fx.a.slug, `${fx.a.slug}:${tag}`]);
}

describe('GET /api/cache-version', () => {
	it('answers the version of a type, cached briefly and keyed by type', async () => {
		// Versions only go up by one (a trigger), so the fixture writes a fresh row at 3.
		await db.query(`delete from public.cache_versions where tenant_id = $1 and type = 'config'`, [
			fx.a.id,
		]);
		await db.query(
			`insert into public.cache_versions (tenant_id, type, version) values ($1, 'config', 3)`,
			[fx.a.id],
		);
		const { status, headers, body } = await get('/api/cache-version?type=config');
		expect(status).toBe(200);
		expect(body).toEqual({ version: 3 });
		expectCdnCache(headers, 'cache-version');
		expect(headers.get('netlify-cdn-cache-control')).toContain('s-maxage=60,');
		expect(headers.get('netlify-vary')).toBe('query=type');
		expect((await get('/api/cache-version?type=event_details')).body).toEqual({ version: 1 });
	});

	it('refuses other types with 400 and other methods with 405', async () => {
		const bad = await get('/api/cache-version?type=businesses');
		expect(bad.status).toBe(400);
		expect(bad.body).toEqual({
			error:
				'type: Expected type to be one of config, categories, events, community_events, event_details',
		});
		expect((await get('/api/cache-version')).status).toBe(400);
		const post = await fetch(`${site.url}/api/cache-version?type=config`, { method: 'POST' });
		expect(post.status).toBe(405);
		expect(await post.json()).toEqual({ error: 'Method POST not allowed' });
	});
});

describe('GET /api/categories and /api/banners', () => {
	it('lists the categories with counts', async () => {
		const { status, headers, body } = await get('/api/categories?v=2');
		expect(status).toBe(200);
		expect(body[0]).toEqual({ name: 'Restaurants', count: 2 });
		expectCdnCache(headers, 'categories');
	});

	it('lists the active banners in order, with their public fields only', async () => {
		const { status, headers, body } = await get('/api/banners');
		expect(status).toBe(200);
		expect(body.map((b: { banner_name: string }) => b.banner_name)).toEqual([
			'Demo banner',
			'Sponsor',
			'Relative',
			'Fake',
			'Huge',
			'Hanging',
			'Gone',
			'Moved',
			'To internal',
			'Loopback',
			'Localhost',
			'Metadata',
			'Escape',
		]);
		expect(Object.keys(body[0]).sort()).toEqual([
			'alternate_text',
			'banner_name',
			'id',
			'image_url',
			'navigate_url',
			'target',
		]);
		expectCdnCache(headers, 'banners');
	});
});

describe('GET /api/filter-options', () => {
	it('lists the values of a filter with counts, within a category', async () => {
		const cities = await get('/api/filter-options?type=cities');
		expect(cities.status).toBe(200);
		expect(cities.body).toEqual([
			{ name: 'Cedarbrook', count: 3 },
			{ name: 'Marion', count: 2 },
			{ name: 'Shellsburg', count: 1 },
		]);
		expectCdnCache(cities.headers, 'businesses');
		expect(cities.headers.get('netlify-vary')).toBe('query=type|category|search');
		const inCategory = await get('/api/filter-options?type=affiliations&category=Plumbing');
		expect(inCategory.body).toEqual([{ name: 'Women in Business', count: 1 }]);
	});

	it('refuses an unknown type', async () => {
		const { status, body } = await get('/api/filter-options?type=states');
		expect(status).toBe(400);
		expect(body.error).toBe(
			'type: Expected type to be one of cities, counties, zips, affiliations',
		);
	});
});

describe('GET /api/businesses', () => {
	it('answers a page of businesses with the total and the number of pages', async () => {
		const { status, headers, body } = await get('/api/businesses?sortBy=nameAsc&pageSize=2&page=2');
		expect(status).toBe(200);
		expect(body.businesses.map((b: { name: string }) => b.name)).toEqual([
			'Cedar Law Office',
			'Delta Auto Repair',
		]);
		expect(body.total).toBe(7);
		expect(body.totalPages).toBe(4);
		expectCdnCache(headers, 'businesses');
		expect(headers.get('netlify-vary')).toContain('searchQuery');
		expect(headers.get('netlify-vary')).toContain('randomSeed');
	});

	it('filters and searches', async () => {
		const { body } = await get('/api/businesses?searchQuery=resturant&city=Cedarbrook');
		expect(body.businesses.map((b: { name: string }) => b.name)).toEqual(["Bella's Restaurant"]);
		const newMembers = await get('/api/businesses?newMembersOnly=true&sortBy=nameAsc');
		expect(newMembers.body.total).toBe(2);
	});

	it.each([
		['sortBy=cheapest', /^sortBy: /],
		['page=0', /^page: /],
		['pageSize=1000', /^pageSize: /],
		['newMembersOnly=yes', /^newMembersOnly: /],
	])('refuses %s with 400 naming the parameter', async (qs, message) => {
		const { status, body } = await get(`/api/businesses?${qs}`);
		expect(status).toBe(400);
		expect(body.error).toMatch(message);
	});
});

// The profile hides addresses behind the contact form: the API must not answer them either.
describe('business e-mail addresses', () => {
	it('are in no public answer: the functions and PostgREST with the anon key', async () => {
		const bella = fx.ids["Bella's Restaurant"].id;
		for (const path of ['/api/businesses?pageSize=100', `/api/business?id=${bella}`]) {
			const response = await fetch(`${site.url}${path}`);
			expect(response.status, path).toBe(200);
			const text = await response.text();
			expect(text, path).not.toMatch(/@[a-z0-9-]+\.example/);
			expect(text, path).not.toContain('"email"');
		}
		const one = (await (await fetch(`${site.url}/api/business?id=${bella}`)).json()) as {
			acceptsMessages: boolean;
		};
		expect(one.acceptsMessages).toBe(true);
		const cards = await anon.from('business_cards_view').select('*').eq('tenant_id', fx.a.id);
		expect(cards.error).toBeNull();
		expect(JSON.stringify(cards.data)).not.toMatch(/@[a-z0-9-]+\.example/);
		const direct = await anon.from('profiles').select('email').eq('tenant_id', fx.a.id);
		expect(direct.error?.message).toMatch(/permission denied/);
	});
});

describe('GET /api/business', () => {
	it('answers one business by internal id or weblink profile id', async () => {
		const alpha = fx.ids['Alpha Plumbing'];
		const byId = await get(`/api/business?id=${alpha.id}&category=Plumbing`);
		expect(byId.status).toBe(200);
		expect(byId.body).toMatchObject({
			id: alpha.id,
			name: 'Alpha Plumbing',
			slug: 'alpha-plumbing',
		});
		expectCdnCache(byId.headers, 'businesses');
		const byWeblink = await get(`/api/business?id=${alpha.weblinkProfileId}`);
		expect(byWeblink.body.id).toBe(alpha.id);
	});

	it('answers 404 for an unknown or foreign business and 400 without an id', async () => {
		for (const id of ['00000000-0000-4000-8000-000000000000', fx.otherIds[1]!]) {
			const { status, body } = await get(`/api/business?id=${id}`);
			expect(status).toBe(404);
			expect(body).toEqual({ error: 'Business not found' });
		}
		const missing = await get('/api/business');
		expect(missing.status).toBe(400);
		expect(missing.body.error).toBe('id: Expected the id of a business');
	});
});

describe('GET /api/banner-image', () => {
	const image = (url: string) => get(`/api/banner-image?url=${encodeURIComponent(url)}`);
	const FAILED = { error: 'The banner image could not be loaded' };

	// The same proxy with a fetch that knows images.test as 127.0.0.1 (the seam for tests; the
	// deployed function has only the public-address fetch), called in this process.
	const testFetch = createPublicFetch({
		resolve: async (hostname) => {
			if (hostname !== 'images.test')
				throw Object.assign(new Error(hostname), { code: 'ENOTFOUND' });
			return [{ address: '127.0.0.1', family: 4 }];
		},
		isAllowed: (address) => address === '127.0.0.1' || isPublicAddress(address),
	});
	const viaTestFetch = async (url: string) => {
		const response = await bannerImageHandler(testFetch)(
			new Request(`${site.url}/api/banner-image?url=${encodeURIComponent(url)}`),
			{} as Context,
		);
		const type = response.headers.get('content-type') ?? '';
		const body = type.includes('json')
			? await response.json()
			: Buffer.from(await response.arrayBuffer());
		return { status: response.status, headers: response.headers, body };
	};

	it('sends the site’s own banner (the demo’s) to its file on this site, never fetching itself', async () => {
		const url = `/api/banner-image?url=${encodeURIComponent('/demo/banners/banner-1.svg')}`;
		const answer = await fetch(`${site.url}${url}`, { redirect: 'manual' });
		expect(answer.status).toBe(302);
		expect(answer.headers.get('location')).toBe('/demo/banners/banner-1.svg');
		expect(answer.headers.get('netlify-cdn-cache-control')).toMatch(/s-maxage=\d{6,}/);
		expect(answer.headers.get('netlify-vary')).toBe('query=url');
		const { status, headers, body } = await get(url);
		expect(status).toBe(200);
		expect(headers.get('content-type')).toBe('image/svg+xml');
		expect(body).toEqual(await readFile('public/demo/banners/banner-1.svg'));
		// A path that climbs out of the site's banner folder is refused like any failure.
		expect(await image('/demo/../_headers')).toMatchObject({ status: 502, body: FAILED });
	});

	it('refuses banner addresses on this machine or its network, with the one failure answer', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		upstreamRequests.length = 0;
		try {
			for (const url of [
				`${upstreamUrl}/banner.png`,
				`${upstreamUrl.replace('127.0.0.1', 'localhost')}/banner.png`,
				'http://169.254.169.254/latest/meta-data/',
				// images.test resolves nowhere outside the tests; the relative one lives there too.
				`${imagesUrl}/banner.png`,
				'images/relative.png',
			]) {
				const { status, headers, body } = await image(url);
				expect(status, url).toBe(502);
				expect(body, url).toEqual(FAILED);
				expect(headers.get('cache-control'), url).toBe('no-store');
			}
			// Nothing reached the image host, though it runs on 127.0.0.1.
			expect(upstreamRequests).toEqual([]);
			const logged = warn.mock.calls.map((call) => String(call[0]));
			expect(logged).toEqual([
				`[banner-image] ${upstreamUrl}/banner.png: 127.0.0.1 is not a public address`,
				expect.stringMatching(
					/^\[banner-image\] http:\/\/localhost:\d+\/banner\.png: localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
				),
				'[banner-image] http://169.254.169.254/latest/meta-data/: 169.254.169.254 is not a public address',
				`[banner-image] ${imagesUrl}/banner.png: images.test could not be resolved (ENOTFOUND)`,
				'[banner-image] images/relative.png: images.test could not be resolved (ENOTFOUND)',
			]);
			// A reason, never a stack.
			expect(logged.join('\n')).not.toMatch(/\n\s+at /);
		} finally {
			warn.mockRestore();
		}
	});

	it('proxies a banner on another host, also through a redirect, and a relative one from the registration site', async () => {
		for (const url of [
			`${imagesUrl}/banner.png`,
			`${imagesUrl}/moved.png`,
			'images/relative.png',
		]) {
			const { status, headers, body } = await viaTestFetch(url);
			expect(status, url).toBe(200);
			expect(headers.get('content-type')).toBe('image/png');
			expect(headers.get('x-content-type-options')).toBe('nosniff');
			expect(headers.get('content-security-policy')).toContain("default-src 'none'");
			expect(body).toEqual(PNG);
		}
	});

	it('refuses images no active banner of this chamber references', async () => {
		for (const url of [
			`${imagesUrl}/anything.png`,
			'https://other.example/banner.png',
			`${imagesUrl}/banner.png?retired`,
		]) {
			const { status, body } = await image(url);
			expect(status, url).toBe(403);
			expect(body).toEqual({ error: "This image is not one of the chamber's banners" });
		}
		const missing = await get('/api/banner-image');
		expect(missing.status).toBe(400);
	});

	it('answers every upstream failure the same way and logs which it was', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			const started = Date.now();
			for (const name of ['fake', 'huge', 'gone', 'to-internal', 'hang']) {
				const { status, headers, body } = await viaTestFetch(`${imagesUrl}/${name}.png`);
				expect(status, name).toBe(502);
				expect(body, name).toEqual(FAILED);
				expect(headers.get('cache-control'), name).toBe('no-store');
			}
			// The hanging host is given up after 5 s.
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
				`[banner-image] ${imagesUrl}/fake.png: not an image (application/xml)`,
				`[banner-image] ${imagesUrl}/huge.png: larger than 2 MB`,
				`[banner-image] ${imagesUrl}/gone.png: the image host answered 404`,
				`[banner-image] ${imagesUrl}/to-internal.png: 127.0.0.2 is not a public address`,
				`[banner-image] ${imagesUrl}/hang.png: no answer within 5000 ms`,
			]);
		} finally {
			warn.mockRestore();
		}
	});
});

describe('POST /api/contact-business', () => {
	const message = {
		name: 'Ada Visitor',
		email: 'ada@example.com',
		message: 'Do you deliver on Sundays?',
		businessId: '',
		businessName: "Bella's Restaurant",
		recaptchaToken: 'good',
		website: '',
	};

	beforeAll(() => {
		message.businessId = fx.ids["Bella's Restaurant"].id;
	});

	async function storedMessages(text: string) {
		const { rows } = await db.query(
			'select business_id, business_name, name, email, message, delivery_status from public.contact_messages where tenant_id = $1 and message = $2',
			[fx.a.id, text],
		);
		return rows;
	}

	async function outboxFiles(): Promise<string[]> {
		return (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
	}

	/** The outbox files of the messages with this text (earlier tests' deliveries may land late). */
	async function filesOf(text: string): Promise<string[]> {
		const { rows } = await db.query<{ id: string }>(
			'select id from public.contact_messages where tenant_id = $1 and message = $2',
			[fx.a.id, text],
		);
		return (await outboxFiles()).filter((f) => rows.some((r) => f.includes(r.id)));
	}

	/** The message goes out after the answer: its delivery status once it has one. */
	async function delivered(text: string, status = 'sent') {
		await expect
			.poll(async () => (await storedMessages(text)).map((m) => m.delivery_status), {
				timeout: 15_000,
			})
			.toEqual([status]);
	}

	afterEach(() => {
		delete process.env.RECAPTCHA_SECRET;
		delete process.env.RECAPTCHA_VERIFY_URL;
	});

	it('stores the message and e-mails it to the business (an .eml in the outbox)', async () => {
		const text = 'Do you cater weddings? (happy path)';
		const { status, body } = await send(
			'POST',
			'/api/contact-business',
			{ ...message, message: text },
			'127.0.0.2',
		);
		expect(status).toBe(200);
		expect(body).toEqual({ success: true });
		await delivered(text);
		expect(await storedMessages(text)).toEqual([
			{
				business_id: fx.ids["Bella's Restaurant"].id,
				business_name: "Bella's Restaurant",
				name: 'Ada Visitor',
				email: 'ada@example.com',
				message: text,
				delivery_status: 'sent',
			},
		]);
		const added = await filesOf(text);
		expect(added).toHaveLength(1);
		// A visitor's message and address: readable by the owner only.
		expect((await stat(join(outbox, added[0]!))).mode & 0o777).toBe(0o600);
		const eml = await readFile(join(outbox, added[0]!), 'utf8');
		expect(eml).toMatch(/^To: .*hello@bellas\.example/m);
		expect(eml).toMatch(/^Reply-To: .*ada@example\.com/m);
		expect(eml).toMatch(/^From: .*no-reply@cedarchamber\.example/m);
		expect(eml).toContain(text);
	});

	it.each([
		[{ name: '' }, 'Name is required'],
		[{ email: 'not-an-email' }, 'Email must be a valid email address'],
		[{ message: '   ' }, 'Message is required'],
		[{ message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
		[{ businessName: undefined }, 'Business name is required'],
	])('refuses %j with 400 naming the field', async (change, error) => {
		const { status, body } = await send(
			'POST',
			'/api/contact-business',
			{ ...message, ...change },
			'127.0.0.3',
		);
		expect(status).toBe(400);
		expect(body).toEqual({ success: false, error });
	});

	it('refuses a body that is not JSON, a business that does not exist, and GET', async () => {
		const notJson = await send('POST', '/api/contact-business', '{oops', '127.0.0.4');
		expect(notJson).toEqual({
			status: 400,
			body: { success: false, error: 'The request body must be JSON' },
		});
		const unknown = await send(
			'POST',
			'/api/contact-business',
			{ ...message, businessId: '00000000-0000-4000-8000-000000000000' },
			'127.0.0.4',
		);
		expect(unknown).toEqual({ status: 404, body: { success: false, error: 'Business not found' } });
		// Found by id within the chamber; another chamber's or an unpublished one is not.
		for (const businessId of [fx.otherIds[0]!, fx.ids['Hidden Tavern'].id]) {
			const other = await send(
				'POST',
				'/api/contact-business',
				{ ...message, businessId },
				'127.0.0.4',
			);
			expect(other.status).toBe(404);
		}
		const get405 = await send('GET', '/api/contact-business', null, '127.0.0.4');
		expect(get405.status).toBe(405);
	});

	it("finds the business by its name when the body has no id (the specification's); a name two businesses share is refused", async () => {
		const byName = { ...message, businessId: undefined, message: 'By name, no id' };
		const sent = await send('POST', '/api/contact-business', byName, '127.0.0.14');
		expect(sent).toEqual({ status: 200, body: { success: true } });
		expect((await storedMessages('By name, no id')).map((m) => m.business_id)).toEqual([
			fx.ids["Bella's Restaurant"].id,
		]);
		// A second published business of the same name.
		const { rows } = await db.query<{ id: string }>(
			`insert into public.profiles (tenant_id, report_name, weblink_profile_id, email)
			values ($1, $2, '99887766', 'twin@example.com') returning id`,
			[fx.a.id, "Bella's Restaurant"],
		);
		try {
			const twice = await send(
				'POST',
				'/api/contact-business',
				{ ...byName, message: 'Which one?' },
				'127.0.0.14',
			);
			expect(twice).toEqual({
				status: 400,
				body: {
					success: false,
					error: `More than one business is named "Bella's Restaurant": send its businessId`,
				},
			});
			expect(await storedMessages('Which one?')).toEqual([]);
		} finally {
			await db.query('delete from public.profiles where id = $1', [rows[0]!.id]);
		}
		const nobody = await send(
			'POST',
			'/api/contact-business',
			{ ...byName, businessName: 'Nobody Here' },
			'127.0.0.14',
		);
		expect(nobody).toEqual({ status: 404, body: { success: false, error: 'Business not found' } });
	});

	it('answers a filled honeypot with success, and stores and sends nothing', async () => {
		const text = 'Buy cheap watches (honeypot)';
		const before = await outboxFiles();
		const { status, body } = await send(
			'POST',
			'/api/contact-business',
			{ ...message, message: text, website: 'https://spam.example' },
			'127.0.0.5',
		);
		expect(status).toBe(200);
		expect(body).toEqual({ success: true });
		expect(await storedMessages(text)).toEqual([]);
		expect(await outboxFiles()).toEqual(before);
	});

	it('limits each visitor to 5 messages a minute', async () => {
		const statuses: number[] = [];
		for (let i = 0; i < 6; i++) {
			const text = `Rate limit message ${i}`;
			statuses.push(
				(await send('POST', '/api/contact-business', { ...message, message: text }, '127.0.0.6'))
					.status,
			);
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
		// Counted in the database, shared by every function instance (not in memory).
		const { rows: hits } = await db.query(
			`select count(*)::int as n from public.rate_limit_hits where bucket = 'contact-ip:127.0.0.6'`,
		);
		expect(hits).toEqual([{ n: 5 }]);
		const sixth = await send('POST', '/api/contact-business', message, '127.0.0.6');
		expect(sixth.body).toEqual({
			success: false,
			error: 'Too many messages sent. Please wait a minute and try again.',
		});
		expect(await storedMessages('Rate limit message 5')).toEqual([]);
		// Another visitor is not affected.
		expect((await send('POST', '/api/contact-business', message, '127.0.0.7')).status).toBe(200);
	});

	// A cross-site text/plain form post needs no preflight: any page on the web could send one.
	it('takes JSON from this site only: no other content type, no other or missing Origin', async () => {
		const text = 'Cross-site attempt';
		const body = { ...message, message: text };
		const cases: [Record<string, string>, number, string][] = [
			[{ 'content-type': 'text/plain' }, 415, 'Messages must be sent as application/json'],
			[
				{ 'content-type': 'application/x-www-form-urlencoded' },
				415,
				'Messages must be sent as application/json',
			],
			[{ origin: 'https://evil.example' }, 403, 'Messages can only be sent from this site'],
			[{ origin: '' }, 403, 'Messages can only be sent from this site'],
			[{ 'sec-fetch-site': 'cross-site' }, 403, 'Messages can only be sent from this site'],
		];
		for (const [headers, status, error] of cases) {
			const answer = await send('POST', '/api/contact-business', body, '127.0.0.10', headers);
			expect(answer, JSON.stringify(headers)).toEqual({ status, body: { success: false, error } });
		}
		expect(await storedMessages(text)).toEqual([]);
		const same = await send('POST', '/api/contact-business', body, '127.0.0.10', {
			'sec-fetch-site': 'same-origin',
		});
		expect(same.status).toBe(200);
	});

	// A retried submit (lost answer, second click) must never send a message twice.
	it('stores and sends a message once however often the same submit is retried', async () => {
		const text = 'Idempotent message';
		const body = { ...message, message: text, idempotencyKey: randomUUID() };
		const answers = await Promise.all([
			send('POST', '/api/contact-business', body, '127.0.0.11'),
			send('POST', '/api/contact-business', body, '127.0.0.11'),
		]);
		answers.push(await send('POST', '/api/contact-business', body, '127.0.0.11'));
		for (const answer of answers) expect(answer.body).toEqual({ success: true });
		await delivered(text);
		const { rows } = await db.query(
			'select attempts from public.contact_messages where tenant_id = $1 and message = $2',
			[fx.a.id, text],
		);
		expect(rows).toEqual([{ attempts: 1 }]);
		expect(await filesOf(text)).toHaveLength(1);
	});

	it('answers success for a stored message while the mail server is down, and delivers it later', async () => {
		process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
		const first = {
			...message,
			message: 'Delivered on a later attempt',
			idempotencyKey: randomUUID(),
		};
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			expect(await send('POST', '/api/contact-business', first, '127.0.0.12')).toEqual({
				status: 200,
				body: { success: true },
			});
			await delivered(first.message, 'failed');
			// Sent again before it is due: the same message, and no attempt early.
			expect(await send('POST', '/api/contact-business', first, '127.0.0.12')).toEqual({
				status: 200,
				body: { success: true },
			});
		} finally {
			quiet.mockRestore();
			delete process.env.SMTP_URL;
		}
		const { rows } = await db.query(
			`select attempts, delivery_error, next_attempt_at > now() + interval '50 seconds' as waits
			from public.contact_messages where tenant_id = $1 and message = $2`,
			[fx.a.id, first.message],
		);
		expect(rows).toEqual([
			{ attempts: 1, delivery_error: expect.stringMatching(/ECONNREFUSED/), waits: true },
		]);
		const { retryContactMessages } = await import('../../netlify/functions/contact-retry.ts');
		// Not due yet: the scheduled retry leaves it.
		expect(await retryContactMessages()).toEqual({ sent: 0, failed: 0 });
		await db.query(
			`update public.contact_messages set next_attempt_at = now() where tenant_id = $1 and message = $2`,
			[fx.a.id, first.message],
		);
		expect(await retryContactMessages()).toEqual({ sent: 1, failed: 0 });
		expect(await retryContactMessages()).toEqual({ sent: 0, failed: 0 });
		await delivered(first.message);
		expect(await filesOf(first.message)).toHaveLength(1);
	});

	// A site key without RECAPTCHA_SECRET would let every message through unchecked.
	it('refuses to send while a reCAPTCHA site key is configured without its secret', async () => {
		const text = 'Site key without secret';
		await db.query(
			`update public.chamber_config set services = services || '{"recaptchaSiteKey": "6LcTestSiteKey"}'::jsonb where tenant_id = $1`,
			[fx.a.id],
		);
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			expect(
				await send('POST', '/api/contact-business', { ...message, message: text }, '127.0.0.13'),
			).toEqual({
				status: 503,
				body: {
					success: false,
					error: 'Messages cannot be sent right now. Please try again later.',
				},
			});
			expect(logged.mock.calls.flat().join(' ')).toContain(
				'services.recaptchaSiteKey is set but RECAPTCHA_SECRET is not',
			);
		} finally {
			logged.mockRestore();
			await db.query(
				`update public.chamber_config set services = services - 'recaptchaSiteKey' where tenant_id = $1`,
				[fx.a.id],
			);
		}
		expect(await storedMessages(text)).toEqual([]);
	});

	describe('with reCAPTCHA on', () => {
		const on = () => {
			process.env.RECAPTCHA_SECRET = 'test-secret';
			process.env.RECAPTCHA_VERIFY_URL = `${siteverifyUrl}/recaptcha/api/siteverify`;
		};

		it('accepts a good token, verified with the siteverify protocol', async () => {
			on();
			const text = 'Verified by reCAPTCHA';
			const { status, body } = await send(
				'POST',
				'/api/contact-business',
				{ ...message, message: text },
				'127.0.0.8',
			);
			expect({ status, body }).toEqual({ status: 200, body: { success: true } });
			const last = verifications.at(-1)!;
			expect(last.contentType).toContain('application/x-www-form-urlencoded');
			expect(last.form.get('secret')).toBe('test-secret');
			expect(last.form.get('response')).toBe('good');
			expect(last.form.get('remoteip')).toBe('127.0.0.8');
			expect(await storedMessages(text)).toHaveLength(1);
		});

		it.each(['low-score', 'wrong-action', 'wrong-host', 'forged', ''])(
			'refuses the token %j with 403 and stores nothing',
			async (token) => {
				on();
				const text = `Refused reCAPTCHA ${token}`;
				const { status, body } = await send(
					'POST',
					'/api/contact-business',
					{ ...message, message: text, recaptchaToken: token },
					'127.0.0.9',
				);
				expect(status).toBe(403);
				expect(body).toEqual({
					success: false,
					error: 'reCAPTCHA verification failed. Please try again.',
				});
				expect(await storedMessages(text)).toEqual([]);
			},
		);
	});
});

describe('the chamber configuration, cached per function instance', () => {
	// The functions reach PostgREST through this counting proxy (real HTTP to the stack's
	// gateway), so the test sees which tables each call reads.
	let proxy: Server;
	const reads: string[] = [];
	const countReads = (table: string) => reads.filter((path) => path === table).length;
	const original = { search_page: '', services: '' };

	function proxyHandler(req: IncomingMessage, res: ServerResponse) {
		const target = new URL(req.url ?? '/', stack.supabaseUrl);
		const match = /^\/rest\/v1\/([^/?]+)/.exec(target.pathname);
		if (req.method === 'GET' && match) reads.push(match[1]!);
		const forward = request(
			target,
			{ method: req.method, headers: { ...req.headers, host: target.host } },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forward.on('error', () => res.writeHead(502).end());
		req.pipe(forward);
	}

	/** Changes a section of tenant a's configuration (which bumps its config version). */
	async function setSection(column: 'search_page' | 'services', value: string) {
		await db.query(`update public.chamber_config set ${column} = $2::jsonb where tenant_id = $1`, [
			fx.a.id,
			value,
		]);
	}

	async function configVersion(): Promise<number> {
		const { rows } = await db.query(
			`select version from public.cache_versions where tenant_id = $1 and type = 'config'`,
			[fx.a.id],
		);
		return rows[0].version;
	}

	async function listedNames() {
		const { status, body } = await get('/api/businesses?pageSize=3');
		expect(status).toBe(200);
		return body.businesses.map((b: { name: string }) => b.name);
	}

	beforeAll(async () => {
		proxy = createServer(proxyHandler);
		process.env.SUPABASE_URL = await listen(proxy);
		const { rows } = await db.query(
			'select search_page::text, services::text from public.chamber_config where tenant_id = $1',
			[fx.a.id],
		);
		Object.assign(original, rows[0]);
	});

	afterAll(async () => {
		process.env.SUPABASE_URL = stack.supabaseUrl;
		proxy?.closeAllConnections();
		proxy?.close();
		await setSection('search_page', original.search_page);
		await setSection('services', original.services);
	});

	it('reads it once for a version; later calls read only the version', async () => {
		await setSection('search_page', JSON.stringify({ defaultSort: 'nameAsc' }));
		reads.length = 0;
		expect(await listedNames()).toEqual([
			'Alpha Plumbing',
			"Bella's Restaurant",
			'Cedar Law Office',
		]);
		expect(countReads('chamber_config')).toBe(1);
		expect(countReads('cache_versions')).toBe(1);

		reads.length = 0;
		expect(await listedNames()).toEqual([
			'Alpha Plumbing',
			"Bella's Restaurant",
			'Cedar Law Office',
		]);
		const business = await get(`/api/business?id=${fx.ids['Alpha Plumbing'].id}`);
		expect(business.status).toBe(200);
		expect(countReads('chamber_config')).toBe(0);
		expect(countReads('cache_versions')).toBe(2);
	});

	it('a configuration change bumps the version, and the very next call reads the new one', async () => {
		await setSection('search_page', JSON.stringify({ defaultSort: 'nameAsc' }));
		expect(await listedNames()).toEqual([
			'Alpha Plumbing',
			"Bella's Restaurant",
			'Cedar Law Office',
		]);

		const before = await configVersion();
		await setSection('search_page', JSON.stringify({ defaultSort: 'nameDesc' }));
		expect(await configVersion()).toBe(before + 1);
		reads.length = 0;
		expect(await listedNames()).toEqual(['Golf Pro Shop', 'Foxtrot Consulting', 'Echo Bakery']);
		expect(countReads('chamber_config')).toBe(1);

		// Writing the same value again is no change: no bump, nothing reread.
		await setSection('search_page', JSON.stringify({ defaultSort: 'nameDesc' }));
		expect(await configVersion()).toBe(before + 1);
		reads.length = 0;
		await listedNames();
		expect(countReads('chamber_config')).toBe(0);
	});

	it('gives the contact function the new sender domain after a bump, without rereading it per message', async () => {
		const message = {
			name: 'Ada Visitor',
			email: 'ada@example.com',
			businessId: fx.ids["Bella's Restaurant"].id,
			businessName: "Bella's Restaurant",
			website: '',
		};
		async function sentFrom(text: string): Promise<string> {
			const before = new Set(await readdir(outbox));
			const { status } = await send(
				'POST',
				'/api/contact-business',
				{ ...message, message: text },
				'127.0.0.20',
			);
			expect(status).toBe(200);
			const added = async () =>
				(await readdir(outbox)).filter((f) => f.endsWith('.eml') && !before.has(f));
			await expect.poll(async () => (await added()).length, { timeout: 15_000 }).toBe(1);
			// Long headers are folded onto indented lines.
			const file = (await added())[0]!;
			const eml = (await readFile(join(outbox, file), 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
			return /^From: .*$/m.exec(eml)?.[0] ?? '';
		}

		const services = JSON.parse(original.services) as Record<string, unknown>;
		await setSection(
			'services',
			JSON.stringify({ ...services, emailDomain: 'news.cedarchamber.example' }),
		);
		reads.length = 0;
		expect(await sentFrom('Config cache: first message')).toContain(
			'no-reply@news.cedarchamber.example',
		);
		expect(countReads('chamber_config')).toBe(1);

		reads.length = 0;
		expect(await sentFrom('Config cache: second message')).toContain(
			'no-reply@news.cedarchamber.example',
		);
		expect(countReads('chamber_config')).toBe(0);
		expect(countReads('cache_versions')).toBe(1);
	});
});
