import type { Config } from '@netlify/functions';
import { z } from 'zod';
import {
	areaOffResponse,
	cacheTags,
	eventIdParam,
	loadEvent,
	outcomeHeaders,
} from '../../src/features/events/api.server.ts';
import { publicEvent } from '../../src/features/events/events.ts';
import {
	BadRequest,
	handleJson,
	jsonError,
	parseQuery,
	versionParam,
} from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/event-details' };

const querySchema = z.object({
	v: versionParam,
	// An empty ?eventId= is no id at all.
	eventId: z.preprocess(
		(value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
		eventIdParam.optional(),
	),
});

export default handleJson('event-details', ['GET'], async (req) => {
	const off = await areaOffResponse('any');
	if (off) return off;
	const { eventId } = parseQuery(querySchema, req);
	if (eventId === undefined) throw new BadRequest('Event ID is required');
	const outcome = await loadEvent(eventId);
	if (!outcome.ok) return jsonError(502, outcome.message);
	if (!outcome.value) return jsonError(404, 'Event not found');
	return Response.json(publicEvent(outcome.value), {
		headers: outcomeHeaders(outcome, {
			tags: cacheTags('event_details', `event:${eventId}`),
			vary: ['v', 'eventId'],
		}),
	});
});
