import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import {
	attemptDelivery,
	getContactBusiness,
	readContactEnv,
	recordContactDelivery,
} from '../../src/features/contact/contact.server.ts';
import { listUndeliveredMessages } from '../../src/features/contact/undelivered.server.ts';
import { mailTransport } from '../../src/lib/mail.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every five minutes (a Netlify scheduled function; `npm start` runs it too): delivers the
 * chamber's contact messages that were stored but not sent and are due again (the mail server
 * was down, a timeout), each with a growing pause between attempts, so the visitor never has to
 * send one again.
 */
export const config: Config = { schedule: '*/5 * * * *' };

/** Netlify gives a scheduled function 30 s; the run stops starting new attempts before that. */
const RUN_BUDGET_MS = 20_000;

export async function retryContactMessages(
	options: { budgetMs?: number } = {},
): Promise<{ sent: number; failed: number }> {
	const env = readContactEnv();
	const tenant = await getCurrentTenant();
	const service = getServiceClient();
	const chamber = await getCachedChamberConfig(getAnonClient(), tenant.id);
	const began = Date.now();
	let sent = 0;
	let failed = 0;
	// One connection for the whole run.
	const transport = mailTransport(env, true);
	try {
		for (const row of await listUndeliveredMessages(service, tenant.id)) {
			if (Date.now() - began > (options.budgetMs ?? RUN_BUDGET_MS)) break;
			const business = row.business_id
				? await getContactBusiness(service, tenant.id, row.business_id)
				: null;
			if (!business?.email) {
				// Kept for the staff, no longer tried: nowhere to deliver it.
				await recordContactDelivery(service, row.id, {
					sent: false,
					error: 'The business no longer takes messages',
					retrySeconds: 366 * 86_400,
				});
				failed++;
				continue;
			}
			const outcome = await attemptDelivery(
				service,
				row.id,
				row,
				business,
				{ name: chamber.name, emailDomain: chamber.services.emailDomain },
				env,
				transport,
			);
			if (outcome === 'sent') sent++;
			else if (outcome === 'failed') failed++;
		}
	} finally {
		transport.close();
	}
	return { sent, failed };
}

export default async (): Promise<Response> => {
	try {
		const result = await retryContactMessages();
		console.log(`[contact-retry] sent ${result.sent}, failed ${result.failed}`);
	} catch (error) {
		console.error('[contact-retry]', error);
	}
	return new Response(null, { status: 204 });
};
