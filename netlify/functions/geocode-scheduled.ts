import type { Config } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { readGeocoderSettings } from '../../src/features/geo/geocoder-settings.server.ts';
import { createGeocoder } from '../../src/features/geo/geocoder.server.ts';
import { geocodeDueRequests } from '../../src/features/geo/geocode.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

/**
 * Every minute (a Netlify scheduled function; `npm start` runs it too): places the chamber's
 * businesses whose address is new or changed, through the geocoder GEOCODER names, a batch a run
 * (docs/members.md#where-a-business-is). A save never waits for it.
 */
export const config: Config = { schedule: '* * * * *' };

/** Netlify gives a scheduled function 30 s; the geocoder gets at most this much of it. */
const RUN_BUDGET_MS = 22_000;

export default async (): Promise<Response> => {
	try {
		const tenant = await getCurrentTenant();
		const chamber = await getCachedChamberConfig(getAnonClient(), tenant.id);
		const geocoder = createGeocoder(readGeocoderSettings(chamber.contact.country));
		const counts = await geocodeDueRequests(getServiceClient(), tenant.id, geocoder, {
			budgetMs: RUN_BUDGET_MS,
		});
		if (counts.located + counts.unmatched + counts.failed + counts.dropped > 0) {
			console.log(
				`[geocode-scheduled] ${geocoder.name}: located ${counts.located}, not found ${counts.unmatched}, failed ${counts.failed}, dropped ${counts.dropped}`,
			);
		}
	} catch (error) {
		console.error('[geocode-scheduled]', error);
	}
	return new Response(null, { status: 204 });
};
