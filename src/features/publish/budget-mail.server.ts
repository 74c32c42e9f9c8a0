import type { SupabaseClient } from '../../lib/database.ts';
import { sendMail } from '../../lib/mail.server.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { readContactEnv } from '../contact/contact.server.ts';
import { budgetMail } from './policy.ts';

/**
 * The e-mail that tells a chamber's admins its month's publishes reached 80 % of the budget,
 * sent by the scheduled function (fire-scheduled-publishes) once per month: the database records
 * the warning when a publish reaches it and hands it out once (claim_publish_budget_warning).
 * Apart from the publishing modules so that only the scheduled function carries the mail library.
 */

/**
 * Sends the chamber's budget warnings not sent yet to its admins (through SMTP_URL, else the
 * outbox folder). Answers how many e-mails went out. A warning is claimed before it is sent, so
 * it goes at most once; a failed send is logged, not retried.
 */
export async function mailBudgetWarnings(
	service: SupabaseClient,
	tenantId: string,
	siteUrl: string,
): Promise<number> {
	const { data, error } = await service.rpc('claim_publish_budget_warning', {
		p_tenant_id: tenantId,
	});
	if (error)
		throw new Error(`Failed to claim the budget warning: ${error.message}`, { cause: error });
	const warnings = data as { month: string; used: number; budget: number }[];
	if (warnings.length === 0) return 0;
	const { data: admins, error: adminsError } = await service
		.from('admin_users')
		.select('email')
		.eq('tenant_id', tenantId)
		.eq('role', 'admin');
	if (adminsError) throw new Error(`Failed to read the admins: ${adminsError.message}`);
	const config = await getChamberConfig(service, tenantId);
	const env = readContactEnv();
	let sent = 0;
	for (const warning of warnings) {
		const mail = budgetMail(config, warning, new URL('/chamber-config-v2', siteUrl).href);
		for (const { email } of admins) {
			try {
				await sendMail(
					{
						from: env.mailFrom ?? {
							name: config.name,
							address: `no-reply@${config.services.emailDomain || 'localhost'}`,
						},
						to: email,
						subject: mail.subject,
						text: mail.text,
					},
					env,
					`publish-budget-${email.replace(/[^a-z0-9@._-]/gi, '_')}`,
				);
				sent += 1;
			} catch (sendError) {
				console.error(`[publish] the budget warning to ${email} was not sent:`, sendError);
			}
		}
	}
	return sent;
}
