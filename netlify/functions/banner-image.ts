import type { Config } from '@netlify/functions';
import { detectXml } from '@file-type/xml';
import { FileTypeParser } from 'file-type';
import { z } from 'zod';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { listBanners } from '../../src/features/directory/directory.server.ts';
import { handleJson, jsonError, parseQuery } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/banner-image' };

/** Largest image passed through; banners are at most 970×90 px, so this is generous. */
export const MAX_BANNER_BYTES = 2 * 1024 * 1024;
export const BANNER_TIMEOUT_MS = 5000;

// Decided from the bytes, never from the upstream's Content-Type header.
const IMAGE_TYPES = new Set([
	'image/png',
	'image/jpeg',
	'image/gif',
	'image/webp',
	'image/avif',
	'image/svg+xml',
]);

// Paths of this site's own public folder (the demo chamber's banners live in public/demo/).
const SITE_PATHS = ['/demo/'];

const parser = new FileTypeParser({ customDetectors: [detectXml] });

const querySchema = z.object({
	url: z
		.string({ error: 'Expected url, the address of a banner image' })
		.trim()
		.min(1, { error: 'Expected url, the address of a banner image' })
		.max(2000, { error: 'url is too long' }),
});

class UpstreamError extends Error {
	readonly status: number;
	constructor(status: number, message: string) {
		super(message);
		this.status = status;
	}
}

/**
 * Where a banner's image_url lives: absolute http(s) URLs as they are; the site's own files
 * against the request's origin; other relative URLs (the membership system's) prefixed with
 * urls.eventRegistrationBaseUrl (spec 01 §7).
 */
function resolveImageUrl(imageUrl: string, requestOrigin: string, registrationBase: string): URL {
	if (/^https?:\/\//i.test(imageUrl)) return new URL(imageUrl);
	if (SITE_PATHS.some((p) => imageUrl.startsWith(p))) return new URL(imageUrl, requestOrigin);
	if (!/^https?:\/\//i.test(registrationBase)) {
		throw new UpstreamError(404, 'Banner image not found');
	}
	return new URL(`${registrationBase.replace(/\/+$/, '')}/${imageUrl.replace(/^\/+/, '')}`);
}

async function readLimited(response: Response): Promise<Uint8Array<ArrayBuffer>> {
	const declared = Number(response.headers.get('content-length') ?? 0);
	if (declared > MAX_BANNER_BYTES) throw new UpstreamError(502, 'The banner image is too large');
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of response.body ?? []) {
		size += chunk.byteLength;
		if (size > MAX_BANNER_BYTES) throw new UpstreamError(502, 'The banner image is too large');
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

export default handleJson('banner-image', ['GET'], async (req) => {
	const { url } = parseQuery(querySchema, req);
	const client = getAnonClient();
	const tenant = await getCurrentTenant();
	// Only images this chamber's own banners reference: the proxy is no open relay.
	const banners = await listBanners(client, tenant.id);
	if (!banners.some((b) => b.image_url === url)) {
		return jsonError(403, "This image is not one of the chamber's banners");
	}
	const chamber = await getCachedChamberConfig(client, tenant.id);
	try {
		const target = resolveImageUrl(
			url,
			new URL(req.url).origin,
			chamber.urls.eventRegistrationBaseUrl,
		);
		const upstream = await fetch(target, {
			signal: AbortSignal.timeout(BANNER_TIMEOUT_MS),
			headers: { accept: 'image/*' },
		});
		if (upstream.status === 404) throw new UpstreamError(404, 'Banner image not found');
		if (!upstream.ok) throw new UpstreamError(502, 'The banner image could not be loaded');
		const bytes = await readLimited(upstream);
		const type = await parser.fromBuffer(bytes);
		if (!type || !IMAGE_TYPES.has(type.mime)) {
			throw new UpstreamError(502, 'The banner address did not return an image');
		}
		const headers: Record<string, string> = {
			'Content-Type': type.mime,
			'Content-Length': String(bytes.byteLength),
			'X-Content-Type-Options': 'nosniff',
			'Cache-Control': 'public, max-age=86400',
			'Netlify-CDN-Cache-Control':
				'public, durable, s-maxage=2592000, stale-while-revalidate=604800',
			'Netlify-Cache-Tag': [tenant.slug, `${tenant.slug}:banners`].join(','),
			'Netlify-Vary': 'query=url',
		};
		// An SVG opened on its own must not run scripts on our origin.
		if (type.mime === 'image/svg+xml') {
			headers['Content-Security-Policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
		}
		return new Response(bytes, { status: 200, headers });
	} catch (error) {
		if (error instanceof UpstreamError) return jsonError(error.status, error.message);
		if (error instanceof DOMException && error.name === 'TimeoutError') {
			return jsonError(504, 'The banner image took too long to load');
		}
		if (error instanceof TypeError) {
			// fetch's network failures (DNS, refused connection).
			console.warn('[banner-image]', url, error.cause ?? error.message);
			return jsonError(502, 'The banner image could not be loaded');
		}
		throw error;
	}
});
