import type { Config, Context } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { chamberOf } from '../../src/features/members/members.server.ts';
import { memberListQuerySchema } from '../../src/features/members/members.ts';
import {
	approveMemberRequest,
	returnMemberRequest,
} from '../../src/features/self-service/decisions.server.ts';
import {
	countMemberRequests,
	listMemberRequests,
} from '../../src/features/self-service/self-service.server.ts';
import {
	approveBodySchema,
	returnBodySchema,
} from '../../src/features/self-service/self-service.ts';
import { handleJson, jsonError, parseJsonBody, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = {
	path: [
		'/api/admin/member-requests',
		'/api/admin/member-requests/:id/approve',
		'/api/admin/member-requests/:id/return',
	],
};

const noStore = { 'Cache-Control': 'no-store' };

const querySchema = memberListQuerySchema.pick({ chamber: true });

/**
 * The Requests tab (bearer; admins and super_admins, editors when the chamber lets them; the
 * database decides): GET → `{requests, count}` (`?count=1`: `{count}` only, for the badge);
 * POST …/{id}/approve `{version, changes?}` → `{id, business, version, memberEmail}`
 * (applied as the staff member's edit, published, the member e-mailed); POST …/{id}/return
 * `{note}` → `{id, business, memberEmail}`. Errors `{error}`: 400, 401, 403, 404, 409 (decided
 * already, or `{conflicts, version}` when someone changed one of the fields since).
 */
export default handleJson(
	'admin-member-requests',
	['GET', 'POST'],
	async (req, context: Context) => {
		const session = await authenticate(req);
		const { chamber } = parseQuery(querySchema, req);
		const tenant = await chamberOf(session, chamber);
		const last = new URL(req.url).pathname.replace(/\/+$/, '').split('/').at(-1);
		const site = process.env.SITE_URL || process.env.URL || new URL(req.url).origin;
		const later = (work: Promise<unknown>) => context.waitUntil(work);
		if (context.params.id === undefined) {
			if (req.method !== 'GET')
				return jsonError(405, `Method ${req.method} not allowed`, { Allow: 'GET' });
			if (new URL(req.url).searchParams.get('count') === '1') {
				return Response.json(
					{ count: await countMemberRequests(session, tenant) },
					{ headers: noStore },
				);
			}
			return Response.json(await listMemberRequests(session, tenant), { headers: noStore });
		}
		if (req.method !== 'POST')
			return jsonError(405, `Method ${req.method} not allowed`, { Allow: 'POST' });
		if (last === 'approve') {
			const body = await parseJsonBody(approveBodySchema, req);
			return Response.json(
				await approveMemberRequest(session, tenant, context.params.id, body, site, later),
				{ headers: noStore },
			);
		}
		const { note } = await parseJsonBody(returnBodySchema, req);
		return Response.json(
			await returnMemberRequest(session, tenant, context.params.id, note, site, later),
			{ headers: noStore },
		);
	},
);
