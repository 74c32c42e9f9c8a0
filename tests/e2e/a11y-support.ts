import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
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
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe's WCAG rules it still calls experimental, which withTags leaves out. Label in Name (2.5.3)
 * among them found the calendar's day cells; all five pass on every page.
 */
export const EXPERIMENTAL_WCAG_RULES = [
	'label-content-name-mismatch',
	'css-orientation-lock',
	'p-as-heading',
	'table-fake-caption',
	'td-has-header',
];

/** The rules whose outcome depends on the page's colours. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Rules turned off, each with its reason. None: every WCAG A/AA rule runs on every page. (An
 * entry here needs a reason a reader can check, and docs/accessibility.md lists it.)
 */
export const RULES_OFF: Readonly<Record<string, string>> = {};

export interface Theme {
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

export const THEMES: readonly Theme[] = [
	{ name: 'demo', properties: null },
	{ name: DARK_BRAND.name, properties: properties(DARK_BRAND) },
	{ name: LOW_CONTRAST.name, properties: properties(LOW_CONTRAST) },
];

/** Puts a colour set's custom properties in the page's theme element (null: the page's own). */
export async function useTheme(page: Page, theme: Theme): Promise<void> {
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

/** The page's WCAG A/AA violations, each with the first targets it names. */
export async function axeViolations(page: Page, options: AxeOptions = {}) {
	let builder = new AxeBuilder({ page });
	builder = options.rules
		? builder.withRules(options.rules)
		: builder.withTags(WCAG_TAGS).options({
				rules: Object.fromEntries(EXPERIMENTAL_WCAG_RULES.map((rule) => [rule, { enabled: true }])),
			});
	const off = Object.keys(RULES_OFF);
	if (off.length) builder = builder.disableRules(off);
	if (options.include) builder = builder.include(options.include);
	for (const part of options.exclude ?? []) builder = builder.exclude(part);
	const results = await builder.analyze();
	return results.violations.map((v) => ({
		id: v.id,
		impact: v.impact,
		targets: v.nodes
			.slice(0, 4)
			.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`),
	}));
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
