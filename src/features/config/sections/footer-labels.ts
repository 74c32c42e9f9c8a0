import { z } from 'zod';
import { text } from './fields.ts';

export const footerLabelsSchema = z.object({
	/** Label of the businessResourcesUrl footer link; default 'Small Business Resources'. */
	businessResourcesLabel: text('Small Business Resources'),
	/** Label of the workforceUrl footer link; default 'Workforce Resources'. */
	workforceLabel: text('Workforce Resources'),
	/** Label of the communityGuideUrl footer link; default 'Community Guide'. */
	communityGuideLabel: text('Community Guide'),
	/** Label of the jobBoardUrl footer link; default 'Job Board'. */
	jobBoardLabel: text('Job Board'),
});
