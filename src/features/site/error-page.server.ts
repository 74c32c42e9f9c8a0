import type { ChamberConfig } from '../config/config.ts';
import { getCachedChamberConfig, lastReadChamberConfig } from '../config/config.server.ts';
import { PLACEHOLDER_CONFIG } from '../config/placeholder.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { logError, newErrorId } from './errors.ts';

/**
 * What the fallback error page (src/pages/500.astro, rendered on demand) needs: an id for the
 * failure, logged with it in one line, and a configuration for the site's header and footer.
 */

/**
 * The chamber's configuration as the page would read it; if that is what fails (the database is
 * down, the row no longer validates), the last one this instance read, else the placeholder: the
 * error page itself must not fail.
 */
export async function errorPageConfig(): Promise<ChamberConfig> {
	let tenantId: string | undefined;
	try {
		const client = getAnonClient();
		const tenant = await getCurrentTenant(client);
		tenantId = tenant.id;
		return await getCachedChamberConfig(client, tenant.id);
	} catch {
		return (tenantId && lastReadChamberConfig(tenantId)) || PLACEHOLDER_CONFIG;
	}
}

/**
 * A new error id, logged as `[error {id}] {METHOD} {path} failed:` followed by the error, so the
 * id the visitor quotes finds the failure in the function's log. Astro passes the page's error to
 * the 500 page; null or undefined when a page answered 500 without throwing.
 */
export function reportPageError(request: Request, error: unknown): string {
	const errorId = newErrorId();
	const { pathname } = new URL(request.url);
	logError(
		errorId,
		`${request.method} ${pathname} failed:`,
		error ?? 'the page answered 500 without an error',
	);
	return errorId;
}
