import type { Config } from '@netlify/functions';
import { z } from 'zod';
import {
	areaOffResponse,
	cacheTags,
	MAX_RANGE_DAYS,
	outcomeHeaders,
	siteOrigin,
	withLastGood,
} from '../../src/features/events/api.server.ts';
import type { Event } from '../../src/features/events/events.ts';
import { eventsToIcs } from '../../src/features/events/ics.ts';
import { getEventsSource, listErrorMessage } from '../../src/features/events/source.server.ts';
import { handleJson, jsonError, parseQuery, versionParam } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * A calendar feed to subscribe to: every upcoming (or ongoing) chamber event, or with
 * ?source=community the community events.
 */
export const config: Config = { path: '/api/events.ics' };

const querySchema = z.object({
	v: versionParam,
	source: z.enum(['chamber', 'community']).default('chamber'),
});

export default handleJson('events-ics', ['GET'], async (req) => {
	const { source } = parseQuery(querySchema, req);
	const community = source === 'community';
	const off = await areaOffResponse(community ? 'community' : 'events');
	if (off) return off;
	const start = new Date();
	const end = new Date(start.getTime() + MAX_RANGE_DAYS * 86_400_000);
	const outcome = await withLastGood<Event[]>(`ics:${source}`, listErrorMessage(community), () =>
		getEventsSource().listEvents({ community, start, end }),
	);
	if (!outcome.ok) return jsonError(502, outcome.message);
	const tenant = await getCurrentTenant();
	const body = eventsToIcs(outcome.value, {
		siteUrl: siteOrigin(req),
		calendarName: `${tenant.name}${community ? ' Community Events' : ' Events'}`,
	});
	return new Response(body, {
		headers: {
			...outcomeHeaders(outcome, {
				tags: cacheTags(community ? 'community_events' : 'events', 'ics'),
				vary: ['v', 'source'],
			}),
			'Content-Type': 'text/calendar; charset=utf-8',
			'Content-Disposition': `inline; filename="${tenant.slug}-${source}-events.ics"`,
		},
	});
});
