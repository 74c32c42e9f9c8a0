import { z } from 'zod';
import { MAX_LENGTH, FEATURED_COUNT, tooLong, levelNames, countWithFallback } from './fields.ts';

export const featuredBusinessesSchema = z.object({
	/** How home featured businesses are picked: membership | affiliation | random; default 'membership'. */
	strategy: z.enum(['membership', 'affiliation', 'random']).default('membership'),
	/** How many are shown, 1-6, anything else falls back to 2; default 2. */
	count: countWithFallback(FEATURED_COUNT),
	/** Lowercase level names eligible under the membership strategy; default ['trustee', 'chairman']. */
	membershipLevels: levelNames(['trustee', 'chairman']),
	/** Affiliation name used by the affiliation strategy, '' stored as unset; default unset. */
	affiliation: z
		.string()
		.trim()
		.max(MAX_LENGTH.short, tooLong(MAX_LENGTH.short))
		.optional()
		.transform((v) => (v ? v : undefined)),
	/** Only pick businesses with a phone or website plus an address; default true. */
	requireCompleteProfile: z.boolean().default(true),
	/** Show 'View All {affiliation} Members' under the affiliation strategy; default true. */
	showViewAllButton: z.boolean().default(true),
});
