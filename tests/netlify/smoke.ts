/**
 * The deploy smoke test (`npm run test:netlify`): the demo chamber built and served by Netlify's
 * own CLI (`netlify serve --offline --internal-disable-edge-functions`, which runs the build
 * command, bundles the functions as a deploy does and runs them in Netlify's function runtime),
 * against the embedded stack, with the site variables a Netlify site has. Every function route
 * and page kind must answer as `npm start`'s server (scripts/local-netlify/server.ts) answers the
 * same request from the same build: status, content type and key content.
 *
 * netlify-cli lives in tools/netlify (its own lockfile; `.ci/run` installs it). Its own data
 * folder (.data-test/netlify) and ports: NETLIFY_TEST_PORT (netlify serve, default 8898) and
 * the two after it (functions server, local server), CHAMBER_STACK_PORT (default 24521).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { startSiteServer, type SiteServer } from '../../scripts/local-netlify/server.ts';
import { ensureSeededStack } from '../../scripts/lib/seeded-stack.ts';
import { ROOT } from '../../scripts/lib/site.ts';
import type { Stack } from '../../scripts/stack/index.ts';

const NETLIFY_PORT = Number(process.env.NETLIFY_TEST_PORT || 8898);
const LOCAL_PORT = NETLIFY_PORT + 2;
const DATA_DIR = join(ROOT, '.data-test/netlify');
const CLI = join(ROOT, 'tools/netlify/node_modules/netlify-cli/bin/run.js');

process.env.CHAMBER_DATA_DIR ??= DATA_DIR;
process.env.CHAMBER_STACK_PORT ??= '24521';

let stack: Stack;
let netlify: ChildProcess | undefined;
let local: SiteServer | undefined;
let netlifyLog = '';

interface Answer {
	status: number;
	type: string;
	location: string | null;
	/** The methods a 405 names. */
	allow: string | null;
	body: string;
}

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
	// A browser on the site sends its origin with a POST; the contact function requires it.
	const headers = new Headers(init.headers);
	if (init.method === 'POST') headers.set('origin', new URL(base).origin);
	const response = await fetch(new URL(path, base), { redirect: 'manual', ...init, headers });
	const location = response.headers.get('location');
	return {
		status: response.status,
		// The media type; parameters (charset) are written differently by the two servers' files.
		type: (response.headers.get('content-type') ?? '').split(';')[0]!.trim(),
		location: location && new URL(location, base).pathname + new URL(location, base).search,
		allow: response.headers.get('allow'),
		// Absolute links name the server that answered.
		body: (await response.text())
			.replaceAll(new URL(base).host, 'ORIGIN')
			.replaceAll(`localhost:${new URL(base).port}`, 'ORIGIN'),
	};
}

const netlifyUrl = `http://127.0.0.1:${NETLIFY_PORT}`;
const localUrl = `http://127.0.0.1:${LOCAL_PORT}`;

async function waitForNetlify(): Promise<void> {
	const deadline = Date.now() + 10 * 60_000;
	while (Date.now() < deadline) {
		if (netlify?.exitCode !== null) {
			throw new Error(`netlify serve exited (${netlify?.exitCode}):\n${netlifyLog.slice(-4000)}`);
		}
		if (/Server now ready|Local dev server ready/.test(netlifyLog)) {
			// The body is read to its end: an unread answer leaves its socket paused, and undici
			// asserts (`!this.paused`) when that socket closes as netlify serve stops.
			const ok = await fetch(netlifyUrl).then(
				async (response) => (await response.arrayBuffer(), true),
				() => false,
			);
			if (ok) return;
		}
		await new Promise((resolveWait) => setTimeout(resolveWait, 500));
	}
	throw new Error(`netlify serve did not get ready:\n${netlifyLog.slice(-4000)}`);
}

