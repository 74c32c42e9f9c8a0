import type { Config } from '@netlify/functions';
import { readLogoForm, uploadedLogo } from '../../src/features/admin/logos/logos.server.ts';
import { authenticateMember } from '../../src/features/self-service/member-session.server.ts';
import { storeMemberLogo } from '../../src/features/self-service/self-service.server.ts';
import { memberQuerySchema } from '../../src/features/self-service/self-service.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/members/logo' };

/**
 * A member's new logo (bearer: the member's session), multipart `logo`, `?business=`: the
 * Members tab's checks (at most 5 MB; PNG, SVG, JPEG or WebP read from the bytes; SVGs cleaned).
 * Answers `{url}`, which the member submits as logo_url. Errors `{error}`: 400, 401, 403, 404, 413.
 */
export default handleJson('member-logo', ['POST'], async (req) => {
	const session = await authenticateMember(req);
	const { business } = parseQuery(memberQuerySchema, req);
	const form = await readLogoForm(req, 'the logo');
	const logo = await uploadedLogo(form, 'standard');
	const url = await storeMemberLogo(session, business, logo);
	return Response.json({ url }, { headers: { 'Cache-Control': 'no-store' } });
});
