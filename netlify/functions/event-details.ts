import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { cacheTags, outcomeHeaders, withLastGood } from '../../src/features/events/api.server.ts';
import { EVENT_DETAILS_ERROR, getEventsSource } from '../../src/features/events/source.server.ts';
import {
	BadRequest,
	handleJson,
	jsonError,
	parseQuery,
	versionParam,
} from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/event-details', method: ['GET'] };

const querySchema = z.object({
	v: versionParam,
	// An empty ?eventId= is no id at all.
	eventId: z.preprocess(
		(value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
		z
			.string()
			.trim()
			.regex(/^\d{1,9}$/, { error: 'Event ID must be a positive whole number' })
			.transform(Number)
			.refine((id) => id > 0, { error: 'Event ID must be a positive whole number' })
			.optional(),
	),
});

export default handleJson('event-details', ['GET'], async (req) => {
	const { eventId } = parseQuery(querySchema, req);
	if (eventId === undefined) throw new BadRequest('Event ID is required');
	const outcome = await withLastGood(`event:${eventId}`, EVENT_DETAILS_ERROR, () =>
		getEventsSource().getEvent(eventId),
	);
	if (!outcome.ok) return jsonError(502, outcome.message);
	if (!outcome.value) return jsonError(404, 'Event not found');
	return Response.json(outcome.value, {
		headers: outcomeHeaders(outcome, {
			tags: cacheTags('event_details', `event:${eventId}`),
			vary: ['v', 'eventId'],
		}),
	});
});
