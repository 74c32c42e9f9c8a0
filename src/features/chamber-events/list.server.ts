import type { SupabaseClient } from '../../lib/database.ts';
import { MAX_RANGE_DAYS } from '../events/api.server.ts';
import { atlasEventsSource, readEventsSourceConfig } from '../events/source.server.ts';
import { refusal } from '../members/refusal.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import type { EventListQuery, EventListResult } from './chamber-events.ts';

/*
 * The Events tab's list, apart from the event writes: with the membership system as the events
 * source it reads Atlas too, and the source's checked fetch (undici) and the calendars' reads
 * then travel only with the list's function.
 */

/** How far back and ahead the tab lists the membership system's events. */
const ATLAS_BACK_DAYS = 366;

/** The membership system's events as list rows, when the deployment reads them (read-only). */
async function atlasRows(): Promise<{ rows: unknown[] | null; error: string | null }> {
	const config = readEventsSourceConfig();
	if (config.kind !== 'atlas') return { rows: null, error: null };
	const source = atlasEventsSource(config);
	const start = new Date(Date.now() - ATLAS_BACK_DAYS * 86_400_000);
	const end = new Date(start.getTime() + MAX_RANGE_DAYS * 86_400_000);
	try {
		const [chamber, community] = await Promise.all([
			source.listEvents({ community: false, start, end }),
			source.listEvents({ community: true, start, end }),
		]);
		const rows = [
			...chamber.map((e) => ({ e, calendar: 'chamber' })),
			...community.map((e) => ({ e, calendar: 'community' })),
		].map(({ e, calendar }) => ({
			eventId: e.EventId,
			name: e.EventName,
			calendar,
			eventType: e.EventType,
			startUtc: e.StartDateTimeUtc,
			endUtc: e.EndDateTimeUtc,
		}));
		return { rows, error: null };
	} catch (error) {
		console.error('[admin-events] the membership system’s events could not be read:', error);
		return { rows: [], error: 'The membership system’s events could not be read just now.' };
	}
}

export async function listEvents(
	client: SupabaseClient,
	tenant: TenantRow,
	query: EventListQuery,
): Promise<EventListResult & { atlasError?: string }> {
	const wantsAtlas = !query.source || query.source === 'atlas';
	const atlas = wantsAtlas ? await atlasRows() : { rows: null, error: null };
	const { data, error } = await client.rpc('admin_list_chamber_events', {
		p_tenant_id: tenant.id,
		p_query: query.q ?? null,
		p_when: query.when ?? null,
		p_type: query.type ?? null,
		p_origin: query.source ?? null,
		// With the membership system the tenant file's events are not on the site.
		p_with_file: atlas.rows === null,
		p_limit: query.pageSize,
		p_offset: (query.page - 1) * query.pageSize,
		p_extra: atlas.rows as never,
	});
	if (error) throw refusal(error, 'Listing the events');
	return {
		events: data.events,
		total: Number(data.total),
		...(atlas.error ? { atlasError: atlas.error } : {}),
	};
}
