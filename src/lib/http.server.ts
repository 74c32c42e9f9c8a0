import type { Context } from '@netlify/functions';
import { z } from 'zod';

/**
 * Shared plumbing of the Netlify functions in netlify/functions: JSON errors with the right
 * status, query validation, CDN cache headers and the catch-all that never leaks a stack trace.
 */

export type FunctionHandler = (req: Request, context: Context) => Promise<Response>;

export function jsonError(status: number, error: string, headers: HeadersInit = {}): Response {
	return Response.json({ error }, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

/** Wraps a handler: 405 for other methods, and a logged 500 for anything unexpected. */
export function handle(
	name: string,
	methods: readonly string[],
	fn: (req: Request, context: Context) => Promise<Response>,
): FunctionHandler {
	return async (req, context) => {
		if (!methods.includes(req.method)) {
			return jsonError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') });
		}
		try {
			return await fn(req, context);
		} catch (error) {
			console.error(`[${name}]`, error);
			return jsonError(500, 'Something went wrong on our side. Please try again later.');
		}
	};
}

export class BadRequest extends Error {}

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

/** Like handle(), and a BadRequest thrown inside becomes a 400 with its message. */
export function handleJson(
	name: string,
	methods: readonly string[],
	fn: (req: Request, context: Context) => Promise<Response>,
): FunctionHandler {
	return handle(name, methods, async (req, context) => {
		try {
			return await fn(req, context);
		} catch (error) {
			if (error instanceof BadRequest) return jsonError(400, error.message);
			throw error;
		}
	});
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
export function cachedJson(body: unknown, options: CacheOptions): Response {
	const fresh = options.fresh ?? 86_400;
	const stale = options.stale ?? 172_800;
	return Response.json(body, {
		headers: {
			'Cache-Control': 'public, max-age=0, must-revalidate',
			'Netlify-CDN-Cache-Control': `public, durable, s-maxage=${fresh}, stale-while-revalidate=${stale}`,
			'Netlify-Cache-Tag': options.tags.join(','),
			'Netlify-Vary': `query=${(options.vary ?? ['v']).join('|')}`,
		},
	});
}

/** ?v= carries a cache version: a positive integer, optional. */
export const versionParam = z.coerce.number().int().positive().optional();
