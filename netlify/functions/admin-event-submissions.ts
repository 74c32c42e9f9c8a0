import type { Config, Context } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { publishEventChange } from '../../src/features/chamber-events/chamber-events.server.ts';
import { mailSubmitter } from '../../src/features/chamber-events/submission-mail.server.ts';
import {
	approveBodySchema,
	declineBodySchema,
	submissionListQuerySchema,
} from '../../src/features/chamber-events/submissions.ts';
import {
	listSubmissions,
	reviewSubmission,
} from '../../src/features/chamber-events/submissions.server.ts';
import { chamberOf } from '../../src/features/versioned/versioned.server.ts';
import {
	handleJson,
	HttpError,
	jsonError,
	parseJsonBody,
	parseQuery,
} from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';

export const config: Config = {
	path: ['/api/admin/event-submissions', '/api/admin/event-submissions/:id/:action'],
};

const noStore = { 'Cache-Control': 'no-store' };

/**
 * The community's submissions waiting for review (bearer; the chamber's staff, `?chamber=` for a
 * super_admin's other chamber):
 * - GET `?status=pending|approved|declined` → `{submissions, pending}`;
 * - POST `/{id}/approve` `{changes?, note?}` → `{id, status, eventId, …}`: a published community
 *   event at once (as submitted, or with staff's edits), the submitter e-mailed;
 * - POST `/{id}/decline` `{note?}`: declined, the submitter e-mailed with the note.
 * A decided submission is a 409; another chamber's or an unknown one a 404.
 */
export default handleJson(
	'admin-event-submissions',
	['GET', 'POST'],
	async (req: Request, context: Context) => {
		const { id, action } = context.params;
		const list = id === undefined;
		if (!list && action !== 'approve' && action !== 'decline') {
			throw new HttpError(404, 'Not found');
		}
		const allowed = list ? 'GET' : 'POST';
		if (req.method !== allowed) {
			return jsonError(405, `Method ${req.method} not allowed`, { Allow: allowed });
		}
		const session = await authenticate(req);
		const query = parseQuery(submissionListQuerySchema, req);
		const tenant = await chamberOf(session, query.chamber);
		if (list) {
			return Response.json(await listSubmissions(session.client, tenant.id, query.status), {
				headers: noStore,
			});
		}
		const decision =
			action === 'approve'
				? { approve: true as const, ...(await parseJsonBody(approveBodySchema, req)) }
				: { approve: false as const, ...(await parseJsonBody(declineBodySchema, req)) };
		const answer = await reviewSubmission(session, tenant, id, decision);
		if (answer.status === 'approved') await publishEventChange(tenant);
		context.waitUntil(
			mailSubmitter(
				getServiceClient(),
				tenant,
				answer,
				decision.note,
				process.env.URL || new URL(req.url).origin,
			),
		);
		return Response.json(answer, { headers: noStore });
	},
);
