import type { Config, Context } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	businessImpact,
	chamberOf,
	getMember,
	getMemberForStaff,
	isOnSite,
	memberHistory,
	publishMemberChange,
	removeMember,
	restoreMember,
	saveMember,
	takeSystemValue,
} from '../../src/features/members/members.server.ts';
import {
	BUSINESS_FIELDS,
	describeIssues,
	memberListQuerySchema,
	memberPatchSchema,
	parseBusinessChanges,
	type BusinessField,
} from '../../src/features/members/members.ts';
import { outcomeAnswer } from '../../src/features/publish/policy.server.ts';
import {
	BadRequest,
	handleJson,
	HttpError,
	jsonError,
	parseJsonBody,
	parseQuery,
} from '../../src/lib/http.server.ts';

export const config: Config = {
	// Named sub-addresses, not a placeholder: …/{id}/logo is another function's.
	path: [
		'/api/admin/businesses/:id',
		'/api/admin/businesses/:id/restore',
		'/api/admin/businesses/:id/history',
		'/api/admin/businesses/:id/overrides/:field',
	],
};

const noStore = { 'Cache-Control': 'no-store' };

/** The methods of each address this function answers. */
const ROUTES: Record<string, readonly string[]> = {
	item: ['GET', 'PATCH', 'DELETE'],
	restore: ['POST'],
	history: ['GET'],
	override: ['DELETE'],
};

function route(req: Request, context: Context): keyof typeof ROUTES | null {
	if (context.params.field !== undefined) return 'override';
	const last = new URL(req.url).pathname.replace(/\/+$/, '').split('/').at(-1);
	if (last === 'restore' || last === 'history') return last;
	return last === context.params.id ? 'item' : null;
}

/**
 * One listing of the Members tab (bearer; `?chamber=` for a super_admin's other chamber):
 * - GET `/{id}` → the business in the tenant file's shape with `version`, `status` and
 *   `overrides`; PATCH `/{id}` `{version, changes}` → `{id, version, publish}`, or 409 with the
 *   fields someone else changed since `version` (their values, who, when); DELETE `/{id}` →
 *   removed, restorable for 30 days (admins);
 * - POST `/{id}/restore` (admins); GET `/{id}/history` (admins: the audit log);
 * - DELETE `/{id}/overrides/{field}`: the membership system's value of a field changed here
 *   back, and the field follows it again.
 * Another chamber's business is a 404, a role that may not a 403, a bad value a 400 naming it.
 */
export default handleJson(
	'admin-business',
	['GET', 'PATCH', 'DELETE', 'POST'],
	async (req, context) => {
		const which = route(req, context);
		if (!which) throw new HttpError(404, 'Not found');
		const methods = ROUTES[which]!;
		if (!methods.includes(req.method)) {
			return jsonError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') });
		}
		// Restoring and reading the history are the admins'; the rest is for all staff (an editor's
		// changes are limited field by field in the database).
		const adminsOnly = which === 'restore' || which === 'history';
		const session = await authenticate(req, {
			roles: adminsOnly ? ROLE_SETS.admins : ROLE_SETS.staff,
		});
		const { chamber } = parseQuery(memberListQuerySchema.pick({ chamber: true }), req);
		const tenant = await chamberOf(session, chamber);
		const id = context.params.id;
		const client = session.client;

		if (which === 'history') {
			await getMember(client, tenant.id, id);
			return Response.json(
				{ history: await memberHistory(client, tenant.id, id) },
				{
					headers: noStore,
				},
			);
		}
		if (which === 'item' && req.method === 'GET') {
			return Response.json(await getMemberForStaff(client, tenant.id, id), { headers: noStore });
		}

		let saved;
		let reason: string;
		// The fields a save changed, for what it alters; every page for the others.
		let fields: string[] | null = null;
		let publishedBefore = true;
		if (which === 'item' && req.method === 'PATCH') {
			const body = await parseJsonBody(memberPatchSchema, req);
			const parsed = parseBusinessChanges(body.changes);
			if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
			// Read as the server, after the staff member's own read of it (getMember) is allowed.
			publishedBefore = id ? await isOnSite(id).catch(() => true) : true;
			saved = await saveMember(client, tenant.id, id, body.version, parsed.changes);
			if (saved.version === body.version) {
				return Response.json({ ...saved, publish: null, waiting: null }, { headers: noStore });
			}
			fields = Object.keys(parsed.changes);
			reason = `Member changed: ${fields.join(', ')}`;
		} else if (which === 'item') {
			saved = await removeMember(client, tenant.id, id);
			reason = 'Member removed';
		} else if (which === 'restore') {
			saved = await restoreMember(client, tenant.id, id);
			reason = 'Member restored';
		} else {
			const field = context.params.field as BusinessField;
			if (!(BUSINESS_FIELDS as readonly string[]).includes(field)) {
				throw new BadRequest(`Not a field of a business: ${field}`);
			}
			publishedBefore = id ? await isOnSite(id).catch(() => true) : true;
			saved = await takeSystemValue(client, tenant.id, id, field);
			fields = [field];
			reason = `Member's ${field} back to the membership system's`;
		}
		const impact = fields
			? await businessImpact(tenant.id, saved.id, fields, publishedBefore)
			: 'site';
		const outcome = await publishMemberChange(client, tenant, saved.id, reason, { impact });
		return Response.json({ ...saved, ...outcomeAnswer(outcome) }, { headers: noStore });
	},
);
