import type { SupabaseClient } from '@supabase/supabase-js';
import { configFromRow, type ChamberConfig } from './config.ts';
import { PLACEHOLDER_CONFIG } from './placeholder.ts';

/**
 * The chamber configuration of a tenant. No row (PostgREST's PGRST116) means a chamber not set
 * up yet: it gets the placeholder, with a warning. Any other failure, or a row that does not
 * validate, throws, so a build never ships a half-read configuration.
 */
export async function getChamberConfig(
	client: SupabaseClient,
	tenantId: string,
): Promise<ChamberConfig> {
	const { data, error } = await client
		.from('chamber_config')
		.select('*')
		.eq('tenant_id', tenantId)
		.single();
	if (error?.code === 'PGRST116') {
		console.warn(
			`No chamber configuration for tenant ${tenantId}: using the placeholder configuration`,
		);
		return PLACEHOLDER_CONFIG;
	}
	if (error)
		throw new Error(`Failed to load chamber configuration: ${error.message}`, { cause: error });
	return configFromRow(data, `chamber_config row of tenant ${tenantId}`);
}
