import type { PostgrestError } from '@supabase/supabase-js';
import { BadRequest, HttpError } from '../../../lib/http.server.ts';

/** A refusal of the database (its own words) as the function's answer. */
export function importRpcError(error: PostgrestError): Error {
	switch (error.code) {
		case '42501':
			return new HttpError(403, error.message);
		case 'P0002':
			return new HttpError(404, error.message);
		case '55000':
		case '55006':
			return new HttpError(409, error.message);
		case '22023':
		case '22P02':
			return new BadRequest(error.message);
		default:
			return new Error(`Import call failed: ${error.message}`, { cause: error });
	}
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
