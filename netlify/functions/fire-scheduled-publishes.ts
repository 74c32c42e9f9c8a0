import type { Config } from '@netlify/functions';
import { fireDueSchedules } from '../../src/features/publish/schedule.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every 5 minutes (a Netlify scheduled function): the chamber's scheduled changes that are due
 * are written in their authors' names and published in one build; one that cannot be written
 * (someone changed the same field since, its author lost the rights) is marked failed with the
 * reason, which the panel shows.
 */
// A literal: Netlify reads a function's config from its source without running it. Every 5
// minutes, the marks publish times are on (SCHEDULE_STEP_MINUTES).
export const config: Config = { schedule: '*/5 * * * *' };

export default async (): Promise<Response> => {
	try {
		const tenant = await getCurrentTenant();
		const { fired, publish } = await fireDueSchedules(tenant.id);
		if (fired.length) {
			const published = fired.filter((f) => f.state === 'published').length;
			console.log(
				`[fire-scheduled-publishes] ${published} published, ${fired.length - published} failed` +
					(publish ? `; publish ${publish.id} requested` : ''),
			);
		}
	} catch (error) {
		console.error('[fire-scheduled-publishes]', error);
	}
	return new Response(null, { status: 204 });
};
