import { HttpError } from '../../lib/http.server.ts';
import { conflictOf } from './conflicts.ts';

/** A write refused because someone else changed the same fields: 409 `{error, conflicts, version}`. */
export class ConflictError extends HttpError {
	constructor(message: string, detail: NonNullable<ReturnType<typeof conflictOf>>) {
		super(409, message, {}, { conflicts: detail.conflicts, version: detail.version });
		this.name = 'ConflictError';
	}
}

/** Throws the ConflictError a PostgREST error carries; does nothing for any other error. */
export function throwIfConflict(
	error: { code?: string | null; message: string; details?: string | null } | null,
): void {
	const detail = conflictOf(error);
	if (detail && error) throw new ConflictError(error.message, detail);
}
