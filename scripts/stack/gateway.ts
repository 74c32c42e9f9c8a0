import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { StackMode } from '../../src/lib/env.server.ts';
import type { RoutedRequest } from './auth/http.ts';

export interface Gateway {
	url: string;
	close(): Promise<void>;
}

/** The stack's parts as /_stack/health reports them. */
export interface HealthReport {
	ok: boolean;
	database: { ok: boolean; ms?: number; error?: string; pid?: number; restarts?: number };
	postgrest: { ok: boolean; pid?: number; restarts: number; state: string };
}

/** A service behind the gateway (the identity service, the file service). */
type ServiceRoutes = (route: RoutedRequest) => Promise<void>;

function json(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

/**
 * What Supabase's gateway (Kong) lets browsers do: any origin, the headers supabase-js sends, and
 * the answer headers it reads (error codes, paging, ranges).
 */
const CORS: Record<string, string> = {
	'access-control-allow-origin': '*',
	'access-control-expose-headers':
		'x-sb-error-code, x-total-count, link, content-range, content-location, x-supabase-api-version',
};

function preflight(req: IncomingMessage, res: ServerResponse): void {
	res.writeHead(200, {
		...CORS,
		'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
		'access-control-allow-headers':
			req.headers['access-control-request-headers'] ??
			'authorization, apikey, content-type, x-client-info, x-supabase-api-version, x-upsert, cache-control, prefer, range, accept-profile, content-profile',
		'access-control-max-age': '3600',
		vary: 'origin, access-control-request-headers',
	});
	res.end();
}

/** Paths Kong serves without a key: the e-mailed link and public files. */
function isOpen(path: string, method: string): boolean {
	if (path.startsWith('/auth/v1/verify') && method === 'GET') return true;
	if (path.startsWith('/auth/v1/health')) return true;
	return /^\/storage\/v1\/object\/public\//.test(path) && (method === 'GET' || method === 'HEAD');
}

export interface GatewayOptions {
	port: number;
	postgrestUrl: string;
	mode: StackMode;
	apiKeys: readonly string[];
	/**
	 * The secret keys among them: only a request made with one may name the visitor it acts for
	 * in `Sb-Forwarded-For` (Supabase's rule; the publishable/anon key may not).
	 */
	secretKeys: readonly string[];
	auth?: ServiceRoutes;
	storage?: ServiceRoutes;
	reload: () => Promise<void>;
	/** What /_stack/health answers: ok only when the database and PostgREST both answer. */
	health?: () => Promise<HealthReport>;
	/** How long a request waits for a PostgREST or database being restarted (default 10 s). */
	restartWaitMs?: number;
	/** PostgREST's answer must begin within this (default 120 s: an import is one long call). */
	upstreamTimeoutMs?: number;
	/**
	 * The key POST /_stack/reload must carry as `Authorization: Bearer …` (the service key): any
	 * local process, or a web page through the browser, could otherwise make PostgREST reload.
	 * Without it the route is refused.
	 */
	reloadKey?: string;
}

/**
 * The local stand-in for Supabase's API gateway: `/rest/v1/*` goes to PostgREST, `/auth/v1/*` to
 * the GoTrue-compatible identity service and `/storage/v1/*` to the Storage-compatible file
 * service, each with its prefix stripped — exactly the paths supabase-js calls on a hosted
 * project. Like Kong, it asks the identity and file services' callers for an `apikey` (the anon or
 * the service key) and answers browsers' CORS requests.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
	const proxy = postgrestProxy(
		new URL(options.postgrestUrl),
		options.restartWaitMs ?? 10_000,
		options.upstreamTimeoutMs ?? 120_000,
	);
	const server: Server = createServer((req, res) => route(options, proxy, req, res));
	// Clients (undici: 4 s) must drop idle keep-alive sockets before the server closes them.
	// With Node's default of 5 s, a client whose event loop was busy for a few seconds (an Astro
	// build) sends its next request on a socket the gateway has just closed, and a POST (an RPC)
	// is not retried: 'fetch failed: other side closed'.
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${options.port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

type Proxy = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

/** Sends each request to its part: PostgREST, a service behind its key, or the stack's own routes. */
function route(
	options: GatewayOptions,
	proxy: Proxy,
	req: IncomingMessage,
	res: ServerResponse,
): void {
	const raw = req.url ?? '/';
	const url = new URL(raw, 'http://gateway');
	const isApi = /^\/(rest|auth|storage)\/v1(\/|$)/.test(url.pathname);
	if (isApi && req.method === 'OPTIONS') {
		preflight(req, res);
		return;
	}
	if (url.pathname.startsWith('/rest/v1/') || url.pathname === '/rest/v1') {
		proxy(req, res, raw.slice('/rest/v1'.length) || '/').catch((error: Error) => {
			if (!res.headersSent)
				json(res, 502, { message: `PostgREST unreachable: ${error.message}` }, CORS);
			else res.destroy();
		});
		return;
	}
	for (const [name, routes] of [
		['auth', options.auth],
		['storage', options.storage],
	] as const) {
		const prefix = `/${name}/v1`;
		if (!url.pathname.startsWith(`${prefix}/`)) continue;
		void service(options, routes, prefix, req, res, url).catch((error: Error) => {
			console.error(`[gateway] ${name}: ${error.message}`);
			if (!res.headersSent) json(res, 500, { message: 'Internal error' }, CORS);
		});
		return;
	}
	stackRoute(options, req, res, url);
}

/** The stack's own routes: its health, and PostgREST's schema reload for the service key. */
function stackRoute(
	options: GatewayOptions,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): void {
	if (url.pathname === '/_stack/health') {
		(options.health ?? (async () => ({ ok: true }) as HealthReport))().then(
			(report) =>
				json(res, report.ok ? 200 : 503, { ...report, mode: options.mode, pid: process.pid }),
			(error: Error) =>
				json(res, 503, { ok: false, error: error.message, mode: options.mode, pid: process.pid }),
		);
		return;
	}
	if (url.pathname === '/_stack/reload' && req.method === 'POST') {
		if (!options.reloadKey || req.headers.authorization !== `Bearer ${options.reloadKey}`) {
			json(res, 401, { message: 'The service key is required' });
			return;
		}
		options.reload().then(
			() => json(res, 200, { reloaded: true }),
			(error: Error) => json(res, 500, { message: error.message }),
		);
		return;
	}
	json(res, 404, { message: `No route for ${req.method} ${url.pathname}` });
}

function apiKeyOf(req: IncomingMessage, url: URL): string | null {
	const header = req.headers.apikey;
	return (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
}

/** Whether the request carries one of the stack's keys; when not, answers as the hosted gateway. */
function keyAccepted(
	apiKeys: readonly string[],
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): boolean {
	const key = apiKeyOf(req, url);
	// The hosted gateway's answers, word for word.
	if (!key) {
		json(
			res,
			401,
			{
				message: 'No API key found in request',
				hint: 'No `apikey` request header or url param was found.',
			},
			CORS,
		);
		return false;
	}
	if (!apiKeys.includes(key)) {
		json(
			res,
			401,
			{
				message: 'Invalid API key',
				hint: 'Double check your Supabase `anon` or `service_role` API key.',
			},
			CORS,
		);
		return false;
	}
	return true;
}

/** A request for the identity or the file service: its key checked, its prefix stripped. */
async function service(
	options: GatewayOptions,
	routes: ServiceRoutes | undefined,
	prefix: string,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	if (!routes) {
		json(res, 404, { message: `No ${prefix} service on this stack` }, CORS);
		return;
	}
	if (!isOpen(url.pathname, req.method ?? 'GET') && !keyAccepted(options.apiKeys, req, res, url)) {
		return;
	}
	// As Supabase's edge does: the client's address is the connection's, whatever the client
	// wrote in X-Forwarded-For, and only a secret key's request may forward a visitor's.
	req.headers['x-forwarded-for'] = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
	const key = apiKeyOf(req, url);
	if (!key || !options.secretKeys.includes(key)) delete req.headers['sb-forwarded-for'];
	await routes({
		req,
		res,
		path: url.pathname.slice(prefix.length) || '/',
		query: url.searchParams,
		headers: CORS,
	});
}

/**
 * Forwards to PostgREST. While PostgREST or the database is being restarted (the connection is
 * refused, or PostgREST says it is not connected yet) the request waits and is tried again, up
 * to `restartWaitMs`: nothing was run, so even a write is safe to send again. No answer within
 * `upstreamTimeoutMs` is a 504.
 */
function postgrestProxy(upstream: URL, restartWaitMs: number, upstreamTimeoutMs: number): Proxy {
	return async (req, res, path) => {
		const headers = upstreamHeaders(req, upstream);
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks);
		const gone = new AbortController();
		res.on('close', () => {
			if (!res.writableFinished) gone.abort();
		});
		// The deadline runs until PostgREST's answer begins; a long answer then streams.
		const late = new AbortController();
		const timer = setTimeout(() => late.abort(), upstreamTimeoutMs);
		const signal = AbortSignal.any([gone.signal, late.signal]);
		const began = Date.now();
		// A lost connection may have run a write: only reads are sent again.
		const idempotent = req.method === 'GET' || req.method === 'HEAD';
		const retriable = (kind: Failure) => kind === 'not-run' || (kind === 'lost' && idempotent);
		for (let tries = 0; ; tries++) {
			const outcome = await attempt(upstream, req, path, headers, body, signal);
			const canWait = Date.now() - began < restartWaitMs && !signal.aborted;
			const backoff = () => new Promise((r) => setTimeout(r, Math.min(100 * 2 ** tries, 1000)));
			if ('res' in outcome) {
				const failed = await readFailure(outcome.res);
				if (canWait && retriable(failed?.kind ?? null)) {
					await backoff();
					continue;
				}
				clearTimeout(timer);
				return relay(res, outcome.res, failed);
			}
			const { error } = outcome;
			if (gone.signal.aborted) return clearTimeout(timer);
			if (canWait && retriable(errorFailure(error))) {
				await backoff();
				continue;
			}
			clearTimeout(timer);
			if (res.headersSent) {
				res.destroy(error);
			} else if (late.signal.aborted) {
				json(
					res,
					504,
					{ message: `PostgREST did not answer within ${upstreamTimeoutMs / 1000} s` },
					CORS,
				);
			} else {
				json(res, 502, { message: `PostgREST unreachable: ${error.message}` }, CORS);
			}
			return;
		}
	};
}

/** The request's headers for PostgREST: its host, and authorised as its apikey when it has no token. */
function upstreamHeaders(
	req: IncomingMessage,
	upstream: URL,
): Record<string, string | string[] | undefined> {
	const headers: Record<string, string | string[] | undefined> = {
		...req.headers,
		host: upstream.host,
	};
	delete headers['content-length'];
	delete headers['transfer-encoding'];
	// Like Supabase's gateway: a request carrying only an apikey is authorised as that key.
	if (!headers.authorization && typeof headers.apikey === 'string') {
		headers.authorization = `Bearer ${headers.apikey}`;
	}
	return headers;
}

/** One attempt at PostgREST: its answer, or why there was none. */
function attempt(
	upstream: URL,
	req: IncomingMessage,
	path: string,
	headers: Record<string, string | string[] | undefined>,
	body: Buffer,
	signal: AbortSignal,
): Promise<{ res: IncomingMessage } | { error: NodeJS.ErrnoException }> {
	return new Promise((resolve) => {
		const upstreamReq = request(
			{
				hostname: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path,
				headers: { ...headers, 'content-length': String(body.length) },
				signal,
			},
			(res) => resolve({ res }),
		);
		upstreamReq.on('error', (error) => resolve({ error }));
		upstreamReq.end(body);
	});
}

/**
 * What a failed attempt says about the database: `not-run` when nothing reached it (so even a
 * write may be sent again), `lost` when the connection broke under the request, else null.
 */
type Failure = 'not-run' | 'lost' | null;

/**
 * An error answer of PostgREST's, read whole (503 or 400, short), with what it says about the
 * database: `not-run` when it was not connected or had no schema cache (503 PGRST000–002), `lost`
 * when its connection broke under the request (a 400 without a code or a message: libpq's error,
 * no SQLSTATE). Null for any other answer, which streams.
 */
async function readFailure(
	upstreamRes: IncomingMessage,
): Promise<{ text: Buffer; kind: Failure } | null> {
	const status = upstreamRes.statusCode;
	if (status !== 503 && status !== 400) return null;
	const parts: Buffer[] = [];
	for await (const chunk of upstreamRes) parts.push(chunk as Buffer);
	const text = Buffer.concat(parts);
	try {
		const { code, message } = JSON.parse(text.toString()) as { code?: string; message?: string };
		if (status === 503 && (code === 'PGRST000' || code === 'PGRST001' || code === 'PGRST002')) {
			return { text, kind: 'not-run' };
		}
		return { text, kind: status === 400 && !code && !message ? 'lost' : null };
	} catch {
		return { text, kind: null };
	}
}

/** A refused connection ran nothing; a reset one may have run the request. */
function errorFailure(error: NodeJS.ErrnoException): Failure {
	if (error.code === 'ECONNREFUSED') return 'not-run';
	return error.code === 'ECONNRESET' || error.message === 'socket hang up' ? 'lost' : null;
}

/** PostgREST's answer to the browser: streamed, or as read, or a lost connection as PGRST001. */
function relay(
	res: ServerResponse,
	upstreamRes: IncomingMessage,
	failed: { text: Buffer; kind: Failure } | null,
): void {
	if (failed?.kind === 'lost') {
		json(
			res,
			503,
			{
				code: 'PGRST001',
				message: 'The connection to the database was lost',
				details: null,
				hint: null,
			},
			CORS,
		);
	} else if (failed) {
		res.writeHead(upstreamRes.statusCode!, { ...CORS, ...upstreamRes.headers });
		res.end(failed.text);
	} else {
		res.writeHead(upstreamRes.statusCode ?? 502, { ...CORS, ...upstreamRes.headers });
		upstreamRes.pipe(res);
	}
}
