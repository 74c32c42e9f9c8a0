import { z } from 'zod';

/**
 * Up to this many businesses a chamber's profiles are pre-rendered, one file each; above it they
 * are rendered on demand and kept by the CDN until a publish purges them
 * (docs/performance.md#benchbuild). Pre-rendering costs about 2 ms of CPU per profile on every
 * publish: 3,000 profiles are a third of a publish's build, 50,000 would take it past 3 minutes.
 * PRERENDERED_PROFILES_MAX, read at build time, overrides it.
 */
export const DEFAULT_PRERENDERED_PROFILES_MAX = 1_000;

const prerenderedMaxSchema = z.coerce
	.number({ error: 'PRERENDERED_PROFILES_MAX must be a whole number of businesses (0 or more)' })
	.int('PRERENDERED_PROFILES_MAX must be a whole number of businesses (0 or more)')
	.min(0, 'PRERENDERED_PROFILES_MAX must be a whole number of businesses (0 or more)');

/** How many businesses a chamber may have and still get pre-rendered profiles. */
export function prerenderedProfilesMax(env: NodeJS.ProcessEnv = process.env): number {
	const value = env.PRERENDERED_PROFILES_MAX?.trim();
	if (!value) return DEFAULT_PRERENDERED_PROFILES_MAX;
	const parsed = prerenderedMaxSchema.safeParse(value);
	if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
	return parsed.data;
}
