import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { listTenants } from '../../src/features/admin/users/users.server.ts';
import { handleJson } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/admin/tenants' };

/** The chambers 'Create User' offers: `{tenants: [{id, name, tenant_key}]}`, super_admin only. */
export default handleJson('admin-tenants', ['GET'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.superAdmins });
	return Response.json(
		{ tenants: await listTenants(session.client) },
		{ headers: { 'Cache-Control': 'no-store' } },
	);
});
