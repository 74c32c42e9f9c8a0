import { z } from 'zod';
import { hexColour } from './fields.ts';

// primaryDark is a darker shade of the primary blue and secondary the amber between the two
// lighter and darker ambers.
export const colorsSchema = z.object({
	/** Main brand colour (header, buttons); default #0d3e63. */
	primary: hexColour('#0d3e63'),
	/** Lighter brand shade for hovers and accents; default #5fa6d7. */
	primaryLight: hexColour('#5fa6d7'),
	/** Darker brand shade for pressed states and dark bands; default #082a44 (chosen). */
	primaryDark: hexColour('#082a44'),
	/** Accent colour (call-to-action highlights); default #F59E0B (chosen). */
	secondary: hexColour('#F59E0B'),
	/** Lighter accent shade; default #FBBF24. */
	secondaryLight: hexColour('#FBBF24'),
	/** Darker accent shade; default #D97706. */
	secondaryDark: hexColour('#D97706'),
});
