import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { handle, HttpError } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/auth/verify' };

const headers = { 'Cache-Control': 'no-store' };

/**
 * The generator's check: a valid admin-portal session of an admin or a
 * super_admin — the same session as the panel's, no separate secret. An editor is refused (403).
 */
export default handle('auth-verify', ['GET'], async (req) => {
	try {
		const { user } = await authenticate(req, {
			roles: ROLE_SETS.admins,
			deploymentTenant: false,
		});
		return Response.json({ authenticated: true, user }, { headers });
	} catch (error) {
		if (!(error instanceof HttpError)) throw error;
		const status = error.status === 403 ? 403 : 401;
		return Response.json({ authenticated: false, error: error.message }, { status, headers });
	}
});
