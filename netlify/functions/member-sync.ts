import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { importRpcError } from '../../src/features/members/import/api.server.ts';
import { triggerBackground } from '../../src/features/members/import/trigger.server.ts';
import { readSyncConfig, SYNC_SCHEDULE } from '../../src/features/members/sync/atlas.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { handleJson, HttpError, parseJsonBody, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/member-sync' };

const chamberSchema = z.object({
	/** The chamber's slug. */
	chamber: z.string({ error: 'chamber is required' }).trim().min(1, 'chamber is required'),
});

/**
 * The sync from the membership system. GET `?chamber=` answers whether it is set up here
 * (`{configured, schedule, missing}`; never the credentials); POST `{chamber}` is "Sync now": a
 * sync as the user, previewed in the panel like a file, applied when the person says so.
 * Bearer, admin or super_admin. The scheduled sync is member-sync-scheduled.
 */
export default handleJson('member-sync', ['GET', 'POST'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const headers = { 'Cache-Control': 'no-store' };
	const sync = readSyncConfig();
	if (req.method === 'GET') {
		parseQuery(chamberSchema, req);
		return Response.json(
			{ configured: sync !== null, schedule: SYNC_SCHEDULE, missing: sync?.missing ?? null },
			{ headers },
		);
	}
	const body = await parseJsonBody(chamberSchema, req);
	if (!sync)
		throw new HttpError(409, 'No membership system is set up (ATLAS_MEMBERS_URL is not set).');
	const tenant = await getTenantBySlugOrNull(session.client, body.chamber);
	if (!tenant) throw new HttpError(404, `No chamber "${body.chamber}"`);
	const { data, error } = await session.client.rpc('create_member_import', {
		p_tenant_id: tenant.id,
		p_kind: 'sync',
		p_source: 'MemberClicks Atlas',
	});
	if (error) throw importRpcError(error);
	const id = data as string;
	await triggerBackground(new URL(req.url).origin, id);
	return Response.json({ id }, { status: 202, headers });
});
