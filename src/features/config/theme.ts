import {
	AA_NON_TEXT,
	AA_TEXT,
	BLACK,
	contrastRatio,
	leastShift,
	lowestRatio,
	mix,
	normaliseHex,
	darkestBetween,
	WHITE,
} from './contrast.ts';
import { FONT_CHOICES } from './config.ts';
import type { ChamberConfig, Colors, FontChoice, TextColors } from './config.ts';

// The chamber's colours as the pages use them. Every pair of text and background the site's CSS
// makes from them reaches WCAG AA (4.5:1 for text, 3:1 for focus outlines) whatever six colours
// and six text colours a chamber saves: a text colour too light for the page is darkened just
// enough; on a brand colour the text takes the chamber's colour for it if it reads, else the
// chamber's other text colour, else black or white; only where no text colour can read on every
// background of a pair (the hero's gradient from a light primary to a dark primary dark) is a
// brand colour itself shaded or tinted just enough. The panel and the generator show the same
// pairs (themePairs), so staff see each ratio and every adjustment before they save.
//
// The theme is interpolated into a <style> block, so every value is checked here again even
// though the schema already restricts colours to hex and fonts to FONT_CHOICES: a config built
// without the schema must not be able to inject CSS or markup.

type ThemeSource = Pick<ChamberConfig, 'colors' | 'textColors' | 'fonts'>;
type ColourSource = Pick<ChamberConfig, 'colors' | 'textColors'>;

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
const FONT_SET: ReadonlySet<string> = new Set(FONT_CHOICES);
const SERIF_FONTS: ReadonlySet<FontChoice> = new Set(['Playfair Display', 'Merriweather']);

const SANS_FALLBACK =
	"system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SERIF_FALLBACK = "Georgia, Cambria, 'Times New Roman', Times, serif";

/**
 * The light backgrounds the theme's text colours sit on: white, and the light grey of hovered
 * menu entries, chips and panels (#f3f4f6, the darkest of them; #f9fafb lies between).
 */
const LIGHT_SURFACES = [WHITE, '#f3f4f6'] as const;
/** The strongest white veil the CSS lays over a brand colour (footer icons on hover, chips). */
const VEIL = 0.2;
/** Points of the hero's gradient between primary dark and primary checked besides its ends. */
const GRADIENT_STEPS = 16;
/**
 * What text on the brand colours reaches beyond 4.5:1: a browser paints a gradient's points
 * rounded to whole channel values, which can lighten or darken one by a hundredth of a ratio.
 */
const GRADIENT_MARGIN = 0.05;

type ColourField = `colors.${keyof Colors}` | `textColors.${keyof TextColors}`;

/** One colour of a pair: the field it comes from, what the chamber chose, what the site uses. */
interface PairColour {
	/** The configuration field, or null for a fixed colour of the site (white, light grey). */
	field: ColourField | null;
	chosen: string;
	used: string;
}

/** A text (or outline) colour and the backgrounds it is shown on. */
export interface ThemePair {
	id: PairId;
	/** Where visitors see it, in the panel's words. */
	label: string;
	foreground: PairColour;
	backgrounds: PairColour[];
	/** The ratio WCAG AA asks of it: 4.5 for text, 3 for a focus outline. */
	minimum: number;
	/** The lowest ratio of the chosen colours (on the chosen backgrounds). */
	chosenRatio: number;
	/** The lowest ratio the site shows (every background, the gradient's middle and veils too). */
	usedRatio: number;
	/** Whether the site uses another colour than the chamber chose for any part of the pair. */
	adjusted: boolean;
}

type PairId =
	| 'heading'
	| 'body'
	| 'link'
	| 'linkHover'
	| 'primaryText'
	| 'focus'
	| 'onBrandHeading'
	| 'onBrandBody'
	| 'onAccent';

