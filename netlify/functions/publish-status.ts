import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { publishStatusQuerySchema } from '../../src/features/publish/publish.ts';
import {
	expirePublishes,
	listPublishes,
	reconcileWithNetlify,
} from '../../src/features/publish/publish.server.ts';
import { listWaiting, readUsage } from '../../src/features/publish/policy.server.ts';
import { readPublishEnv, syncPublishBudget } from '../../src/features/publish/publish.server.ts';
import { listScheduled } from '../../src/features/publish/schedule.server.ts';
import { handleJson, parseQuery } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish-status' };

/**
 * The panel's publish status: the chamber's newest publishes, newest first, for its staff, and
 * its scheduled publishes (what waits, and what went live, failed or was cancelled in the last
 * day), the month's publishes against its budget (`usage`) and the changes waiting for a
 * publish (`waiting`, soonest first). Publishes silent for too long (`publish_silence_limit()`) are failed first; when
 * Netlify's notifications are late and a token is configured, Netlify's deploys list is read
 * instead.
 */
export default handleJson('publish-status', ['GET'], async (req) => {
	const session = await authenticate(req);
	const { limit } = parseQuery(publishStatusQuerySchema, req);
	const tenant = await getCurrentTenant();
	await expirePublishes(session.client, tenant.id);
	let publishes = await listPublishes(session.client, tenant.id, limit);
	if (await reconcileWithNetlify(tenant.id, publishes)) {
		publishes = await listPublishes(session.client, tenant.id, limit);
	}
	await syncPublishBudget(tenant.id, readPublishEnv());
	const [scheduled, usage, waiting] = await Promise.all([
		listScheduled(session.client, tenant.id, {
			finishedSince: new Date(Date.now() - 86_400_000),
		}),
		readUsage(session.client, tenant.id),
		listWaiting(session.client, tenant.id),
	]);
	return Response.json(
		{ publishes, scheduled, usage, waiting },
		{ headers: { 'Cache-Control': 'no-store' } },
	);
});
