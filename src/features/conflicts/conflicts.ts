import { z } from 'zod';

/**
 * Edit conflicts: one shape for every versioned write (the chamber configuration, member
 * listings). A write states the version it was made from; where someone changed the same field
 * since, the database refuses it with PostgREST's PT409 (HTTP 409) and a JSON detail of this
 * shape, the function answers 409 with `{error, conflicts, version}`, and the panel shows each
 * field with both values so the person keeps theirs or takes the other. Pure: the functions and
 * the browser share it.
 */

/** One field someone else changed after the writer's version. */
const editConflictSchema = z.object({
	/** The field as the panel names it: 'content.heroTitle', 'colors.primary', 'name' … */
	field: z.string().min(1),
	/** What it holds now (their value). */
	value: z.unknown(),
	/** Who changed it: their e-mail, or the server side's role (an import) when no user did. */
	changedBy: z.string().nullable(),
	/** When, as an ISO timestamp. */
	changedAt: z.string(),
});
export type EditConflict = z.output<typeof editConflictSchema>;

/**
 * The database's detail of a PT409 (and the 409 answer's body without `error`): the conflicts,
 * and the version the record is at now (a write made from it keeps the writer's values).
 */
const conflictDetailSchema = z.object({
	conflicts: z.array(editConflictSchema).min(1),
	version: z.number().int().nonnegative().optional(),
});
export type ConflictDetail = z.output<typeof conflictDetailSchema>;

/** A 409 answer of a save: the database's message and its detail. */
export const conflictAnswerSchema = conflictDetailSchema.extend({ error: z.string() });

/** PostgREST's SQLSTATE for "answer 409": raise … using errcode = 'PT409'. */
const CONFLICT_SQLSTATE = 'PT409';

/**
 * The conflict a PostgREST error carries (supabase-js' `error`), or null for any other error.
 * The detail arrives as JSON text in `details`: `{conflicts, version}`, or the list of conflicts
 * alone.
 */
export function conflictOf(
	error: { code?: string | null; details?: string | null } | null | undefined,
): ConflictDetail | null {
	if (error?.code !== CONFLICT_SQLSTATE || !error.details) return null;
	try {
		const detail: unknown = JSON.parse(error.details);
		const parsed = conflictDetailSchema.safeParse(
			Array.isArray(detail) ? { conflicts: detail } : detail,
		);
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
