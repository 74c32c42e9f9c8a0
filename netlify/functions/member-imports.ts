import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { importRpcError } from '../../src/features/members/import/api.server.ts';
import { startImportSchema } from '../../src/features/members/import/import.ts';
import { triggerBackground } from '../../src/features/members/import/trigger.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { handleJson, HttpError, parseJsonBody } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/member-imports' };

/**
 * Starts a member import: the browser uploaded the file to the private imports bucket (with the
 * user's token, into the chamber's folder), this queues the import as the user (the database
 * checks the role) and hands it to the background function. Body `{chamber, path, fileName?}`;
 * bearer, admin or super_admin. Answers 202 `{id}`; the panel follows the import in the database.
 */
export default handleJson('member-imports', ['POST'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const body = await parseJsonBody(startImportSchema, req);
	const tenant = await getTenantBySlugOrNull(session.client, body.chamber);
	if (!tenant) throw new HttpError(404, `No chamber "${body.chamber}"`);
	const { data, error } = await session.client.rpc('create_member_import', {
		p_tenant_id: tenant.id,
		p_kind: 'file',
		p_source: body.fileName ?? body.path.split('/').pop() ?? 'members',
		p_storage_path: body.path,
	});
	if (error) throw importRpcError(error);
	const id = data as string;
	await triggerBackground(new URL(req.url).origin, id);
	return Response.json({ id }, { status: 202, headers: { 'Cache-Control': 'no-store' } });
});
