import type { Context } from '@netlify/functions';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { API_CSP, applySecurityHeaders } from './security-headers.ts';
import { inRequestScope } from './supabase.server.ts';

/**
 * Shared plumbing of the Netlify functions in netlify/functions: JSON errors with the right
 * status, query validation, CDN cache headers and the catch-all that never leaks a stack trace.
 */

export type FunctionHandler = (req: Request, context: Context) => Promise<Response>;

export function jsonError(
	status: number,
	error: string,
	headers: HeadersInit = {},
	extra: Record<string, unknown> = {},
): Response {
	return Response.json(
		{ ...extra, error },
		{ status, headers: { 'Cache-Control': 'no-store', ...headers } },
	);
}

/**
 * The answer with the site's security headers (nosniff, HSTS, a CSP under which nothing runs …):
 * Netlify's `_headers` does not apply to what a function answers, so every function sets them.
 */
function withSecurityHeaders(response: Response): Response {
	const headers = new Headers(response.headers);
	applySecurityHeaders(headers, API_CSP);
	return new Response(response.body, {
		status: response.status,
		statusText: response.statusText,
		headers,
	});
}

/**
 * Codes that say a service is down, busy or restarting, not that the request was wrong:
 * PostgREST's own (not connected, no schema cache, no free connection in time) and Postgres's
 * (statement timeout, idle-in-transaction timeout, shutting down, too many connections, lost
 * connections).
 */
const UNAVAILABLE_CODES = new Set([
	'PGRST000',
	'PGRST001',
	'PGRST002',
	'PGRST003',
	'57014',
	'25P03',
	'57P01',
	'57P02',
	'57P03',
	'53300',
	'08000',
	'08001',
	'08003',
	'08004',
	'08006',
]);

/**
 * Whether an error (or any error it was caused by) means a service the function depends on did
 * not answer in time or could not be reached: supabase-js calls past their deadline
 * (SupabaseUnavailableError, which postgrest-js reports as 'AbortError: …'), the identity
 * service's retryable failures, a 502/503/504, or a code above.
 */
export function isUnavailable(error: unknown): boolean {
	const seen = new Set<unknown>();
	const queue: unknown[] = [error];
	while (queue.length) {
		const e = queue.shift();
		if (!e || typeof e !== 'object' || seen.has(e)) continue;
		seen.add(e);
		const { name, code, message, status, cause, originalError } = e as Record<string, unknown>;
		if (name === 'AbortError' || name === 'TimeoutError' || name === 'AuthRetryableFetchError') {
			return true;
		}
		if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
		if (typeof message === 'string' && /^(AbortError|TimeoutError): /.test(message)) return true;
		if (status === 502 || status === 503 || status === 504) return true;
		queue.push(cause, originalError);
	}
	return false;
}

/** What a visitor reads when a service behind the function did not answer in time. */
const UNAVAILABLE_MESSAGE = 'The service is busy right now. Please try again in a moment.';

/** How long a client should wait before trying again after a 503, in seconds. */
const RETRY_AFTER_SECONDS = 5;

