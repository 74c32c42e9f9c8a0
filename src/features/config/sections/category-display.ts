import { z } from 'zod';
import { CATEGORY_COUNT, countWithFallback } from './fields.ts';

export const categoryDisplaySchema = z.object({
	/** Number of home category tiles, 4-40, anything else falls back to 8; default 8. */
	count: countWithFallback(CATEGORY_COUNT),
	/** Tile order: popularity (count descending) | alphabetical; default 'popularity'. */
	sortBy: z.enum(['popularity', 'alphabetical']).default('popularity'),
});
