import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * The theme (src/features/config/theme.ts) guarantees WCAG AA for the pairs it knows: its text
 * colours on the light surfaces, --text-on-dark-* on the brand colours, --text-on-accent on the
 * accent, --focus-ring for outlines. A brand colour used straight as text or as an outline is a
 * pair it does not know, and one a chamber's colours can make unreadable: refused here, in every
 * stylesheet, component style block and inline style.
 */

const ROOT = resolve(import.meta.dirname, '../..');

const FILL = String.raw`--color-(?:primary|primary-light|primary-dark|secondary|secondary-light|secondary-dark)\)`;
const RULES: { what: string; pattern: RegExp }[] = [
	{
		what: 'a brand colour as text',
		pattern: new RegExp(String.raw`(?<![-\w])color:\s*var\(${FILL}`),
	},
	{
		what: 'a brand colour as a focus outline',
		pattern: new RegExp(String.raw`(?<![-\w])outline:[^;{}]*var\(${FILL}`),
	},
	{
		what: 'a fixed label colour on the accent',
		pattern: /--color-secondary(?:-light)?\);\s*[^}]*?(?<![-\w])color:\s*#/,
	},
];

it('no style uses a brand colour as text or outline, or fixes a label colour on the accent', () => {
	const files = execFileSync(
		'git',
		['ls-files', 'src/**/*.css', 'src/**/*.astro', 'src/**/*.tsx'],
		{
			cwd: ROOT,
			encoding: 'utf8',
		},
	)
		.split('\n')
		.filter(Boolean);
	expect(files.length).toBeGreaterThan(20);
	const found: string[] = [];
	for (const file of files) {
		const text = readFileSync(resolve(ROOT, file), 'utf8');
		for (const { what, pattern } of RULES) {
			const match = pattern.exec(text);
			if (match) found.push(`${file}: ${what}: ${match[0].slice(0, 80)}`);
		}
	}
	expect(found).toEqual([]);
});

it('refuses the misuses it is for', () => {
	const bad = [
		'.x { color: var(--color-primary); }',
		'.x { outline: 3px solid var(--color-primary-light); }',
		'.x { background: var(--color-secondary-light);\n\tcolor: #1a202c; }',
	];
	bad.forEach((css, i) => expect(RULES[i]!.pattern.test(css), css).toBe(true));
	expect(RULES[0]!.pattern.test('.x { color: var(--color-primary-text); }')).toBe(false);
	expect(RULES[0]!.pattern.test('.x { border-color: var(--color-primary); }')).toBe(false);
});
