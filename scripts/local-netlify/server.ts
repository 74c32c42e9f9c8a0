import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, link, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createGzip } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import type { Config, Context } from '@netlify/functions';

/**
 * A local stand-in for Netlify's edge: serves the built site with `_headers` and `_redirects`
 * semantics and runs netlify/functions/* (v2 shape) at their `config.path`, as production does.
 * Pages rendered on demand (`export const prerender = false`) are served by the function the
 * Astro adapter writes to .netlify/v1/functions/ssr, which Netlify runs for every path without a
 * static file (its `preferStatic`), as here.
 */

type Handler = (req: Request, context: Context) => Response | Promise<Response>;

interface FunctionRoute {
	name: string;
	patterns: URLPattern[];
	methods: string[] | null;
	/** Netlify's `preferStatic`: a file at the path is served instead. */
	preferStatic: boolean;
	handler: Handler;
}

interface RedirectRule {
	from: string;
	to: string;
	status: number;
	force: boolean;
}

interface HeaderRule {
	pattern: string;
	headers: [string, string][];
}

const CONTENT_TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.json': 'application/json',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.webp': 'image/webp',
	'.avif': 'image/avif',
	'.ico': 'image/x-icon',
	'.xml': 'application/xml',
	'.txt': 'text/plain; charset=utf-8',
	'.ics': 'text/calendar; charset=utf-8',
	'.woff2': 'font/woff2',
	'.woff': 'font/woff',
};

/** Types worth compressing (fonts and raster images are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(json|xml)|image\/svg)/;

async function loadFunctions(dir: string): Promise<FunctionRoute[]> {
	const files = (await readdir(dir).catch(() => [] as string[])).filter((f) =>
		/\.(m?ts|m?js)$/.test(f),
	);
	const routes: FunctionRoute[] = [];
	for (const file of files.sort()) {
		const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
			default?: Handler;
			config?: Config;
		};
		const config = mod.config as
			{ path?: string | string[]; method?: string | string[]; preferStatic?: boolean } | undefined;
		if (!mod.default || !config?.path) continue;
		const paths = Array.isArray(config.path) ? config.path : [config.path];
		const methods = config.method ? [config.method].flat().map((m) => m.toUpperCase()) : null;
		routes.push({
			name: file.replace(/\.[^.]+$/, ''),
			patterns: paths.map((pathname) => new URLPattern({ pathname })),
			methods,
			preferStatic: config.preferStatic === true,
			handler: mod.default,
		});
	}
	return routes;
}

function parseRedirects(text: string): RedirectRule[] {
	return text
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'))
		.map((line) => {
			const [from = '', to = '', code = '301'] = line.split(/\s+/);
			return { from, to, status: Number.parseInt(code, 10) || 301, force: code.endsWith('!') };
		});
}

function parseHeaders(text: string): HeaderRule[] {
	const rules: HeaderRule[] = [];
	for (const line of text.split('\n')) {
		if (!line.trim() || line.trim().startsWith('#')) continue;
		if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
		else {
			const index = line.indexOf(':');
			rules.at(-1)?.headers.push([line.slice(0, index).trim(), line.slice(index + 1).trim()]);
		}
	}
	return rules;
}

/** Netlify path patterns: `*` (splat) and `:name` placeholders. */
function matchNetlifyPath(pattern: string, path: string): Record<string, string> | null {
	const names: string[] = [];
	const source = pattern
		.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
		.replace(/:(\w+)/g, (_, name: string) => {
			names.push(name);
			return '([^/]+)';
		})
		.replace(/\*/g, () => {
			names.push('splat');
			return '(.*)';
		});
	const match = new RegExp(`^${source}/?$`).exec(path);
	if (!match) return null;
	return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1] ?? '')]));
}

async function findFile(root: string, pathname: string): Promise<string | null> {
	const decoded = decodeURIComponent(pathname);
	const base = normalize(join(root, decoded));
	// With the separator: '/srv/dist-old' starts with '/srv/dist' but is not inside it.
	if (base !== root && !base.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
	for (const candidate of [base, join(base, 'index.html'), `${base}.html`]) {
		const info = await stat(candidate).catch(() => null);
		if (info?.isFile()) return candidate;
	}
	return null;
}

function socketIp(req: IncomingMessage): string {
	return req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
}

/** Netlify refuses function requests over 6 MB; so does this server, instead of buffering them. */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;

/** The body as a stream that fails once it passes the limit (a chunked body has no length). */
function limitedBody(req: IncomingMessage): ReadableStream {
	let seen = 0;
	const limiter = new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			seen += chunk.length;
			if (seen > MAX_REQUEST_BODY_BYTES) callback(new Error('Request body too large'));
			else callback(null, chunk);
		},
	});
	req.on('error', (error) => limiter.destroy(error));
	return Readable.toWeb(req.pipe(limiter)) as ReadableStream;
}

