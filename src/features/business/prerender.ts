import { z } from 'zod';

/**
 * Up to this many businesses a chamber's profiles are pre-rendered, one file each; above it they
 * are rendered on demand and kept by the CDN until a publish or a purge of their business's tag
 * (docs/performance.md#profiles-on-demand-at-every-size). The default is none at any size: a
 * profile rendered on demand keeps every page budget, and a change only a profile shows (a
 * member's opening hours) then needs a purge rather than a build, which keeps a 300-member
 * chamber's month within its deploy budget (37 deploys against 56 with the profiles pre-rendered,
 * bench:month). Pre-rendering also costs about 2 ms of CPU per profile on every publish.
 * PRERENDERED_PROFILES_MAX, read at build time and by the publishing functions, pre-renders
 * the profiles of a chamber up to that many businesses instead.
 */
export const DEFAULT_PRERENDERED_PROFILES_MAX = 0;

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
