import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { handle, HttpError } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/auth/supabase-verify' };

const headers = { 'Cache-Control': 'no-store' };

/**
 * The panel's session check: `{authenticated: true, user}` for a valid session of an
 * admin-portal user of any chamber (the panel itself says 'Access Denied' for another chamber's),
 * else 401 `{authenticated: false, error}`.
 */
export default handle('auth-supabase-verify', ['GET'], async (req) => {
	try {
		const { user } = await authenticate(req, { deploymentTenant: false });
		return Response.json({ authenticated: true, user }, { headers });
	} catch (error) {
		if (!(error instanceof HttpError)) throw error;
		return Response.json({ authenticated: false, error: error.message }, { status: 401, headers });
	}
});
