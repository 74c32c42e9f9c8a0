import type { Config } from '@netlify/functions';
import { loginBodySchema } from '../../src/features/auth/auth.ts';
import { signIn } from '../../src/features/auth/auth.server.ts';
import { clientIp, handleJson, parseJsonBody } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/auth/supabase-login' };

/** Sign-in of the admin portal: `{session, user}`, or `{error}` with 400/401/403/429. */
export default handleJson('auth-supabase-login', ['POST'], async (req, context) => {
	const credentials = await parseJsonBody(loginBodySchema, req);
	const result = await signIn(credentials, clientIp(req, context));
	return Response.json(result, { headers: { 'Cache-Control': 'no-store' } });
});
