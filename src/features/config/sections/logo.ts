import { z } from 'zod';
import { safeUrl } from './fields.ts';

export const logoSchema = z.object({
	/** Standard (wide) logo URL for the header; default ''. */
	standard: safeUrl(),
	/** Stacked logo URL used on mobile; default ''. */
	stacked: safeUrl(),
	/** Favicon URL; default ''. */
	favicon: safeUrl(),
});
