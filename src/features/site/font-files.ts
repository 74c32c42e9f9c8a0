// Each self-hosted font file is imported on its own with `?url`, not read from node_modules when
// a page renders: Vite then copies it into the build as a hashed /_astro/ asset (cached forever,
// see public/_headers) and puts its URL into the code, so rendering needs no file system, also
// in the on-demand event page's function, whose bundle has no fontsource packages. The imports
// are static, one per file: a bundler only sees static imports. font-files.test.ts holds this
// table to the packages' own lists.
import type { FontChoice } from '../config/config.ts';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import interLatinExt from '@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2?url';
import robotoLatin from '@fontsource-variable/roboto/files/roboto-latin-wght-normal.woff2?url';
import robotoLatinExt from '@fontsource-variable/roboto/files/roboto-latin-ext-wght-normal.woff2?url';
import openSansLatin from '@fontsource-variable/open-sans/files/open-sans-latin-wght-normal.woff2?url';
import openSansLatinExt from '@fontsource-variable/open-sans/files/open-sans-latin-ext-wght-normal.woff2?url';
import latoLatin400 from '@fontsource/lato/files/lato-latin-400-normal.woff2?url';
import latoLatinExt400 from '@fontsource/lato/files/lato-latin-ext-400-normal.woff2?url';
import latoLatin700 from '@fontsource/lato/files/lato-latin-700-normal.woff2?url';
import latoLatinExt700 from '@fontsource/lato/files/lato-latin-ext-700-normal.woff2?url';
import montserratLatin from '@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2?url';
import montserratLatinExt from '@fontsource-variable/montserrat/files/montserrat-latin-ext-wght-normal.woff2?url';
import poppinsLatin400 from '@fontsource/poppins/files/poppins-latin-400-normal.woff2?url';
import poppinsLatinExt400 from '@fontsource/poppins/files/poppins-latin-ext-400-normal.woff2?url';
import poppinsLatin500 from '@fontsource/poppins/files/poppins-latin-500-normal.woff2?url';
import poppinsLatinExt500 from '@fontsource/poppins/files/poppins-latin-ext-500-normal.woff2?url';
import poppinsLatin600 from '@fontsource/poppins/files/poppins-latin-600-normal.woff2?url';
import poppinsLatinExt600 from '@fontsource/poppins/files/poppins-latin-ext-600-normal.woff2?url';
import poppinsLatin700 from '@fontsource/poppins/files/poppins-latin-700-normal.woff2?url';
import poppinsLatinExt700 from '@fontsource/poppins/files/poppins-latin-ext-700-normal.woff2?url';
import ralewayLatin from '@fontsource-variable/raleway/files/raleway-latin-wght-normal.woff2?url';
import ralewayLatinExt from '@fontsource-variable/raleway/files/raleway-latin-ext-wght-normal.woff2?url';
import nunitoLatin from '@fontsource-variable/nunito/files/nunito-latin-wght-normal.woff2?url';
import nunitoLatinExt from '@fontsource-variable/nunito/files/nunito-latin-ext-wght-normal.woff2?url';
import playfairDisplayLatin from '@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2?url';
import playfairDisplayLatinExt from '@fontsource-variable/playfair-display/files/playfair-display-latin-ext-wght-normal.woff2?url';
import merriweatherLatin from '@fontsource-variable/merriweather/files/merriweather-latin-wght-normal.woff2?url';
import merriweatherLatinExt from '@fontsource-variable/merriweather/files/merriweather-latin-ext-wght-normal.woff2?url';
import sourceSansProLatin from '@fontsource-variable/source-sans-3/files/source-sans-3-latin-wght-normal.woff2?url';
import sourceSansProLatinExt from '@fontsource-variable/source-sans-3/files/source-sans-3-latin-ext-wght-normal.woff2?url';
import oswaldLatin from '@fontsource-variable/oswald/files/oswald-latin-wght-normal.woff2?url';
import oswaldLatinExt from '@fontsource-variable/oswald/files/oswald-latin-ext-wght-normal.woff2?url';
import pTSansLatin400 from '@fontsource/pt-sans/files/pt-sans-latin-400-normal.woff2?url';
import pTSansLatinExt400 from '@fontsource/pt-sans/files/pt-sans-latin-ext-400-normal.woff2?url';
import pTSansLatin700 from '@fontsource/pt-sans/files/pt-sans-latin-700-normal.woff2?url';
import pTSansLatinExt700 from '@fontsource/pt-sans/files/pt-sans-latin-ext-700-normal.woff2?url';
import rubikLatin from '@fontsource-variable/rubik/files/rubik-latin-wght-normal.woff2?url';
import rubikLatinExt from '@fontsource-variable/rubik/files/rubik-latin-ext-wght-normal.woff2?url';
import workSansLatin from '@fontsource-variable/work-sans/files/work-sans-latin-wght-normal.woff2?url';
import workSansLatinExt from '@fontsource-variable/work-sans/files/work-sans-latin-ext-wght-normal.woff2?url';
import quicksandLatin from '@fontsource-variable/quicksand/files/quicksand-latin-wght-normal.woff2?url';
import quicksandLatinExt from '@fontsource-variable/quicksand/files/quicksand-latin-ext-wght-normal.woff2?url';
import ubuntuLatin400 from '@fontsource/ubuntu/files/ubuntu-latin-400-normal.woff2?url';
import ubuntuLatinExt400 from '@fontsource/ubuntu/files/ubuntu-latin-ext-400-normal.woff2?url';
import ubuntuLatin500 from '@fontsource/ubuntu/files/ubuntu-latin-500-normal.woff2?url';
import ubuntuLatinExt500 from '@fontsource/ubuntu/files/ubuntu-latin-ext-500-normal.woff2?url';
import ubuntuLatin700 from '@fontsource/ubuntu/files/ubuntu-latin-700-normal.woff2?url';
import ubuntuLatinExt700 from '@fontsource/ubuntu/files/ubuntu-latin-ext-700-normal.woff2?url';
import barlowLatin400 from '@fontsource/barlow/files/barlow-latin-400-normal.woff2?url';
import barlowLatinExt400 from '@fontsource/barlow/files/barlow-latin-ext-400-normal.woff2?url';
import barlowLatin500 from '@fontsource/barlow/files/barlow-latin-500-normal.woff2?url';
import barlowLatinExt500 from '@fontsource/barlow/files/barlow-latin-ext-500-normal.woff2?url';
import barlowLatin600 from '@fontsource/barlow/files/barlow-latin-600-normal.woff2?url';
import barlowLatinExt600 from '@fontsource/barlow/files/barlow-latin-ext-600-normal.woff2?url';
import barlowLatin700 from '@fontsource/barlow/files/barlow-latin-700-normal.woff2?url';
import barlowLatinExt700 from '@fontsource/barlow/files/barlow-latin-ext-700-normal.woff2?url';
import dMSansLatin from '@fontsource-variable/dm-sans/files/dm-sans-latin-wght-normal.woff2?url';
import dMSansLatinExt from '@fontsource-variable/dm-sans/files/dm-sans-latin-ext-wght-normal.woff2?url';
import manropeLatin from '@fontsource-variable/manrope/files/manrope-latin-wght-normal.woff2?url';
import manropeLatinExt from '@fontsource-variable/manrope/files/manrope-latin-ext-wght-normal.woff2?url';

