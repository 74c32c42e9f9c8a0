import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { listPublishHistory } from '../../src/features/publish/publish.server.ts';
import { handleJson } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish-history' };

/**
 * The last 20 published configurations, each with what it changed (field by field, and who
 * according to the audit log): admins and super_admins.
 */
export default handleJson('publish-history', ['GET'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const tenant = await getCurrentTenant();
	const entries = await listPublishHistory(session.client, tenant.id);
	return Response.json({ entries }, { headers: { 'Cache-Control': 'no-store' } });
});
