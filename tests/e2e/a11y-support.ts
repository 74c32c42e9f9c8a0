import axe from 'axe-core';
import { expect, type Frame, type Page } from '@playwright/test';
import { resolveTheme } from '../../src/features/config/theme.ts';
import { DARK_BRAND, LOW_CONTRAST, type ThemeSample } from '../support/themes.ts';

/**
 * axe-core on every page template, in three chambers' colours: the demo's, a dark brand and a
 * deliberately low-contrast one (tests/support/themes.ts).
 *
 * Why the colours are swapped in the page rather than built: a chamber's colours reach a page
 * only as the custom properties of one <style data-theme> element (src/layouts/Document.astro
 * writes themeCss(config) there, on every page, built or rendered on demand); nothing else of a
 * page depends on them. Replacing that element's properties with themeCss of another colour set
 * is byte for byte the <style> a build of that chamber would write, without the two extra builds
 * (about 20 s each and the CI time they cost). The demo's colours are checked with every WCAG
 * A/AA rule; the other two with the rules whose outcome depends on colour (the rest see the same
 * page). The theme's own pairs are checked for any colours by src/features/config/theme.test.ts.
 */

/** The WCAG 2.0, 2.1 and 2.2 rules at levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe's WCAG rules it still calls experimental, which withTags leaves out. Label in Name (2.5.3)
 * among them found the calendar's day cells; all five pass on every page.
 */
const EXPERIMENTAL_WCAG_RULES = [
	'label-content-name-mismatch',
	'css-orientation-lock',
	'p-as-heading',
	'table-fake-caption',
	'td-has-header',
];

/** The rules whose outcome depends on the page's colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Rules turned off, each with its reason. None: every WCAG A/AA rule runs on every page. (An
 * entry here needs a reason a reader can check, and docs/accessibility.md lists it.)
 */
const RULES_OFF: Readonly<Record<string, string>> = {};

interface Theme {
	name: string;
	/** The custom properties themeCss writes for the colour set; null for the page's own. */
	properties: string | null;
}

function properties(sample: ThemeSample): string {
	const { colours } = resolveTheme(sample);
	return Object.entries(colours)
		.map(([name, value]) => `${name}: ${value};`)
		.join(' ');
}

const THEMES: readonly Theme[] = [
	{ name: 'demo', properties: null },
	{ name: DARK_BRAND.name, properties: properties(DARK_BRAND) },
	{ name: LOW_CONTRAST.name, properties: properties(LOW_CONTRAST) },
];

/** Puts a colour set's custom properties in the page's theme element (null: the page's own). */
async function useTheme(page: Page, theme: Theme): Promise<void> {
	await page.evaluate((props) => {
		const style = document.querySelector<HTMLStyleElement>('style[data-theme]');
		if (!style) throw new Error('The page has no <style data-theme>');
		style.dataset.original ??= style.textContent ?? '';
		style.textContent = props
			? `${style.dataset.original}\n:root { ${props} }`
			: style.dataset.original;
	}, theme.properties);
}

export interface AxeOptions {
	/** Only this part of the page (a CSS selector), e.g. an open dialog. */
	include?: string;
	/** Parts not checked, each with its reason in the caller. */
	exclude?: string[];
	/** Only these rules (default: every WCAG A/AA rule, the experimental ones included). */
	rules?: string[];
}

/** A violation as the tests report it: the rule, its impact and the first elements it names. */
export interface Violation {
	id: string;
	impact: string | null | undefined;
	targets: string[];
}

/**
 * axe-core's source, put into a document once. (@axe-core/playwright evaluates these 1.3 MB
 * again on every analysis and finishes each run in a page of its own: about a second a run
 * before any rule, where the rules themselves take a tenth of that.)
 */
async function withAxe(frame: Frame): Promise<void> {
	const present = await frame.evaluate(
		() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
	);
	if (!present) await frame.evaluate(axe.source);
}

/** axe.run's options for a check: every WCAG A/AA rule, or only `rules`. */
function runOptions(rules: string[] | undefined): axe.RunOptions {
	const off = Object.fromEntries(Object.keys(RULES_OFF).map((rule) => [rule, { enabled: false }]));
	const options: axe.RunOptions = rules
		? { runOnly: { type: 'rule', values: rules } }
		: {
				runOnly: { type: 'tag', values: WCAG_TAGS },
				rules: Object.fromEntries(EXPERIMENTAL_WCAG_RULES.map((rule) => [rule, { enabled: true }])),
			};
	// Frames are checked each in its own document (axeViolations); only the violations come back.
	return {
		...options,
		rules: { ...options.rules, ...off },
		iframes: false,
		resultTypes: ['violations'],
	};
}

/** One document's violations, axe-core running in it. */
async function frameViolations(
	frame: Frame,
	context: axe.ContextObject,
	options: axe.RunOptions,
): Promise<Violation[]> {
	await withAxe(frame);
	return frame.evaluate(
		async ({ context, options }) => {
			const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(
				context as axe.ElementContext,
				options,
			);
			return violations.map((v) => ({
				id: v.id,
				impact: v.impact,
				targets: v.nodes
					.slice(0, 4)
					.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`),
			}));
		},
		{ context, options },
	);
}

/**
 * The page's WCAG A/AA violations, each with the first targets it names: the page's document,
 * then each frame of this site inside the checked part (a frame of another site, such as a map,
 * is that site's page, and offline in the tests).
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<Violation[]> {
	const run = runOptions(options.rules);
	const exclude = options.exclude ?? [];
	const context: axe.ContextObject = options.include
		? { include: [options.include], exclude }
		: { exclude };
	const found = await frameViolations(page.mainFrame(), context, run);
	const origin = new URL(page.url()).origin;
	for (const frame of page.frames()) {
		if (frame === page.mainFrame() || !frame.url().startsWith(`${origin}/`)) continue;
		const element = await frame.frameElement();
		const checked = await element.evaluate(
			(node, { include, exclude }) => {
				const el = node as Element;
				return (
					(!include || el.closest(include) !== null) &&
					!exclude.some((part) => el.closest(part) !== null)
				);
			},
			{ include: options.include, exclude },
		);
		if (checked) found.push(...(await frameViolations(frame, { exclude: [] }, run)));
	}
	return found;
}

/** No WCAG A/AA violation in the page (or the part of it asked) as it is now. */
export async function expectNoAxeViolations(
	page: Page,
	options: Omit<AxeOptions, 'rules'> = {},
): Promise<void> {
	expect(await axeViolations(page, options)).toEqual([]);
}

/**
 * No WCAG A/AA violation in the page as it is now, in each of the three colour sets: every rule
 * in the demo's colours, the colour rules in the others. Leaves the page in its own colours.
 */
export async function expectAccessibleInEveryTheme(
	page: Page,
	what: string,
	options: Omit<AxeOptions, 'rules'> = {},
): Promise<void> {
	const found: Record<string, unknown> = {};
	for (const theme of THEMES) {
		await useTheme(page, theme);
		const violations = await axeViolations(page, {
			...options,
			rules: theme.properties ? COLOUR_RULES : undefined,
		});
		if (violations.length) found[theme.name] = violations;
	}
	await useTheme(page, THEMES[0]!);
	// Soft, so one run names every page that fails, not only the first.
	expect.soft(found, `axe on ${what}`).toEqual({});
}
