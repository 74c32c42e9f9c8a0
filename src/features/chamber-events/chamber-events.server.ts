import type { SupabaseClient } from '../../lib/database.ts';
import { BadRequest, HttpError } from '../../lib/http.server.ts';
import { readClientEnv } from '../../lib/supabase.server.ts';
import { refusal } from '../members/refusal.server.ts';
import { purgeTenantCache } from '../publish/publish.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { auditHistory, recordId } from '../versioned/versioned.server.ts';
import {
	describeIssues,
	eventIssues,
	FIELD_SCHEMAS,
	parseEventChanges,
	type DateField,
	type EventChanges,
	type EventDetail,
	type EventField,
	type EventValues,
	type FieldIssue,
	type HistoryEntry,
	type Saved,
} from './chamber-events.ts';
import { FEED_LIMITS } from './feed-limits.ts';
import {
	expandDates,
	isEndless,
	localDateTime,
	ruleProblem,
	type SeriesDate,
} from './recurrence.ts';

/**
 * The Events tab's data: every read and write through the signed-in user's supabase-js client,
 * so the database's own checks (save_chamber_event and its neighbours) judge each call as they
 * would a direct one; their refusals become the API's statuses. A series' dates are expanded
 * here from its rule (ical.js) and handed to the database with the change.
 */

const NOT_FOUND = 'No such event in this chamber';

function eventId(id: string | undefined): string {
	return recordId(id, NOT_FOUND);
}

// --- One event ----------------------------------------------------------------------------------