/** Whether the request announces a body over the limit. */
function tooLarge(req: IncomingMessage): boolean {
	return Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES;
}

function toRequest(req: IncomingMessage, origin: string): Request {
	const headers = new Headers();
	for (const [key, value] of Object.entries(req.headers)) {
		if (value === undefined) continue;
		for (const v of [value].flat()) headers.append(key, v);
	}
	// As Netlify's edge does: the client's address, replacing anything the client sent.
	headers.set('x-nf-client-connection-ip', socketIp(req));
	const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
	return new Request(new URL(req.url ?? '/', origin), {
		method: req.method,
		headers,
		body: hasBody ? limitedBody(req) : undefined,
		// @ts-expect-error Node's fetch needs this to stream a request body.
		duplex: hasBody ? 'half' : undefined,
	});
}

function makeContext(
	req: IncomingMessage,
	params: Record<string, string>,
	origin: string,
	url: URL,
): Context {
	const ip = socketIp(req);
	const context = {
		account: { id: 'local' },
		deploy: { context: 'dev', id: 'local', published: false },
		geo: { city: 'Local', country: { code: 'US', name: 'United States' } },
		ip,
		params,
		requestId: randomUUID(),
		site: { id: 'local', name: 'chamber', url: origin },
		server: { region: 'local' },
		url,
		json: (input: unknown) => Response.json(input),
		log: console.log,
		waitUntil: (promise: Promise<unknown>) => void promise.catch(console.error),
	};
	return context as unknown as Context;
}

async function sendResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
	const headers: Record<string, string | string[]> = {};
	response.headers.forEach((value, key) => {
		if (key === 'set-cookie') return;
		headers[key] = value;
	});
	const cookies = response.headers.getSetCookie();
	if (cookies.length) headers['set-cookie'] = cookies;
	res.writeHead(response.status, headers);
	if (head || !response.body) {
		res.end();
		return;
	}
	await new Promise<void>((resolveDone, reject) => {
		Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
			.on('error', reject)
			.pipe(res)
			.on('finish', resolveDone)
			.on('error', reject);
	});
}

/**
 * A copy of a folder made of hard links (the files are read, never written): no data is copied,
 * and the original stays whole. Where links cannot be made (another file system), a real copy.
 */
async function linkTree(from: string, to: string): Promise<void> {
	await mkdir(to, { recursive: true });
	for (const entry of await readdir(from, { withFileTypes: true })) {
		const source = join(from, entry.name);
		const target = join(to, entry.name);
		if (entry.isDirectory()) await linkTree(source, target);
		else if (entry.isFile()) {
			await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
				if (error.code !== 'EXDEV' && error.code !== 'EPERM') throw error;
				await cp(source, target);
			});
		} else await cp(source, target);
	}
}

/**
 * The adapter's on-demand function, when the build has on-demand pages. Netlify runs it from its
 * own bundle, which holds only the files the adapter traced, so it runs here from a copy outside
 * the project: a page that reads a file the bundle lacks (a package file under node_modules, say)
 * fails here as it would on Netlify, instead of finding the project's node_modules above it. The
 * copy is of hard links: 46 MB of packages are not copied for each build that goes live.
 */
async function loadSsrFunction(
	dir: string,
	inPlace = false,
): Promise<{ handler: Handler; copy: string | null } | null> {
	if (!(await stat(join(dir, 'ssr.mjs')).catch(() => null))) return null;
	// Named by this process, so the next start can remove the copies of one that was killed.
	const copy = inPlace ? null : await mkdtemp(join(tmpdir(), `${SSR_COPY_PREFIX}${process.pid}-`));
	if (copy) await linkTree(dir, copy);
	const mod = (await import(pathToFileURL(join(copy ?? dir, 'ssr.mjs')).href)) as {
		default?: Handler;
	};
	if (!mod.default) throw new Error(`${dir}/ssr.mjs has no default export`);
	return { handler: mod.default, copy };
}

const SSR_COPY_PREFIX = 'chamber-ssr-';

/**
 * Removes the on-demand functions' copies that servers which are gone left in the system's
 * temporary folder (a server killed with kill -9 cannot remove its own). A copy is named by its
 * server's process id; those of a process still running are left alone.
 */
