import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { z } from 'zod';

/**
 * Scheduled publishing ('Publish at…'): a save or a restore stored to go live at a chosen time
 * in the chamber's time zone, written and published by the scheduled function, which runs every
 * 5 minutes. Pure: the functions, the scheduled function and the panel share it.
 */

/**
 * Publish times are on these marks, the minutes the scheduled function runs at
 * (netlify/functions/fire-scheduled-publishes.ts), so a change goes live at its minute.
 */
export const SCHEDULE_STEP_MINUTES = 5;

type ScheduledState = 'scheduled' | 'published' | 'canceled' | 'failed';

/** A scheduled publish as the functions answer it. */
export interface ScheduledView {
	id: number;
	/** When it goes (or went) live. */
	runAt: string;
	kind: 'save' | 'restore';
	/** What it changes, for people. */
	summary: string;
	state: ScheduledState;
	/** The e-mail of whoever scheduled it (null: the server side). */
	createdBy: string | null;
	createdAt: string;
	finishedAt: string | null;
	canceledBy: string | null;
	/** Why it did not go live. */
	error: string | null;
	/** The publish (build) that took it live. */
	publishId: number | null;
	/**
	 * A change written with no publish of its own (the month's budget was used): when the next
	 * publish took it live; null until one has.
	 */
	liveAt: string | null;
}

/**
 * A change written at its time with no publish of its own (the month's budget was used): it goes
 * live with the next publish, the daily one or one staff confirm.
 */
export function writtenWithoutPublish(item: ScheduledView): boolean {
	return item.state === 'published' && item.publishId === null;
}

export interface ScheduledRow {
	id: number | string;
	run_at: string;
	kind: 'save' | 'restore';
	summary: string;
	state: ScheduledState;
	created_by_email: string | null;
	created_at: string;
	finished_at: string | null;
	canceled_by_email: string | null;
	error: string | null;
	publish_id: number | string | null;
}

export const SCHEDULED_COLUMNS =
	'id, run_at, kind, summary, state, created_by_email, created_at, finished_at, canceled_by_email, error, publish_id';

export function toScheduledView(row: ScheduledRow): ScheduledView {
	return {
		id: Number(row.id),
		runAt: row.run_at,
		kind: row.kind,
		summary: row.summary,
		state: row.state,
		createdBy: row.created_by_email,
		createdAt: row.created_at,
		finishedAt: row.finished_at,
		canceledBy: row.canceled_by_email,
		error: row.error,
		publishId: row.publish_id === null ? null : Number(row.publish_id),
		liveAt: null,
	};
}

/** 'YYYY-MM-DDTHH:mm', a date and time on the chamber's clock (a datetime-local input's value). */
export const wallTimeSchema = z
	.string({ error: 'Expected at, a date and time like 2026-11-28T09:00' })
	.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, {
		error: (iss) =>
			`Expected at, a date and time like 2026-11-28T09:00, received ${JSON.stringify(iss.input)}`,
	})
	.refine((wall) => Number(wall.slice(14, 16)) % SCHEDULE_STEP_MINUTES === 0, {
		error:
			'Publish times are on the 5-minute marks (09:00, 09:05 …): changes go live every 5 minutes',
	});

/** POST /api/publish-schedule: the changes of a save (update-config bodies) and when. */
export const scheduleBodySchema = z.object({
	at: wallTimeSchema,
	changes: z
		.array(z.record(z.string(), z.unknown()), { error: 'Expected changes, a list of saves' })
		.min(1, { error: 'Expected at least one change' })
		.max(200, { error: 'At most 200 changes at a time' }),
});

/** DELETE /api/publish-schedule?id= */
export const cancelQuerySchema = z.object({
	id: z.coerce
		.number({ error: 'Expected the id of a scheduled publish' })
		.int({ error: 'Expected the id of a scheduled publish' })
		.positive({ error: 'Expected the id of a scheduled publish' }),
});

/** The summary of a scheduled save: '3 changes: content.heroTitle, colors, name'. */
export function saveSummary(paths: readonly string[]): string {
	const head = `${paths.length} ${paths.length === 1 ? 'change' : 'changes'}: `;
	const list = paths.join(', ');
	return head + (head.length + list.length > 300 ? `${list.slice(0, 297 - head.length)}…` : list);
}

/** 'Nov 28, 2026, 09:00 CST' on the chamber's clock. */
export function formatInZone(instant: string | Date, zone: string): string {
	const at = new TZDate(new Date(instant).getTime(), zone);
	return `${format(at, 'MMM d, yyyy, HH:mm')} ${zoneAbbreviation(at, zone)}`;
}

function zoneAbbreviation(at: Date, zone: string): string {
	const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
		.formatToParts(at)
		.find((p) => p.type === 'timeZoneName');
	return part?.value ?? zone;
}

/** The next 5-minute mark at least `leadMinutes` ahead of `now`, on the chamber's clock. */
export function nextScheduleMark(now: Date, zone: string, leadMinutes = 10): string {
	const step = SCHEDULE_STEP_MINUTES * 60_000;
	const at = new Date(Math.ceil((now.getTime() + leadMinutes * 60_000) / step) * step);
	const local = new TZDate(at.getTime(), zone);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`;
}
