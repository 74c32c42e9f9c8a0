import type { AdminSession } from '../auth/auth.server.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { readContactEnv } from '../contact/contact.server.ts';
import { businessImpact, publishMemberChange } from '../members/members.server.ts';
import { outcomeAnswer, type WaitingAnswer } from '../publish/policy.server.ts';
import type { PublishView } from '../publish/publish.ts';
import { refusal } from '../members/refusal.server.ts';
import { describeIssues, parseBusinessChanges, type BusinessChanges } from '../members/members.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import { sendMail } from '../../lib/mail.server.ts';
import { getServiceClient } from '../../lib/supabase.server.ts';
import { decisionMail, type Decision, type DecisionMail } from './self-service.ts';

/**
 * Staff deciding a member's request (the Requests tab), and the e-mail that tells the member.
 * Apart from self-service.server.ts so that only the function that decides carries the mail
 * library (nodemailer) in its zip (docs/performance.md#function-sizes).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requestId(id: string | undefined): string {
	if (!id || !UUID.test(id)) throw new HttpError(404, 'No such request in this chamber');
	return id.toLowerCase();
}

/**
 * Approves a request as the staff member's own edit of the listing (save_business through
 * approve_member_submission: role, rules, version check, overrides, audit), publishes and purges
 * the business's cache tags, and e-mails the member. A 409 carries the conflicts.
 */
export async function approveMemberRequest(
	session: AdminSession,
	tenant: TenantRow,
	id: string | undefined,
	body: { version: number; changes?: Record<string, unknown> },
	siteUrl: string,
	later: (work: Promise<unknown>) => void,
): Promise<Decision & { publish: PublishView | null; waiting: WaitingAnswer | null }> {
	let changes: BusinessChanges | null = null;
	if (body.changes) {
		// The Members tab's validation; the database keeps the edit to the request's fields.
		const parsed = parseBusinessChanges(body.changes);
		if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
		changes = parsed.changes;
	}
	const { data, error } = await session.client.rpc('approve_member_submission', {
		p_submission_id: requestId(id),
		p_changes: changes,
		p_version: body.version,
	});
	if (error) throw refusal(error, 'Approving the request');
	const decision = data;
	// What the approval wrote decides what it alters (a field only the profile shows: a purge).
	const { data: applied } = await session.client
		.from('member_submissions')
		.select('applied')
		.eq('id', decision.id)
		.maybeSingle<{ applied: Record<string, unknown> | null }>();
	const fields = applied?.applied ? Object.keys(applied.applied) : null;
	const impact = fields ? await businessImpact(tenant.id, decision.business, fields, true) : 'site';
	const outcome = await publishMemberChange(
		session.client,
		tenant,
		decision.business,
		"A member's update approved",
		{ impact },
	);
	later(mailDecision(tenant, decision, { kind: 'approved' }, siteUrl));
	return { ...decision, ...outcomeAnswer(outcome) };
}

/** Returns a request to the member with the note, and e-mails it. */
export async function returnMemberRequest(
	session: AdminSession,
	tenant: TenantRow,
	id: string | undefined,
	note: string,
	siteUrl: string,
	later: (work: Promise<unknown>) => void,
): Promise<Decision> {
	const { data, error } = await session.client.rpc('return_member_submission', {
		p_submission_id: requestId(id),
		p_note: note,
	});
	if (error) throw refusal(error, 'Returning the request');
	const decision = data;
	later(mailDecision(tenant, decision, { kind: 'returned', note }, siteUrl));
	return decision;
}

// --- E-mails ----------------------------------------------------------------------------------------

async function mailDecision(
	tenant: TenantRow,
	decision: Decision,
	kind: Parameters<typeof decisionMail>[0],
	siteUrl: string,
): Promise<void> {
	try {
		const service = getServiceClient();
		const config = await getChamberConfig(service, tenant.id);
		const { data: business } = await service
			.from('profiles')
			.select('id, report_name')
			.eq('id', decision.business)
			.maybeSingle();
		const mail = decisionMail(
			kind,
			{ name: config.name, colour: config.colors.primary, siteUrl },
			{ id: decision.business, name: business?.report_name ?? 'your business' },
		);
		await deliverMemberMail(decision.memberEmail, mail, {
			name: config.name,
			emailDomain: config.services.emailDomain,
			kind: kind.kind,
		});
	} catch (error) {
		console.error(`[members] the member's e-mail was not sent: ${(error as Error).message}`);
	}
}

/** Through SMTP_URL, else an .eml in the outbox folder (as the contact form and sign-in links). */
async function deliverMemberMail(
	to: string,
	mail: DecisionMail,
	chamber: { name: string; emailDomain: string; kind: string },
): Promise<void> {
	const env = readContactEnv();
	const message = {
		from: env.mailFrom ?? {
			name: chamber.name,
			address: `no-reply@${chamber.emailDomain || 'localhost'}`,
		},
		to,
		subject: mail.subject,
		text: mail.text,
		html: mail.html,
	};
	const safe = to.replace(/[^a-z0-9@._-]/gi, '_');
	await sendMail(message, env, `member-${chamber.kind}-${safe}`);
}
