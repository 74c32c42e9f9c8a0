import type { SupabaseClient } from '../../lib/database.ts';
import { z } from 'zod';
import {
	readLimited,
	sourceFetch,
	type PublicFetch,
	type PublicResponse,
} from '../../lib/public-fetch.server.ts';
import { blankAsUnset, httpUrlEnv, optionalEnv } from '../../lib/env.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import type { TenantRow } from '../tenants/tenants.server.ts';
import { dropClosed, sortByStart, type Event } from './events.ts';
import { isOwnEventId, ownEventToSource, type OwnEventRow } from './own-events.ts';
import { parseSourceEvent, parseSourceEvents } from './source-schema.ts';

/**
 * Where events come from: the local `events` table (imported from the tenant file), or the
 * membership system's public API (WebLink Connect "Atlas"); and beside either, the chamber's own
 * events (the Events tab's, its calendar feeds', approved submissions'). All answer in the Atlas
 * shape and drop closed events, so the functions and pages never know which one they talk to.
 */
export interface EventsSource {
	/** Open events of one kind overlapping [start, end], sorted by start. */
	listEvents(query: { community: boolean; start: Date; end: Date }): Promise<Event[]>;
	/** One open event (chamber or community), or null when there is none by that id. */
	getEvent(id: number): Promise<Event | null>;
}

/** A failure whose message may be shown to visitors. */
export class EventsSourceError extends Error {}

const EVENTS_FETCH_ERROR = 'Failed to fetch events';
const COMMUNITY_EVENTS_FETCH_ERROR = 'Failed to fetch community events';
const NO_EVENTS_IN_RESPONSE = 'No events found in response';
export const EVENT_DETAILS_ERROR = 'Failed to load event details';

export function listErrorMessage(community: boolean): string {
	return community ? COMMUNITY_EVENTS_FETCH_ERROR : EVENTS_FETCH_ERROR;
}

/** Atlas gets this long to answer before the request is abandoned (ATLAS_TIMEOUT_MS overrides). */
export const ATLAS_TIMEOUT_MS = 5_000;
/** The most of one Atlas answer read (a year of a large chamber's events is well under 1 MB). */
export const ATLAS_MAX_BYTES = 10 * 1024 * 1024;

// --- Local: the events table -------------------------------------------------------------------

interface EventRow {
	data: unknown;
}

/** Reads the `events` table as a visitor (anon: open events only), scoped to one tenant. */
function localEventsSource(
	client: SupabaseClient = getAnonClient(),
	tenant: () => Promise<TenantRow> = () => getCurrentTenant(),
): EventsSource {
	return {
		async listEvents({ community, start, end }) {
			const message = listErrorMessage(community);
			const { id } = await tenant().catch((cause: unknown) => {
				throw new EventsSourceError(message, { cause });
			});
			const { data, error } = await client
				.from('events')
				.select('data')
				.eq('tenant_id', id)
				.eq('source', community ? 'community' : 'chamber')
				.eq('closed', false)
				.lte('start_utc', end.toISOString())
				.gte('end_utc', start.toISOString())
				.order('start_utc')
				.order('event_id')
				.overrideTypes<EventRow[], { merge: false }>();
			if (error) throw new EventsSourceError(message, { cause: error });
			return dropClosed(
				parseSourceEvents(
					data.map((row) => row.data),
					'the events table',
				),
			);
		},

		async getEvent(eventId) {
			const { id } = await tenant().catch((cause: unknown) => {
				throw new EventsSourceError(EVENT_DETAILS_ERROR, { cause });
			});
			// An id names one event; should both kinds use it, the chamber's ('chamber' sorts first) wins.
			const { data, error } = await client
				.from('events')
				.select('data')
				.eq('tenant_id', id)
				.eq('event_id', eventId)
				.eq('closed', false)
				.order('source')
				.limit(1)
				.overrideTypes<EventRow[], { merge: false }>();
			if (error) throw new EventsSourceError(EVENT_DETAILS_ERROR, { cause: error });
			const row = data[0];
			if (!row) return null;
			const event = parseSourceEvent(row.data, 'the events table');
			return event && !event.Closed ? event : null;
		},
	};
}

