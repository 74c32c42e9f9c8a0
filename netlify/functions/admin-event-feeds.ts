import type { Config, Context } from '@netlify/functions';
import { ROLE_SETS } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { publishEventChange } from '../../src/features/chamber-events/chamber-events.server.ts';
import { eventListQuerySchema } from '../../src/features/chamber-events/chamber-events.ts';
import { mailFeedFailure } from '../../src/features/chamber-events/feed-mail.server.ts';
import { FEED_LIMITS } from '../../src/features/chamber-events/feed-limits.ts';
import { feedAddSchema } from '../../src/features/chamber-events/feeds.ts';
import {
	addFeed,
	listFeeds,
	readFeedNow,
	removeFeed,
	type ServerRead,
} from '../../src/features/chamber-events/feeds.server.ts';
import { chamberOf } from '../../src/features/versioned/versioned.server.ts';
import {
	handleJson,
	HttpError,
	jsonError,
	parseJsonBody,
	parseQuery,
} from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';
import type { TenantRow } from '../../src/features/tenants/lookup.server.ts';

export const config: Config = {
	path: [
		'/api/admin/event-feeds',
		'/api/admin/event-feeds/:id',
		'/api/admin/event-feeds/:id/:action',
	],
};

const noStore = { 'Cache-Control': 'no-store' };

/** The methods of each address this function answers. */
const ROUTES = {
	list: ['GET', 'POST'],
	item: ['DELETE'],
	preview: ['POST'],
	read: ['POST'],
} as const;

function route(context: Context): keyof typeof ROUTES | null {
	const { id, action } = context.params;
	if (id === undefined) return 'list';
	if (action === undefined) return 'item';
	return action === 'preview' || action === 'read' ? action : null;
}

/** What a read that changed something or failed leads to: the calendars' answers, the e-mail. */
async function afterRead(
	read: ServerRead & { feed: { id: string; name: string; url: string } },
	tenant: TenantRow,
	req: Request,
	context: Context,
): Promise<void> {
	const r = read.result;
	if (!read.dryRun && r && r.added + r.updated + r.cancelled > 0) await publishEventChange(tenant);
	if (read.error && read.notify) {
		context.waitUntil(
			mailFeedFailure(
				getServiceClient(),
				tenant,
				read.feed,
				{ error: read.error, since: read.errorSince ?? new Date().toISOString() },
				process.env.URL || new URL(req.url).origin,
			),
		);
	}
}

/**
 * The chamber's calendar feeds (bearer; admins and super_admins, `?chamber=` for a super_admin's
 * other chamber):
 * - GET → `{feeds, limits}`; POST `{url, calendar, name}` → 201 `{feed, read}`: added and
 *   previewed at once (`read.dryRun`: nothing is on the calendars yet);
 * - POST `/{id}/preview` → `{feed, read}` what a read would change, writing nothing;
 * - POST `/{id}/read` → `{feed, read}` read now (the first makes the feed active: read on the
 *   schedule from then on);
 * - DELETE `/{id}` → `{id, events}`: the feed and the events it brought.
 * A feed that cannot be read answers 200 with `read.error` (its events stay as they were).
 */
export default handleJson('admin-event-feeds', ['GET', 'POST', 'DELETE'], async (req, context) => {
	const which = route(context);
	if (!which) throw new HttpError(404, 'Not found');
	const methods: readonly string[] = ROUTES[which];
	if (!methods.includes(req.method)) {
		return jsonError(405, `Method ${req.method} not allowed`, { Allow: methods.join(', ') });
	}
	const session = await authenticate(req, { roles: ROLE_SETS.admins });
	const { chamber } = parseQuery(eventListQuerySchema.pick({ chamber: true }), req);
	const tenant = await chamberOf(session, chamber);
	const { client } = session;

	if (which === 'list' && req.method === 'GET') {
		return Response.json(
			{ feeds: await listFeeds(client, tenant.id), limits: FEED_LIMITS },
			{ headers: noStore },
		);
	}
	if (which === 'list') {
		const body = await parseJsonBody(feedAddSchema, req);
		const feed = await addFeed(client, tenant.id, body);
		const read = await readFeedNow(client, tenant, feed.id, { dryRun: true });
		await afterRead(read, tenant, req, context);
		const { feed: after, ...rest } = read;
		return Response.json({ feed: after, read: rest }, { status: 201, headers: noStore });
	}
	if (which === 'item') {
		const removed = await removeFeed(client, tenant.id, context.params.id);
		if (removed.events > 0) await publishEventChange(tenant);
		return Response.json(removed, { headers: noStore });
	}
	const read = await readFeedNow(client, tenant, context.params.id, {
		dryRun: which === 'preview',
	});
	await afterRead(read, tenant, req, context);
	const { feed, ...rest } = read;
	return Response.json({ feed, read: rest }, { headers: noStore });
});
