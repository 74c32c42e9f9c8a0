import type { Config } from '@netlify/functions';
import { forgotPasswordBodySchema } from '../../src/features/auth/auth.ts';
import { sendPasswordReset } from '../../src/features/auth/auth.server.ts';
import { answeredFirst, handleJson, parseJsonBody } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/auth/forgot-password' };

/**
 * 'Forgot password?': asks the identity service to e-mail a reset link to /reset-password. The
 * same answer, in the same time, for every address (none is revealed as known or unknown, or as
 * rate-limited): the identity service is asked after the answer.
 */
export default handleJson('auth-forgot-password', ['POST'], async (req, context) => {
	const { email } = await parseJsonBody(forgotPasswordBodySchema, req);
	await sendPasswordReset(email, answeredFirst(req, context));
	return Response.json({ success: true }, { headers: { 'Cache-Control': 'no-store' } });
});