/** The custom properties every page sets, each with the colour the site uses. */
export interface ThemeColours {
	'--color-primary': string;
	'--color-primary-light': string;
	'--color-primary-dark': string;
	'--color-secondary': string;
	'--color-secondary-light': string;
	'--color-secondary-dark': string;
	/** Primary as text or an icon on a light background (outlined buttons, names, active tabs). */
	'--color-primary-text': string;
	'--text-heading': string;
	'--text-body': string;
	'--text-link': string;
	'--text-link-hover': string;
	/** Headings and button labels on primary, primary dark and the gradient between them. */
	'--text-on-dark-heading': string;
	/** Body text and links on primary, primary dark and the gradient between them. */
	'--text-on-dark-body': string;
	/** The label on secondary light (Join Today, Search) and secondary (its hover). */
	'--text-on-accent': string;
	/** The keyboard focus outline on light backgrounds; bands set it to their heading colour. */
	'--focus-ring': string;
}

export interface ResolvedTheme {
	colours: ThemeColours;
	pairs: ThemePair[];
}

function colour(value: unknown, field: string): string {
	if (typeof value !== 'string' || !HEX_COLOUR.test(value)) {
		throw new Error(`Theme colour ${field} is not a hex colour`);
	}
	return normaliseHex(value)!;
}

function font(value: unknown, field: string): FontChoice {
	// FONT_CHOICES names hold only letters, digits and spaces, so they are safe inside quotes.
	if (typeof value !== 'string' || !FONT_SET.has(value) || !/^[A-Za-z0-9 ]+$/.test(value)) {
		throw new Error(`Theme font ${field} is not one of the supported fonts`);
	}
	return value as FontChoice;
}

/** The web font, its metric-matched fallback face (site/fonts.server.ts), then system fonts. */
function fontStack(name: FontChoice): string {
	return `'${name}', '${name} Fallback', ${SERIF_FONTS.has(name) ? SERIF_FALLBACK : SANS_FALLBACK}`;
}

const passes = (foreground: string, backgrounds: readonly string[], minimum: number) =>
	lowestRatio(foreground, backgrounds) >= minimum;

/** A text colour on the light backgrounds, darkened just enough when it does not read there. */
function onLight(chosen: string, minimum: number): string {
	// Black reaches 19:1 on the light surfaces, so there is always a shade that reads.
	return leastShift(chosen, BLACK, (c) => passes(c, LIGHT_SURFACES, minimum))!;
}

/**
 * A set of brand colours that carry the same text: each fill's own surfaces (the fill, and the
 * fill under a white veil) and the surfaces between the fills (a gradient's middle).
 */
interface FillSet {
	fills: string[];
	own(fill: string): string[];
	between(fills: readonly string[]): string[];
}

const surfaces = (set: FillSet, fills: readonly string[]) => [
	...fills.flatMap((f) => set.own(f)),
	...set.between(fills),
];

/** The fills moved toward black or white just enough for `text` to read on every surface. */
function shiftFills(
	set: FillSet,
	text: string,
	minimum: number,
	toward: typeof BLACK | typeof WHITE,
): string[] | null {
	const fills: string[] = [];
	for (const fill of set.fills) {
		const shifted = leastShift(fill, toward, (c) => passes(text, set.own(c), minimum));
		if (!shifted) return null;
		fills.push(shifted);
	}
	if (passes(text, set.between(fills), minimum)) return fills;
	// Between two light fills a gradient can dip darker than both: tint both by the same share.
	let low = 0;
	let high = 1;
	const at = (share: number) => fills.map((f) => mix(f, toward, share));
	for (let i = 0; i < 10; i++) {
		const middle = (low + high) / 2;
		if (passes(text, surfaces(set, at(middle)), minimum)) high = middle;
		else low = middle;
	}
	let share = high;
	while (!passes(text, surfaces(set, at(share)), minimum) && share < 1) {
		share = Math.min(1, share + 1 / 255);
	}
	return at(share);
}

