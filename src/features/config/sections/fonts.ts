import { z } from 'zod';
import { FONT_CHOICES, describeValue } from './fields.ts';

const fontChoice = z
	.enum(FONT_CHOICES, {
		error: (iss) =>
			`Expected one of the ${FONT_CHOICES.length} supported fonts (${FONT_CHOICES.join(', ')}), received ${describeValue(iss.input)}`,
	})
	.default('Inter');

export const fontsSchema = z.object({
	/** Font family for headings, one of FONT_CHOICES; default Inter. */
	heading: fontChoice,
	/** Font family for body text, one of FONT_CHOICES; default Inter. */
	body: fontChoice,
});
