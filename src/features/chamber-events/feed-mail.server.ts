import type { SupabaseClient } from '../../lib/database.ts';
import { sendMail } from '../../lib/mail.server.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { readContactEnv } from '../contact/contact.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { feedFailureMail } from './feeds.ts';

/**
 * Tells a chamber's admins by e-mail that one of its calendar feeds cannot be read, through the
 * site's mail delivery (SMTP_URL, else the outbox folder), as contact messages go. Apart from
 * feeds.server.ts so that only the functions that send carry the mail library. Never throws: a
 * mail that cannot go is logged, and the panel shows the failure all the same.
 */
export async function mailFeedFailure(
	service: SupabaseClient,
	tenant: TenantRow,
	feed: { id: string; name: string; url: string },
	failure: { error: string; since: string },
	siteUrl: string,
): Promise<void> {
	try {
		const { data: admins, error } = await service
			.from('admin_users')
			.select('email')
			.eq('tenant_id', tenant.id)
			.in('role', ['admin', 'super_admin']);
		if (error) throw new Error(error.message);
		if (!admins.length) return;
		const config = await getChamberConfig(service, tenant.id);
		const env = readContactEnv();
		const mail = feedFailureMail({ name: config.name, siteUrl }, feed, failure);
		await sendMail(
			{
				from: env.mailFrom ?? {
					name: config.name,
					address: `no-reply@${config.services.emailDomain || 'localhost'}`,
				},
				to: admins.map((a) => a.email),
				subject: mail.subject,
				text: mail.text,
			},
			env,
			`event-feed-${feed.id}`,
		);
	} catch (error) {
		console.error(
			`[event-feeds] the admins were not told about feed ${feed.id}: ${(error as Error).message}`,
		);
	}
}
