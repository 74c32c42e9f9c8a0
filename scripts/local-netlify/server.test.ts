import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES, startSiteServer, type SiteServer } from './server.ts';

// The local server's hygiene: files only from inside the build folder, request bodies bounded as
// on Netlify. Port from the hardening helper's spare range.
const PORT = Number(process.env.LOCAL_SERVER_TEST_PORT || 8912);

let dir: string;
let site: SiteServer;

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'chamber-local-server-'));
	await mkdir(join(dir, 'dist'));
	await mkdir(join(dir, 'dist-secret'));
	await mkdir(join(dir, 'functions'));
	await writeFile(join(dir, 'dist', 'index.html'), '<!doctype html><p>home</p>');
	await writeFile(join(dir, 'dist-secret', 'key.txt'), 'secret');
	await writeFile(
		join(dir, 'functions', 'echo.mjs'),
		`export const config = { path: '/api/echo', method: ['POST'] };
export default async (req) => new Response(String((await req.text()).length));`,
	);
	site = await startSiteServer({
		distDir: join(dir, 'dist'),
		functionsDir: join(dir, 'functions'),
		port: PORT,
	});
});

afterAll(async () => {
	await site?.close();
	await rm(dir, { recursive: true, force: true });
});

/** A raw request: fetch would normalise the path and could not announce a length it never sends. */
function raw(
	method: string,
	path: string,
	headers: Record<string, string | number> = {},
	body?: Buffer,
): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port: PORT, method, path, headers }, async (res) => {
			let text = '';
			for await (const chunk of res) text += chunk;
			resolve({ status: res.statusCode ?? 0, text });
		});
		req.on('error', reject);
		req.end(body);
	});
}

describe('the local server', () => {
	it('serves nothing from a folder beside the build whose name starts the same', async () => {
		expect((await raw('GET', '/')).status).toBe(200);
		const sibling = await raw('GET', '/..%2fdist-secret/key.txt');
		expect(sibling.text).not.toContain('secret');
		expect(sibling.status).toBe(404);
	});

	it('refuses a request body over 6 MB with 413, and passes one under it', async () => {
		const small = await raw(
			'POST',
			'/api/echo',
			{ 'content-type': 'text/plain' },
			Buffer.from('hello'),
		);
		expect(small).toEqual({ status: 200, text: '5' });
		const announced = await raw('POST', '/api/echo', {
			'content-length': MAX_REQUEST_BODY_BYTES + 1,
		}).catch(() => ({ status: 413, text: '' }));
		expect(announced.status).toBe(413);
		// A chunked body has no length to check first: it fails once it passes the limit.
		const chunked = await raw(
			'POST',
			'/api/echo',
			{ 'transfer-encoding': 'chunked' },
			Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1024, 'a'),
		).catch(() => ({ status: 0, text: '' }));
		expect(chunked.text).not.toBe(String(MAX_REQUEST_BODY_BYTES + 1024));
	});

	it('passes a function by for a method its config leaves out, as Netlify routes it', async () => {
		const wrongMethod = await raw('GET', '/api/echo');
		expect(wrongMethod.status).toBe(404);
		expect(wrongMethod.text).not.toBe('0');
	});
});
