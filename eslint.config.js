// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ISLAND_SERVER = {
	group: ['*.server', '*.server.ts'],
	allowTypeImports: true,
	message: 'Server code does not run in the browser: pass the data in as props.',
};
const ISLAND_ZOD = {
	group: ['zod', 'zod/*'],
	message: "Validate in a feature's module (<feature>.ts), or on the server.",
};
const ZOD_MODULES = {
	group: [
		'**/admin/**',
		'**/auth/auth.ts',
		'**/config/config.ts',
		'**/config/database-rules.ts',
		'**/contact/contact.ts',
		'**/directory/directory.ts',
		'**/events/source-schema.ts',
		'**/generator/generator.ts',
		'**/publish/publish.ts',
		'**/tenants/tenant-file.ts',
		'**/lib/zod-csp.ts',
	],
	allowTypeImports: true,
	message:
		'This module builds zod schemas, which a public island cannot afford (its script budget): take types only, or move the code to a zod-free module such as directory/rules.ts.',
};
const ARGON2 = {
	group: ['@node-rs/*', '**/tenants/tenants.server.ts', '**/generator/generator.server.ts'],
	allowTypeImports: true,
	message:
		"This pulls argon2's native module into the function's zip: read tenants with tenants/lookup.server.ts.",
};

// Netlify traces a function's packages file by file (node-file-trace), not into a bundle: what a
// module imports lands in the zip of every function that loads it (docs/performance.md#function-sizes).
const DATE_FNS = {
	name: 'date-fns',
	message:
		"Import each function from its own entry (date-fns/format): the package's index brings all of date-fns into every function that loads the module.",
};
const MAIL_AND_SHEETS = {
	group: ['nodemailer', 'nodemailer/*', 'exceljs', 'exceljs/*'],
	allowTypeImports: true,
	message:
		'nodemailer is for src/lib/mail.server.ts and exceljs for members/import/read.server.ts and xlsx.server.ts: only the functions that send mail or read a spreadsheet may carry them.',
};

/** The public pages' islands and every module they load (tests/unit/import-rules.test.ts). */
const PUBLIC_ISLAND_FILES = [
	'src/features/{business,contact,events,home,search,site}/**/*.tsx',
	'src/features/business/business.ts',
	'src/features/chamber-events/submit/*.tsx',
	'src/features/chamber-events/submission-limits.ts',
	'src/features/contact/{limits,recaptcha,store}.ts',
	'src/features/directory/rules.ts',
	'src/features/events/{calendar,events,hooks,store,useDayGrid}.ts',
	'src/features/geo/{map,rules,tiles}.ts',
	'src/features/home/banner-carousel.ts',
	'src/features/search/{search,store}.ts',
	'src/features/self-service/paths.ts',
	'src/features/site/{errors,header-menu}.ts',
	'src/lib/url.ts',
];

// Every CSV the product writes goes through src/lib/csv.ts, which escapes cells a spreadsheet
// would run as formulas (visitors' search words and members' names reach the exports).
const CSV_WRITERS = [
	{
		selector: "CallExpression[callee.property.name='unparse']",
		message: 'Write CSV with toCsv (src/lib/csv.ts): it escapes cells a spreadsheet would run.',
	},
	{
		selector: "ImportSpecifier[imported.name='unparse']",
		message: 'Write CSV with toCsv (src/lib/csv.ts): it escapes cells a spreadsheet would run.',
	},
];

export default defineConfig(
	{
		ignores: [
			'dist/',
			'dist-*/',
			'.astro/',
			'.netlify/',
			'.data*/',
			'node_modules/',
			'test-results/',
			'playwright-report/',
		],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	// Astro components: the template and its frontmatter (TypeScript through typescript-eslint).
	...astro.configs.recommended,
	{ files: ['**/*.tsx'], ...reactHooks.configs.flat.recommended },
	// What a file may import, by where it runs (docs/architecture.md#where-the-code-goes).
	// tests/unit/import-rules.test.ts follows the same rules through every import. A later block
	// replaces an earlier one's list for the files both name, so each repeats what still applies.
	{
		files: ['**/*.{ts,tsx}'],
		rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [DATE_FNS] }] },
	},
	{
		// Server code: the mail library and the spreadsheet reader each have one module.
		files: ['src/**/*.ts', 'netlify/**/*.ts'],
		ignores: [
			'src/lib/mail.server.ts',
			'src/features/members/import/read.server.ts',
			'src/features/members/import/xlsx.server.ts',
			'**/*.test.ts',
		],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ paths: [DATE_FNS], patterns: [MAIL_AND_SHEETS] },
			],
		},
	},
	{
		// Components render in the browser: no server code, and zod only through a feature's module.
		files: ['src/**/*.tsx'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ paths: [DATE_FNS], patterns: [ISLAND_SERVER, ISLAND_ZOD] },
			],
		},
	},
	{
		// The public pages' islands and the modules they load: every byte counts against the page's
		// script budget, so no zod at all, not even through a feature's schema module.
		files: PUBLIC_ISLAND_FILES,
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ paths: [DATE_FNS], patterns: [ISLAND_SERVER, ISLAND_ZOD, ZOD_MODULES] },
			],
		},
	},
	{
		// argon2's native module (the import's password hashes) would grow a function past its zip
		// budget; only 'Create chamber' runs the import.
		files: ['netlify/functions/*.ts'],
		ignores: ['netlify/functions/admin-chambers.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ paths: [DATE_FNS], patterns: [ARGON2, MAIL_AND_SHEETS] },
			],
		},
	},
	{
		files: ['src/**/*.{ts,tsx}', 'netlify/**/*.ts', 'scripts/**/*.ts'],
		ignores: ['src/lib/csv.ts', '**/*.test.ts'],
		rules: { 'no-restricted-syntax': ['error', ...CSV_WRITERS] },
	},
);
