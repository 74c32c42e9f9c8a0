import type { Config, Context } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	changeDate,
	deleteEvent,
	duplicateEvent,
	eventHistory,
	getEvent,
	publishEventChange,
	saveEvent,
	takeFeedValue,
} from '../../src/features/chamber-events/chamber-events.server.ts';
import {
	datePatchSchema,
	eventListQuerySchema,
	eventPatchSchema,
} from '../../src/features/chamber-events/chamber-events.ts';
import { chamberOf } from '../../src/features/versioned/versioned.server.ts';
import {
	handleJson,
	HttpError,
	jsonError,
	parseJsonBody,
	parseQuery,
} from '../../src/lib/http.server.ts';

export const config: Config = {
	path: [
		'/api/admin/events/:id',
		'/api/admin/events/:id/duplicate',
		'/api/admin/events/:id/history',
		'/api/admin/events/:id/dates/:key',
		'/api/admin/events/:id/overrides/:field',
	],
};

const noStore = { 'Cache-Control': 'no-store' };

/** The methods of each address this function answers. */
const ROUTES: Record<string, readonly string[]> = {
	item: ['GET', 'PATCH', 'DELETE'],
	duplicate: ['POST'],
	history: ['GET'],
	date: ['PATCH'],
	override: ['DELETE'],
};

function route(req: Request, context: Context): keyof typeof ROUTES | null {
	if (context.params.field !== undefined) return 'override';
	if (context.params.key !== undefined) return 'date';
	const last = new URL(req.url).pathname.replace(/\/+$/, '').split('/').at(-1);
	if (last === 'duplicate' || last === 'history') return last;
	return last === context.params.id ? 'item' : null;
}

/**
 * One event of the Events tab (bearer; `?chamber=` for a super_admin's other chamber):
 * - GET `/{id}` → its fields, `version`, source, feed overrides and dates; PATCH `/{id}`
 *   `{version, changes}` → `{id, version}`, or 409 with the fields someone else changed since
 *   `version`; DELETE `/{id}` (admins);
 * - POST `/{id}/duplicate` → 201 a draft copy; GET `/{id}/history` (admins: the audit log);
 * - PATCH `/{id}/dates/{key}` `{version, changes, cancelled}`: one date of a series on its own;
 * - DELETE `/{id}/overrides/{field}`: a feed's event takes the feed's value of the field back.
 * Every accepted change is live at once. Another chamber's event is a 404, a role that may not
 * a 403, a bad value a 400 naming it.
 */
export default handleJson(
	'admin-event',
	['GET', 'PATCH', 'DELETE', 'POST'],
	async (req, context) => {
		const which = route(req, context);
		if (!which) throw new HttpError(404, 'Not found');
		const methods = ROUTES[which]!;
		if (!methods.includes(req.method)) {
			return jsonError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') });
		}
		const session = await authenticate(req, {
			roles: which === 'history' ? ROLE_SETS.admins : ROLE_SETS.staff,
		});
		const { chamber } = parseQuery(eventListQuerySchema.pick({ chamber: true }), req);
		const tenant = await chamberOf(session, chamber);
		const { client } = session;
		const id = context.params.id;

		if (which === 'history') {
			await getEvent(client, tenant.id, id);
			return Response.json(
				{ history: await eventHistory(client, tenant.id, id) },
				{ headers: noStore },
			);
		}
		if (which === 'item' && req.method === 'GET') {
			return Response.json(await getEvent(client, tenant.id, id), { headers: noStore });
		}

		let saved;
		if (which === 'item' && req.method === 'PATCH') {
			const body = await parseJsonBody(eventPatchSchema, req);
			saved = await saveEvent(client, tenant.id, id, body.version, body.changes);
			if (saved.version === body.version) return Response.json(saved, { headers: noStore });
		} else if (which === 'item') {
			saved = await deleteEvent(client, tenant.id, id);
		} else if (which === 'duplicate') {
			// A draft: nothing to publish.
			saved = await duplicateEvent(client, tenant.id, id);
			return Response.json(saved, { status: 201, headers: noStore });
		} else if (which === 'date') {
			const body = await parseJsonBody(datePatchSchema, req);
			saved = await changeDate(client, tenant.id, id, context.params.key, body);
		} else {
			saved = await takeFeedValue(client, tenant.id, id, context.params.field);
		}
		await publishEventChange(tenant);
		return Response.json(saved, { headers: noStore });
	},
);
