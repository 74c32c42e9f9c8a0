import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import {
	claimContactDelivery,
	getContactBusiness,
	listUndeliveredMessages,
	readContactEnv,
	setContactDelivery,
} from '../../src/features/contact/contact.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';
import { deliver } from './contact-business.ts';

/**
 * Hourly (a Netlify scheduled function): delivers the chamber's contact messages that were stored
 * but not sent (mail server down, a timeout), a bounded number of times each, so the visitor
 * never has to send one again.
 */
export const config: Config = { schedule: '@hourly' };

export async function retryContactMessages(): Promise<{ sent: number; failed: number }> {
	const env = readContactEnv();
	const tenant = await getCurrentTenant();
	const service = getServiceClient();
	const client = getAnonClient();
	const chamber = await getCachedChamberConfig(client, tenant.id);
	let sent = 0;
	let failed = 0;
	for (const row of await listUndeliveredMessages(service, tenant.id)) {
		const business = row.business_id
			? await getContactBusiness(service, tenant.id, row.business_id)
			: null;
		if (!business?.email) {
			await setContactDelivery(service, row.id, 'failed', 'The business no longer takes messages');
			failed++;
			continue;
		}
		if (!(await claimContactDelivery(service, row.id))) continue;
		if (await deliver(service, chamber, row.id, row, business, env)) sent++;
		else failed++;
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
