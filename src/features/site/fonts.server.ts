import { createFontStack, type FontMetrics } from '@capsizecss/core';
import arial from '@capsizecss/metrics/arial';
import timesNewRoman from '@capsizecss/metrics/timesNewRoman';
// Imported one by one, not by a computed path: a bundler can only see static imports, and the
// on-demand (SSR) function must carry every metrics module a page may need.
import interMetrics from '@capsizecss/metrics/inter';
import robotoMetrics from '@capsizecss/metrics/roboto';
import openSansMetrics from '@capsizecss/metrics/openSans';
import latoMetrics from '@capsizecss/metrics/lato';
import montserratMetrics from '@capsizecss/metrics/montserrat';
import poppinsMetrics from '@capsizecss/metrics/poppins';
import ralewayMetrics from '@capsizecss/metrics/raleway';
import nunitoMetrics from '@capsizecss/metrics/nunito';
import playfairDisplayMetrics from '@capsizecss/metrics/playfairDisplay';
import merriweatherMetrics from '@capsizecss/metrics/merriweather';
import sourceSans3Metrics from '@capsizecss/metrics/sourceSans3';
import oswaldMetrics from '@capsizecss/metrics/oswald';
import pTSansMetrics from '@capsizecss/metrics/pTSans';
import rubikMetrics from '@capsizecss/metrics/rubik';
import workSansMetrics from '@capsizecss/metrics/workSans';
import quicksandMetrics from '@capsizecss/metrics/quicksand';
import ubuntuMetrics from '@capsizecss/metrics/ubuntu';
import barlowMetrics from '@capsizecss/metrics/barlow';
import dMSansMetrics from '@capsizecss/metrics/dMSans';
import manropeMetrics from '@capsizecss/metrics/manrope';
import type { FontChoice, Fonts } from '../config/config.ts';
import { FONT_FILES, UNICODE_RANGES } from './font-files.ts';

/**
 * Self-hosted fonts. Every font of FONT_CHOICES is an npm dependency (fontsource) whose latin and
 * latin-ext files, weights 400-700, the build copies into /_astro/ (font-files.ts); a page's
 * @font-face rules name only the chamber's heading and body fonts (browsers fetch a file only
 * when the page uses a character of its unicode-range), with `font-display: swap`. No request
 * leaves the site, which is faster than Google Fonts (no extra connection) and works offline.
 * Nothing here touches the file system: pages rendered on demand work from the function bundle
 * alone.
 *
 * The files are not preloaded: measured with Lighthouse (mobile, slow 4G), preloading the
 * heading and body fonts' latin files delayed the largest paint of /search and the home page
 * (its heading, repainted when the font arrived) by 0.3-1.5 s.
 *
 * Swapping fonts moves text. Each font therefore gets a fallback face, '{font} Fallback': a
 * local Arial or Times New Roman scaled to the web font's metrics (Capsize), which the theme's
 * font stacks name right after the web font (theme.ts), so the swap barely shifts the layout.
 */

/** Each font's entry in @capsizecss/metrics, which sizes the fallback face. */
const METRICS: Readonly<Record<FontChoice, FontMetrics>> = {
	Inter: interMetrics,
	Roboto: robotoMetrics,
	'Open Sans': openSansMetrics,
	Lato: latoMetrics,
	Montserrat: montserratMetrics,
	Poppins: poppinsMetrics,
	Raleway: ralewayMetrics,
	Nunito: nunitoMetrics,
	'Playfair Display': playfairDisplayMetrics,
	Merriweather: merriweatherMetrics,
	// Adobe renamed Source Sans Pro to Source Sans 3; the faces keep the configured family name.
	'Source Sans Pro': sourceSans3Metrics,
	Oswald: oswaldMetrics,
	'PT Sans': pTSansMetrics,
	Rubik: rubikMetrics,
	'Work Sans': workSansMetrics,
	Quicksand: quicksandMetrics,
	Ubuntu: ubuntuMetrics,
	Barlow: barlowMetrics,
	'DM Sans': dMSansMetrics,
	Manrope: manropeMetrics,
};

/**
 * The local font the fallback face stands on, with metric-compatible clones (same widths) for
 * systems without it, such as Linux.
 */
const LOCAL_FALLBACKS = {
	sans: { metrics: arial, names: ['Arial', 'ArialMT', 'Liberation Sans', 'Arimo'] },
	serif: {
		metrics: timesNewRoman,
		names: ['Times New Roman', 'TimesNewRomanPSMT', 'Liberation Serif', 'Tinos'],
	},
} as const;

export interface FontAssets {
	/** The @font-face rules, inlined into every page next to the theme. */
	css: string;
}

function faces(family: FontChoice): string {
	// The family name ends up inside CSS quotes: only the known font names get that far.
	if (!Object.hasOwn(FONT_FILES, family)) throw new Error(`Unsupported font: ${family}`);
	const css: string[] = [];
	for (const subset of ['latin', 'latinExt'] as const) {
		for (const set of FONT_FILES[family]) {
			css.push(
				`@font-face{font-family:'${family}';font-style:normal;font-display:swap;font-weight:${set.weight};` +
					`src:url(${set[subset]}) format('woff2');unicode-range:${UNICODE_RANGES[subset]}}`,
			);
		}
	}
	css.push(fallbackFace(family, METRICS[family]));
	return css.join('\n');
}

const OVERRIDES = {
	ascentOverride: 'ascent-override',
	descentOverride: 'descent-override',
	lineGapOverride: 'line-gap-override',
	sizeAdjust: 'size-adjust',
} as const;

function fallbackFace(family: FontChoice, fontMetrics: FontMetrics): string {
	const metrics = { ...fontMetrics, familyName: family };
	const local = LOCAL_FALLBACKS[metrics.category === 'serif' ? 'serif' : 'sans'];
	const [face] = createFontStack([metrics, local.metrics], {
		fontFaceFormat: 'styleObject',
	}).fontFaces;
	const values: Partial<Record<keyof typeof OVERRIDES, string>> = face?.['@font-face'] ?? {};
	const properties = Object.entries(OVERRIDES).flatMap(([key, css]) => {
		const value = values[key as keyof typeof OVERRIDES];
		return value ? [`${css}:${value}`] : [];
	});
	const src = local.names.map((name) => `local('${name}')`).join(',');
	return `@font-face{font-family:'${family} Fallback';src:${src};${properties.join(';')}}`;
}

/**
 * Each font's rules, computed once per process: every page of a build (50,000 profiles) names the
 * same one or two fonts, and Capsize's arithmetic per page was measurable in the pre-render.
 */
const facesByFont = new Map<FontChoice, string>();

function cachedFaces(family: FontChoice): string {
	let css = facesByFont.get(family);
	if (css === undefined) {
		css = faces(family);
		facesByFont.set(family, css);
	}
	return css;
}

/** The @font-face rules of the configured heading and body fonts. */
export function getFontAssets(fonts: Fonts): FontAssets {
	return { css: [...new Set([fonts.heading, fonts.body])].map(cachedFaces).join('\n') };
}
