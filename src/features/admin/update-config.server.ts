import type { SupabaseClient } from '../../lib/database.ts';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import { throwIfConflict } from '../conflicts/conflicts.server.ts';
import { savedVersionSchema, type ConfigWrite, type SavedVersion } from './update-config.ts';

/**
 * Writes one validated change, made from `version` of its section, with the user's own client:
 * public.update_chamber_config runs as the user, so row-level security and the role check trigger
 * decide, as for any direct write, and it refuses (409, ConflictError) a change that would take
 * back someone else's later change of the same field. A `version` of null (a body that states
 * none) is written whatever the version now, which the database is told in so many words.
 */
export async function saveConfigWrite(
	client: SupabaseClient,
	tenantId: string,
	write: ConfigWrite,
	version: number | null,
): Promise<SavedVersion> {
	const { data, error } = await client.rpc('update_chamber_config', {
		p_tenant_id: tenantId,
		p_column: write.column,
		p_field: write.field,
		p_value: write.value,
		p_version: version,
		p_last_write_wins: version === null,
	});
	if (error) {
		throwIfConflict(error);
		// The database's own refusals carry texts written for the user (migrations 030 and 090).
		if (error.code === '42501') throw new HttpError(403, error.message);
		if (error.code === '22023' || error.code === '23514') {
			throw new BadRequest(`${write.path}: ${error.message}`);
		}
		throw new Error(`Failed to save ${write.path}: ${error.message}`, { cause: error });
	}
	return savedVersionSchema.parse(data);
}
