import type { SupabaseClient } from '../../lib/database.ts';
import {
	businessReportSchema,
	memberTotalsRowSchema,
	periodDays,
	type BusinessReport,
	type MemberTotals,
	type Period,
} from './reports.ts';

/**
 * The reports' reads and the monthly e-mail's switch
 * ("Member statistics" in supabase/migrations/20261121000005_baseline_members.sql), with whichever client the caller
 * holds: the admin panel's signed-in user, so row-level security decides what it reads.
 */

/** Every published business with its shown, views and actions over the period. */
export async function readMemberTotals(
	client: SupabaseClient,
	tenantId: string,
	period: Period,
): Promise<MemberTotals[]> {
	const days = periodDays(period);
	const { data, error } = await client.rpc('business_stats_totals', {
		p_tenant_id: tenantId,
		p_from: days.from,
		p_to: days.to,
	});
	if (error) throw new Error(`Failed to load the statistics: ${error.message}`, { cause: error });
	const rows = memberTotalsRowSchema.array().safeParse(data ?? []);
	if (!rows.success) throw new Error('The statistics could not be read.', { cause: rows.error });
	return rows.data;
}

/** One business's report over the period, with the 12 months ending with its last month. */
export async function readBusinessReport(
	client: SupabaseClient,
	tenantId: string,
	businessId: string,
	period: Period,
): Promise<BusinessReport> {
	const days = periodDays(period);
	const { data, error } = await client.rpc('business_stats_report', {
		p_tenant_id: tenantId,
		p_business_id: businessId,
		p_from: days.from,
		p_to: days.to,
	});
	if (error) throw new Error(`Failed to load the report: ${error.message}`, { cause: error });
	const report = businessReportSchema.safeParse(data);
	if (!report.success) throw new Error('The report could not be read.', { cause: report.error });
	return report.data;
}

/** Whether the chamber sends the monthly e-mail (off without a row). */
export async function readMonthlyEmailSwitch(
	client: SupabaseClient,
	tenantId: string,
): Promise<boolean> {
	const { data, error } = await client
		.from('member_report_settings')
		.select('monthly_email')
		.eq('tenant_id', tenantId)
		.maybeSingle();
	if (error)
		throw new Error(`Failed to load the report settings: ${error.message}`, { cause: error });
	return data?.monthly_email ?? false;
}

/** Switches the monthly e-mail, as the signed-in admin (RLS; the change is audited). */
export async function writeMonthlyEmailSwitch(
	client: SupabaseClient,
	tenantId: string,
	on: boolean,
): Promise<void> {
	const { error } = await client
		.from('member_report_settings')
		.upsert({ tenant_id: tenantId, monthly_email: on, updated_at: new Date().toISOString() });
	if (error) throw new Error(`Failed to save the setting: ${error.message}`, { cause: error });
}
