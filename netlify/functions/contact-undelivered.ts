import type { Config } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { countUndeliveredMessages } from '../../src/features/contact/undelivered.server.ts';
import { handleJson } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/contact-undelivered' };

/**
 * The panel's count of visitors' messages not e-mailed yet (the mail server is down, or was for
 * longer than the retries last), for the staff who may read them: `{undelivered, givenUp}`.
 */
export default handleJson('contact-undelivered', ['GET'], async (req) => {
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const tenant = await getCurrentTenant();
	const count = await countUndeliveredMessages(session.client, tenant.id);
	return Response.json(count, { headers: { 'Cache-Control': 'no-store' } });
});
