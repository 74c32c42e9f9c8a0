import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { optOutOfMonthlyEmail } from '../../src/features/reports/reports.server.ts';
import { handleJson, HttpError, parseQuery } from '../../src/lib/http.server.ts';
import { getAnonClient } from '../../src/lib/supabase.server.ts';

export const config: Config = { path: '/api/stats-opt-out' };

const querySchema = z.object({
	/** The business's opt-out token, from its monthly e-mail. */
	token: z.uuid({ error: 'token must be the link of a monthly e-mail' }),
});

/**
 * The monthly statistics e-mail's List-Unsubscribe address (docs/reports.md#the-monthly-e-mail).
 * A mail client's one-click unsubscribe (RFC 8058) POSTs here from its own servers, with no
 * Origin, which the opt-out page (an Astro page, whose POSTs must come from this site) would
 * refuse; a GET, a person opening the address, is sent on to that page to confirm.
 */
export default handleJson('stats-opt-out', ['GET', 'POST'], async (req) => {
	const { token } = parseQuery(querySchema, req);
	if (req.method === 'GET') {
		return new Response(null, {
			status: 303,
			headers: {
				Location: `/privacy/statistics/opt-out?token=${token}`,
				'Cache-Control': 'no-store',
			},
		});
	}
	const business = await optOutOfMonthlyEmail(getAnonClient(), token);
	if (business === null) throw new HttpError(404, 'This link is not valid');
	return Response.json({ optedOut: true }, { headers: { 'Cache-Control': 'no-store' } });
});