export async function getEvent(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<EventDetail> {
	const { data, error } = await client.rpc('admin_chamber_event', {
		p_tenant_id: tenantId,
		p_event_id: eventId(id),
	});
	if (error) throw refusal(error, 'Reading the event');
	return data;
}

/**
 * The whole event valid as the site needs it, or a 400 naming each problem. The rule is judged
 * when it is set or changed: a feed's series may repeat without end (its dates are read ahead).
 */
function checkWhole(event: EventValues, ruleSet = true): void {
	const issues: FieldIssue[] = eventIssues(event);
	if (event.rrule && ruleSet) {
		const problem = ruleProblem(event.rrule, event.starts_local);
		if (problem) issues.push({ path: 'rrule', field: 'rrule', message: problem });
	}
	if (issues.length) throw new BadRequest(describeIssues(issues));
}

/**
 * A series' dates from its rule; null for a one-off (the database keeps its one date). A rule
 * without end (a feed's) is expanded over the window a feed's read takes.
 */
function datesOf(event: EventValues): SeriesDate[] | null {
	if (!event.rrule) return null;
	const endless = isEndless(event.rrule);
	const day = 86_400_000;
	const horizon = endless
		? localDateTime(new Date(Date.now() + FEED_LIMITS.aheadDays * day), event.time_zone)
		: undefined;
	// An endless rule's dates from as far back as a feed's read keeps them.
	const since = endless
		? localDateTime(new Date(Date.now() - FEED_LIMITS.pastDays * day), event.time_zone)
		: undefined;
	const dates = expandDates(event.rrule, event.starts_local, event.ends_local, {
		horizon,
		from: since,
	});
	if (dates.length === 0) throw new BadRequest('rrule: the rule gives no date');
	return dates;
}

const TIME_FIELDS: readonly EventField[] = ['starts_local', 'ends_local', 'all_day', 'rrule'];

/** A new event (every field validated, the whole too); answers {id, version}. */
export async function addEvent(
	client: SupabaseClient,
	tenantId: string,
	input: unknown,
): Promise<Saved> {
	const parsed = parseEventChanges(input);
	if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
	const missing = (['name', 'time_zone', 'starts_local', 'ends_local'] as const).filter(
		(f) => parsed.changes[f] === undefined,
	);
	if (missing.length) {
		throw new BadRequest(missing.map((f) => `${f}: a new event needs it`).join('; '));
	}
	const whole = { ...defaults(), ...parsed.changes } as EventValues;
	checkWhole(whole);
	const { data, error } = await client.rpc('save_chamber_event', {
		p_tenant_id: tenantId,
		p_event_id: null,
		p_changes: parsed.changes as never,
		p_version: 0,
		p_dates: datesOf(whole) as never,
	});
	if (error) throw refusal(error, 'Adding the event');
	return data;
}

/** What the database gives a field a new event leaves out. */
function defaults(): Partial<EventValues> {
	return {
		all_day: false,
		rrule: null,
		registration_opens: null,
		registration_closes: null,
	};
}

/**
 * A change of an event made from `version`: the changed fields validated, the event as it
 * would be after them checked whole, and a series' dates expanded again when its times or rule
 * change. Answers {id, version}; a 409 with the conflicts when someone changed the same fields.
 */
export async function saveEvent(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	version: number,
	input: unknown,
): Promise<Saved> {
	const parsed = parseEventChanges(input);
	if (!parsed.ok) throw new BadRequest(describeIssues(parsed.issues));
	const changes: EventChanges = parsed.changes;
	const current = await getEvent(client, tenantId, id);
	const whole = { ...current.event, ...changes };
	checkWhole(whole, 'rrule' in changes);
	const timesChanged = TIME_FIELDS.some((f) => f in changes);
	const { data, error } = await client.rpc('save_chamber_event', {
		p_tenant_id: tenantId,
		p_event_id: current.id,
		p_changes: changes as never,
		p_version: version,
		p_dates: (timesChanged ? datesOf(whole) : null) as never,
	});
	if (error) throw refusal(error, 'Saving the event');
	return data;
}

export async function deleteEvent(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<Saved> {
	const { data, error } = await client.rpc('delete_chamber_event', {
		p_tenant_id: tenantId,
		p_event_id: eventId(id),
	});
	if (error) throw refusal(error, 'Deleting the event');
	return data;
}

export async function duplicateEvent(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<Saved> {
	const { data, error } = await client.rpc('duplicate_chamber_event', {
		p_tenant_id: tenantId,
		p_event_id: eventId(id),
	});
	if (error) throw refusal(error, 'Duplicating the event');
	return data;
}

/** One date of a series changed or cancelled on its own. */
export async function changeDate(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	key: string | undefined,
	body: { version: number; changes: Partial<Record<DateField, string>>; cancelled: boolean },
): Promise<Saved> {
	if (!key || !/^(\d{4}-\d{2}-\d{2}|once)$/.test(key)) throw new HttpError(404, 'No such date');
	const { data, error } = await client.rpc('change_event_occurrence', {
		p_tenant_id: tenantId,
		p_event_id: eventId(id),
		p_key: key,
		p_changes: body.changes,
		p_cancelled: body.cancelled,
		p_version: body.version,
	});
	if (error) throw refusal(error, 'Changing the date');
	return data;
}

/** A field of a feed's event changed here back to the feed's value (it follows the feed again). */
export async function takeFeedValue(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
	field: string | undefined,
): Promise<Saved> {
	if (!field || !(field in FIELD_SCHEMAS))
		throw new BadRequest(`Not a field of an event: ${field}`);
	const { data, error } = await client.rpc('clear_event_override', {
		p_tenant_id: tenantId,
		p_event_id: eventId(id),
		p_field: field,
	});
	if (error) throw refusal(error, 'Taking the feed’s value');
	return data;
}

/** An event's changes from the audit log (row-level security: the chamber's admins read it). */
export function eventHistory(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<HistoryEntry[]> {
	return auditHistory(client, tenantId, 'event_id', eventId(id), 'feed');
}

// --- Publishing --------------------------------------------------------------------------------

/**
 * The CDN tags an event change makes stale: every calendar's answers, the calendar files and
 * every event page (a series' dates are many pages).
 */
function eventCacheTags(tenantSlug: string): string[] {
	return [`${tenantSlug}:events`, `${tenantSlug}:community_events`, `${tenantSlug}:event_details`];
}

/**
 * An accepted change is live at once: the database moved the events' cache versions (the
 * calendars ask with the new one), and the CDN's answers of this deployment's chamber are
 * purged, so event pages and calendar files change too. No build: events are read when asked.
 */
export async function publishEventChange(tenant: TenantRow): Promise<void> {
	if (tenant.slug !== readClientEnv().TENANT) return;
	await purgeTenantCache(eventCacheTags(tenant.slug));
}
