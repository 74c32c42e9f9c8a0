import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { restoreBodySchema } from '../../src/features/publish/publish.ts';
import { restorePublishedConfig } from '../../src/features/publish/publish.server.ts';
import { scheduleRestore } from '../../src/features/publish/schedule.server.ts';
import { handleJson, parseJsonBody } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish-restore' };

/**
 * 'Restore' of a kept configuration (admins and super_admins): written back as a save with the
 * caller's token, so the database's role checks apply, then published. `{publishId}` → 202
 * `{publish, created}`; with `at` (a date and time on the chamber's clock) it is scheduled
 * instead → 201 `{scheduled}`.
 */
export default handleJson('publish-restore', ['POST'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const { publishId, at } = await parseJsonBody(restoreBodySchema, req);
	const tenant = await getCurrentTenant();
	if (at !== undefined) {
		const scheduled = await scheduleRestore(session, tenant, publishId, at);
		return Response.json({ scheduled }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
	}
	const result = await restorePublishedConfig(session, tenant.id, publishId);
	return Response.json(result, { status: 202, headers: { 'Cache-Control': 'no-store' } });
});
