import type { SupabaseClient } from '../../lib/database.ts';
import type { StatCount } from './reports.ts';

/**
 * Member statistics in the database, server side: adding a batch (service role, /api/stats) and
 * the monthly e-mail's bookkeeping. The reports' reads are in queries.ts (the panel runs them too).
 */

/** Adds a batch's counters for the chamber's published businesses in one call; answers how many. */
export async function recordStats(
	service: SupabaseClient,
	tenantId: string,
	day: string,
	counts: readonly StatCount[],
): Promise<number> {
	if (counts.length === 0) return 0;
	const { data, error } = await service.rpc('record_business_stats', {
		p_tenant_id: tenantId,
		p_day: day,
		p_counts: [...counts],
	});
	if (error) throw new Error(`Failed to record statistics: ${error.message}`, { cause: error });
	return Number(data) || 0;
}

/**
 * The monthly e-mail's opt-out link: its business stops getting the e-mail. Answers the business's
 * name, or null when no business holds the token. Called as a visitor (the anon client): the
 * database function takes the random token as its only key.
 */
export async function optOutOfMonthlyEmail(
	anon: SupabaseClient,
	token: string,
): Promise<string | null> {
	const { data, error } = await anon.rpc('member_report_opt_out', { p_token: token });
	if (error) throw new Error(`Failed to opt out: ${error.message}`, { cause: error });
	return typeof data === 'string' ? data : null;
}
