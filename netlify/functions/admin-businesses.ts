import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	addMember,
	chamberOf,
	listMembers,
	isOnSite,
	publishMemberChange,
} from '../../src/features/members/members.server.ts';
import {
	describeIssues,
	memberListQuerySchema,
	parseNewBusiness,
} from '../../src/features/members/members.ts';
import { outcomeAnswer } from '../../src/features/publish/policy.server.ts';
import { BadRequest, handleJson, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/admin/businesses' };

const noStore = { 'Cache-Control': 'no-store' };

/**
 * The Members tab's list and 'Add member' (bearer; the chamber's staff, `?chamber=` for a
 * super_admin's other chamber):
 * GET `?q=&status=&level=&category=&page=&pageSize=` → `{businesses, total}`;
 * POST the new business's fields (tenant file names; `weblink_profile_id` optional) → 201
 * `{id, version, publish}` (admins). Errors `{error}`: 400 naming the field, 403, 404.
 */
export default handleJson('admin-businesses', ['GET', 'POST'], async (req) => {
	const session = await authenticate(req);
	const query = parseQuery(memberListQuerySchema, req);
	const tenant = await chamberOf(session, query.chamber);
	if (req.method === 'GET') {
		return Response.json(await listMembers(session.client, tenant.id, query), {
			headers: noStore,
		});
	}
	let body: unknown;
	try {
		body = await req.json();
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	const parsed = parseNewBusiness(body);
	if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
	const saved = await addMember(session.client, tenant.id, parsed.business);
	const name = parsed.business.values.report_name ?? '';
	// A business added unpublished shows on no page until it is published.
	const outcome = await publishMemberChange(
		session.client,
		tenant,
		saved.id,
		`Member added: ${name}`,
		{
			impact: (await isOnSite(saved.id)) ? 'site' : 'none',
		},
	);
	return Response.json({ ...saved, ...outcomeAnswer(outcome) }, { status: 201, headers: noStore });
});
