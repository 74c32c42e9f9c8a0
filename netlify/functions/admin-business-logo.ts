import type { Config, Context } from '@netlify/functions';
import { prepareLogo } from '../../src/features/admin/logos/logos.server.ts';
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE } from '../../src/features/admin/logos/logos.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	chamberOf,
	getMember,
	storeBusinessLogo,
} from '../../src/features/members/members.server.ts';
import { memberListQuerySchema } from '../../src/features/members/members.ts';
import { BadRequest, handleJson, HttpError, parseQuery } from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/admin/businesses/:id/logo' };

/** A multipart body a little over the file limit is still read, so its answer can name the size. */
const MAX_BODY_BYTES = LOGO_MAX_BYTES + 256 * 1024;

/**
 * A business's logo (the Members tab; bearer, staff who may change the logo, editors included):
 * multipart `logo`, `?chamber=`. Checked as the chamber's logos are (at most 5 MB; PNG, SVG, JPEG
 * or WebP read from the bytes; SVGs cleaned), stored in the public `logos` bucket under the
 * chamber's folder. Answers `{url}`: the listing's logo_url is set by saving it (PATCH), with
 * the version check. Errors `{error}`: 400, 403, 404, 413.
 */
export default handleJson('admin-business-logo', ['POST'], async (req, context: Context) => {
	const session = await authenticate(req);
	if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
		throw new HttpError(413, LOGO_TOO_LARGE);
	}
	const { chamber } = parseQuery(memberListQuerySchema.pick({ chamber: true }), req);
	const tenant = await chamberOf(session, chamber);
	const business = await getMember(session.client, tenant.id, context.params.id);
	let form: FormData;
	try {
		form = await req.formData();
	} catch {
		throw new BadRequest('Expected a multipart form with the logo');
	}
	const file = form.get('logo');
	if (!(file instanceof File) || file.size === 0) throw new BadRequest('Please choose a file');
	if (file.size > LOGO_MAX_BYTES) throw new HttpError(413, LOGO_TOO_LARGE);
	const logo = await prepareLogo('standard', new Uint8Array(await file.arrayBuffer()));
	const url = await storeBusinessLogo(
		session.client,
		getServiceClient(),
		tenant.id,
		business.business.id,
		logo,
	);
	return Response.json({ url }, { headers: { 'Cache-Control': 'no-store' } });
});
