import type { ChamberConfig } from '../config/config.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { eventIdParam, loadEvent } from './api.server.ts';
import type { Event } from './events.ts';

/** What the on-demand event detail page shows: the event, or why there is none. */
export type EventLookup =
	{ kind: 'found'; event: Event; staleSince?: Date } | { kind: 'not-found' } | { kind: 'failed' };

/**
 * Everything the event detail page needs, read as a visitor would (anon): the chamber's
 * configuration and the event (closed and unknown ids are not found).
 */
export async function getEventPageData(
	eventIdText: string | undefined,
): Promise<{ config: ChamberConfig; lookup: EventLookup }> {
	const client = getAnonClient();
	const tenant = await getCurrentTenant(client);
	const config = await getCachedChamberConfig(client, tenant.id);
	const id = eventIdParam.safeParse(eventIdText ?? '');
	if (!id.success) return { config, lookup: { kind: 'not-found' } };
	const outcome = await loadEvent(id.data);
	if (!outcome.ok) return { config, lookup: { kind: 'failed' } };
	if (!outcome.value) return { config, lookup: { kind: 'not-found' } };
	return {
		config,
		lookup: { kind: 'found', event: outcome.value, staleSince: outcome.staleSince },
	};
}
