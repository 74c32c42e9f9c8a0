import { FONT_CHOICES } from './config.ts';
import type { ChamberConfig, FontChoice } from './config.ts';

// The theme is interpolated into a <style> block, so every value is checked
// here again even though the schema already restricts colours to hex and fonts to FONT_CHOICES:
// a config built without the schema must not be able to inject CSS or markup.

type ThemeSource = Pick<ChamberConfig, 'colors' | 'textColors' | 'fonts'>;

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
const FONT_SET: ReadonlySet<string> = new Set(FONT_CHOICES);
const SERIF_FONTS: ReadonlySet<FontChoice> = new Set(['Playfair Display', 'Merriweather']);

const SANS_FALLBACK =
	"system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SERIF_FALLBACK = "Georgia, Cambria, 'Times New Roman', Times, serif";

function colour(value: unknown, field: string): string {
	if (typeof value !== 'string' || !HEX_COLOUR.test(value)) {
		throw new Error(`Theme colour ${field} is not a hex colour`);
	}
	return value;
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

/** The chamber's colours and fonts as CSS custom properties on :root. */
export function themeCss(config: ThemeSource): string {
	const { colors, textColors, fonts } = config;
	const vars: [string, string][] = [
		['--color-primary', colour(colors.primary, 'colors.primary')],
		['--color-primary-light', colour(colors.primaryLight, 'colors.primaryLight')],
		['--color-primary-dark', colour(colors.primaryDark, 'colors.primaryDark')],
		['--color-secondary', colour(colors.secondary, 'colors.secondary')],
		['--color-secondary-light', colour(colors.secondaryLight, 'colors.secondaryLight')],
		['--color-secondary-dark', colour(colors.secondaryDark, 'colors.secondaryDark')],
		['--text-heading', colour(textColors.heading, 'textColors.heading')],
		['--text-body', colour(textColors.body, 'textColors.body')],
		['--text-link', colour(textColors.link, 'textColors.link')],
		['--text-link-hover', colour(textColors.linkHover, 'textColors.linkHover')],
		['--text-on-dark-heading', colour(textColors.onDarkHeading, 'textColors.onDarkHeading')],
		['--text-on-dark-body', colour(textColors.onDarkBody, 'textColors.onDarkBody')],
		['--font-heading', fontStack(font(fonts.heading, 'fonts.heading'))],
		['--font-body', fontStack(font(fonts.body, 'fonts.body'))],
	];
	return `:root {\n${vars.map(([name, value]) => `\t${name}: ${value};`).join('\n')}\n}`;
}