// --- The chamber's own events ------------------------------------------------------------------

/**
 * The chamber's own published and cancelled events, one per date, read as a visitor through
 * public_chamber_events / public_chamber_event (drafts and submissions are never public).
 */
function ownEventsSource(
	reader: () => SupabaseClient = getAnonClient,
	tenant: () => Promise<TenantRow> = () => getCurrentTenant(),
): EventsSource {
	// Made at the first read: choosing the source needs no database settings yet.
	let made: SupabaseClient | undefined;
	const client = () => (made ??= reader());
	return {
		async listEvents({ community, start, end }) {
			const message = listErrorMessage(community);
			const { id } = await tenant().catch((cause: unknown) => {
				throw new EventsSourceError(message, { cause });
			});
			const { data, error } = await client().rpc('public_chamber_events', {
				p_tenant_id: id,
				p_calendar: community ? 'community' : 'chamber',
				p_start: start.toISOString(),
				p_end: end.toISOString(),
			});
			if (error) throw new EventsSourceError(message, { cause: error });
			return (data as unknown as OwnEventRow[]).flatMap((row) => {
				const event = ownEventToSource(row);
				return event ? [event] : [];
			});
		},

		async getEvent(eventId) {
			if (!isOwnEventId(eventId)) return null;
			const { id } = await tenant().catch((cause: unknown) => {
				throw new EventsSourceError(EVENT_DETAILS_ERROR, { cause });
			});
			const { data, error } = await client().rpc('public_chamber_event', {
				p_tenant_id: id,
				p_event_id: eventId,
			});
			if (error) throw new EventsSourceError(EVENT_DETAILS_ERROR, { cause: error });
			return data ? ownEventToSource(data as unknown as OwnEventRow) : null;
		},
	};
}

/**
 * A source with the chamber's own events beside it: lists merged by start, and an id of the
 * own events' range asked of them first (then of the source, should it use such an id too).
 */
export function withOwnEvents(source: EventsSource, own: EventsSource): EventsSource {
	return {
		async listEvents(query) {
			const [theirs, ours] = await Promise.all([source.listEvents(query), own.listEvents(query)]);
			return sortByStart([...theirs, ...ours]);
		},
		async getEvent(id) {
			if (isOwnEventId(id)) {
				const event = await own.getEvent(id);
				if (event) return event;
			}
			return source.getEvent(id);
		},
	};
}

// --- Atlas: WebLink Connect's public API -------------------------------------------------------

export interface AtlasOptions {
	/** e.g. https://api.weblinkconnect.com/api (no trailing slash needed). */
	baseUrl: string;
	/** Sent as `x-tenant`; without it Atlas answers 500. */
	tenant: string;
	/** How long Atlas gets to answer, body included (default ATLAS_TIMEOUT_MS). */
	timeoutMs?: number;
	/** The fetch (default sourceFetch(): public addresses only, redirects checked hop by hop). */
	fetcher?: PublicFetch;
}

async function atlasGet(options: AtlasOptions, path: string, failure: string): Promise<unknown> {
	const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
	const fetcher = options.fetcher ?? sourceFetch();
	// The signal also bounds reading the body, so a stalled stream cannot hang a request.
	const signal = AbortSignal.timeout(options.timeoutMs ?? ATLAS_TIMEOUT_MS);
	let response: PublicResponse;
	try {
		response = await fetcher(new URL(url), {
			headers: { accept: 'application/json', 'x-tenant': options.tenant },
			signal,
		});
	} catch (cause) {
		throw new EventsSourceError(failure, { cause });
	}
	if (response.status === 404 && path.startsWith('/Event/')) {
		await response.body?.cancel();
		return null;
	}
	if (!response.ok) {
		await response.body?.cancel();
		throw new EventsSourceError(failure, {
			cause: new Error(`GET ${url} answered HTTP ${response.status}`),
		});
	}
	try {
		const text = new TextDecoder().decode(await readLimited(response, ATLAS_MAX_BYTES));
		return text.trim() === '' ? null : (JSON.parse(text) as unknown);
	} catch (cause) {
		throw new EventsSourceError(failure, { cause });
	}
}