function distance(a: readonly string[], b: readonly string[]): number {
	return a.reduce((sum, hex, i) => sum + Math.abs(contrastRatio(hex, b[i]!) - 1), 0);
}

/**
 * The first candidate text colour that reads on every surface of the fills; failing all, the
 * chamber's own colour, black or white on fills shaded or tinted just enough, whichever moves
 * the fills least.
 */
function textOnFills(
	set: FillSet,
	candidates: readonly string[],
	minimum: number,
): { text: string; fills: string[] } {
	const all = surfaces(set, set.fills);
	const direct = candidates.find((c) => passes(c, all, minimum));
	if (direct) return { text: direct, fills: set.fills };
	let best: { text: string; fills: string[]; cost: number } | null = null;
	for (const text of new Set([candidates[0]!, WHITE, BLACK])) {
		const toward = contrastRatio(text, WHITE) < contrastRatio(text, BLACK) ? BLACK : WHITE;
		const fills = shiftFills(set, text, minimum, toward);
		if (!fills) continue;
		const cost = distance(set.fills, fills);
		if (!best || cost < best.cost) best = { text, fills, cost };
	}
	// White on fills shaded to black always reads, so there is a best.
	return best!;
}

const bandSet = (primary: string, primaryDark: string): FillSet => ({
	fills: [primary, primaryDark],
	own: (fill) => [fill, mix(fill, WHITE, VEIL)],
	between: ([a, b]) => [
		darkestBetween(a!, b!),
		...Array.from({ length: GRADIENT_STEPS - 1 }, (_, i) => mix(a!, b!, (i + 1) / GRADIENT_STEPS)),
	],
});

const accentSet = (secondaryLight: string, secondary: string): FillSet => ({
	fills: [secondaryLight, secondary],
	own: (fill) => [fill],
	between: () => [],
});

/**
 * The colours the site uses for a chamber's choice, and every text/background pair with its
 * ratios: what the pages set (themeCss), and what the Colours tab and the generator show.
 */
