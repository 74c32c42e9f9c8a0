import type { Config } from '@netlify/functions';
import {
	authenticateMember,
	getMemberListing,
	memberWaiting,
	submitMemberChanges,
} from '../../src/features/self-service/self-service.server.ts';
import {
	memberQuerySchema,
	memberSubmitSchema,
} from '../../src/features/self-service/self-service.ts';
import { handleJson, parseJsonBody, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/members/listing' };

const noStore = { 'Cache-Control': 'no-store' };

/**
 * A member's own listing (bearer: the member's session from the e-mailed link):
 * GET `?business=` → the fields the chamber lets it change, version, settings, categories to
 * choose from, its latest request, and `waiting` (`{dueAt}`: when its saved live changes are on
 * the site at the latest, or null); POST `{version, changes}` → `{live, version, submission,
 * published, publishAfter, liveBy}`: live fields saved (on the site at once, or by `liveBy` with
 * the chamber's publish window), the rest its one pending request.
 * Errors `{error}`: 400 naming the field, 401, 403 (not this business's member, or a field the
 * chamber keeps), 404, 409 with the conflicts.
 */
export default handleJson('member-listing', ['GET', 'POST'], async (req) => {
	const session = await authenticateMember(req);
	const { business } = parseQuery(memberQuerySchema, req);
	if (req.method === 'GET') {
		const [listing, waiting] = await Promise.all([
			getMemberListing(session, business),
			memberWaiting(session, business),
		]);
		return Response.json({ ...listing, waiting }, { headers: noStore });
	}
	const body = await parseJsonBody(memberSubmitSchema, req);
	return Response.json(await submitMemberChanges(session, business, body), { headers: noStore });
});
