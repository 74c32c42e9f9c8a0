import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSiteServer, type SiteServer } from './server.ts';
import { freePort } from '../lib/free-port.ts';

// Netlify's request chain, which netlify serve follows too: functions by path first (one with
// preferStatic steps aside for a file), the on-demand function (`/*`, preferStatic) next, and
// `_redirects` only after them.

let root: string;
let server: SiteServer;

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), 'chamber-netlify-local-'));
	const dist = join(root, 'dist');
	await mkdir(join(dist, 'business/1/shop'), { recursive: true });
	await writeFile(join(dist, 'business/1/shop/index.html'), '<h1>Shop</h1>');
	await writeFile(join(dist, 'about.html'), '<h1>About</h1>');
	await writeFile(join(dist, '_redirects'), '/old  /about  301\n/business/*  /about  301\n');
	await mkdir(join(root, 'functions'));
	await writeFile(
		join(root, 'functions/profile.mjs'),
		`export const config = { path: ['/business/:id', '/business/:id/*'], preferStatic: true };
export default (req) => new Response('function ' + new URL(req.url).pathname);\n`,
	);
	await mkdir(join(root, 'ssr'));
	await writeFile(
		join(root, 'ssr/ssr.mjs'),
		`export default (req) => new Response('on demand ' + new URL(req.url).pathname, { status: 404 });\n`,
	);
	server = await startSiteServer({
		distDir: dist,
		functionsDir: join(root, 'functions'),
		ssrDir: join(root, 'ssr'),
		port: await freePort(),
	});
});

afterAll(async () => {
	await server?.close();
	await rm(root, { recursive: true, force: true });
});

async function get(path: string) {
	const response = await fetch(new URL(path, server.url.replace('localhost', '127.0.0.1')), {
		redirect: 'manual',
	});
	return { status: response.status, text: await response.text() };
}

describe('the local server routes as Netlify does', () => {
	it('serves a file where a preferStatic function matches too', async () => {
		expect(await get('/business/1/shop/')).toEqual({ status: 200, text: '<h1>Shop</h1>' });
	});

	it('runs the function, not a redirect rule, where no file is', async () => {
		expect(await get('/business/1/anything')).toEqual({
			status: 200,
			text: 'function /business/1/anything',
		});
	});

	it('lets the on-demand function answer a path without a file before _redirects', async () => {
		expect(await get('/old')).toEqual({ status: 404, text: 'on demand /old' });
	});
});
