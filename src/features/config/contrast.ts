// WCAG 2.2 contrast on hex colours, and the least shade or tint of a colour that reaches a ratio.
// Zod-free and dependency-free, so the events calendar's island can use it as well as the build,
// the panel and the generator. Shades and tints are plain mixes of the sRGB channel values with
// black or white (what "shade" and "tint" mean for a colour picker), so the hue stays the same.

/** Text below the large-text size (WCAG 1.4.3). */
export const AA_TEXT = 4.5;
/** Large text, and the parts of controls and focus outlines that must be seen (WCAG 1.4.11). */
export const AA_NON_TEXT = 3;

export const WHITE = '#ffffff';
export const BLACK = '#000000';

type Rgb = [number, number, number];

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#abc` or `#AABBCC` as lowercase `#aabbcc`; null when it is not a hex colour. */
export function normaliseHex(hex: string): string | null {
	const m = HEX.exec(hex.trim());
	if (!m) return null;
	const digits = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
	return `#${digits.toLowerCase()}`;
}

function rgb(hex: string): Rgb {
	const full = normaliseHex(hex);
	if (!full) throw new Error(`Not a hex colour: ${hex}`);
	return [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function toHex([r, g, b]: Rgb): string {
	return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of channel values (0 to 255, whole or not). */
function luminanceOf([r, g, b]: Rgb): number {
	const linear = (c: number) => {
		const s = c / 255;
		return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

// The theme asks for the same few hundred colours many times over while it searches.
const luminances = new Map<string, number>();

/** WCAG relative luminance: 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
	let value = luminances.get(hex);
	if (value === undefined) {
		if (luminances.size > 4096) luminances.clear();
		value = luminanceOf(rgb(hex));
		luminances.set(hex, value);
	}
	return value;
}

/**
 * The darkest colour of a gradient from `a` to `b` (as CSS paints it, mixing the channel values).
 * Between two hues a gradient can be darker in its middle than at either end: luminance along it
 * is convex, so its lightest colour is one of the ends and its darkest is found by halving.
 */
export function darkestBetween(a: string, b: string): string {
	const from = rgb(a);
	const to = rgb(b);
	const at = (share: number) => from.map((c, i) => c + (to[i]! - c) * share) as Rgb;
	let low = 0;
	let high = 1;
	for (let i = 0; i < 30; i++) {
		const one = low + (high - low) / 3;
		const two = high - (high - low) / 3;
		if (luminanceOf(at(one)) <= luminanceOf(at(two))) high = two;
		else low = one;
	}
	return toHex(at((low + high) / 2));
}

/** WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
	const la = relativeLuminance(a);
	const lb = relativeLuminance(b);
	return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The lowest ratio of `foreground` on any of `backgrounds`. */
export function lowestRatio(foreground: string, backgrounds: readonly string[]): number {
	return Math.min(...backgrounds.map((b) => contrastRatio(foreground, b)));
}

/** `share` (0 to 1) of `other` mixed into `colour`, channel by channel. */
export function mix(colour: string, other: string, share: number): string {
	const a = rgb(colour);
	const b = rgb(other);
	return toHex(a.map((c, i) => c + (b[i]! - c) * share) as Rgb);
}

/** Ratios as people read them: rounded down to one decimal, so 4.49 never shows as 4.5. */
export function formatRatio(ratio: number): string {
	return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

/**
 * The least shade (toward black) or tint (toward white) of `colour` for which `passes` holds, or
 * `colour` itself when it already does; null when even black or white does not.
 *
 * `passes` must hold from some share on up to the end (true of a contrast test against fixed
 * colours: moving a colour toward black or white moves its luminance one way only).
 */
export function leastShift(
	colour: string,
	toward: typeof BLACK | typeof WHITE,
	passes: (candidate: string) => boolean,
): string | null {
	const start = normaliseHex(colour);
	if (!start) throw new Error(`Not a hex colour: ${colour}`);
	if (passes(start)) return start;
	if (!passes(toward)) return null;
	let low = 0;
	let high = 1;
	for (let i = 0; i < 10; i++) {
		const middle = (low + high) / 2;
		if (passes(mix(start, toward, middle))) high = middle;
		else low = middle;
	}
	// Rounding to whole channel values can land just short: step on by one channel value.
	let share = high;
	let candidate = mix(start, toward, share);
	while (!passes(candidate) && share < 1) {
		share = Math.min(1, share + 1 / 255);
		candidate = mix(start, toward, share);
	}
	return candidate;
}

/**
 * Black or white, whichever reads better on the background. One of the two always reaches at
 * least 4.58:1 on any colour.
 */
export function readableTextColor(background: string): typeof BLACK | typeof WHITE {
	return contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
}
