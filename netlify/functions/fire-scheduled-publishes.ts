import type { Config } from '@netlify/functions';
import { mailBudgetWarnings } from '../../src/features/publish/budget-mail.server.ts';
import { fireWindow } from '../../src/features/publish/policy.server.ts';
import { fireDueSchedules } from '../../src/features/publish/schedule.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every 5 minutes (a Netlify scheduled function; `npm start` runs it too):
 * 1. the chamber's scheduled changes that are due are written in their authors' names and
 *    published in one build, which takes every change waiting for the window with it; one that
 *    cannot be written (someone changed the same field since, its author lost the rights) is
 *    marked failed with the reason, which the panel shows;
 * 2. the window's publish: when the changes members, syncs and imports made are due (their mark
 *    is ten minutes off), one build for all of them, as the database decides (at the month's
 *    budget, once a day);
 * 3. the month's budget warning, at 80 %, is e-mailed to the chamber's admins (once).
 */
// A literal: Netlify reads a function's config from its source without running it. Every 5
// minutes, the marks publish times and windows are on (SCHEDULE_STEP_MINUTES).
export const config: Config = { schedule: '*/5 * * * *' };

export default async (): Promise<Response> => {
	try {
		const tenant = await getCurrentTenant();
		const { fired, publish, waiting } = await fireDueSchedules(tenant.id);
		if (fired.length) {
			const published = fired.filter((f) => f.state === 'published').length;
			console.log(
				`[fire-scheduled-publishes] ${published} published, ${fired.length - published} failed` +
					(publish ? `; publish ${publish.id} requested` : '') +
					(waiting ? `; the month's budget is used: live by ${waiting.dueAt}` : ''),
			);
		}
		const window = await fireWindow(tenant.id);
		if (window) console.log(`[fire-scheduled-publishes] the window's publish: ${window.id}`);
		const siteUrl = process.env.SITE_URL || process.env.URL || 'http://localhost:8888';
		const mailed = await mailBudgetWarnings(getServiceClient(), tenant.id, siteUrl);
		if (mailed) console.log(`[fire-scheduled-publishes] budget warning e-mailed to ${mailed}`);
	} catch (error) {
		console.error('[fire-scheduled-publishes]', error);
	}
	return new Response(null, { status: 204 });
};
