import type { Config, Context } from '@netlify/functions';
import { profilePath } from '../../src/features/business/business.ts';
import { ERROR_PATH, NOT_FOUND_PATH } from '../../src/features/business/business.server.ts';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { getBusiness } from '../../src/features/directory/directory.server.ts';
import { handle } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * The deprecated /business/{name} route (spec 01 §2), and /business/{id} without a slug: the
 * first business whose name starts with the text (or with that internal or weblink id) is
 * answered with a 301 to its canonical profile; otherwise the 'Business Not Found' view, 404.
 */
export const config: Config = { path: '/business/:name', method: ['GET'] };

/** The pre-rendered view, fetched from the site itself, with the given status. */
async function staticView(req: Request, path: string, status: number): Promise<Response> {
	const page = await fetch(new URL(path, req.url)).catch(() => null);
	const html = page?.ok ? await page.text() : '<!doctype html><title>Business Not Found</title>';
	return new Response(html, {
		status,
		headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
	});
}

function decode(segment: string): string {
	try {
		return decodeURIComponent(segment).trim();
	} catch {
		return '';
	}
}

export default handle('business-legacy', ['GET'], async (req: Request, context: Context) => {
	const name = decode(context.params.name ?? '');
	if (name === '') return staticView(req, NOT_FOUND_PATH, 404);
	let target: string | null;
	try {
		const client = getAnonClient();
		const tenant = await getCurrentTenant();
		const chamber = await getCachedChamberConfig(client, tenant.id);
		const business = await getBusiness(client, tenant.id, name, chamber);
		target = business && profilePath(business, new URL(req.url).searchParams.get('category') ?? '');
	} catch (error) {
		console.error('[business-legacy]', error);
		return staticView(req, ERROR_PATH, 500);
	}
	if (!target) return staticView(req, NOT_FOUND_PATH, 404);
	return new Response(null, {
		status: 301,
		headers: { Location: target, 'Cache-Control': 'public, max-age=300' },
	});
});
