import type { Config, Context } from '@netlify/functions';
import { profilePath } from '../../src/features/business/business.ts';
import {
	ERROR_PATH,
	GONE_PATH,
	isBusinessGone,
	NOT_FOUND_PATH,
	onDemandProfilePath,
	profileCacheTags,
} from '../../src/features/business/business.server.ts';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { getBusiness } from '../../src/features/directory/directory.server.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { cacheHeaders, handle } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every /business/ address that is not a pre-rendered profile page:
 * - the deprecated /business/{name} route, and /business/{id} without a slug: the
 *   first business whose name starts with the text (or with that internal or weblink id);
 * - /business/{id or weblink id}/{anything}: that business, whatever the slug says;
 * each answered with a 301 to its canonical profile; an id of a business that left the site
 * (unpublished or removed by the chamber) the 'Business No Longer Listed' view, 410 Gone;
 * otherwise the 'Business Not Found' view, 404;
 * - the canonical /business/{id}/{slug} itself where no pre-rendered file answers it (a chamber
 *   above PRERENDERED_PROFILES_MAX, or a business published since the last build): the profile
 *   rendered on demand by the site (onDemandProfilePath), with its cache headers, so the CDN
 *   keeps it.
 *
 * One function rather than a `_redirects` rule per business: on Netlify a function's path is
 * matched before `_redirects`, and the on-demand pages' function (Astro's, `/*`) claims every
 * path without a file, so such rules would never be reached. `preferStatic` lets the canonical
 * pages themselves be served as files.
 */
export const config: Config = {
	path: ['/business/:name', '/business/:name/*'],
	preferStatic: true,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The pre-rendered view, fetched from the site itself, with the given status. */
async function staticView(
	req: Request,
	path: string,
	status: number,
	headers: Record<string, string> = { 'Cache-Control': 'no-store' },
): Promise<Response> {
	const page = await fetch(new URL(path, req.url)).catch(() => null);
	const html = page?.ok ? await page.text() : '<!doctype html><title>Business Not Found</title>';
	return new Response(html, {
		status,
		headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers },
	});
}

/** Hop-by-hop and body-framing headers of the fetched page, which this answer does not keep. */
const NOT_PASSED_ON = ['connection', 'content-encoding', 'content-length', 'transfer-encoding'];

/**
 * The business's profile rendered on demand, fetched from the site's own on-demand route and
 * answered with its status and headers (cache headers and tags, Content-Security-Policy).
 */
async function onDemandProfile(req: Request, id: string): Promise<Response> {
	const page = await fetch(new URL(onDemandProfilePath(id), req.url)).catch((error: unknown) => {
		console.error('[business-legacy]', error);
		return null;
	});
	if (page?.status === 404) return staticView(req, NOT_FOUND_PATH, 404);
	if (page?.status !== 200) return staticView(req, ERROR_PATH, 500);
	const headers = new Headers(page.headers);
	for (const name of NOT_PASSED_ON) headers.delete(name);
	return new Response(page.body, { status: 200, headers });
}

function decode(segment: string): string {
	try {
		return decodeURIComponent(segment).trim();
	} catch {
		return '';
	}
}

export default handle('business-legacy', ['GET'], async (req: Request, context: Context) => {
	const url = new URL(req.url);
	const name = decode(context.params.name ?? '');
	// Below /business/{key}/ only an id names a business; a name is looked up on its own only.
	const byIdOnly = url.pathname.split('/').length > 3;
	if (name === '' || (byIdOnly && !UUID.test(name) && !/^\d+$/.test(name))) {
		return staticView(req, NOT_FOUND_PATH, 404);
	}
	let business: Business | null;
	let gone = false;
	let tenantSlug: string;
	try {
		const client = getAnonClient();
		const tenant = await getCurrentTenant();
		tenantSlug = tenant.slug;
		const chamber = await getCachedChamberConfig(client, tenant.id);
		business = await getBusiness(client, tenant.id, name, chamber);
		if (!business) gone = await isBusinessGone(client, tenant.id, name);
	} catch (error) {
		console.error('[business-legacy]', error);
		return staticView(req, ERROR_PATH, 500);
	}
	if (gone) {
		// Kept by the CDN briefly: publishing the business again purges its chamber's business tag.
		return staticView(req, GONE_PATH, 410, {
			...cacheHeaders({ tags: profileCacheTags(tenantSlug), fresh: 300, stale: 0 }),
		});
	}
	if (!business) return staticView(req, NOT_FOUND_PATH, 404);
	// Its own address, and no file there: a redirect would lead back here.
	if (url.pathname.replace(/\/+$/, '') === profilePath(business)) {
		return onDemandProfile(req, business.id);
	}
	const target = profilePath(business, url.searchParams.get('category') ?? '');
	return new Response(null, {
		status: 301,
		headers: { Location: target, 'Cache-Control': 'public, max-age=300' },
	});
});
