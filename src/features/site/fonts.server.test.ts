import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FONT_CHOICES } from '../config/config.ts';
import { getFontAssets } from './fonts.server.ts';

describe('getFontAssets', () => {
	it.each(FONT_CHOICES)('self-hosts %s: latin files, weights 400-700, swap', async (font) => {
		const { css, files } = await getFontAssets({ heading: font, body: font });
		expect(files.length).toBeGreaterThanOrEqual(2);
		for (const file of files) {
			expect((await stat(file.source)).size, file.source).toBeGreaterThan(1000);
			expect(css).toContain(`url(/fonts/${file.path}) format('woff2')`);
		}
		expect(files.some((f) => f.path.includes('-latin-'))).toBe(true);
		expect(files.some((f) => f.path.includes('-latin-ext-'))).toBe(true);
		const faces = css.split('\n').filter((face) => face.includes('url('));
		expect(faces).toHaveLength(files.length);
		for (const face of faces) {
			expect(face).toContain(`font-family:'${font}'`);
			expect(face).toContain('font-display:swap');
			expect(face).toMatch(/font-weight:(400 700|400|500|600|700);/);
			expect(face).toMatch(/unicode-range:U\+/);
		}
		// The metric-matched fallback the theme's font stack names after the web font.
		expect(css).toMatch(
			new RegExp(
				`@font-face\\{font-family:'${font} Fallback';src:local\\('(Arial|Times New Roman)'\\).*size-adjust:[\\d.]+%`,
			),
		);
		expect(css).toMatch(/font-weight:(400 700|400);/);
		expect(css).toMatch(/font-weight:(400 700|700);/);
	});

	it('ships the heading and body fonts only, each once', async () => {
		const both = await getFontAssets({ heading: 'Merriweather', body: 'Lato' });
		expect(new Set(both.files.map((f) => f.path.split('/')[1]?.split('-')[0]))).toEqual(
			new Set(['merriweather', 'lato']),
		);
		const same = await getFontAssets({ heading: 'Inter', body: 'Inter' });
		expect(same.files).toHaveLength(2);
	});

	it('refuses a font outside the supported list', async () => {
		await expect(
			getFontAssets({ heading: "x'}</style>" as 'Inter', body: 'Inter' }),
		).rejects.toThrow(/Unsupported font/);
	});
});
