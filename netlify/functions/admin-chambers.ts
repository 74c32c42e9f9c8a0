import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { createChamber } from '../../src/features/generator/generator.server.ts';
import { handleJson, parseJsonBody } from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/admin/chambers' };

const bodySchema = z.object({
	/** The generator's tenant file; validated by the import's own parser. */
	tenantFile: z.record(z.string(), z.unknown(), {
		error: 'Expected tenantFile, a tenant file object',
	}),
});

/** 'Create chamber' of the configuration generator: super_admin only. */
export default handleJson('admin-chambers', ['POST'], async (req) => {
	await authenticate(req, { roles: ROLE_SETS.superAdmins });
	const { tenantFile } = await parseJsonBody(bodySchema, req);
	const created = await createChamber(getServiceClient(), tenantFile, new URL(req.url).origin);
	return Response.json(created, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