/** The key content of an answer: what a visitor or a client reads, without what varies per call. */
function keyContent(answer: Answer): unknown {
	if (answer.type === 'text/html') {
		const text = (pattern: RegExp) =>
			[...answer.body.matchAll(pattern)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
		return {
			title: text(/<title>([\s\S]*?)<\/title>/g),
			h1: text(/<h1[^>]*>([\s\S]*?)<\/h1>/g),
			h2: text(/<h2[^>]*>([\s\S]*?)<\/h2>/g),
		};
	}
	if (answer.type === 'application/json') return JSON.parse(answer.body);
	if (answer.type === 'text/calendar') {
		// DTSTAMP is the moment the file was made.
		return answer.body
			.split(/\r?\n/)
			.filter((line) => !line.startsWith('DTSTAMP'))
			.join('\n');
	}
	return answer.body.length;
}

before(
	async () => {
		await mkdir(DATA_DIR, { recursive: true });
		assert.ok(existsSync(CLI), 'netlify-cli is not installed: run npm install in tools/netlify');
		stack = await ensureSeededStack();
		Object.assign(process.env, stack.env, { TENANT: 'demo' });

		netlify = spawn(
			process.execPath,
			[
				CLI,
				'serve',
				'--offline',
				'--internal-disable-edge-functions',
				'--port',
				String(NETLIFY_PORT),
				'--functions-port',
				String(NETLIFY_PORT + 1),
			],
			{
				cwd: ROOT,
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: {
					...process.env,
					// What a Netlify site's environment holds; nothing else of the stack.
					SUPABASE_URL: stack.env.SUPABASE_URL,
					SUPABASE_ANON_KEY: stack.env.SUPABASE_ANON_KEY,
					SUPABASE_SERVICE_ROLE_KEY: stack.env.SUPABASE_SERVICE_ROLE_KEY,
					TENANT: 'demo',
					// No telemetry, no prompts, no browser, no global CLI state of the user's.
					CI: '1',
					BROWSER: 'none',
					XDG_CONFIG_HOME: join(DATA_DIR, 'config'),
					ASTRO_TELEMETRY_DISABLED: '1',
				},
			},
		);
		for (const stream of [netlify.stdout, netlify.stderr]) {
			stream?.on('data', (chunk: Buffer) => {
				netlifyLog += chunk.toString();
				if (process.env.NETLIFY_TEST_VERBOSE) process.stderr.write(chunk);
			});
		}
		await waitForNetlify();
		// The same build, served by the local stand-in.
		local = await startSiteServer({
			distDir: join(ROOT, 'dist'),
			functionsDir: join(ROOT, 'netlify/functions'),
			ssrDir: join(ROOT, '.netlify/v1/functions/ssr'),
			port: LOCAL_PORT,
		});
	},
	{ timeout: 15 * 60_000 },
);

after(async () => {
	await local?.close();
	if (netlify?.pid && netlify.exitCode === null) {
		process.kill(-netlify.pid, 'SIGTERM');
		await new Promise((resolveExit) => netlify!.once('exit', resolveExit));
	}
	if (stack?.owned) await stack.stop();
});

/** A folder of the build found on disk: a category's. */
async function firstDir(path: string): Promise<string> {
	const entries = await readdir(join(ROOT, 'dist', path), { withFileTypes: true });
	const dir = entries.find((e) => e.isDirectory());
	assert.ok(dir, `no folder under dist/${path}`);
	return dir.name;
}

interface Case {
	name: string;
	path: string;
	init?: RequestInit;
	/** What Netlify must answer (and npm start's server too). */
	status: number;
	type?: string;
}

const json = (body: unknown): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
});

/** A staff route called without a token: refused with 401, by both servers alike. */
const withoutToken = (what: string, path: string, init?: RequestInit): Case => ({
	name: `${what} without a token`,
	path,
	init,
	status: 401,
});

/** The first page of the directory, as a visitor's search asks for it. */
async function listed(): Promise<
	{ id: string; slug: string; name: string; acceptsMessages: boolean }[]
> {
	const { businesses } = JSON.parse((await ask(localUrl, '/api/businesses?pageSize=100')).body) as {
		businesses: { id: string; slug: string; name: string; acceptsMessages: boolean }[];
	};
	assert.ok(businesses.length > 0, 'the demo lists no business');
	return businesses;
}

