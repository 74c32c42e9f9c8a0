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
export type ServiceRoutes = (route: RoutedRequest) => Promise<void>;

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

/**
 * The local stand-in for Supabase's API gateway: `/rest/v1/*` goes to PostgREST, `/auth/v1/*` to
 * the GoTrue-compatible identity service and `/storage/v1/*` to the Storage-compatible file
 * service, each with its prefix stripped — exactly the paths supabase-js calls on a hosted
 * project. Like Kong, it asks the identity and file services' callers for an `apikey` (the anon or
 * the service key) and answers browsers' CORS requests.
 */
export async function startGateway(options: {
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
}): Promise<Gateway> {
	const upstream = new URL(options.postgrestUrl);

	const restartWaitMs = options.restartWaitMs ?? 10_000;
	const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 120_000;

	/** One attempt at PostgREST: its answer, or why there was none. */
	function attempt(
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
	 * What PostgREST's error answer says about the database: `not-run` when it was not connected
	 * or had no schema cache (503 PGRST000–002), `lost` when its connection broke under the
	 * request (a 400 without a code or a message: libpq's error, no SQLSTATE), else null.
	 */
	function failure(status: number, body: Buffer): 'not-run' | 'lost' | null {
		try {
			const { code, message } = JSON.parse(body.toString()) as { code?: string; message?: string };
			if (status === 503 && (code === 'PGRST000' || code === 'PGRST001' || code === 'PGRST002')) {
				return 'not-run';
			}
			return status === 400 && !code && !message ? 'lost' : null;
		} catch {
			return null;
		}
	}

	/**
	 * Forwards to PostgREST. While PostgREST or the database is being restarted (the connection is
	 * refused, or PostgREST says it is not connected yet) the request waits and is tried again, up
	 * to `restartWaitMs`: nothing was run, so even a write is safe to send again. No answer within
	 * `upstreamTimeoutMs` is a 504.
	 */
	async function proxy(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
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
		const idempotent = req.method === 'GET' || req.method === 'HEAD';
		for (let tries = 0; ; tries++) {
			const outcome = await attempt(req, path, headers, body, signal);
			const canWait = Date.now() - began < restartWaitMs && !signal.aborted;
			if ('res' in outcome) {
				const upstreamRes = outcome.res;
				if (upstreamRes.statusCode === 503 || upstreamRes.statusCode === 400) {
					const parts: Buffer[] = [];
					for await (const chunk of upstreamRes) parts.push(chunk as Buffer);
					const text = Buffer.concat(parts);
					const kind = failure(upstreamRes.statusCode, text);
					// A lost connection may have run a write: only reads are sent again.
					if (canWait && (kind === 'not-run' || (kind === 'lost' && idempotent))) {
						await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** tries, 1000)));
						continue;
					}
					clearTimeout(timer);
					if (kind === 'lost') {
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
						return;
					}
					res.writeHead(upstreamRes.statusCode, { ...CORS, ...upstreamRes.headers });
					res.end(text);
					return;
				}
				clearTimeout(timer);
				res.writeHead(upstreamRes.statusCode ?? 502, { ...CORS, ...upstreamRes.headers });
				upstreamRes.pipe(res);
				return;
			}
			const { error } = outcome;
			if (gone.signal.aborted) return clearTimeout(timer);
			const refused = error.code === 'ECONNREFUSED';
			const reset = error.code === 'ECONNRESET' || error.message === 'socket hang up';
			if (canWait && (refused || (reset && idempotent))) {
				await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** tries, 1000)));
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
	}

	function apiKeyOf(req: IncomingMessage, url: URL): string | null {
		const header = req.headers.apikey;
		return (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
	}

	async function service(
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
		const method = req.method ?? 'GET';
		if (!isOpen(url.pathname, method)) {
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
				return;
			}
			if (!options.apiKeys.includes(key)) {
				json(
					res,
					401,
					{
						message: 'Invalid API key',
						hint: 'Double check your Supabase `anon` or `service_role` API key.',
					},
					CORS,
				);
				return;
			}
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

	const server: Server = createServer((req, res) => {
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
		if (url.pathname.startsWith('/auth/v1/')) {
			void service(options.auth, '/auth/v1', req, res, url).catch((error: Error) => {
				console.error(`[gateway] auth: ${error.message}`);
				if (!res.headersSent) json(res, 500, { message: 'Internal error' }, CORS);
			});
			return;
		}
		if (url.pathname.startsWith('/storage/v1/')) {
			void service(options.storage, '/storage/v1', req, res, url).catch((error: Error) => {
				console.error(`[gateway] storage: ${error.message}`);
				if (!res.headersSent) json(res, 500, { message: 'Internal error' }, CORS);
			});
			return;
		}
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
	});
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