export async function removeOrphanedCopies(): Promise<number> {
	let removed = 0;
	for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
		const pid = Number(new RegExp(`^${SSR_COPY_PREFIX}(\\d+)-`).exec(name)?.[1]);
		if (!pid || isRunning(pid)) continue;
		await rm(join(tmpdir(), name), { recursive: true, force: true });
		removed++;
	}
	return removed;
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** One build as the server serves it: its files, rules and on-demand function. */
interface Deployment {
	root: string;
	redirects: RedirectRule[];
	headerRules: HeaderRule[];
	ssr: { handler: Handler; copy: string | null } | null;
}

async function loadDeployment(
	distDir: string,
	ssrDir: string | undefined,
	inPlace = false,
): Promise<Deployment> {
	const root = resolve(distDir);
	const ssr = ssrDir ? await loadSsrFunction(resolve(ssrDir), inPlace) : null;
	return {
		root,
		ssr,
		redirects: parseRedirects(await readFile(join(root, '_redirects'), 'utf8').catch(() => '')),
		headerRules: parseHeaders(await readFile(join(root, '_headers'), 'utf8').catch(() => '')),
	};
}

/** A route the server itself answers (the local build hook), before functions and files. */
export interface ServerRoute {
	method: string;
	/** The exact pathname. */
	path: string;
	handler: (req: Request) => Promise<Response>;
}

export interface SiteServer {
	url: string;
	/**
	 * Serves another build from now on, as one step: its files, `_redirects`, `_headers` and SSR
	 * function are loaded first, then swapped in together, so every request is answered wholly by
	 * one build. A request already under way finishes with the build it started with. Hashed
	 * assets of the build before stay reachable (a page loaded just before the swap still gets
	 * its scripts), as with Netlify's skew protection. The SSR function runs from a copy in the
	 * system's temporary folder, outside the project, as Netlify runs it from its bundle.
	 */
	swap(build: { distDir: string; ssrDir?: string }): Promise<void>;
	close(): Promise<void>;
}

