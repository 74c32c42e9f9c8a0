import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { importRpcError, UUID } from '../../src/features/members/import/api.server.ts';
import { applyBodySchema, mappingBodySchema } from '../../src/features/members/import/import.ts';
import { triggerBackground } from '../../src/features/members/import/trigger.server.ts';
import { handleJson, HttpError, parseJsonBody } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/member-imports/:id/:action' };

/**
 * What a person does with an import, as themselves (the database checks the role and the
 * import's state): `mapping` `{mapping}` maps the headings nothing knew (saved for the chamber)
 * and reads the file again; `apply` `{missing: keep|unpublish}` applies the dry run; `discard`
 * gives it up. Bearer, admin or super_admin. Answers 202 `{id}` (mapping, apply) or 200.
 */
export default handleJson('member-import-actions', ['POST'], async (req, context) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const { id = '', action = '' } = context.params;
	if (!UUID.test(id)) throw new HttpError(404, 'No such import');
	const headers = { 'Cache-Control': 'no-store' };
	if (action === 'mapping') {
		const body = await parseJsonBody(mappingBodySchema, req);
		const { error } = await session.client.rpc('submit_member_import_mapping', {
			p_import_id: id,
			p_mapping: body.mapping,
		});
		if (error) throw importRpcError(error);
		await triggerBackground(new URL(req.url).origin, id);
		return Response.json({ id }, { status: 202, headers });
	}
	if (action === 'apply') {
		const body = await parseJsonBody(applyBodySchema, req);
		const { error } = await session.client.rpc('request_member_import_apply', {
			p_import_id: id,
			p_missing: body.missing,
		});
		if (error) throw importRpcError(error);
		await triggerBackground(new URL(req.url).origin, id);
		return Response.json({ id }, { status: 202, headers });
	}
	if (action === 'discard') {
		const { error } = await session.client.rpc('discard_member_import', { p_import_id: id });
		if (error) throw importRpcError(error);
		return Response.json({ id }, { headers });
	}
	throw new HttpError(404, `No action "${action}"`);
});
