import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FontChoice, Fonts } from '../config/config.ts';

/**
 * Self-hosted fonts. Every font of FONT_CHOICES is an npm dependency (fontsource), but a build
 * ships only the chamber's heading and body fonts: their latin and latin-ext files (browsers
 * fetch a file only when the page uses a character of its unicode-range), weights 400-700,
 * `font-display: swap`. No request leaves the site, which is faster than Google Fonts (no extra
 * connection) and works offline.
 */

/** The fontsource package of each font: the variable one where it exists (one file per subset). */
const PACKAGES: Readonly<Record<FontChoice, string>> = {
	Inter: '@fontsource-variable/inter',
	Roboto: '@fontsource-variable/roboto',
	'Open Sans': '@fontsource-variable/open-sans',
	Lato: '@fontsource/lato',
	Montserrat: '@fontsource-variable/montserrat',
	Poppins: '@fontsource/poppins',
	Raleway: '@fontsource-variable/raleway',
	Nunito: '@fontsource-variable/nunito',
	'Playfair Display': '@fontsource-variable/playfair-display',
	Merriweather: '@fontsource-variable/merriweather',
	// Adobe renamed Source Sans Pro to Source Sans 3; the faces keep the configured family name.
	'Source Sans Pro': '@fontsource-variable/source-sans-3',
	Oswald: '@fontsource-variable/oswald',
	'PT Sans': '@fontsource/pt-sans',
	Rubik: '@fontsource-variable/rubik',
	'Work Sans': '@fontsource-variable/work-sans',
	Quicksand: '@fontsource-variable/quicksand',
	Ubuntu: '@fontsource/ubuntu',
	Barlow: '@fontsource/barlow',
	'DM Sans': '@fontsource-variable/dm-sans',
	Manrope: '@fontsource-variable/manrope',
};

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
	if (!Object.hasOwn(PACKAGES, family)) throw new Error(`Unsupported font: ${family}`);
	const pkg = PACKAGES[family];
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
	return { css: css.join('\n'), files };
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
