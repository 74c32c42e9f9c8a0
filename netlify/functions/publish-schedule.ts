import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { cancelQuerySchema, scheduleBodySchema } from '../../src/features/publish/schedule.ts';
import {
	cancelScheduled,
	listScheduled,
	scheduleSave,
} from '../../src/features/publish/schedule.server.ts';
import { handleJson, parseJsonBody, parseQuery } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish-schedule' };

const noStore = { 'Cache-Control': 'no-store' };

/**
 * Scheduled publishing of this deployment's chamber, for its staff:
 * - GET: `{scheduled}`, what waits (soonest first) and the 20 newest that went live, failed or
 *   were cancelled;
 * - POST `{at, changes}`: 'Publish at…' on a save: `at` is a date and time on the chamber's clock
 *   (a 5-minute mark), `changes` the update-config bodies of the save, each with its version →
 *   201 `{scheduled}`; 400 naming the change, 403, 409 with the conflicts;
 * - DELETE `?id=`: Cancel → `{scheduled}`; 403 (not its author nor an admin), 409 (gone live).
 */
export default handleJson('publish-schedule', ['GET', 'POST', 'DELETE'], async (req) => {
	const session = await authenticate(req);
	const tenant = await getCurrentTenant();
	if (req.method === 'GET') {
		const scheduled = await listScheduled(session.client, tenant.id);
		return Response.json({ scheduled }, { headers: noStore });
	}
	if (req.method === 'DELETE') {
		const { id } = parseQuery(cancelQuerySchema, req);
		return Response.json(
			{ scheduled: await cancelScheduled(session.client, id) },
			{ headers: noStore },
		);
	}
	const body = await parseJsonBody(scheduleBodySchema, req);
	const scheduled = await scheduleSave(session, tenant, body);
	return Response.json({ scheduled }, { status: 201, headers: noStore });
});
