import type { Config } from '@netlify/functions';
import { triggerBackground } from '../../src/features/members/import/trigger.server.ts';
import { readSyncConfig } from '../../src/features/members/sync/atlas.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

// A literal: Netlify reads a function's config from its source without running it. The panel
// shows SYNC_SCHEDULE, which a test holds to this.
export const config: Config = { schedule: '@daily' };

/**
 * The daily sync from the membership system: queues a sync of this deployment's chamber that
 * applies itself when its dry run finds no invalid row (members the export no longer has are
 * unpublished, or kept with MEMBER_SYNC_MISSING=keep), and hands it to the background function
 * (a scheduled function has 30 seconds). Its report is in the panel with the last 20 runs.
 */
export default async (req: Request): Promise<Response> => {
	const sync = readSyncConfig();
	if (!sync) {
		console.log('[member-sync] no membership system is set up (ATLAS_MEMBERS_URL); nothing to do');
		return new Response(null, { status: 204 });
	}
	const service = getServiceClient();
	const tenant = await getCurrentTenant(service);
	const { data, error } = await service.rpc('create_member_import', {
		p_tenant_id: tenant.id,
		p_kind: 'sync',
		p_source: 'MemberClicks Atlas (scheduled)',
		p_auto_apply: true,
	});
	if (error) {
		console.error(`[member-sync] could not queue the sync: ${error.message}`);
		return new Response(null, { status: 500 });
	}
	const origin = process.env.URL || new URL(req.url).origin;
	await triggerBackground(origin, data as string);
	return new Response(null, { status: 202 });
};
