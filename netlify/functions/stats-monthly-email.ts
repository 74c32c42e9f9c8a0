import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { readContactEnv } from '../../src/features/contact/contact.server.ts';
import { sendMonthlyReports } from '../../src/features/reports/monthly-mail.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Hourly (a Netlify scheduled function): when the chamber has switched it on, e-mails each member
 * business its numbers for the month before, at most once per business and month. A run stops
 * after about 20 s; the next hour's run takes the businesses it left (docs/reports.md).
 */
export const config: Config = { schedule: '@hourly' };

export async function runMonthlyReports(now = new Date(), limit?: number) {
	const tenant = await getCurrentTenant();
	const chamber = await getCachedChamberConfig(getAnonClient(), tenant.id);
	const env = readContactEnv();
	return sendMonthlyReports({
		service: getServiceClient(),
		tenantId: tenant.id,
		config: chamber,
		mail: env,
		siteUrl: process.env.SITE_URL || process.env.URL || 'http://localhost:8888',
		now,
		limit,
	});
}

export default async (): Promise<Response> => {
	try {
		const run = await runMonthlyReports();
		if (run.enabled) {
			console.log(
				`[stats-monthly-email] ${run.month}: sent ${run.sent}, failed ${run.failed}, left for the next run ${run.remaining}`,
			);
		}
	} catch (error) {
		console.error('[stats-monthly-email]', error);
	}
	return new Response(null, { status: 204 });
};
