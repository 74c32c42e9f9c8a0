import { describe, expect, it } from 'vitest';
import { LOW_CONTRAST } from '../../../tests/support/themes.ts';
import { fieldLabel } from '../admin/config/labels.ts';
import { render, testConfig } from '../site/render.test-helpers.ts';
import { resolveTheme } from './theme.ts';
import { ThemeContrast } from './ThemeContrast.tsx';

// The contrast table of the panel's Colors and Fonts tabs and the generator's Branding tab.

describe('ThemeContrast', () => {
	it('says when every colour is used as chosen', async () => {
		const config = testConfig({
			textColors: { linkHover: '#0a2f4d' },
			colors: { primaryLight: '#1d4ed8' },
		});
		const { getByRole, queryAllByText } = await render(ThemeContrast, {
			source: config,
			fieldLabel,
		});
		expect(getByRole('status').textContent).toBe('All colours are used as chosen.');
		expect(queryAllByText(/^Adjusted:/)).toHaveLength(0);
	});

	it('shows each pair with its ratios and names every colour the site adjusts', async () => {
		const { colours } = resolveTheme(LOW_CONTRAST);
		const { getByRole, getAllByRole, getByText } = await render(ThemeContrast, {
			source: LOW_CONTRAST,
			fieldLabel,
		});
		expect(getByRole('status').textContent).toBe('9 of 9 pairs are adjusted for contrast.');
		const rows = getAllByRole('row').slice(1);
		expect(rows.map((r) => r.querySelector('th')?.textContent)).toEqual([
			'Headings',
			'Body text',
			'Links',
			'Links on hover',
			'Primary as text (outlined buttons, names, the menu on hover)',
			'Keyboard focus outline',
			'Headings and button labels on the brand colours (hero, footer, buttons)',
			'Text and links on the brand colours (hero, footer)',
			'Join Today and Search buttons',
		]);
		const heading = rows[0]!;
		expect(heading.textContent).toMatch(/1\.\d:1 below 4\.5:1/);
		expect(heading.textContent).toMatch(/4\.\d:1/);
		expect(getByText(`Adjusted: Heading #d1d5db → ${colours['--text-heading']}`)).toBeTruthy();
	});

	it('waits for hex colours while one is being typed', async () => {
		const config = testConfig();
		const { getByRole, queryByRole } = await render(ThemeContrast, {
			source: { ...config, colors: { ...config.colors, primary: '#12' } },
			fieldLabel,
		});
		expect(getByRole('status').textContent).toBe(
			'Enter hex colours like #0d3e63 to see their contrast.',
		);
		expect(queryByRole('table')).toBeNull();
	});
});