export function resolveTheme(config: ColourSource): ResolvedTheme {
	const c = Object.fromEntries(
		Object.entries(config.colors).map(([k, v]) => [k, colour(v, `colors.${k}`)]),
	) as Record<keyof Colors, string>;
	const t = Object.fromEntries(
		Object.entries(config.textColors).map(([k, v]) => [k, colour(v, `textColors.${k}`)]),
	) as Record<keyof TextColors, string>;

	const heading = onLight(t.heading, AA_TEXT);
	const body = onLight(t.body, AA_TEXT);
	const link = onLight(t.link, AA_TEXT);
	const linkHover = onLight(t.linkHover, AA_TEXT);
	const primaryText = onLight(c.primary, AA_TEXT);
	const focus = onLight(c.primaryLight, AA_NON_TEXT);

	const band = textOnFills(
		bandSet(c.primary, c.primaryDark),
		[t.onDarkHeading, t.heading, WHITE, BLACK],
		AA_TEXT + GRADIENT_MARGIN,
	);
	const [primary, primaryDark] = band.fills as [string, string];
	const bandBody = textOnFills(
		bandSet(primary, primaryDark),
		[t.onDarkBody, t.body, band.text, WHITE, BLACK],
		AA_TEXT + GRADIENT_MARGIN,
	);
	const accent = textOnFills(
		accentSet(c.secondaryLight, c.secondary),
		[t.heading, t.onDarkHeading, BLACK, WHITE],
		AA_TEXT,
	);
	const [secondaryLight, secondary] = accent.fills as [string, string];

	const colours: ThemeColours = {
		'--color-primary': primary,
		'--color-primary-light': c.primaryLight,
		'--color-primary-dark': primaryDark,
		'--color-secondary': secondary,
		'--color-secondary-light': secondaryLight,
		'--color-secondary-dark': c.secondaryDark,
		'--color-primary-text': primaryText,
		'--text-heading': heading,
		'--text-body': body,
		'--text-link': link,
		'--text-link-hover': linkHover,
		'--text-on-dark-heading': band.text,
		'--text-on-dark-body': bandBody.text,
		'--text-on-accent': accent.text,
		'--focus-ring': focus,
	};

	const light: PairColour[] = LIGHT_SURFACES.map((hex) => ({
		field: null,
		chosen: hex,
		used: hex,
	}));
	const brand: PairColour[] = [
		{ field: 'colors.primary', chosen: c.primary, used: primary },
		{ field: 'colors.primaryDark', chosen: c.primaryDark, used: primaryDark },
	];
	const brandSurfaces = surfaces(bandSet(primary, primaryDark), [primary, primaryDark]);
	const accents: PairColour[] = [
		{ field: 'colors.secondaryLight', chosen: c.secondaryLight, used: secondaryLight },
		{ field: 'colors.secondary', chosen: c.secondary, used: secondary },
	];
	const pair = (
		id: PairId,
		label: string,
		foreground: PairColour,
		backgrounds: PairColour[],
		minimum: number,
		usedSurfaces: readonly string[] = backgrounds.map((b) => b.used),
	): ThemePair => ({
		id,
		label,
		foreground,
		backgrounds,
		minimum,
		chosenRatio: lowestRatio(
			foreground.chosen,
			backgrounds.map((b) => b.chosen),
		),
		usedRatio: lowestRatio(foreground.used, usedSurfaces),
		adjusted: foreground.chosen !== foreground.used || backgrounds.some((b) => b.chosen !== b.used),
	});

	const pairs: ThemePair[] = [
		pair(
			'heading',
			'Headings',
			{ field: 'textColors.heading', chosen: t.heading, used: heading },
			light,
			AA_TEXT,
		),
		pair(
			'body',
			'Body text',
			{ field: 'textColors.body', chosen: t.body, used: body },
			light,
			AA_TEXT,
		),
		pair('link', 'Links', { field: 'textColors.link', chosen: t.link, used: link }, light, AA_TEXT),
		pair(
			'linkHover',
			'Links on hover',
			{ field: 'textColors.linkHover', chosen: t.linkHover, used: linkHover },
			light,
			AA_TEXT,
		),
		pair(
			'primaryText',
			'Primary as text (outlined buttons, names, the menu on hover)',
			{ field: 'colors.primary', chosen: c.primary, used: primaryText },
			light,
			AA_TEXT,
		),
		pair(
			'focus',
			'Keyboard focus outline',
			{ field: 'colors.primaryLight', chosen: c.primaryLight, used: focus },
			light,
			AA_NON_TEXT,
		),
		pair(
			'onBrandHeading',
			'Headings and button labels on the brand colours (hero, footer, buttons)',
			{ field: 'textColors.onDarkHeading', chosen: t.onDarkHeading, used: band.text },
			brand,
			AA_TEXT,
			brandSurfaces,
		),
		pair(
			'onBrandBody',
			'Text and links on the brand colours (hero, footer)',
			{ field: 'textColors.onDarkBody', chosen: t.onDarkBody, used: bandBody.text },
			brand,
			AA_TEXT,
			brandSurfaces,
		),
		pair(
			'onAccent',
			'Join Today and Search buttons',
			{ field: 'textColors.heading', chosen: t.heading, used: accent.text },
			accents,
			AA_TEXT,
		),
	];
	return { colours, pairs };
}

/** The chamber's colours and fonts as CSS custom properties on :root. */
export function themeCss(config: ThemeSource): string {
	const { colours } = resolveTheme(config);
	const vars: [string, string][] = [
		...Object.entries(colours),
		['--font-heading', fontStack(font(config.fonts.heading, 'fonts.heading'))],
		['--font-body', fontStack(font(config.fonts.body, 'fonts.body'))],
	];
	return `:root {\n${vars.map(([name, value]) => `\t${name}: ${value};`).join('\n')}\n}`;
}
