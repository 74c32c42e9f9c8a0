import type { Config } from '@netlify/functions';
import {
	areaOffResponse,
	cacheTags,
	eventIdParam,
	loadEvent,
	outcomeHeaders,
	siteOrigin,
} from '../../src/features/events/api.server.ts';
import { eventSlug } from '../../src/features/events/events.ts';
import { eventsToIcs } from '../../src/features/events/ics.ts';
import { BadRequest, handleJson, jsonError } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/** 'Add to Calendar' on the event detail page: one event as an .ics download. */
export const config: Config = { path: '/api/events/:eventId.ics' };

export default handleJson('event-ics', ['GET'], async (req, context) => {
	const off = await areaOffResponse('any');
	if (off) return off;
	const parsed = eventIdParam.safeParse(context.params.eventId);
	if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? 'Bad event ID');
	const eventId = parsed.data;
	const outcome = await loadEvent(eventId);
	if (!outcome.ok) return jsonError(502, outcome.message);
	const event = outcome.value;
	if (!event) return jsonError(404, 'Event not found');
	const tenant = await getCurrentTenant();
	const body = eventsToIcs([event], { siteUrl: siteOrigin(req), calendarName: tenant.name });
	return new Response(body, {
		headers: {
			...outcomeHeaders(outcome, { tags: cacheTags('event_details', `event:${eventId}`) }),
			'Content-Type': 'text/calendar; charset=utf-8',
			'Content-Disposition': `attachment; filename="${eventSlug(event.EventName)}.ics"`,
		},
	});
});
