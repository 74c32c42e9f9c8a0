import type { Config } from '@netlify/functions';
import {
	areaOffResponse,
	listEventsResponse,
	rangeQuerySchema,
	resolveRange,
} from '../../src/features/events/api.server.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/events' };

export default handleJson('events', ['GET'], async (req) => {
	const off = await areaOffResponse('events');
	if (off) return off;
	const query = parseQuery(rangeQuerySchema, req);
	return listEventsResponse({ community: false, range: resolveRange(query) });
});
