import { describe, expect, it } from 'vitest';
import { DARK_BRAND, LOW_CONTRAST } from '../../../tests/support/themes.ts';
import {
	AA_NON_TEXT,
	AA_TEXT,
	contrastRatio,
	formatRatio,
	leastShift,
	mix,
	relativeLuminance,
	WHITE,
} from './contrast.ts';
import type { Colors, TextColors } from './config.ts';
import { colorsSchema, textColorsSchema } from './config.ts';
import { resolveTheme, themeCss, type ThemeColours } from './theme.ts';

const CONFIG_DEFAULTS = {
	colors: colorsSchema.parse({}),
	textColors: textColorsSchema.parse({}),
	fonts: { heading: 'Inter', body: 'Inter' } as const,
};
const COLOUR_KEYS = Object.keys(CONFIG_DEFAULTS.colors) as (keyof Colors)[];
const TEXT_KEYS = Object.keys(CONFIG_DEFAULTS.textColors) as (keyof TextColors)[];

/** A seeded generator (mulberry32), so a failing set can be found again from its index. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const EXTREMES = ['#000000', '#ffffff', '#777777', '#767676', '#808080', '#ff0000', '#00ff00'];
const EXTREMES_MORE = [...EXTREMES, '#0000ff', '#ffff00', '#00ffff', '#ff00ff', '#fff', '#000'];

function randomSet(next: () => number): { colors: Colors; textColors: TextColors } {
	const pick = () =>
		// One in four an extreme, else any of the 16.7 million colours, sometimes in #abc form.
		next() < 0.25
			? EXTREMES_MORE[Math.floor(next() * EXTREMES_MORE.length)]!
			: next() < 0.1
				? `#${Math.floor(next() * 0x1000)
						.toString(16)
						.padStart(3, '0')}`
				: `#${Math.floor(next() * 0x1000000)
						.toString(16)
						.padStart(6, '0')}`;
	return {
		colors: Object.fromEntries(COLOUR_KEYS.map((k) => [k, pick()])) as Colors,
		textColors: Object.fromEntries(TEXT_KEYS.map((k) => [k, pick()])) as TextColors,
	};
}

/**
 * Every pair the site's CSS makes from the custom properties, checked from the colours alone
 * (not from the pairs resolveTheme reports): the light surfaces (#fff, #f9fafb, #f3f4f6), the
 * brand fills, their 10 to 20 % white veils and every point of the gradient between them.
 */
function cssPairs(v: ThemeColours): { pair: string; ratio: number; minimum: number }[] {
	const light = ['#ffffff', '#f9fafb', '#f3f4f6'];
	const out: { pair: string; ratio: number; minimum: number }[] = [];
	const add = (pair: string, fg: string, bgs: string[], minimum: number) => {
		for (const bg of bgs)
			out.push({ pair: `${pair} on ${bg}`, ratio: contrastRatio(fg, bg), minimum });
	};
	for (const token of [
		'--text-heading',
		'--text-body',
		'--text-link',
		'--text-link-hover',
		'--color-primary-text',
	] as const) {
		add(token, v[token], light, AA_TEXT);
	}
	add('--focus-ring', v['--focus-ring'], light, AA_NON_TEXT);
	const fills = [v['--color-primary'], v['--color-primary-dark']];
	const band = [
		...fills,
		...fills.flatMap((f) => [0.1, 0.15, 0.2].map((veil) => mix(f, WHITE, veil))),
		...Array.from({ length: 31 }, (_, i) => mix(fills[0]!, fills[1]!, (i + 1) / 32)),
	];
	add('--text-on-dark-heading', v['--text-on-dark-heading'], band, AA_TEXT);
	add('--text-on-dark-body', v['--text-on-dark-body'], band, AA_TEXT);
	add(
		'--text-on-accent',
		v['--text-on-accent'],
		[v['--color-secondary-light'], v['--color-secondary']],
		AA_TEXT,
	);
	return out;
}

