import { authenticate } from '../auth/auth.server.ts';
import { ConfigError, parseConfig } from '../config/config.ts';
import { getHomeData, type HomeData } from '../home/home.server.ts';
import type { Site } from '../site/site.server.ts';
import { HttpError, jsonError } from '../../lib/http.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';

/** Larger than any real configuration (a few KB), small enough to refuse junk at once. */
const PREVIEW_MAX_BYTES = 256 * 1024;

/** Never stored by a browser or the CDN, never indexed. */
export const PREVIEW_HEADERS = {
	'Cache-Control': 'no-store',
	'Netlify-CDN-Cache-Control': 'no-store',
	'X-Robots-Tag': 'noindex',
} as const;

export type PreviewOutcome =
	{ ok: true; site: Site; data: HomeData } | { ok: false; response: Response };

/**
 * 'Preview': the home page rendered with a configuration that is not saved yet.
 * `POST` with the bearer token of the chamber's staff (super_admin, admin or editor) and
 * `{config}`, validated by the same schema as the build (chamberConfigSchema); the chamber's own
 * data (categories, featured businesses, banners) fills it. Errors are JSON, as from a function.
 */
export async function previewRequest(req: Request): Promise<PreviewOutcome> {
	const fail = (status: number, message: string) => ({
		ok: false as const,
		response: jsonError(status, message, PREVIEW_HEADERS),
	});
	if (req.method !== 'POST') {
		return {
			ok: false,
			response: jsonError(405, `Method ${req.method} not allowed`, { Allow: 'POST' }),
		};
	}
	try {
		await authenticate(req);
	} catch (error) {
		if (error instanceof HttpError) return fail(error.status, error.message);
		throw error;
	}
	const text = await req.text();
	if (Buffer.byteLength(text) > PREVIEW_MAX_BYTES)
		return fail(413, 'The configuration is too large');
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return fail(400, 'Expected a JSON body');
	}
	if (typeof body !== 'object' || body === null || !('config' in body)) {
		return fail(400, 'config: Required');
	}
	const tenant = await getCurrentTenant();
	let config;
	try {
		// The preview is of this deployment's chamber, whatever slug the body says.
		config = parseConfig({ ...(body.config as object), slug: tenant.slug }, 'the preview');
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		const issue = error.issues[0];
		return fail(400, `config.${issue?.path ?? ''}: ${issue?.message ?? 'Invalid configuration'}`);
	}
	const site: Site = { tenant, config };
	return { ok: true, site, data: await getHomeData(site) };
}
