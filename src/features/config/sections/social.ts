import { z } from 'zod';
import { safeUrl } from './fields.ts';

export const socialSchema = z.object({
	/** Facebook page URL, icon shown only if set; default ''. */
	facebook: safeUrl(),
	/** Twitter/X profile URL, icon shown only if set; default ''. */
	twitter: safeUrl(),
	/** LinkedIn page URL, icon shown only if set; default ''. */
	linkedin: safeUrl(),
	/** Instagram profile URL, icon shown only if set; default ''. */
	instagram: safeUrl(),
	/** YouTube channel URL, icon shown only if set; default ''. */
	youtube: safeUrl(),
});
