import type { Config, Context } from '@netlify/functions';
import { readLogoForm, uploadedLogo } from '../../src/features/admin/logos/logos.server.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	chamberOf,
	getMember,
	storeBusinessLogo,
} from '../../src/features/members/members.server.ts';
import { memberListQuerySchema } from '../../src/features/members/members.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/admin/businesses/:id/logo' };

/**
 * A business's logo (the Members tab; bearer, staff who may change the logo, editors included):
 * multipart `logo`, `?chamber=`. Checked as the chamber's logos are (at most 5 MB; PNG, SVG, JPEG
 * or WebP read from the bytes; SVGs cleaned), stored in the public `logos` bucket under the
 * chamber's folder. Answers `{url}`: the listing's logo_url is set by saving it (PATCH), with
 * the version check. Errors `{error}`: 400, 403, 404, 413.
 */
export default handleJson('admin-business-logo', ['POST'], async (req, context: Context) => {
	const session = await authenticate(req);
	const { chamber } = parseQuery(memberListQuerySchema.pick({ chamber: true }), req);
	const tenant = await chamberOf(session, chamber);
	const business = await getMember(session.client, tenant.id, context.params.id);
	const form = await readLogoForm(req, 'the logo');
	const logo = await uploadedLogo(form, 'standard');
	const url = await storeBusinessLogo(
		session.client,
		getServiceClient(),
		tenant.id,
		business.business.id,
		logo,
	);
	return Response.json({ url }, { headers: { 'Cache-Control': 'no-store' } });
});