async function cases(): Promise<Case[]> {
	const category = await firstDir('category');
	// Profiles are rendered on demand, so they are found through the directory's API, not dist/.
	const businesses = await listed();
	const { id: businessId, slug } = businesses[0]!;
	const { name, weblinkProfileId } = JSON.parse(
		(await ask(localUrl, `/api/business?id=${businessId}`)).body,
	) as { name: string; weblinkProfileId: string };
	// The contact form's target: a business that takes messages (one with an e-mail address).
	const contactId = businesses.find((b) => b.acceptsMessages)?.id ?? '';
	assert.ok(contactId, 'no demo business takes messages');
	const from = new Date().toISOString().slice(0, 10);
	const to = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
	const events = JSON.parse(
		(await ask(localUrl, `/api/events?startDate=${from}&endDate=${to}`)).body,
	) as { Result: { EventId: number }[] };
	const event = events.Result[0];
	assert.ok(event, 'the demo has no event in the next 60 days');
	const eventPage = (await ask(localUrl, `/events/${event.EventId}/x`)).location!;
	// A listing the chamber took off the site (the demo has a few unpublished): its address is gone.
	const service = createClient<Database>(
		stack.env.SUPABASE_URL!,
		stack.env.SUPABASE_SERVICE_ROLE_KEY!,
		{
			auth: { persistSession: false },
		},
	);
	const { data: unpublished } = await service
		.from('profiles')
		.select('id, weblink_profile_id')
		.eq('published', false)
		.limit(1)
		.single<{ id: string; weblink_profile_id: string }>();
	assert.ok(unpublished, 'the demo has no unpublished business');
	return [
		{ name: 'home', path: '/', status: 200, type: 'text/html' },
		{ name: 'search', path: '/search', status: 200, type: 'text/html' },
		{ name: 'a category', path: `/category/${category}/`, status: 200, type: 'text/html' },
		{ name: 'a profile', path: `/business/${businessId}/${slug}/`, status: 200 },
		{ name: 'a profile without slug', path: `/business/${businessId}`, status: 301 },
		{ name: 'a profile with a wrong slug', path: `/business/${businessId}/nope`, status: 301 },
		{ name: 'the weblink id', path: `/business/${weblinkProfileId}`, status: 301 },
		{
			name: 'the weblink id with anything',
			path: `/business/${weblinkProfileId}/anything?category=Golf`,
			status: 301,
		},
		{
			name: 'the legacy name route',
			path: `/business/${encodeURIComponent(name.slice(0, 6))}`,
			status: 301,
		},
		{
			name: 'an unknown profile',
			path: '/business/00000000-0000-4000-8000-000000000000/nobody',
			status: 404,
			type: 'text/html',
		},
		{
			name: 'an unpublished business (410 Gone)',
			path: `/business/${unpublished.id}/gone`,
			status: 410,
			type: 'text/html',
		},
		{
			name: 'an unpublished business by weblink id',
			path: `/business/${unpublished.weblink_profile_id}`,
			status: 410,
		},
		{ name: 'the events calendar (pre-rendered)', path: '/events', status: 200 },
		{ name: 'an event detail (on demand)', path: eventPage, status: 200, type: 'text/html' },
		{ name: 'an event with a wrong slug', path: `/events/${event.EventId}/x`, status: 301 },
		{ name: 'an unknown event', path: '/events/987654321/nothing', status: 404 },
		{ name: 'a page that does not exist', path: '/no-such-page', status: 404 },
		{ name: 'sitemap', path: '/sitemap.xml', status: 200 },
		{ name: 'businesses', path: '/api/businesses?page=2', status: 200, type: 'application/json' },
		{ name: 'businesses, bad query', path: '/api/businesses?page=abc', status: 400 },
		{ name: 'business', path: `/api/business?id=${businessId}`, status: 200 },
		{ name: 'business, bad query', path: '/api/business', status: 400 },
		{ name: 'categories', path: '/api/categories', status: 200 },
		{
			name: 'categories, wrong method',
			path: '/api/categories',
			init: json({}),
			status: 405,
			type: 'application/json',
		},
		{ name: 'filter options', path: '/api/filter-options?type=cities', status: 200 },
		{ name: 'filter options, bad query', path: '/api/filter-options?type=planets', status: 400 },
		{ name: 'banners', path: '/api/banners', status: 200 },
		{
			// The site's own banner: a redirect to its file (the proxy never fetches its own site).
			name: 'banner image',
			path: `/api/banner-image?url=${encodeURIComponent('/demo/banners/banner-1.svg')}`,
			status: 302,
		},
		{ name: 'banner image, bad query', path: '/api/banner-image', status: 400 },
		{ name: 'cache version', path: '/api/cache-version?type=config', status: 200 },
		{ name: 'cache version, bad query', path: '/api/cache-version?type=nope', status: 400 },
		{ name: 'events', path: `/api/events?startDate=${from}&endDate=${to}`, status: 200 },
		{ name: 'events, bad query', path: '/api/events?startDate=yesterday', status: 400 },
		{
			name: 'community events',
			path: `/api/community-events?startDate=${from}&endDate=${to}`,
			status: 200,
		},
		{ name: 'community events, bad query', path: '/api/community-events?endDate=x', status: 400 },
		{ name: 'event details', path: `/api/event-details?eventId=${event.EventId}`, status: 200 },
		{ name: 'event details, bad query', path: '/api/event-details?eventId=abc', status: 400 },
		{ name: 'calendar file', path: '/api/events.ics', status: 200, type: 'text/calendar' },
		{ name: 'calendar file, bad query', path: '/api/events.ics?source=other', status: 400 },
		{
			name: 'event file',
			path: `/api/events/${event.EventId}.ics`,
			status: 200,
			type: 'text/calendar',
		},
		// Not an unknown id: netlify serve retries a function's 404 at other paths (…ics.html), which
		// production does not, and answers the retry's 400.
		{ name: 'event file, bad id', path: '/api/events/abc.ics', status: 400 },
		{
			name: 'contact, valid',
			path: '/api/contact-business',
			init: json({
				name: 'Smoke Test',
				email: 'smoke@example.test',
				message: 'Checking the deploy.',
				businessId: contactId,
				businessName: name,
			}),
			status: 200,
		},
		{
			name: 'contact, invalid',
			path: '/api/contact-business',
			init: json({ name: '', email: 'nope', message: '', businessId, businessName: name }),
			status: 400,
			type: 'application/json',
		},
		{
			name: 'sign-in, missing fields',
			path: '/api/auth/supabase-login',
			init: json({}),
			status: 400,
		},
		{
			name: 'sign-in, wrong password',
			path: '/api/auth/supabase-login',
			init: json({ email: 'admin@demo.test', password: 'not-the-password' }),
			status: 401,
		},
		{ name: 'contact, wrong method', path: '/api/contact-business', status: 405 },
		withoutToken('session check', '/api/auth/supabase-verify'),
		withoutToken('generator check', '/api/auth/verify'),
		{
			name: 'reset e-mail, bad body',
			path: '/api/auth/forgot-password',
			init: json({}),
			status: 400,
		},
		withoutToken('publish status', '/api/publish-status'),
		withoutToken('publish history', '/api/publish-history'),
		withoutToken('publish', '/api/publish', json({})),
		withoutToken('restore', '/api/publish-restore', json({})),
		withoutToken('config save', '/api/update-config', json({})),
		withoutToken('members', '/api/admin/businesses'),
		withoutToken('a listing', '/api/admin/businesses/00000000-0000-4000-8000-000000000000'),
		withoutToken('new chamber', '/api/admin/chambers', json({})),
	];
}

