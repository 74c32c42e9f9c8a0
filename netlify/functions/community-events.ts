import type { Config } from '@netlify/functions';
import {
	areaOffResponse,
	listEventsResponse,
	rangeQuerySchema,
	resolveRange,
} from '../../src/features/events/api.server.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/community-events' };

export default handleJson('community-events', ['GET'], async (req) => {
	const off = await areaOffResponse('community');
	if (off) return off;
	const query = parseQuery(rangeQuerySchema, req);
	return listEventsResponse({ community: true, range: resolveRange(query) });
});
