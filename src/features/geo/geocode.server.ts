import type { SupabaseClient } from '../../lib/database.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.server.ts';

/**
 * The geocoder's queue worked through (the scheduled geocode function): claim the chamber's due
 * requests, ask the geocoder for their addresses, record the answers. The database decides what
 * an answer may change (record_geocodes: never a pin staff placed, never a newer address).
 */

/** What one run did, as record_geocodes counts it. */
export interface GeocodeCounts {
	located: number;
	unmatched: number;
	failed: number;
	/** Answers for an address that changed meanwhile, dropped. */
	dropped: number;
}

const NO_GEOCODES: GeocodeCounts = { located: 0, unmatched: 0, failed: 0, dropped: 0 };

/** A run holds its requests this long; one that dies leaves them to the next after it. */
const LEASE_SECONDS = 120;

/** One run: at most the geocoder's batch of due requests, within `budgetMs`. */
export async function geocodeDueRequests(
	service: SupabaseClient,
	tenantId: string,
	geocoder: Geocoder,
	options: { budgetMs?: number } = {},
): Promise<GeocodeCounts> {
	if (geocoder.batchSize === 0) return NO_GEOCODES;
	const { data: due, error } = await service.rpc('claim_geocode_requests', {
		p_tenant_id: tenantId,
		p_limit: geocoder.batchSize,
		p_lease_seconds: LEASE_SECONDS,
	});
	if (error)
		throw new Error(`Failed to claim geocoding requests: ${error.message}`, { cause: error });
	if (due.length === 0) return NO_GEOCODES;
	const outcomes = await geocoder.geocode(
		due.map((row) => ({
			key: row.profile_id,
			address: {
				address1: row.address1,
				address2: row.address2,
				city: row.city,
				state: row.state,
				zip: row.zip,
			},
		})),
		AbortSignal.timeout(options.budgetMs ?? 25_000),
	);
	const requestedAt = new Map(due.map((row) => [row.profile_id, row.requested_at]));
	const { data, error: recordError } = await service.rpc('record_geocodes', {
		p_tenant_id: tenantId,
		p_results: outcomes.map((outcome: GeocodeOutcome) => ({
			...outcome,
			profile_id: outcome.key,
			requested_at: requestedAt.get(outcome.key) ?? null,
		})),
	});
	if (recordError) {
		throw new Error(`Failed to record the geocoder's answers: ${recordError.message}`, {
			cause: recordError,
		});
	}
	return data;
}
