import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	createAdminUser,
	deleteAdminUser,
	listAdminUsers,
} from '../../src/features/admin/users/users.server.ts';
import {
	createUserBodySchema,
	deleteUserBodySchema,
} from '../../src/features/admin/users/users.ts';
import { handleJson, parseJsonBody } from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/admin/users' };

const noStore = { 'Cache-Control': 'no-store' };

/**
 * The Users tab, super_admin only: GET → `{users}`; POST `{email, password, tenantId,
 * role}` → 201 `{user}`; DELETE `{userId}` → `{success: true}`. Errors `{error}`.
 */
export default handleJson('admin-users', ['GET', 'POST', 'DELETE'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.superAdmins });
	const service = getServiceClient();
	if (req.method === 'GET') {
		return Response.json(
			{ users: await listAdminUsers(session.client, service) },
			{ headers: noStore },
		);
	}
	if (req.method === 'POST') {
		const body = await parseJsonBody(createUserBodySchema, req);
		const user = await createAdminUser(session.client, service, body);
		return Response.json({ user }, { status: 201, headers: noStore });
	}
	const { userId } = await parseJsonBody(deleteUserBodySchema, req);
	await deleteAdminUser(session.client, service, session.user, userId);
	return Response.json({ success: true }, { headers: noStore });
});