export function atlasEventsSource(options: AtlasOptions): EventsSource {
	return {
		async listEvents({ community, start, end }) {
			const query = new URLSearchParams({
				PageSize: '0',
				OrganizationEvent: 'true',
				CommunityEvent: String(community),
				EventClosed: 'false',
				SearchDateBegin: start.toISOString(),
				SearchDateEnd: end.toISOString(),
			});
			const body = await atlasGet(options, `/Events?${query}`, listErrorMessage(community));
			const rows = body && typeof body === 'object' && 'Result' in body ? body.Result : undefined;
			if (!Array.isArray(rows)) throw new EventsSourceError(NO_EVENTS_IN_RESPONSE);
			return sortByStart(dropClosed(parseSourceEvents(rows, 'Atlas /Events')));
		},

		async getEvent(id) {
			const body = await atlasGet(options, `/Event/${id}/Details`, EVENT_DETAILS_ERROR);
			// A missing event is a "soft 404": 200 with an empty or null body, or an error object.
			if (!body || typeof body !== 'object') return null;
			const row = 'EventId' in body ? body : 'Result' in body ? body.Result : null;
			if (!row || typeof row !== 'object' || !('EventId' in row)) return null;
			const event = parseSourceEvent(row, `Atlas /Event/${id}/Details`);
			return event && event.EventId === id && !event.Closed ? event : null;
		},
	};
}

// --- Choosing one ------------------------------------------------------------------------------

const sourceEnvSchema = z
	.object({
		/** Base URL of the Atlas API; when set, events come from there instead of the database. */
		ATLAS_BASE_URL: optionalEnv(httpUrlEnv('ATLAS_BASE_URL')),
		/** The chamber's Atlas tenant name, sent as x-tenant. */
		ATLAS_TENANT: optionalEnv(z.string().trim().min(1)),
		/** How long one Atlas request may take (default 5000 ms). */
		ATLAS_TIMEOUT_MS: z.preprocess(
			blankAsUnset,
			z.coerce.number().int().min(100).max(60_000).default(ATLAS_TIMEOUT_MS),
		),
	})
	.superRefine((env, ctx) => {
		if (Boolean(env.ATLAS_BASE_URL) !== Boolean(env.ATLAS_TENANT)) {
			ctx.addIssue({
				code: 'custom',
				message: 'ATLAS_BASE_URL and ATLAS_TENANT go together: set both or neither',
			});
		}
	});

export type EventsSourceConfig =
	{ kind: 'local' } | { kind: 'atlas'; baseUrl: string; tenant: string; timeoutMs: number };

export function readEventsSourceConfig(env: NodeJS.ProcessEnv = process.env): EventsSourceConfig {
	const parsed = sourceEnvSchema.safeParse(env);
	if (!parsed.success) {
		throw new Error(
			`Invalid events source: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
		);
	}
	const { ATLAS_BASE_URL, ATLAS_TENANT, ATLAS_TIMEOUT_MS: timeoutMs } = parsed.data;
	return ATLAS_BASE_URL && ATLAS_TENANT
		? { kind: 'atlas', baseUrl: ATLAS_BASE_URL, tenant: ATLAS_TENANT, timeoutMs }
		: { kind: 'local' };
}

let chosen: { key: string; source: EventsSource } | undefined;

/**
 * The events source the environment asks for, made (and logged) once; a changed environment,
 * as in tests that switch to Atlas, makes a new one.
 */
export function getEventsSource(env: NodeJS.ProcessEnv = process.env): EventsSource {
	const config = readEventsSourceConfig(env);
	const key = JSON.stringify(config);
	if (chosen?.key === key) return chosen.source;
	const source = withOwnEvents(
		config.kind === 'atlas' ? atlasEventsSource(config) : localEventsSource(),
		ownEventsSource(),
	);
	console.log(
		config.kind === 'atlas'
			? `Events source: Atlas at ${config.baseUrl} (x-tenant ${config.tenant}), and the chamber's own events`
			: "Events source: the local events table, and the chamber's own events",
	);
	chosen = { key, source };
	return source;
}
