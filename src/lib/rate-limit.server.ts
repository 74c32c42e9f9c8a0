import type { SupabaseClient } from './database.ts';

/**
 * Rate limits kept in the database (rate_limit_take and its neighbours), so they hold across every
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

/**
 * Counts one attempt in every given bucket when all of them have room, atomically across
 * instances (a burst cannot pass the check before the first attempt is counted). Returns 0 when
 * counted, else the seconds to wait (and counts nothing). A bucket may come with several windows.
 */
export async function takeRateLimits(
	service: SupabaseClient,
	limits: readonly RateLimit[],
): Promise<number> {
	const { data, error } = await service.rpc('rate_limit_take', {
		p_limits: limits.map((l) => ({ bucket: l.bucket, limit: l.limit, window: l.windowSeconds })),
	});
	if (error) fail('take', error);
	return Number(data);
}

/** Takes back the newest hit of a bucket (an attempt that turned out fine). */
export async function refundRateLimit(service: SupabaseClient, bucket: string): Promise<void> {
	const { error } = await service.rpc('rate_limit_refund', { p_bucket: bucket });
	if (error) fail('refund', error);
}

/** Forgets every hit of a bucket. */
export async function clearRateLimit(service: SupabaseClient, bucket: string): Promise<void> {
	const { error } = await service.rpc('rate_limit_clear', { p_bucket: bucket });
	if (error) fail('clear', error);
}

/** A readable wait for a 429 message: '42 seconds', '5 minutes', '1 hour'. */
export function describeWait(seconds: number): string {
	if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	const minutes = Math.ceil(seconds / 60);
	if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	const hours = Math.ceil(minutes / 60);
	return `${hours} hour${hours === 1 ? '' : 's'}`;
}