function failures(set: { colors: Colors; textColors: TextColors }) {
	const { colours, pairs } = resolveTheme(set);
	return [
		...cssPairs(colours).filter((p) => p.ratio < p.minimum),
		...pairs
			.filter((p) => p.usedRatio < p.minimum)
			.map((p) => ({ pair: p.id, ratio: p.usedRatio, minimum: p.minimum })),
	];
}

describe('contrast', () => {
	it('computes the ratios WCAG and common checkers give', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
		expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
		// The grey pair every checker knows: #767676 is the lightest grey that reaches 4.5:1 on white.
		expect(contrastRatio('#767676', WHITE)).toBeCloseTo(4.54, 2);
		expect(contrastRatio('#777777', WHITE)).toBeCloseTo(4.48, 2);
		expect(contrastRatio('#fff', '#777')).toBeCloseTo(4.48, 2);
		expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
		expect(formatRatio(4.499)).toBe('4.4:1');
		expect(formatRatio(21)).toBe('21.0:1');
	});

	it('shifts a colour just enough, keeping it when it already passes', () => {
		const reads = (c: string) => contrastRatio(c, WHITE) >= AA_TEXT;
		expect(leastShift('#0d3e63', '#000000', reads)).toBe('#0d3e63');
		const shaded = leastShift('#999999', '#000000', reads)!;
		expect(contrastRatio(shaded, WHITE)).toBeGreaterThanOrEqual(AA_TEXT);
		// One channel value lighter would not read: the shade is the least that does.
		expect(contrastRatio(mix(shaded, WHITE, 1 / 255), WHITE)).toBeLessThan(AA_TEXT);
		expect(leastShift('#999999', '#ffffff', reads)).toBeNull();
	});
});

