import { z } from 'zod';
import { levelNames } from './fields.ts';

export const membershipLevelsSchema = z.object({
	/** Lowercase level names counted as featured; default ['trustee']. */
	featured: levelNames(['trustee']),
	/** Lowercase level names whose website is linked; default trustee, chairman, executive partner, executive, corporate, corporate partner. */
	canLinkWebsite: levelNames([
		'trustee',
		'chairman',
		'executive partner',
		'executive',
		'corporate',
		'corporate partner',
	]),
});
