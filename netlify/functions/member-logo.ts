import type { Config } from '@netlify/functions';
import { prepareLogo } from '../../src/features/admin/logos/logos.server.ts';
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE } from '../../src/features/admin/logos/logos.ts';
import { authenticateMember } from '../../src/features/self-service/member-session.server.ts';
import { storeMemberLogo } from '../../src/features/self-service/self-service.server.ts';
import { memberQuerySchema } from '../../src/features/self-service/self-service.ts';
import { BadRequest, handleJson, HttpError, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/members/logo' };

/** A multipart body a little over the file limit is still read, so its answer can name the size. */
const MAX_BODY_BYTES = LOGO_MAX_BYTES + 256 * 1024;

/**
 * A member's new logo (bearer: the member's session), multipart `logo`, `?business=`: the
 * Members tab's checks (at most 5 MB; PNG, SVG, JPEG or WebP read from the bytes; SVGs cleaned).
 * Answers `{url}`, which the member submits as logo_url. Errors `{error}`: 400, 401, 403, 404, 413.
 */
export default handleJson('member-logo', ['POST'], async (req) => {
	const session = await authenticateMember(req);
	if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
		throw new HttpError(413, LOGO_TOO_LARGE);
	}
	const { business } = parseQuery(memberQuerySchema, req);
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
	const url = await storeMemberLogo(session, business, logo);
	return Response.json({ url }, { headers: { 'Cache-Control': 'no-store' } });
});
