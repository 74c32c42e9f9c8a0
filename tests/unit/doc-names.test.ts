import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the docs name in backticks is in the repository: a file path is a file or folder, an
 * identifier (a function, a constant, a column, an environment variable) is written somewhere in
 * the code, an `npm run` command is a script of package.json. A rename without its docs, or a
 * name the docs made up, fails here. Inline code only: fenced blocks are examples (CONTRIBUTING's
 * walkthroughs show code that does not exist yet).
 */

const ROOT = resolve(import.meta.dirname, '../..');

const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** The files people read: the README, CONTRIBUTING and docs/. */
export const DOCS = ['README.md', 'CONTRIBUTING.md', ...git('ls-files', 'docs/*.md')];

/** Every tracked file and folder. */
function trackedPaths(): Set<string> {
	const paths = new Set<string>();
	for (const file of git('ls-files')) {
		const parts = file.split('/');
		for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
	}
	return paths;
}

/** The code: everything tracked but the docs themselves (and this file's planted names). */
function codeText(): string {
	const docs = new Set([...DOCS, relative(ROOT, import.meta.filename)]);
	return git('ls-files')
		.filter((file) => !docs.has(file) && !/\.(png|jpe?g|ico|woff2?|xlsx|zip|gz)$/.test(file))
		.map((file) => readFileSync(resolve(ROOT, file), 'utf8'))
		.join('\n');
}

/**
 * Names the docs use that belong to someone else, each with why it is not in the code.
 */
const OTHERS: Record<string, string> = {
	_ga: "Google Analytics' own cookie, which the docs say the site never sets",
	page_view: "Google Analytics' event name, which gtag.js sends by itself",
};

/** The folders the product and the tests write at run time: not tracked, named by the code. */
const RUNTIME = /^(\.data[\w-]*|\.netlify|test-results|node_modules|dist)(\/|$)/;

/** The inline code spans of a markdown text, fenced blocks left out. */
export function inlineCode(markdown: string): string[] {
	const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
	return [...prose.matchAll(/(`+)([^`\n]+?)\1/g)].map((m) => m[2]!.trim());
}

export type Named =
	| { kind: 'path'; path: string }
	| { kind: 'identifier'; name: string }
	| { kind: 'script'; name: string }
	| { kind: 'package'; name: string };

const EXTENSION = /\.(ts|tsx|mjs|js|astro|md|sql|json|css|sh|toml|ya?ml|html|csv|xlsx|txt)$/;

/**
 * What a span names, if it names something the repository must have: text, values, routes,
 * commands other than npm's scripts and placeholders name nothing to check.
 */
export function named(span: string): Named | null {
	const script = /^npm run (?:--silent )?([\w:-]+)/.exec(span);
	if (script) return { kind: 'script', name: script[1]! };
	if (/\s/.test(span)) return null;
	if (/^@[\w-]+\/[\w.-]+$/.test(span) || /^[\w-]+\.js$/.test(span)) {
		return { kind: 'package', name: span };
	}
	// Placeholders and patterns: `{TENANT}`, `<feature>`, `*.test.ts`, `…`.
	if (/[{}<>*…]|\.\.\./.test(span)) return null;
	// Addresses and routes (`/api/events`, `https://…`, `rpc/…`), media types, dates, `n/a`.
	if (/^(\.{0,2}\/|[a-z]+:)/i.test(span) && !/^\.\//.test(span)) return null;
	if (/^(rpc|rest|auth|storage)\/|^(text|application|image|font|multipart)\//.test(span))
		return null;
	// A time zone's name: `America/Chicago`.
	if (/^[A-Z][a-z]+\/[A-Z][A-Za-z_]+$/.test(span)) return null;
	if (/^[\w-]+(\.[\w-]+)+\//.test(span) || /^[\d/]+$/.test(span) || /^\w\/\w$/.test(span)) {
		return null;
	}
	const path = span.replace(/^\.\//, '').replace(/\/$/, '');
	if (path.includes('/') || EXTENSION.test(path)) {
		// A path into a folder, a file, or a file and a line: `scripts/start.ts:12`.
		return { kind: 'path', path: path.replace(/:\d+$/, '').replace(/#.*$/, '') };
	}
	// `content.heroTitle`, `fn()`, `Dialog`: the last name is the one to find.
	const identifier = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)(?:\(\))?$/.exec(span);
	if (!identifier) return null;
	const name = identifier[1]!;
	// A lower-case word is as often prose as code (`anon`, `published`); a name with a capital
	// inside, an underscore or a digit is a name someone wrote in the code.
	return /[a-z][A-Z]|_|[A-Z]{2}|\d/.test(name) ? { kind: 'identifier', name } : null;
}

describe('the names in the docs', () => {
	const paths = trackedPaths();
	const code = codeText();
	const words = new Set(code.match(/[A-Za-z_$][\w$]*/g));
	const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
		dependencies: Record<string, string>;
		devDependencies: Record<string, string>;
	};
	const packages = new Set([
		...Object.keys(pkg.dependencies),
		...Object.keys(pkg.devDependencies),
		...git('ls-files', 'tools/*/package.json').flatMap((file) => {
			const tool = JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));
			return Object.keys({ ...tool.dependencies, ...tool.devDependencies });
		}),
	]);
	const files = [...paths];

	/** The hosted shape's files, which the docs name as its README does. */
	const shape = resolve(ROOT, process.env.HOSTED_SHAPE_DIR || '../shared/supabase-hosted');

	/**
	 * A path as the docs write it: from the root, or from a folder they are talking about; a file
	 * written at run time (the data folder's, a build's) by the name the code gives it.
	 */
	const pathExists = (path: string) =>
		paths.has(path) ||
		files.some((file) => file.endsWith(`/${path}`)) ||
		((RUNTIME.test(path) || !path.includes('/')) &&
			(code.includes(path) || code.includes(path.split('/').at(-1)!))) ||
		existsSync(resolve(shape, path));

	const missing = (doc: string) =>
		inlineCode(readFileSync(resolve(ROOT, doc), 'utf8')).filter((span) => {
			const name = named(span);
			if (!name) return false;
			switch (name.kind) {
				case 'path':
					return !pathExists(name.path);
				case 'identifier':
					return !words.has(name.name) && !(name.name in OTHERS);
				case 'script':
					return !(name.name in pkg.scripts);
				case 'package':
					return !packages.has(name.name) && !packages.has(name.name.replace(/\.js$/, ''));
			}
		});

	it.each(DOCS)('%s names only what exists', (doc) => {
		expect(missing(doc)).toEqual([]);
	});

	it('finds a planted wrong name of each kind', () => {
		const planted = [
			'`src/features/config/membership-levels.ts`',
			'`searchPlaceholder`',
			'`npm run test:everything`',
			'`@astrojs/nowhere`',
		].join(' and ');
		const found = inlineCode(`Read ${planted}.`)
			.map(named)
			.filter((name) => name !== null);
		expect(found.map((n) => n.kind)).toEqual(['path', 'identifier', 'script', 'package']);
		expect(pathExists('src/features/config/membership-levels.ts')).toBe(false);
		expect(words.has('searchPlaceholder')).toBe(false);
		expect('test:everything' in pkg.scripts).toBe(false);
		expect(packages.has('@astrojs/nowhere')).toBe(false);
		// And what is there is found.
		expect(pathExists('src/features/config/config.ts')).toBe(true);
		expect(words.has('servedJson')).toBe(true);
	});
});
