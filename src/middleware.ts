import { defineMiddleware } from 'astro:middleware';
import type { ChamberConfig } from './features/config/config.ts';
import { getCachedChamberConfig } from './features/config/config.server.ts';
import { mapTiles, tileSource } from './features/geo/tiles.ts';
import { getSite } from './features/site/site.server.ts';
import { inlineScriptHashes, withCspMeta } from './lib/page-csp.ts';
import {
	applySecurityHeaders,
	buildCsp,
	pageKind,
	type CspOptions,
} from './lib/security-headers.ts';
import { getAnonClient } from './lib/supabase.server.ts';
import { getCurrentTenant } from './lib/tenant.server.ts';

/**
 * Every page's Content-Security-Policy, from the HTML it actually renders (src/lib/security-headers.ts):
 * built pages get it as a meta tag (their headers come from `_headers`), pages rendered on demand
 * as a header with the other security headers, which Netlify does not add to a function's answer.
 */

const MAP_PAGES = new Set(['/search', '/chamber-config-v2']);

async function chamberConfig(prerendered: boolean): Promise<ChamberConfig | null> {
	try {
		if (prerendered) return (await getSite()).config;
		const tenant = await getCurrentTenant();
		return await getCachedChamberConfig(getAnonClient(), tenant.id);
	} catch {
		// The page shows its own configuration error; its policy is then the tightest one.
		return null;
	}
}

export const onRequest = defineMiddleware(async (context, next) => {
	const response = await next();
	if (!response.headers.get('content-type')?.includes('text/html')) return response;
	const html = await response.text();
	const prerendered = context.isPrerendered;
	const config = await chamberConfig(prerendered);
	const options: Omit<CspOptions, 'delivery'> = {
		kind: pageKind(context.url.pathname),
		scriptHashes: inlineScriptHashes(html),
		supabaseUrl: process.env.SUPABASE_URL,
		recaptcha: Boolean(config?.services.recaptchaSiteKey),
		analytics: Boolean(config?.services.googleAnalyticsId),
		// The pages with a map: the search page and the panel (the Members tab's pin).
		tileSource:
			config && MAP_PAGES.has(context.url.pathname.replace(/\/+$/, ''))
				? tileSource(mapTiles(config, process.env).url)
				: null,
	};
	const headers = new Headers(response.headers);
	headers.delete('content-length');
	if (prerendered) {
		return new Response(withCspMeta(html, buildCsp({ ...options, delivery: 'meta' })), {
			status: response.status,
			headers,
		});
	}
	applySecurityHeaders(headers, buildCsp({ ...options, delivery: 'header' }));
	return new Response(html, { status: response.status, statusText: response.statusText, headers });
});