/** One @font-face: the weights it covers and its file per subset. */
export interface FontFileSet {
	/** '400 700' for a variable font's single file, else one weight. */
	weight: string;
	latin: string;
	latinExt: string;
}

/**
 * The files of each font: the variable version (one file for weights 400-700) where fontsource
 * has one, else a file per weight from 400 to 700 that the font comes in (Lato, Poppins, PT Sans,
 * Ubuntu, Barlow).
 */
export const FONT_FILES: Readonly<Record<FontChoice, readonly FontFileSet[]>> = {
	Inter: [{ weight: '400 700', latin: interLatin, latinExt: interLatinExt }],
	Roboto: [{ weight: '400 700', latin: robotoLatin, latinExt: robotoLatinExt }],
	'Open Sans': [{ weight: '400 700', latin: openSansLatin, latinExt: openSansLatinExt }],
	Lato: [
		{ weight: '400', latin: latoLatin400, latinExt: latoLatinExt400 },
		{ weight: '700', latin: latoLatin700, latinExt: latoLatinExt700 },
	],
	Montserrat: [{ weight: '400 700', latin: montserratLatin, latinExt: montserratLatinExt }],
	Poppins: [
		{ weight: '400', latin: poppinsLatin400, latinExt: poppinsLatinExt400 },
		{ weight: '500', latin: poppinsLatin500, latinExt: poppinsLatinExt500 },
		{ weight: '600', latin: poppinsLatin600, latinExt: poppinsLatinExt600 },
		{ weight: '700', latin: poppinsLatin700, latinExt: poppinsLatinExt700 },
	],
	Raleway: [{ weight: '400 700', latin: ralewayLatin, latinExt: ralewayLatinExt }],
	Nunito: [{ weight: '400 700', latin: nunitoLatin, latinExt: nunitoLatinExt }],
	'Playfair Display': [
		{ weight: '400 700', latin: playfairDisplayLatin, latinExt: playfairDisplayLatinExt },
	],
	Merriweather: [{ weight: '400 700', latin: merriweatherLatin, latinExt: merriweatherLatinExt }],
	'Source Sans Pro': [
		{ weight: '400 700', latin: sourceSansProLatin, latinExt: sourceSansProLatinExt },
	],
	Oswald: [{ weight: '400 700', latin: oswaldLatin, latinExt: oswaldLatinExt }],
	'PT Sans': [
		{ weight: '400', latin: pTSansLatin400, latinExt: pTSansLatinExt400 },
		{ weight: '700', latin: pTSansLatin700, latinExt: pTSansLatinExt700 },
	],
	Rubik: [{ weight: '400 700', latin: rubikLatin, latinExt: rubikLatinExt }],
	'Work Sans': [{ weight: '400 700', latin: workSansLatin, latinExt: workSansLatinExt }],
	Quicksand: [{ weight: '400 700', latin: quicksandLatin, latinExt: quicksandLatinExt }],
	Ubuntu: [
		{ weight: '400', latin: ubuntuLatin400, latinExt: ubuntuLatinExt400 },
		{ weight: '500', latin: ubuntuLatin500, latinExt: ubuntuLatinExt500 },
		{ weight: '700', latin: ubuntuLatin700, latinExt: ubuntuLatinExt700 },
	],
	Barlow: [
		{ weight: '400', latin: barlowLatin400, latinExt: barlowLatinExt400 },
		{ weight: '500', latin: barlowLatin500, latinExt: barlowLatinExt500 },
		{ weight: '600', latin: barlowLatin600, latinExt: barlowLatinExt600 },
		{ weight: '700', latin: barlowLatin700, latinExt: barlowLatinExt700 },
	],
	'DM Sans': [{ weight: '400 700', latin: dMSansLatin, latinExt: dMSansLatinExt }],
	Manrope: [{ weight: '400 700', latin: manropeLatin, latinExt: manropeLatinExt }],
};

/**
 * The subsets' unicode ranges (Google Fonts' latin and latin-ext, the same in every fontsource
 * package here): browsers fetch a subset's file only when a page uses one of its characters.
 */
export const UNICODE_RANGES = {
	latin:
		'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
	latinExt:
		'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
} as const;
