import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { listBanners } from '../../src/features/directory/directory.server.ts';
import {
	BANNER_FAILED,
	bannerSource,
	failureReason,
	loadBannerImage,
} from '../../src/features/home/banner-image.server.ts';
import {
	handleJson,
	jsonError,
	parseQuery,
	type FunctionHandler,
} from '../../src/lib/http.server.ts';
import { createPublicFetch, type PublicFetch } from '../../src/lib/public-fetch.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/banner-image' };

const querySchema = z.object({
	url: z
		.string({ error: 'Expected url, the address of a banner image' })
		.trim()
		.min(1, { error: 'Expected url, the address of a banner image' })
		.max(2000, { error: 'url is too long' }),
});

/**
 * The proxy with the fetch it uses for remote images. Production has exactly one: public
 * addresses only (the default export); tests pass one that maps their host names to 127.0.0.1.
 */
export function bannerImageHandler(fetcher: PublicFetch): FunctionHandler {
	return handleJson('banner-image', ['GET'], async (req) => {
		const { url } = parseQuery(querySchema, req);
		const client = getAnonClient();
		const tenant = await getCurrentTenant();
		// Only images this chamber's own banners reference: the proxy is no open relay.
		const banners = await listBanners(client, tenant.id);
		if (!banners.some((b) => b.image_url === url)) {
			return jsonError(403, "This image is not one of the chamber's banners");
		}
		const chamber = await getCachedChamberConfig(client, tenant.id);
		const cache = {
			'Cache-Control': 'public, max-age=86400',
			'Netlify-CDN-Cache-Control':
				'public, durable, s-maxage=2592000, stale-while-revalidate=604800',
			'Netlify-Cache-Tag': [tenant.slug, `${tenant.slug}:banners`].join(','),
			'Netlify-Vary': 'query=url',
		};
		try {
			const source = bannerSource(url, chamber.urls.eventRegistrationBaseUrl);
			// The site's own file is served by the site: no request from here to ourselves.
			if (source.kind === 'site') {
				return new Response(null, { status: 302, headers: { Location: source.path, ...cache } });
			}
			const { bytes, mime } = await loadBannerImage(source.url, fetcher);
			const headers: Record<string, string> = {
				'Content-Type': mime,
				'Content-Length': String(bytes.byteLength),
				'X-Content-Type-Options': 'nosniff',
				...cache,
			};
			// An SVG opened on its own must not run scripts on our origin.
			if (mime === 'image/svg+xml') {
				headers['Content-Security-Policy'] =
					"default-src 'none'; style-src 'unsafe-inline'; sandbox";
			}
			return new Response(new Uint8Array(bytes), { status: 200, headers });
		} catch (error) {
			// One answer whatever happened (refused address, 404, timeout, not an image, too large),
			// so the proxy cannot be used to probe hosts and ports; the reason goes to the log.
			console.warn(`[banner-image] ${url}: ${failureReason(error)}`);
			return jsonError(502, BANNER_FAILED);
		}
	});
}

export default bannerImageHandler(createPublicFetch());
