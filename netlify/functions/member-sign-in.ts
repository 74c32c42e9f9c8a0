import type { Config } from '@netlify/functions';
import { requestSignInLink } from '../../src/features/self-service/self-service.server.ts';
import { SIGN_IN_SENT, signInBodySchema } from '../../src/features/self-service/self-service.ts';
import { answeredFirst, handleJson, parseJsonBody } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/members/sign-in' };

/**
 * 'Update this listing': e-mails a sign-in link to the address the chamber has on file for the
 * business `{business}` (never shown, never typed). The same answer, in the same time, whatever
 * the business: everything but the limits happens after the answer. 429 past the visitor's
 * address's limit.
 */
export default handleJson('member-sign-in', ['POST'], async (req, context) => {
	const { business } = await parseJsonBody(signInBodySchema, req);
	await requestSignInLink(business, answeredFirst(req, context));
	return Response.json({ message: SIGN_IN_SENT }, { headers: { 'Cache-Control': 'no-store' } });
});
