import type { Colors, TextColors } from '../../src/features/config/config.ts';

/**
 * Colour sets the accessibility tests render the site in besides the demo chamber's own: a dark
 * brand (near-black primaries, a dark red accent under the default dark label) and a deliberately
 * low-contrast one (pale fills, pale text colours everywhere). Both are valid configurations a
 * chamber can save; every pair in them fails WCAG AA as chosen, so the site's corrections show.
 */
export interface ThemeSample {
	name: string;
	colors: Colors;
	textColors: TextColors;
}

export const DARK_BRAND: ThemeSample = {
	name: 'dark brand',
	colors: {
		primary: '#1b1b1f',
		primaryLight: '#2e2e36',
		primaryDark: '#000000',
		secondary: '#7f1d1d',
		secondaryLight: '#991b1b',
		secondaryDark: '#450a0a',
	},
	textColors: {
		heading: '#111111',
		body: '#1f1f1f',
		link: '#3b0764',
		linkHover: '#1e1b4b',
		onDarkHeading: '#4b5563',
		onDarkBody: '#374151',
	},
};

export const LOW_CONTRAST: ThemeSample = {
	name: 'low contrast',
	colors: {
		primary: '#fde68a',
		primaryLight: '#fef3c7',
		primaryDark: '#fcd34d',
		secondary: '#e5e7eb',
		secondaryLight: '#f9fafb',
		secondaryDark: '#d1d5db',
	},
	textColors: {
		heading: '#d1d5db',
		body: '#e5e7eb',
		link: '#a5b4fc',
		linkHover: '#c7d2fe',
		onDarkHeading: '#fffbeb',
		onDarkBody: '#fef9c3',
	},
};
