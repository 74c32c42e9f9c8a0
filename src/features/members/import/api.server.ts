import type { PostgrestError } from '@supabase/supabase-js';
import { refusal } from '../refusal.server.ts';

/** A refusal of the database (its own words) as the import functions' answer. */
export function importRpcError(error: PostgrestError): Error {
	return refusal(error, 'Import call');
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
