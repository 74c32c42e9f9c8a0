import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	addEvent,
	listEvents,
	publishEventChange,
} from '../../src/features/chamber-events/chamber-events.server.ts';
import { eventListQuerySchema } from '../../src/features/chamber-events/chamber-events.ts';
import { chamberOf } from '../../src/features/versioned/versioned.server.ts';
import { BadRequest, handleJson, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/admin/events' };

const noStore = { 'Cache-Control': 'no-store' };

/**
 * The Events tab's list and 'Add event' (bearer; the chamber's staff, `?chamber=` for a
 * super_admin's other chamber):
 * GET `?q=&when=&type=&source=&page=&pageSize=` → `{events, total}`;
 * POST the new event's fields → 201 `{id, version}`, live at once. Errors `{error}`: 400 naming
 * the field, 403, 404.
 */
export default handleJson('admin-events', ['GET', 'POST'], async (req) => {
	const session = await authenticate(req);
	const query = parseQuery(eventListQuerySchema, req);
	const tenant = await chamberOf(session, query.chamber);
	if (req.method === 'GET') {
		return Response.json(await listEvents(session.client, tenant, query), { headers: noStore });
	}
	let body: unknown;
	try {
		body = await req.json();
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	const saved = await addEvent(session.client, tenant.id, body);
	await publishEventChange(tenant);
	return Response.json(saved, { status: 201, headers: noStore });
});
