import type { Config } from '@netlify/functions';
import { publishEventChange } from '../../src/features/chamber-events/chamber-events.server.ts';
import { mailFeedFailure } from '../../src/features/chamber-events/feed-mail.server.ts';
import { readActiveFeeds } from '../../src/features/chamber-events/feeds.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

// A literal: Netlify reads a function's config from its source without running it. The panel
// shows FEED_LIMITS.scheduleMinutes, which a test holds to this.
export const config: Config = { schedule: '*/30 * * * *' };

/**
 * Every 30 minutes: reads each active calendar feed of this deployment's chamber into its
 * calendars (as the server: apply_event_feed lets the service role read any feed), purges the
 * calendars' answers when something changed, and e-mails the admins about a feed that stopped
 * working (its first failure, then once a day while it lasts). Feeds still in preview wait for
 * their admins to import them.
 */
export default async (req: Request): Promise<Response> => {
	const service = getServiceClient();
	const tenant = await getCurrentTenant(service);
	const reads = await readActiveFeeds(service, tenant);
	const siteUrl = process.env.URL || new URL(req.url).origin;
	let changed = 0;
	for (const read of reads) {
		const r = read.result;
		if (r) changed += r.added + r.updated + r.cancelled;
		if (read.error) {
			console.warn(`[event-feeds] ${read.feed.name || read.feed.id}: ${read.error}`);
			if (read.notify) {
				await mailFeedFailure(
					service,
					tenant,
					read.feed,
					{
						error: read.error,
						since: read.errorSince ?? new Date().toISOString(),
					},
					siteUrl,
				);
			}
		}
	}
	if (changed > 0) await publishEventChange(tenant);
	console.log(
		`[event-feeds] read ${reads.length} feed(s): ${changed} change(s), ${reads.filter((r) => r.error).length} failed`,
	);
	return Response.json({ feeds: reads.length, changed });
};