export async function startSiteServer(options: {
	distDir: string;
	functionsDir: string;
	port: number;
	host?: string;
	/** The adapter's on-demand function, .netlify/v1/functions/ssr; none when left out. */
	ssrDir?: string;
	routes?: ServerRoute[];
}): Promise<SiteServer> {
	const functions = await loadFunctions(resolve(options.functionsDir));
	let current = await loadDeployment(options.distDir, options.ssrDir);
	let previous: Deployment | null = null;
	const host = options.host ?? '127.0.0.1';
	const origin = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;

	async function serveFile(
		req: IncomingMessage,
		res: ServerResponse,
		file: string,
		status: number,
		path: string,
		headerRules: HeaderRule[],
	) {
		const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
		const headers: Record<string, string> = { 'content-type': type };
		for (const rule of headerRules) {
			if (matchNetlifyPath(rule.pattern, path))
				for (const [k, v] of rule.headers) headers[k.toLowerCase()] = v;
		}
		// Netlify's CDN compresses text; so does this server, so that what a page costs here
		// (bench:pages, Lighthouse) is what it costs a visitor.
		const gzip = COMPRESSIBLE.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
		if (gzip) Object.assign(headers, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
		res.writeHead(status, headers);
		if (req.method === 'HEAD') res.end();
		else if (gzip) createReadStream(file).pipe(createGzip()).pipe(res);
		else createReadStream(file).pipe(res);
	}

	async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', origin);
		if (tooLarge(req)) {
			res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
			res.end(JSON.stringify({ error: 'Request body too large' }));
			return;
		}
		const head = req.method === 'HEAD';
		// One build answers the whole request, even if another is swapped in meanwhile.
		const { root, redirects, headerRules, ssr } = current;
		const before = previous;
		for (const extra of options.routes ?? []) {
			if (url.pathname !== extra.path) continue;
			if (req.method !== extra.method) {
				res.writeHead(405, { 'content-type': 'application/json', allow: extra.method });
				res.end(JSON.stringify({ error: `Method ${req.method} not allowed` }));
				return;
			}
			await sendResponse(res, await extra.handler(toRequest(req, origin)), head);
			return;
		}
		// Netlify's request chain: functions by path (skipping those that prefer a file that
		// exists), then `_redirects`, then files.
		let file = await findFile(root, url.pathname);
		if (!file && before && url.pathname.startsWith('/_astro/')) {
			file = await findFile(before.root, url.pathname);
		}
		for (const fn of functions) {
			if (fn.preferStatic && file) continue;
			for (const pattern of fn.patterns) {
				const match = pattern.exec({ pathname: url.pathname });
				if (!match) continue;
				// As on Netlify: a method the config leaves out passes the function by (our functions
				// name no methods in their config; their handler answers other methods with 405).
				if (fn.methods && !fn.methods.includes(req.method ?? 'GET')) continue;
				const params = Object.fromEntries(
					Object.entries(match.pathname.groups).filter(
						(e): e is [string, string] => e[1] !== undefined,
					),
				);
				if (fn.name.endsWith('-background')) {
					await runInBackground(fn, req, res, makeContext(req, params, origin, url));
					return;
				}
				const response = await fn.handler(
					toRequest(req, origin),
					makeContext(req, params, origin, url),
				);
				await sendResponse(res, response, head);
				return;
			}
		}
		// The adapter's on-demand function is a function too (path `/*`, preferStatic): it claims
		// every path without a file before `_redirects` are read, as on Netlify, and answers the
		// site's 404 page itself for paths that are no route of its.
		if (!file && ssr) {
			const response = await ssr.handler(toRequest(req, origin), makeContext(req, {}, origin, url));
			await sendResponse(res, response, head);
			return;
		}
		for (const rule of redirects) {
			const params = matchNetlifyPath(rule.from, url.pathname);
			if (!params || (file && !rule.force)) continue;
			const target = rule.to.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');
			// As on Netlify, a rule without a 3xx status is a rewrite served with that status
			// (200 a proxy-less rewrite, 404 a custom not-found page).
			if (rule.status < 300 || rule.status >= 400) {
				const rewritten = await findFile(root, new URL(target, origin).pathname);
				if (rewritten) {
					return serveFile(req, res, rewritten, rule.status, url.pathname, headerRules);
				}
				continue;
			}
			res.writeHead(rule.status, { location: target + (target.includes('?') ? '' : url.search) });
			res.end();
			return;
		}
		if (file) return serveFile(req, res, file, 200, url.pathname, headerRules);
		const notFound = join(root, '404.html');
		if (await stat(notFound).catch(() => null))
			return serveFile(req, res, notFound, 404, url.pathname, headerRules);
		res.writeHead(404, { 'content-type': 'text/plain' });
		res.end('Not found');
	}

	/** Background functions still running: close() waits for them, as a deploy would not. */
	const background = new Set<Promise<unknown>>();

	/**
	 * As Netlify runs a function named `*-background`: the request is answered 202 at once, and
	 * the function runs on with the request's body, its answer discarded.
	 */
	async function runInBackground(
		fn: FunctionRoute,
		req: IncomingMessage,
		res: ServerResponse,
		context: Context,
	): Promise<void> {
		const request = toRequest(req, origin);
		const body = request.body ? await new Response(request.body).arrayBuffer() : undefined;
		const copy = new Request(request.url, {
			method: request.method,
			headers: request.headers,
			body,
		});
		res.writeHead(202);
		res.end();
		const run = Promise.resolve()
			.then(() => fn.handler(copy, context))
			.catch((error: unknown) => console.error(`[${fn.name}]`, error))
			.finally(() => background.delete(run));
		background.add(run);
	}

	const server: Server = createServer((req, res) => {
		route(req, res).catch((error: unknown) => {
			console.error('[serve]', error);
			if (!res.headersSent) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: 'Internal server error' }));
			} else res.destroy();
		});
	});
	await new Promise<void>((resolveListen, reject) => {
		server.once('error', reject);
		server.listen(options.port, host, resolveListen);
	});
	const retired: Deployment[] = [];
	return {
		url: origin,
		async swap(build) {
			const next = await loadDeployment(build.distDir, build.ssrDir);
			if (previous) retired.push(previous);
			previous = current;
			current = next;
			// The one before the previous build has no page left that could ask for its assets;
			// its SSR copy goes once requests that began with it had time to finish.
			const stale = retired.splice(0);
			if (stale.length) {
				setTimeout(() => {
					for (const d of stale) {
						if (d.ssr?.copy) void rm(d.ssr.copy, { recursive: true, force: true });
					}
				}, 30_000).unref();
			}
		},
		close: async () => {
			await new Promise<void>((resolveClose) => {
				server.closeAllConnections();
				server.close(() => resolveClose());
			});
			await Promise.all(background);
			for (const d of [current, previous, ...retired]) {
				if (d?.ssr?.copy) await rm(d.ssr.copy, { recursive: true, force: true });
			}
		},
	};
}
