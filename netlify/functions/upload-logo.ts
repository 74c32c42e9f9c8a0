import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	readLogoForm,
	saveLogoUrl,
	storeLogo,
	uploadedLogo,
} from '../../src/features/admin/logos/logos.server.ts';
import { LOGO_TYPES } from '../../src/features/admin/logos/logos.ts';
import { outcomeAnswer, publishChange } from '../../src/features/publish/policy.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { BadRequest, handleJson, HttpError } from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/upload-logo' };

const fieldsSchema = z.object({
	/** standard, stacked or favicon. */
	logoType: z.enum(LOGO_TYPES, { error: `logoType must be one of ${LOGO_TYPES.join(', ')}` }),
	/** The chamber's slug. */
	chamber: z
		.string({ error: 'chamber is required' })
		.trim()
		.min(1, { error: 'chamber is required' }),
});

/**
 * Uploads a logo: multipart `logo` (the file), `logoType`, `chamber`; bearer, admin
 * or super_admin. The type comes from the file's bytes, SVGs are sanitised, the file goes to the
 * public `logos` bucket (written by this function alone), the configuration's logo field points at it, and
 * the site is published. Answers `{success: true, logoType, url, publish}`, errors `{error}`.
 */
export default handleJson('upload-logo', ['POST'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const form = await readLogoForm(req, 'logo, logoType and chamber');
	const parsed = fieldsSchema.safeParse({
		logoType: form.get('logoType') ?? undefined,
		chamber: form.get('chamber') ?? undefined,
	});
	if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? 'Invalid form');
	const { logoType, chamber } = parsed.data;
	const logo = await uploadedLogo(form, logoType);
	const tenant = await getTenantBySlugOrNull(session.client, chamber);
	if (!tenant) throw new HttpError(404, `No chamber "${chamber}"`);
	const url = await storeLogo(session.client, getServiceClient(), tenant.id, logoType, logo);
	await saveLogoUrl(session.client, tenant.id, logoType, url);

	const { publish, waiting } = outcomeAnswer(
		await publishChange({
			client: session.client,
			tenantId: tenant.id,
			origin: 'staff',
			reason: `logo.${logoType} uploaded`,
		}),
	);
	return Response.json(
		{ success: true, logoType, url, publish, waiting },
		{ headers: { 'Cache-Control': 'no-store' } },
	);
});
