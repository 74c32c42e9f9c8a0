import { z } from 'zod';
import { hexColour } from './fields.ts';

export const textColorsSchema = z.object({
	/** Heading text on light backgrounds; default #1a202c. */
	heading: hexColour('#1a202c'),
	/** Body text on light backgrounds; default #374151. */
	body: hexColour('#374151'),
	/** Link text; default #0d3e63. */
	link: hexColour('#0d3e63'),
	/** Link text on hover; default #5fa6d7. */
	linkHover: hexColour('#5fa6d7'),
	/** Heading text on dark backgrounds; default #ffffff. */
	onDarkHeading: hexColour('#ffffff'),
	/** Body text on dark backgrounds; default #e5e7eb. */
	onDarkBody: hexColour('#e5e7eb'),
});
