import { describe, expect, it } from 'vitest';
import { FONT_CHOICES } from '../config/config.ts';
import { FONT_FILES } from './font-files.ts';
import { getFontAssets } from './fonts.server.ts';
import { expectNoFileReads } from './imports.test-helpers.ts';

const urls = (css: string) => [...css.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]);

describe('getFontAssets', () => {
	it.each(FONT_CHOICES)('self-hosts %s: latin files, weights 400-700, swap', (font) => {
		const { css } = getFontAssets({ heading: font, body: font });
		const files = FONT_FILES[font].flatMap((set) => [set.latin, set.latinExt]);
		expect(urls(css).sort()).toEqual([...files].sort());
		const faces = css.split('\n').filter((face) => face.includes('url('));
		expect(faces).toHaveLength(files.length);
		for (const face of faces) {
			expect(face).toContain(`font-family:'${font}'`);
			expect(face).toContain('font-display:swap');
			expect(face).toMatch(/font-weight:(400 700|400|500|600|700);/);
			expect(face).toMatch(/unicode-range:U\+/);
			expect(face).toMatch(/format\('woff2'\)/);
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

	it('ships the heading and body fonts only, each once', () => {
		const both = getFontAssets({ heading: 'Merriweather', body: 'Lato' });
		const families = new Set(
			urls(both.css).map((url) => url?.split('/').at(-1)?.split('-')[0] ?? ''),
		);
		expect(families).toEqual(new Set(['merriweather', 'lato']));
		const same = getFontAssets({ heading: 'Inter', body: 'Inter' });
		expect(urls(same.css)).toHaveLength(2);
	});

	it('refuses a font outside the supported list', () => {
		expect(() => getFontAssets({ heading: "x'}</style>" as 'Inter', body: 'Inter' })).toThrow(
			/Unsupported font/,
		);
	});

	// The on-demand event page renders the layout, and so the fonts, in Netlify's function bundle.
	it.each(['./fonts.server.ts', './font-files.ts'])(
		'%s reads no file when a page renders',
		(module) => expectNoFileReads(new URL(module, import.meta.url), '@fontsource'),
	);
});
