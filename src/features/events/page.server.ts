import type { ChamberConfig } from '../config/config.ts';
import { getChamberConfig } from '../config/config.server.ts';
import type { TenantRow } from '../tenants/tenants.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { withLastGood } from './api.server.ts';
import type { Event } from './events.ts';
import { EVENT_DETAILS_ERROR, getEventsSource } from './source.server.ts';

/**
 * Everything the on-demand event detail page needs, read as a visitor would (anon): the tenant,
 * its configuration and the event.
 */
export type EventLookup =
	| { kind: 'found'; event: Event; staleSince?: Date }
	| { kind: 'not-found' }
	| { kind: 'failed'; message: string };

export interface EventPageData {
	tenant: TenantRow;
	config: ChamberConfig;
	lookup: EventLookup;
}

const EVENT_ID = /^\d{1,9}$/;

export async function getEventPageData(eventIdParam: string | undefined): Promise<EventPageData> {
	const client = getAnonClient();
	const tenant = await getCurrentTenant(client);
	const config = await getChamberConfig(client, tenant.id);
	const id = eventIdParam && EVENT_ID.test(eventIdParam) ? Number(eventIdParam) : 0;
	if (id < 1) return { tenant, config, lookup: { kind: 'not-found' } };
	const outcome = await withLastGood(`event:${id}`, EVENT_DETAILS_ERROR, () =>
		getEventsSource().getEvent(id),
	);
	if (!outcome.ok) return { tenant, config, lookup: { kind: 'failed', message: outcome.message } };
	if (!outcome.value) return { tenant, config, lookup: { kind: 'not-found' } };
	return {
		tenant,
		config,
		lookup: { kind: 'found', event: outcome.value, staleSince: outcome.staleSince },
	};
}
