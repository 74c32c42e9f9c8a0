import type { Config } from '@netlify/functions';
import { z } from 'zod';
import {
	cacheTags,
	outcomeHeaders,
	siteOrigin,
	withLastGood,
} from '../../src/features/events/api.server.ts';
import { eventSlug } from '../../src/features/events/events.ts';
import { eventsToIcs } from '../../src/features/events/ics.ts';
import { EVENT_DETAILS_ERROR, getEventsSource } from '../../src/features/events/source.server.ts';
import { BadRequest, handleJson, jsonError } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/** 'Add to Calendar' on the event detail page: one event as an .ics download. */
export const config: Config = { path: '/api/events/:eventId.ics', method: ['GET'] };

const idSchema = z
	.string()
	.regex(/^\d{1,9}$/)
	.transform(Number);

export default handleJson('event-ics', ['GET'], async (req, context) => {
	const parsed = idSchema.safeParse(context.params.eventId);
	if (!parsed.success || parsed.data < 1) {
		throw new BadRequest('Event ID must be a positive whole number');
	}
	const eventId = parsed.data;
	const outcome = await withLastGood(`event:${eventId}`, EVENT_DETAILS_ERROR, () =>
		getEventsSource().getEvent(eventId),
	);
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
