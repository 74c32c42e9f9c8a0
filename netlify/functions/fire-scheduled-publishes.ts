import type { Config } from '@netlify/functions';
import { fireDueSchedules } from '../../src/features/publish/schedule.server.ts';
import { SCHEDULE_CRON } from '../../src/features/publish/schedule.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every 5 minutes (a Netlify scheduled function): the chamber's scheduled changes that are due
 * are written in their authors' names and published in one build; one that cannot be written
 * (someone changed the same field since, its author lost the rights) is marked failed with the
 * reason, which the panel shows.
 */
export const config: Config = { schedule: SCHEDULE_CRON };

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
