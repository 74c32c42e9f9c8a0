import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What lint checks file by file (eslint.config.js: no-restricted-imports), followed through every
 * import: what a public page's island loads must not bring zod or server code, and a function must
 * not bring argon2's native module unless it is the import itself, nor the mail library, the
 * spreadsheet reader, the checked outside connection or date-fns's index unless it uses them. Type-only imports are erased by the
 * build and do not count.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** The islands of the public pages: components hydrated in a visitor's browser, and the
 * scripts those pages load on the first interaction. */
const PUBLIC_ISLANDS = [
	'src/features/home/FeaturedBusinesses.tsx',
	'src/features/search/SearchDirectory.tsx',
	'src/features/events/EventsCalendar.tsx',
	'src/features/events/EventsAgenda.tsx',
	'src/features/contact/open-contact.tsx',
	'src/features/chamber-events/submit/open-submit-event.tsx',
	'src/features/site/header-menu.ts',
	'src/features/home/banner-carousel.ts',
];

/** Value imports of a module (static, and dynamic with a literal): relative files resolved, packages as they are named. */
function valueImports(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const found: string[] = [];
	for (const statement of source.statements) {
		if (
			!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) ||
			!statement.moduleSpecifier ||
			!ts.isStringLiteral(statement.moduleSpecifier)
		) {
			continue;
		}
		if (ts.isImportDeclaration(statement)) {
			const clause = statement.importClause;
			if (clause?.phaseModifier === ts.SyntaxKind.TypeKeyword) continue;
			const named = clause?.namedBindings;
			// `import { type A, type B } from …` with no default is erased too.
			if (
				clause &&
				!clause.name &&
				named &&
				ts.isNamedImports(named) &&
				named.elements.length > 0 &&
				named.elements.every((element) => element.isTypeOnly)
			) {
				continue;
			}
		} else if (statement.isTypeOnly) {
			continue;
		}
		found.push(statement.moduleSpecifier.text);
	}
	// `await import('…')` with a literal: Netlify's tracer packs those too.
	const visit = (node: ts.Node): void => {
		if (
			ts.isCallExpression(node) &&
			node.expression.kind === ts.SyntaxKind.ImportKeyword &&
			node.arguments[0] &&
			ts.isStringLiteral(node.arguments[0])
		) {
			found.push(node.arguments[0].text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

function resolveImport(from: string, specifier: string): string | null {
	if (!specifier.startsWith('.')) return null;
	const path = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
	return existsSync(path) ? path : null;
}

/** Each module's imports, read once: every rule walks the same files. */
const importsOf = new Map<string, string[]>();
/** Each entry's graph, walked once: several rules ask about every function. */
const graphs = new Map<string, Map<string, string[]>>();

/** Every module and package an entry loads, with the chain that brings each. */
function loads(entry: string): Map<string, string[]> {
	const known = graphs.get(entry);
	if (known) return known;
	const seen = new Map<string, string[]>();
	graphs.set(entry, seen);
	const queue: [string, string[]][] = [[resolve(ROOT, entry), [entry]]];
	while (queue.length > 0) {
		const [file, chain] = queue.shift()!;
		if (!/\.(ts|tsx)$/.test(file)) continue;
		let specifiers = importsOf.get(file);
		if (!specifiers) importsOf.set(file, (specifiers = valueImports(file)));
		for (const specifier of specifiers) {
			const target = resolveImport(file, specifier);
			const name = target ? relative(ROOT, target) : specifier;
			if (seen.has(name)) continue;
			seen.set(name, [...chain, name]);
			if (target) queue.push([target, [...chain, name]]);
		}
	}
	return seen;
}

function offending(entry: string, bad: (name: string) => boolean): string[] {
	return [...loads(entry)].filter(([name]) => bad(name)).map(([, chain]) => chain.join(' → '));
}

describe("a public page's islands", () => {
	for (const island of PUBLIC_ISLANDS) {
		it(`${island} loads no zod and no server module`, () => {
			expect(offending(island, (name) => name === 'zod' || name.endsWith('.server.ts'))).toEqual(
				[],
			);
		});
	}
});

describe('the functions', () => {
	const functions = readdirSync(join(ROOT, 'netlify/functions')).filter((f) => f.endsWith('.ts'));
	// The import creates identities with argon2 hashes: the generator's 'Create chamber' runs it.
	const argon2Allowed = ['admin-chambers.ts'];

	for (const name of functions) {
		it(`${name} ${argon2Allowed.includes(name) ? 'may' : 'does not'} load argon2`, () => {
			const found = offending(`netlify/functions/${name}`, (m) => m.startsWith('@node-rs/'));
			if (argon2Allowed.includes(name)) expect(found).not.toEqual([]);
			else expect(found).toEqual([]);
		});
	}

	// Netlify traces a function's packages file by file: a package lands whole in the zip of every
	// function that loads it (docs/performance.md#function-sizes), so only those that use it may.
	const heavy: Record<string, { is: (module: string) => boolean; usedBy: string[] }> = {
		"date-fns's index (each function from its own entry instead)": {
			is: (m) => m === 'date-fns',
			usedBy: [],
		},
		'nodemailer (sending mail)': {
			is: (m) => m === 'nodemailer',
			usedBy: [
				'admin-event-feeds.ts',
				'admin-event-submissions.ts',
				'admin-member-requests.ts',
				'contact-business.ts',
				'contact-retry.ts',
				'event-feeds-scheduled.ts',
				// The month's publish budget: the admins' warning at 80 %.
				'fire-scheduled-publishes.ts',
				'stats-monthly-email.ts',
			],
		},
		'undici (a checked connection to an address outside the site)': {
			is: (m) => m === 'undici' || m.startsWith('undici/'),
			usedBy: [
				// Calendar feeds, and Atlas's events where it is the events source.
				'admin-event-feeds.ts',
				'admin-events.ts',
				'community-events.ts',
				'event-details.ts',
				'event-feeds-scheduled.ts',
				'event-ics.ts',
				'events-ics.ts',
				'events.ts',
				// A sponsor's banner image, the geocoder, the membership system's sync.
				'banner-image.ts',
				'geocode-scheduled.ts',
				'member-import-background.ts',
				'member-sync-scheduled.ts',
				'member-sync.ts',
			],
		},
		'exceljs (reading a spreadsheet)': {
			is: (m) => m === 'exceljs' || m.startsWith('exceljs/'),
			usedBy: ['member-import-background.ts'],
		},
	};
	for (const [what, { is, usedBy }] of Object.entries(heavy)) {
		for (const name of functions) {
			const uses = usedBy.includes(name);
			it(`${name} ${uses ? 'loads' : 'does not load'} ${what}`, () => {
				const found = offending(`netlify/functions/${name}`, is);
				if (uses) expect(found).not.toEqual([]);
				else expect(found).toEqual([]);
			});
		}
	}
});
