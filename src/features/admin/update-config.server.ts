import type { SupabaseClient } from '@supabase/supabase-js';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import type { ConfigWrite } from './update-config.ts';

/**
 * Writes one validated change with the user's own client: public.update_chamber_config runs as
 * the user, so row-level security and the role check trigger decide, as for any direct write.
 * Answers the row's new updated_at.
 */
export async function saveConfigWrite(
	client: SupabaseClient,
	tenantId: string,
	write: ConfigWrite,
): Promise<string> {
	const { data, error } = await client.rpc('update_chamber_config', {
		p_tenant_id: tenantId,
		p_column: write.column,
		p_field: write.field,
		p_value: write.value,
	});
	if (error) {
		// The database's own refusals carry texts written for the user (migrations 030 and 090).
		if (error.code === '42501') throw new HttpError(403, error.message);
		if (error.code === '22023' || error.code === '23514') {
			throw new BadRequest(`${write.path}: ${error.message}`);
		}
		throw new Error(`Failed to save ${write.path}: ${error.message}`, { cause: error });
	}
	return String(data);
}
