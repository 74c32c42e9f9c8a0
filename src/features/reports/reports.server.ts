import type { SupabaseClient } from '@supabase/supabase-js';
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
		p_counts: counts,
	});
	if (error) throw new Error(`Failed to record statistics: ${error.message}`, { cause: error });
	return Number(data) || 0;
}

