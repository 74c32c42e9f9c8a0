import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * Rate limits kept in the database (migration 20261123000010), so they hold across every
 * instance of a function: Netlify runs many, each with its own memory. Callers pass a
 * service-role client; visitors cannot reach these functions.
 */

export interface RateLimit {
	/** What is limited, e.g. `login-ip:203.0.113.7`. */
	bucket: string;
	/** At most this many hits … */
	limit: number;
	/** … within this sliding window. */
	windowSeconds: number;
}

function fail(action: string, error: { message: string }): never {
	throw new Error(`Rate limit ${action} failed: ${error.message}`, { cause: error });
}

/** Seconds until every given bucket allows another hit (0: all allow one now). Counts nothing. */
export async function getRateLimitWait(
	service: SupabaseClient,
	limits: readonly RateLimit[],
): Promise<number> {
	const waits = await Promise.all(
		limits.map(async (l) => {
			const { data, error } = await service.rpc('rate_limit_status', {
				p_bucket: l.bucket,
				p_limit: l.limit,
				p_window_seconds: l.windowSeconds,
			});
			if (error) fail('check', error);
			return Number(data);
		}),
	);
	return Math.max(0, ...waits);
}

/**
 * Counts a hit when the bucket allows it, atomically across instances. Returns 0 when counted,
 * else the seconds to wait (and counts nothing).
 */
export async function takeRateLimit(service: SupabaseClient, limit: RateLimit): Promise<number> {
	const { data, error } = await service.rpc('rate_limit_hit', {
		p_bucket: limit.bucket,
		p_limit: limit.limit,
		p_window_seconds: limit.windowSeconds,
	});
	if (error) fail('hit', error);
	return Number(data);
}

/** Counts one hit on each bucket whatever its state (e.g. a failed sign-in). */
export async function recordRateLimitHits(
	service: SupabaseClient,
	buckets: readonly string[],
): Promise<void> {
	if (buckets.length === 0) return;
	const { error } = await service.rpc('rate_limit_record', { p_buckets: buckets });
	if (error) fail('record', error);
}

/** A readable wait for a 429 message: '42 seconds', '5 minutes', '1 hour'. */
export function describeWait(seconds: number): string {
	if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.ceil(seconds / 60);
	if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	const hours = Math.ceil(minutes / 60);
	return `${hours} hour${hours === 1 ? '' : 's'}`;
}
