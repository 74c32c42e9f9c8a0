import type { PostgrestError } from '@supabase/supabase-js';
import type { SupabaseClient } from '../../lib/database.ts';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import type { AdminSession } from '../auth/auth.server.ts';
import { refusal } from '../members/refusal.server.ts';
import { authenticateMember } from '../self-service/self-service.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { recordId } from '../versioned/versioned.server.ts';
import { plainTextHtml } from './plain-html.ts';
import { SUBMISSION_LIMITS } from './submission-limits.ts';
import {
	SUBMISSION_COLUMNS,
	type ReviewAnswer,
	type SubmissionBody,
	type SubmissionRow,
	type SubmissionStatus,
} from './submissions.ts';

/**
 * The community's submissions on the server: stored by the submit function as the service role
 * (visitors hold no privilege on event_submissions; the function checks reCAPTCHA and the rate
 * limits first, the database holds the pending limits and every value's bounds), listed and
 * reviewed by the chamber's staff through their own token (review_event_submission judges the
 * role and the state).
 */

function submissionId(id: string | undefined): string {
	return recordId(id, 'No such submission in this chamber');
}

/** A refusal of the store: the pending limits (PT429) and the table's checks answered as such. */
export class SubmissionRefused extends HttpError {}

function storeRefusal(error: PostgrestError): Error {
	if (error.code === 'PT429') return new SubmissionRefused(429, error.message);
	if (error.code === '23514' || error.code === '22023' || error.code === '22007') {
		return new SubmissionRefused(400, 'Some of the event’s fields are not valid');
	}
	return new Error(`Storing the submission failed: ${error.message}`, { cause: error });
}

/**
 * The member signed in by their e-mailed link, when the dialog sends their token; null for a
 * visitor (a stale member session submits as a visitor does).
 */
export async function submittingMember(
	req: Request,
): Promise<{ userId: string; email: string } | null> {
	if (!req.headers.get('authorization')) return null;
	try {
		const session = await authenticateMember(req);
		return session.email ? { userId: session.userId, email: session.email } : null;
	} catch (error) {
		if (error instanceof HttpError && error.status === 401) return null;
		throw error;
	}
}

/**
 * Stores a submission for review, its times on the chamber's wall clock. A member signed in by
 * their link submits with their own address, and is named as the member.
 */
export async function storeSubmission(
	service: SupabaseClient,
	tenant: TenantRow,
	body: SubmissionBody,
	zone: string,
	member: { userId: string; email: string } | null,
): Promise<{ id: string }> {
	const { data, error } = await service
		.from('event_submissions')
		.insert({
			tenant_id: tenant.id,
			submitter_name: body.submitterName,
			submitter_email: member?.email || body.submitterEmail,
			member_user_id: member?.userId ?? null,
			event: { ...body.event, time_zone: zone },
		})
		.select('id')
		.single();
	if (error) throw storeRefusal(error);
	return data;
}

// --- The review queue ------------------------------------------------------------------------------

export async function listSubmissions(
	client: SupabaseClient,
	tenantId: string,
	status: SubmissionStatus,
): Promise<{ submissions: SubmissionRow[]; pending: number }> {
	const [list, pending] = await Promise.all([
		client
			.from('event_submissions')
			.select(SUBMISSION_COLUMNS)
			.eq('tenant_id', tenantId)
			.eq('status', status)
			.order('created_at', { ascending: status === 'pending' })
			.limit(SUBMISSION_LIMITS.pendingPerChamber)
			.overrideTypes<SubmissionRow[], { merge: false }>(),
		client
			.from('event_submissions')
			.select('id', { count: 'exact', head: true })
			.eq('tenant_id', tenantId)
			.eq('status', 'pending'),
	]);
	if (list.error) throw refusal(list.error, 'Listing the submissions');
	if (pending.error) throw refusal(pending.error, 'Counting the submissions');
	return { submissions: list.data, pending: pending.count ?? 0 };
}

/**
 * Approves a submission as a published community event (as submitted, or with staff's edits),
 * or declines it with a note: review_event_submission as the user. The description, plain text
 * as the visitor typed it, becomes the event's HTML unless staff changed it.
 */
export async function reviewSubmission(
	session: AdminSession,
	tenant: TenantRow,
	id: string | undefined,
	decision:
		| { approve: true; changes: Record<string, unknown>; note: string }
		| { approve: false; note: string },
): Promise<ReviewAnswer> {
	let changes: Record<string, unknown> = {};
	if (decision.approve) {
		const { data: row, error } = await session.client
			.from('event_submissions')
			.select('event')
			.eq('tenant_id', tenant.id)
			.eq('id', submissionId(id))
			.maybeSingle()
			.overrideTypes<{ event: { description?: string } } | null, { merge: false }>();
		if (error) throw refusal(error, 'Reading the submission');
		if (!row) throw new HttpError(404, 'No such submission in this chamber');
		const description =
			typeof decision.changes.description === 'string'
				? decision.changes.description
				: (row.event.description ?? '');
		changes = { ...decision.changes, description: plainTextHtml(description) };
		if (decision.changes.all_day === true) {
			for (const [field, time] of [
				['starts_local', 'T00:00'],
				['ends_local', 'T23:59'],
			] as const) {
				const value = decision.changes[field];
				if (typeof value === 'string') changes[field] = `${value.slice(0, 10)}${time}`;
			}
		}
	}
	const { data, error } = await session.client.rpc('review_event_submission', {
		p_tenant_id: tenant.id,
		p_submission_id: submissionId(id),
		p_approve: decision.approve,
		p_changes: changes as never,
		p_note: decision.note,
	});
	if (error) {
		if (error.code === '23514') throw new BadRequest(`The event is not valid: ${error.message}`);
		throw refusal(error, 'Reviewing the submission');
	}
	return data;
}
