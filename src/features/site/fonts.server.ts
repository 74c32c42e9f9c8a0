import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/**
 * Self-hosted fonts. Every font of FONT_CHOICES is an npm dependency (fontsource), but a build
 * ships only the chamber's heading and body fonts: their latin and latin-ext files (browsers
 * fetch a file only when the page uses a character of its unicode-range), weights 400-700,
 * `font-display: swap`. No request leaves the site, which is faster than Google Fonts (no extra
 * connection) and works offline.
 *
 * Swapping fonts moves text. Each font therefore gets a fallback face, '{font} Fallback': a
 * local Arial or Times New Roman scaled to the web font's metrics (Capsize), which the theme's
 * font stacks name right after the web font (theme.ts), so the swap barely shifts the layout.
 */

/**
 * Each font's fontsource package (the variable one where it exists: one file per subset) and
 * its entry in @capsizecss/metrics, which sizes the fallback face.
 */
const SOURCES: Readonly<Record<FontChoice, { pkg: string; metrics: FontMetrics }>> = {
	Inter: { pkg: '@fontsource-variable/inter', metrics: interMetrics },
	Roboto: { pkg: '@fontsource-variable/roboto', metrics: robotoMetrics },
	'Open Sans': { pkg: '@fontsource-variable/open-sans', metrics: openSansMetrics },
	Lato: { pkg: '@fontsource/lato', metrics: latoMetrics },
	Montserrat: { pkg: '@fontsource-variable/montserrat', metrics: montserratMetrics },
	Poppins: { pkg: '@fontsource/poppins', metrics: poppinsMetrics },
	Raleway: { pkg: '@fontsource-variable/raleway', metrics: ralewayMetrics },
	Nunito: { pkg: '@fontsource-variable/nunito', metrics: nunitoMetrics },
	'Playfair Display': {
		pkg: '@fontsource-variable/playfair-display',
		metrics: playfairDisplayMetrics,
	},
	Merriweather: { pkg: '@fontsource-variable/merriweather', metrics: merriweatherMetrics },
	// Adobe renamed Source Sans Pro to Source Sans 3; the faces keep the configured family name.
	'Source Sans Pro': { pkg: '@fontsource-variable/source-sans-3', metrics: sourceSans3Metrics },
	Oswald: { pkg: '@fontsource-variable/oswald', metrics: oswaldMetrics },
	'PT Sans': { pkg: '@fontsource/pt-sans', metrics: pTSansMetrics },
	Rubik: { pkg: '@fontsource-variable/rubik', metrics: rubikMetrics },
	'Work Sans': { pkg: '@fontsource-variable/work-sans', metrics: workSansMetrics },
	Quicksand: { pkg: '@fontsource-variable/quicksand', metrics: quicksandMetrics },
	Ubuntu: { pkg: '@fontsource/ubuntu', metrics: ubuntuMetrics },
	Barlow: { pkg: '@fontsource/barlow', metrics: barlowMetrics },
	'DM Sans': { pkg: '@fontsource-variable/dm-sans', metrics: dMSansMetrics },
	Manrope: { pkg: '@fontsource-variable/manrope', metrics: manropeMetrics },
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

const SUBSETS = ['latin', 'latin-ext'] as const;
const WEIGHTS = [400, 500, 600, 700] as const;

/** Where the font files are published in the built site. */
export const FONT_BASE_PATH = '/fonts';

interface FontMetadata {
	id: string;
	weights: number[];
	variable: false | Record<string, unknown>;
}

export interface FontFile {
	/** Path below FONT_BASE_PATH: `{package version}/{file}`, so it can be cached forever. */
	path: string;
	/** The woff2 file in node_modules. */
	source: string;
}

export interface FontAssets {
	/** The @font-face rules, inlined into every page next to the theme. */
	css: string;
	files: FontFile[];
}

const require = createRequire(import.meta.url);

async function readJson<T>(path: string): Promise<T> {
	return JSON.parse(await readFile(path, 'utf8')) as T;
}

async function faces(family: FontChoice): Promise<FontAssets> {
	// The family name ends up inside CSS quotes: only the known font names get that far.
	if (!Object.hasOwn(SOURCES, family)) throw new Error(`Unsupported font: ${family}`);
	const { pkg, metrics } = SOURCES[family];
	const dir = dirname(require.resolve(`${pkg}/package.json`));
	const { version } = await readJson<{ version: string }>(join(dir, 'package.json'));
	const meta = await readJson<FontMetadata>(join(dir, 'metadata.json'));
	const ranges = await readJson<Record<string, string>>(join(dir, 'unicode.json'));
	// A variable font covers 400-700 with one file; a static one needs a file per weight it has.
	const variants: { weight: string; file: string }[] = meta.variable
		? [{ weight: '400 700', file: 'wght' }]
		: WEIGHTS.filter((w) => meta.weights.includes(w)).map((w) => ({
				weight: String(w),
				file: String(w),
			}));
	const css: string[] = [];
	const files: FontFile[] = [];
	for (const subset of SUBSETS) {
		for (const { weight, file } of variants) {
			const name = `${meta.id}-${subset}-${file}-normal.woff2`;
			const path = `${version}/${name}`;
			files.push({ path, source: join(dir, 'files', name) });
			css.push(
				`@font-face{font-family:'${family}';font-style:normal;font-display:swap;font-weight:${weight};` +
					`src:url(${FONT_BASE_PATH}/${path}) format('woff2');unicode-range:${ranges[subset]}}`,
			);
		}
	}
	css.push(fallbackFace(family, metrics));
	return { css: css.join('\n'), files };
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

let cache: Promise<FontAssets> | undefined;
let cachedFor = '';

/** The @font-face rules and files of the configured heading and body fonts. */
export function getFontAssets(fonts: Fonts): Promise<FontAssets> {
	const key = `${fonts.heading}|${fonts.body}`;
	if (!cache || cachedFor !== key) {
		cachedFor = key;
		cache = Promise.all([...new Set([fonts.heading, fonts.body])].map(faces)).then((all) => ({
			css: all.map((a) => a.css).join('\n'),
			files: all.flatMap((a) => a.files),
		}));
	}
	return cache;
}
