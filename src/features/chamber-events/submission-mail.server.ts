import type { SupabaseClient } from '../../lib/database.ts';
import { sendMail } from '../../lib/mail.server.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { readContactEnv } from '../contact/contact.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { reviewMail, type ReviewAnswer } from './submissions.ts';

/**
 * Tells the submitter what the chamber decided, through the site's mail delivery (SMTP_URL,
 * else the outbox folder), as contact messages go. Apart from submissions.server.ts so that only
 * the function that reviews carries the mail library. Never throws: the decision stands, and a
 * mail that cannot go is logged.
 */
export async function mailSubmitter(
	service: SupabaseClient,
	tenant: TenantRow,
	answer: ReviewAnswer,
	note: string,
	siteUrl: string,
): Promise<void> {
	try {
		const config = await getChamberConfig(service, tenant.id);
		const env = readContactEnv();
		const mail = reviewMail(answer, { name: config.name, siteUrl }, note);
		await sendMail(
			{
				from: env.mailFrom ?? {
					name: config.name,
					address: `no-reply@${config.services.emailDomain || 'localhost'}`,
				},
				to: { name: answer.submitterName, address: answer.submitterEmail },
				subject: mail.subject,
				text: mail.text,
			},
			env,
			`event-submission-${answer.status}-${answer.id}`,
		);
	} catch (error) {
		console.error(
			`[event-submissions] the submitter of ${answer.id} was not e-mailed: ${(error as Error).message}`,
		);
	}
}