/** The 503 answer for isUnavailable errors. */
function unavailableResponse(): Response {
	return jsonError(503, UNAVAILABLE_MESSAGE, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/**
 * Wraps a handler: 405 for other methods, a 503 when a service it depends on did not answer in
 * time (isUnavailable), a logged 500 for anything else unexpected, and the security headers on
 * every answer.
 *
 * The methods live here, not in the function's `config.method`: Netlify routes a method that
 * `config.method` leaves out past the function (to the site's 404 page), so a function that names
 * only its path and refuses other methods here is the way to a JSON 405 with `Allow`.
 */
export function handle(
	name: string,
	methods: readonly string[],
	fn: (req: Request, context: Context) => Promise<Response>,
): FunctionHandler {
	return async (req, context) => {
		if (!methods.includes(req.method)) {
			return withSecurityHeaders(
				jsonError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') }),
			);
		}
		try {
			return withSecurityHeaders(await inRequestScope(() => fn(req, context)));
		} catch (error) {
			if (isUnavailable(error)) {
				// One line: an outage is logged by every request that meets it.
				console.error(`[${name}] unavailable: ${error instanceof Error ? error.message : error}`);
				return withSecurityHeaders(unavailableResponse());
			}
			console.error(`[${name}]`, error);
			return withSecurityHeaders(
				jsonError(500, 'Something went wrong on our side. Please try again later.'),
			);
		}
	};
}

/**
 * An error that becomes a JSON answer `{error: message}` with its status under handleJson; `body`
 * adds fields a client acts on (a 409's conflicts).
 */
export class HttpError extends Error {
	readonly status: number;
	readonly headers: Record<string, string>;
	readonly body: Record<string, unknown>;

	constructor(
		status: number,
		message: string,
		headers: Record<string, string> = {},
		body: Record<string, unknown> = {},
	) {
		super(message);
		this.name = 'HttpError';
		this.status = status;
		this.headers = headers;
		this.body = body;
	}
}

export class BadRequest extends HttpError {
	constructor(message: string) {
		super(400, message);
	}
}

/** Validates the query string; a bad one becomes a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
	const params = Object.fromEntries(new URL(req.url).searchParams);
	const result = schema.safeParse(params);
	if (!result.success) {
		const issue = result.error.issues[0];
		const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
		throw new BadRequest(`${where}${issue?.message ?? 'Invalid query'}`);
	}
	return result.data;
}

/** Like handle(), and an HttpError thrown inside (BadRequest: 400) becomes its JSON answer. */
export function handleJson(
	name: string,
	methods: readonly string[],
	fn: (req: Request, context: Context) => Promise<Response>,
): FunctionHandler {
	return handle(name, methods, async (req, context) => {
		try {
			return await fn(req, context);
		} catch (error) {
			if (error instanceof HttpError) {
				return jsonError(error.status, error.message, error.headers, error.body);
			}
			throw error;
		}
	});
}

/** Validates a JSON body; a missing or bad one becomes a 400 naming the field. */
export async function parseJsonBody<S extends z.ZodType>(
	schema: S,
	req: Request,
): Promise<z.output<S>> {
	let body: unknown;
	try {
		body = await req.json();
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	const result = schema.safeParse(body);
	if (!result.success) {
		const issue = result.error.issues[0];
		const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
		throw new BadRequest(`${where}${issue?.message ?? 'Invalid body'}`);
	}
	return result.data;
}

/**
 * The visitor's IP address: the one Netlify's edge puts in `x-nf-client-connection-ip` (it
 * replaces whatever a visitor sends in that header; so does the local server), else the socket
 * address the runtime reports. Never X-Forwarded-For or another header a visitor can set.
 */
export function clientIp(req: Request, context: Pick<Context, 'ip'>): string {
	return req.headers.get('x-nf-client-connection-ip')?.trim() || context.ip || 'unknown';
}

/**
 * A request answered before its work is done, so that the answer and its time are the same
 * whatever the work finds (a password reset, a member's sign-in link).
 */
export interface AnsweredFirst {
	/** Who asked: counted by the per-address limits, forwarded to the identity service. */
	clientIp: string;
	/** This site, for the links the e-mails carry. */
	siteUrl: string;
	/** Where the work goes on after the answer (Netlify's waitUntil). */
	later: (work: Promise<unknown>) => void;
}

/** The request's AnsweredFirst: its address, the configured site (else the request's own). */
export function answeredFirst(
	req: Request,
	context: Pick<Context, 'ip' | 'waitUntil'>,
): AnsweredFirst {
	return {
		clientIp: clientIp(req, context),
		siteUrl: process.env.SITE_URL || process.env.URL || new URL(req.url).origin,
		later: (work) => context.waitUntil(work),
	};
}

/**
 * The key a per-address limit counts under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so counting single addresses would let them rotate
 * through billions), an IPv4-mapped IPv6 address as its IPv4 form.
 */
export function ipRateKey(ip: string): string {
	if (!ipaddr.isValid(ip)) return ip;
	const parsed = ipaddr.process(ip);
	if (parsed.kind() === 'ipv4') return parsed.toString();
	const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
	return `${ipaddr.fromByteArray([...parts.flatMap((p) => [p >> 8, p & 0xff]), ...Array<number>(8).fill(0)]).toString()}/64`;
}

export interface CacheOptions {
	/** Cache tags, so a publish can purge exactly what changed. */
	tags: string[];
	/** Seconds the CDN serves it fresh (default 24 hours). */
	fresh?: number;
	/** Seconds it may still serve it stale while revalidating (default 48 hours). */
	stale?: number;
	/**
	 * The query parameters that change the answer, i.e. the CDN cache key (default just v).
	 * Parameters left out are ignored by the cache, so every one the handler reads must be here.
	 */
	vary?: readonly string[];
}

/**
 * Browsers revalidate every time; the CDN keeps the answer for a day and serves it stale for two
 * more. Cache keys include ?v=, the cache version, so bumping a version is an instant purge
 * (plus any other parameter named in `vary`).
 */
export function cacheHeaders(options: CacheOptions): Record<string, string> {
	const fresh = options.fresh ?? 86_400;
	const stale = options.stale ?? 172_800;
	return {
		'Cache-Control': 'public, max-age=0, must-revalidate',
		'Netlify-CDN-Cache-Control': `public, durable, s-maxage=${fresh}, stale-while-revalidate=${stale}`,
		'Netlify-Cache-Tag': options.tags.join(','),
		'Netlify-Vary': `query=${(options.vary ?? ['v']).join('|')}`,
	};
}

/** A JSON answer with cacheHeaders(). */
export function cachedJson(body: unknown, options: CacheOptions): Response {
	return Response.json(body, { headers: cacheHeaders(options) });
}

/** ?v= carries a cache version: a positive integer, optional. */
export const versionParam = z.coerce.number().int().positive().optional();

/**
 * Only this site's own pages may post a visitor's form (a message, a submitted event): a
 * cross-site form (text/plain needs no preflight) or a script on another origin is refused.
 * Browsers always send Origin on a POST and Sec-Fetch-Site where they support it. Answers the
 * refusal's text (`json` when the body is not JSON, else `site`), or null.
 */
export function sameOriginJsonProblem(
	req: Request,
	texts: { json: string; site: string },
): string | null {
	const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
	if (type !== 'application/json') return texts.json;
	const site = req.headers.get('sec-fetch-site');
	if (site !== null && site !== 'same-origin') return texts.site;
	const origin = req.headers.get('origin');
	if (!origin || !isOwnOrigin(req, origin)) return texts.site;
	return null;
}

/** The page's origin is this site: the request's own, or the host the browser addressed. */
function isOwnOrigin(req: Request, origin: string): boolean {
	if (origin === new URL(req.url).origin) return true;
	try {
		return new URL(origin).host === req.headers.get('host');
	} catch {
		return false;
	}
}
