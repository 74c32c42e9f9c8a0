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
	/**
	 * The key POST /_stack/reload must carry as `Authorization: Bearer …` (the service key): any
	 * local process, or a web page through the browser, could otherwise make PostgREST reload.
	 * Without it the route is refused.
	 */
	reloadKey?: string;
}): Promise<Gateway> {
	const upstream = new URL(options.postgrestUrl);

	function proxy(req: IncomingMessage, res: ServerResponse, path: string): void {
		const headers: Record<string, string | string[] | undefined> = {
			...req.headers,
			host: upstream.host,
		};
		// Like Supabase's gateway: a request carrying only an apikey is authorised as that key.
		if (!headers.authorization && typeof headers.apikey === 'string') {
			headers.authorization = `Bearer ${headers.apikey}`;
		}
		const upstreamReq = request(
			{ hostname: upstream.hostname, port: upstream.port, method: req.method, path, headers },
			(upstreamRes) => {
				res.writeHead(upstreamRes.statusCode ?? 502, { ...CORS, ...upstreamRes.headers });
				upstreamRes.pipe(res);
			},
		);
		upstreamReq.on('error', (error) => {
			if (!res.headersSent) json(res, 502, { message: `PostgREST unreachable: ${error.message}` });
			else res.destroy(error);
		});
		req.pipe(upstreamReq);
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
			proxy(req, res, raw.slice('/rest/v1'.length) || '/');
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
			json(res, 200, { ok: true, mode: options.mode, pid: process.pid });
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