describe('resolveTheme', () => {
	it('keeps the colours a chamber chose wherever they read', () => {
		const { colours, pairs } = resolveTheme({
			colors: { ...CONFIG_DEFAULTS.colors },
			textColors: { ...CONFIG_DEFAULTS.textColors, linkHover: '#0a2f4d' },
		});
		expect(colours['--color-primary']).toBe('#0d3e63');
		expect(colours['--text-heading']).toBe('#1a202c');
		expect(colours['--text-on-dark-heading']).toBe('#ffffff');
		expect(colours['--text-on-accent']).toBe('#1a202c');
		// The default primary light (#5fa6d7) is too pale for an outline on white: 2.6:1.
		expect(pairs.filter((p) => p.adjusted).map((p) => p.id)).toEqual(['focus']);
		const focus = pairs.find((p) => p.id === 'focus')!;
		expect(focus.chosenRatio).toBeLessThan(AA_NON_TEXT);
		expect(focus.usedRatio).toBeGreaterThanOrEqual(AA_NON_TEXT);
	});

	it('gives the Join Today label a light colour on a dark accent', () => {
		const { colours, pairs } = resolveTheme({
			colors: { ...CONFIG_DEFAULTS.colors, secondaryLight: '#b45309', secondary: '#92400e' },
			textColors: CONFIG_DEFAULTS.textColors,
		});
		expect(colours['--text-on-accent']).toBe('#ffffff');
		expect(colours['--color-secondary-light']).toBe('#b45309');
		const accent = pairs.find((p) => p.id === 'onAccent')!;
		expect(accent.adjusted).toBe(true);
		expect(accent.chosenRatio).toBeLessThan(AA_TEXT);
	});

	it('darkens pale text just enough and says so', () => {
		const { colours, pairs } = resolveTheme(LOW_CONTRAST);
		const heading = pairs.find((p) => p.id === 'heading')!;
		expect(heading.adjusted).toBe(true);
		expect(heading.foreground.chosen).toBe('#d1d5db');
		expect(heading.foreground.used).toBe(colours['--text-heading']);
		expect(heading.usedRatio).toBeGreaterThanOrEqual(AA_TEXT);
		expect(heading.usedRatio).toBeLessThan(AA_TEXT + 0.1);
		// Every pair of this set fails as chosen, and every one is corrected.
		expect(pairs.every((p) => p.adjusted)).toBe(true);
	});

	it('shades a light primary behind light text only when no text colour reads on the gradient', () => {
		// A pale primary and a near-black primary dark: nothing reads on both ends of the hero.
		const { colours, pairs } = resolveTheme({
			colors: { ...CONFIG_DEFAULTS.colors, primary: '#fde68a', primaryDark: '#0b1320' },
			textColors: CONFIG_DEFAULTS.textColors,
		});
		const onBrand = pairs.find((p) => p.id === 'onBrandHeading')!;
		expect(onBrand.adjusted).toBe(true);
		expect(onBrand.backgrounds.map((b) => b.chosen !== b.used)).toContain(true);
		expect(
			failures({
				colors: { ...CONFIG_DEFAULTS.colors, primary: '#fde68a', primaryDark: '#0b1320' },
				textColors: CONFIG_DEFAULTS.textColors,
			}),
		).toEqual([]);
		// A pale primary with a pale primary dark keeps both and takes dark text.
		const pale = resolveTheme({
			colors: { ...CONFIG_DEFAULTS.colors, primary: '#fde68a', primaryDark: '#fcd34d' },
			textColors: CONFIG_DEFAULTS.textColors,
		});
		expect(pale.colours['--color-primary']).toBe('#fde68a');
		expect(pale.colours['--color-primary-dark']).toBe('#fcd34d');
		expect(contrastRatio(pale.colours['--text-on-dark-heading'], '#fcd34d')).toBeGreaterThan(
			AA_TEXT,
		);
		expect(colours['--text-on-dark-body']).toMatch(/^#[0-9a-f]{6}$/);
	});

	it.each([
		['the defaults', { colors: CONFIG_DEFAULTS.colors, textColors: CONFIG_DEFAULTS.textColors }],
		['the dark brand', DARK_BRAND],
		['the low-contrast set', LOW_CONTRAST],
	])('makes every pair of %s reach AA', (_name, set) => {
		expect(failures(set)).toEqual([]);
	});

	it(
		'makes every pair reach AA for every colour a chamber can save (extremes and 1,000 random sets)',
		{ timeout: 60_000 },
		() => {
			for (const a of EXTREMES) {
				for (const b of EXTREMES) {
					const set = {
						colors: Object.fromEntries(COLOUR_KEYS.map((k, i) => [k, i % 2 ? a : b])) as Colors,
						textColors: Object.fromEntries(
							TEXT_KEYS.map((k, i) => [k, i % 2 ? b : a]),
						) as TextColors,
					};
					expect(failures(set), JSON.stringify(set)).toEqual([]);
				}
			}
			const next = random(2026);
			for (let i = 0; i < 1000; i++) {
				const set = randomSet(next);
				const failed = failures(set);
				if (failed.length) expect(failed, `set ${i}: ${JSON.stringify(set)}`).toEqual([]);
			}
		},
	);

	it('reports each pair as the site uses it', () => {
		const { colours, pairs } = resolveTheme(DARK_BRAND);
		expect(pairs.map((p) => p.id)).toEqual([
			'heading',
			'body',
			'link',
			'linkHover',
			'primaryText',
			'focus',
			'onBrandHeading',
			'onBrandBody',
			'onAccent',
		]);
		const accent = pairs.find((p) => p.id === 'onAccent')!;
		expect(accent.foreground.used).toBe(colours['--text-on-accent']);
		expect(accent.backgrounds.map((b) => b.used)).toEqual([
			colours['--color-secondary-light'],
			colours['--color-secondary'],
		]);
		for (const p of pairs) {
			expect(p.usedRatio, p.id).toBeGreaterThanOrEqual(p.minimum);
			expect(p.adjusted, p.id).toBe(
				p.foreground.chosen !== p.foreground.used || p.backgrounds.some((b) => b.chosen !== b.used),
			);
		}
	});
});

describe('themeCss', () => {
	it('sets the colours the site uses, not the ones that do not read', () => {
		const css = themeCss({ ...LOW_CONTRAST, fonts: CONFIG_DEFAULTS.fonts });
		const { colours } = resolveTheme(LOW_CONTRAST);
		for (const [name, value] of Object.entries(colours)) {
			expect(css).toContain(`\t${name}: ${value};`);
		}
		expect(css).not.toContain('--text-heading: #d1d5db;');
	});
});
