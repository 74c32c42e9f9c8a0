import { z } from 'zod';
import type { CacheVersionType } from '../../lib/cache-versions.ts';
import { jsonError, versionParam, type CacheOptions } from '../../lib/http.server.ts';
import { lastGoodOf, rememberGood, servedHeaders } from '../../lib/last-good.server.ts';
import { getAnonClient, readClientEnv } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { readableTextColor } from '../config/contrast.ts';
import { defaultRange, publicEvent, rangeInstants, type DateRange, type Event } from './events.ts';
import {
	EVENT_DETAILS_ERROR,
	EventsSourceError,
	getEventsSource,
	listErrorMessage,
} from './source.server.ts';

/**
 * What the events functions share: query validation, the cache headers and tags, and the
 * last good answer served when the source fails.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (name: string) =>
	z
		.string()
		.regex(DAY, { error: `${name} must be a date like 2027-03-15` })
		.refine(isRealDay, { error: `${name} must be a real calendar date` });

/** 2027-02-30 parses (as 2 March), so the date must read back unchanged. */
function isRealDay(value: string): boolean {
	const time = Date.parse(`${value}T00:00:00Z`);
	return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

const EVENT_ID_ERROR = 'Event ID must be a positive whole number';

/** An event id from a URL: a positive whole number (ids are 32-bit in the membership system). */
export const eventIdParam = z
	.string()
	.trim()
	.regex(/^\d{1,9}$/, { error: EVENT_ID_ERROR })
	.transform(Number)
	.refine((id) => id > 0, { error: EVENT_ID_ERROR });

/** The longest range one request may ask for, so nobody pulls decades at once. */
export const MAX_RANGE_DAYS = 3 * 366;

/**
 * How far from today a range may reach. Calendars browse a few years at most; without a bound,
 * every distinct range from 0000 to 9999 would be a new request to the source and a new entry in
 * the last-good cache.
 */
const MAX_YEARS_FROM_TODAY = 5;

function withinYearsOfToday(value: string, now: Date = new Date()): boolean {
	const limit = MAX_YEARS_FROM_TODAY * 366 * 86_400_000;
	return Math.abs(Date.parse(`${value}T00:00:00Z`) - now.getTime()) <= limit;
}

/** ?v=&startDate=&endDate=: both dates or neither, start not after end, near today. */
export const rangeQuerySchema = z
	.object({
		v: versionParam,
		startDate: day('startDate').optional(),
		endDate: day('endDate').optional(),
	})
	.superRefine((q, ctx) => {
		if ((q.startDate === undefined) !== (q.endDate === undefined)) {
			ctx.addIssue({
				code: 'custom',
				path: [q.startDate === undefined ? 'startDate' : 'endDate'],
				message: 'startDate and endDate go together: give both or neither',
			});
			return;
		}
		if (q.startDate && q.endDate) {
			for (const key of ['startDate', 'endDate'] as const) {
				if (!withinYearsOfToday(q[key] as string)) {
					ctx.addIssue({
						code: 'custom',
						path: [key],
						message: `${key} must be within ${MAX_YEARS_FROM_TODAY} years of today`,
					});
					return;
				}
			}
			if (q.startDate > q.endDate) {
				ctx.addIssue({
					code: 'custom',
					path: ['endDate'],
					message: 'endDate must not be before startDate',
				});
			} else if ((Date.parse(q.endDate) - Date.parse(q.startDate)) / 86_400_000 > MAX_RANGE_DAYS) {
				ctx.addIssue({
					code: 'custom',
					path: ['endDate'],
					message: `The range may span at most ${MAX_RANGE_DAYS} days`,
				});
			}
		}
	});

export type RangeQuery = z.output<typeof rangeQuerySchema>;

/** The asked range, or the default (3 months back to 6 months ahead of today, UTC). */
export function resolveRange(query: RangeQuery, now: Date = new Date()): DateRange {
	if (query.startDate && query.endDate) {
		return { startDate: query.startDate, endDate: query.endDate };
	}
	return defaultRange(now.toISOString().slice(0, 10));
}

export type EventsResource = Extract<
	CacheVersionType,
	'events' | 'community_events' | 'event_details'
>;

/** Cache tags: the tenant, and the tenant's resource (the cache versions' resource types). */
export function cacheTags(resource: EventsResource, ...more: string[]): string[] {
	const tenant = readClientEnv().TENANT;
	return [tenant, `${tenant}:${resource}`, ...more.map((tag) => `${tenant}:${tag}`)];
}

// --- Last good answers -------------------------------------------------------------------------

export { LAST_GOOD_MAX_ENTRIES, lastGoodSize } from '../../lib/last-good.server.ts';

export type Outcome<T> = { ok: true; value: T; staleSince?: Date } | { ok: false; message: string };

/**
 * Loads through the source and remembers the answer under `key`; when the source fails, the
 * last good answer of this instance is served instead (marked stale), else the error's
 * visitor-facing message (the functions answer 502 with it).
 */
export async function withLastGood<T>(
	key: string,
	fallbackMessage: string,
	load: () => Promise<T>,
): Promise<Outcome<T>> {
	try {
		const value = await load();
		rememberGood(key, value);
		return { ok: true, value };
	} catch (error) {
		const kept = lastGoodOf<T>(key);
		console.error(`[events] ${key}:`, error);
		if (kept) return { ok: true, ...kept };
		const message = error instanceof EventsSourceError ? error.message : fallbackMessage;
		return { ok: false, message };
	}
}

/** One event through the source, or the last good answer for it. */
export function loadEvent(id: number): Promise<Outcome<Event | null>> {
	return withLastGood(`event:${id}`, EVENT_DETAILS_ERROR, () => getEventsSource().getEvent(id));
}

/** Cache headers for a success; an answer from the fallback is marked stale and kept briefly. */
export function outcomeHeaders(
	outcome: { staleSince?: Date },
	options: CacheOptions,
): Record<string, string> {
	return servedHeaders(outcome, options, 'X-Events-Stale-Since');
}

/** The site's own origin for links in feeds: the configured URL, else the request's. */
export function siteOrigin(req: Request): string {
	const configured = process.env.SITE_URL || process.env.URL;
	return configured ? new URL(configured).origin : new URL(req.url).origin;
}

/**
 * An event as the calendars read it: the public fields, and the text colour that reads on its
 * type's colour (the calendars' chips), worked out here so the islands carry no contrast code.
 */
function calendarEvent(event: Event) {
	return { ...publicEvent(event), EventTypeTextColor: readableTextColor(event.EventTypeColor) };
}

/** GET /api/events and /api/community-events: { Result } for a range. */
export async function listEventsResponse(options: {
	community: boolean;
	range: DateRange;
}): Promise<Response> {
	const { community, range } = options;
	const resource: EventsResource = community ? 'community_events' : 'events';
	const outcome = await withLastGood<Event[]>(
		`${resource}:${range.startDate}:${range.endDate}`,
		listErrorMessage(community),
		() => getEventsSource().listEvents({ community, ...rangeInstants(range) }),
	);
	if (!outcome.ok) return jsonError(502, outcome.message);
	return Response.json(
		{ Result: outcome.value.map(calendarEvent) },
		{
			headers: outcomeHeaders(outcome, {
				tags: cacheTags(resource),
				vary: ['v', 'startDate', 'endDate'],
			}),
		},
	);
}

// --- Feature switches --------------------------------------------------------------------------

/** An events area: chamber events, community events, or either (an event's own page and file). */
export type EventsArea = 'events' | 'community' | 'any';

const AREA_OFF: Record<EventsArea, string> = {
	events: 'Events are not available',
	community: 'Community events are not available',
	any: 'Events are not available',
};

/**
 * The 404 a function answers when the chamber has switched its area off (features.showEvents,
 * showCommunityEvents), as the area's pages answer 404; null while it is on. An event's details
 * and its calendar file serve both calendars, so they are gone only when both areas are off.
 */
export async function areaOffResponse(area: EventsArea): Promise<Response | null> {
	const client = getAnonClient();
	const tenant = await getCurrentTenant(client);
	const { features } = await getCachedChamberConfig(client, tenant.id);
	const on =
		area === 'events'
			? features.showEvents
			: area === 'community'
				? features.showCommunityEvents
				: features.showEvents || features.showCommunityEvents;
	return on ? null : jsonError(404, AREA_OFF[area]);
}