/** The targets for what Netlify's bundler zips (docs/performance.md#function-sizes). */
const MAX_ZIP_BYTES = { ssr: 5_000_000, other: 2_500_000 };

test('every function, zipped by Netlify, stays within its size', async () => {
	const dir = join(ROOT, '.netlify/functions');
	const zips = (await readdir(dir)).filter((name) => name.endsWith('.zip'));
	assert.ok(zips.includes('ssr.zip') && zips.length > 20, `zips found: ${zips.join(', ')}`);
	const over: string[] = [];
	for (const zip of zips) {
		const { size } = await stat(join(dir, zip));
		const max = zip === 'ssr.zip' ? MAX_ZIP_BYTES.ssr : MAX_ZIP_BYTES.other;
		if (size > max) over.push(`${zip} ${(size / 1e6).toFixed(2)} MB > ${max / 1e6} MB`);
	}
	assert.deepEqual(over, []);
});

describe('Netlify CLI build and runtime answer as npm start does', async () => {
	// The list needs the build on disk and the stack: it is made once both are there.
	let list: Case[] = [];
	before(async () => {
		list = await cases();
	});
	// netlify serve runs each function call in a fresh worker (seconds each), so several run at a
	// time; but no more than the cores: on a 2-core machine six at a time pushed calls past
	// netlify serve's fixed 30-second function timeout.
	test('every route and page kind', { concurrency: availableParallelism() }, async (t) => {
		await Promise.all(
			list.map((c) =>
				t.test(`${c.name}: ${c.init?.method ?? 'GET'} ${c.path}`, async () => {
					const [onNetlify, onLocal] = [
						await ask(netlifyUrl, c.path, c.init),
						await ask(localUrl, c.path, c.init),
					];
					assert.equal(onNetlify.status, c.status, `Netlify: ${onNetlify.body.slice(0, 300)}`);
					assert.equal(onLocal.status, onNetlify.status, 'status under npm start');
					if (c.type) assert.equal(onNetlify.type, c.type);
					assert.equal(onLocal.type, onNetlify.type, 'content type under npm start');
					assert.equal(onLocal.location, onNetlify.location, 'Location under npm start');
					assert.equal(onLocal.allow, onNetlify.allow, 'Allow under npm start');
					// A contact message is stored once per request; its answer is the same each time.
					assert.deepEqual(keyContent(onLocal), keyContent(onNetlify), 'key content');
				}),
			),
		);
	});
});
