import type { PostgrestError } from '@supabase/supabase-js';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import { ConflictError } from '../conflicts/conflicts.server.ts';
import { conflictOf } from '../conflicts/conflicts.ts';

/**
 * A refusal of the database's member functions (the Members tab's, the imports', the members'
 * own and staff's decisions on them) as the API's answer, in the database's words and with the
 * status PostgREST gives a direct caller: a role that may not (42501) 403; another chamber's or an
 * unknown row (PT404) 404; a value its rules refuse 400; a state that does not allow it (a removed
 * business, another import under way) or a stale version, with the current values (PT409) 409.
 * Anything else is a logged 500 saying `what` failed.
 */
export function refusal(error: PostgrestError, what: string): Error {
	switch (error.code) {
		case '42501':
			return new HttpError(403, error.message);
		case 'PT404':
			return new HttpError(404, error.message);
		case '22023':
		case '23514':
		case '23505':
		case '22P02':
		case '22007':
		case '22008':
			return new BadRequest(error.message);
		case 'PT409': {
			// A stale version comes with the conflicts; a state that refuses the call without them.
			const detail = conflictOf(error);
			return detail ? new ConflictError(error.message, detail) : new HttpError(409, error.message);
		}
		default:
			return new Error(`${what} failed: ${error.message}`, { cause: error });
	}
}
