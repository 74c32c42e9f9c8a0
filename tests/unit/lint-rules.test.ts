import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js, each shown a planted violation in a file where it applies
 * (lintText lints the text as if it were that file; nothing is written) and the same import where
 * it is allowed.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages ESLint gives `code` as the file `path`. */
async function restricted(path: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path });
	return (result?.messages ?? [])
		.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
		.map((m) => m.message);
}

const cases: {
	rule: string;
	file: string;
	code: string;
	expected: RegExp;
	/** Where the same import is allowed, or the allowed way to write it. */
	allowed: { file?: string; code?: string };
}[] = [
	{
		rule: 'a component does not import zod',
		file: 'src/features/admin/Planted.tsx',
		code: "import { z } from 'zod';\nexport const schema = z.string();\n",
		expected: /Validate in a feature's module/,
		allowed: { file: 'src/features/admin/planted.ts' },
	},
	{
		rule: 'a component does not import server code',
		file: 'src/features/members/Planted.tsx',
		code: "import { listMembers } from './members.server.ts';\nexport const list = listMembers;\n",
		expected: /Server code does not run in the browser/,
		allowed: { file: 'src/features/members/planted.server.ts' },
	},
	{
		rule: "a public page's island does not load a zod schema module",
		file: 'src/features/search/Planted.tsx',
		code: "import { URL_KEYS } from '../config/config.ts';\nexport const keys = URL_KEYS;\n",
		expected: /builds zod schemas/,
		allowed: { file: 'src/features/admin/Planted.tsx' },
	},
	{
		rule: "a function does not load argon2's module",
		file: 'netlify/functions/planted.ts',
		code: "import { importTenant } from '../../src/features/tenants/tenants.server.ts';\nexport default importTenant;\n",
		expected: /argon2's native module/,
		allowed: { file: 'netlify/functions/admin-chambers.ts' },
	},
	{
		rule: 'only the mail module loads nodemailer',
		file: 'src/features/contact/planted.server.ts',
		code: "import nodemailer from 'nodemailer';\nexport const mail = nodemailer;\n",
		expected: /nodemailer is for src\/lib\/mail.server.ts/,
		allowed: { file: 'src/lib/mail.server.ts' },
	},
	{
		rule: "nothing imports date-fns's index",
		file: 'src/features/events/planted.ts',
		code: "import { format } from 'date-fns';\nexport const f = format;\n",
		expected: /Import each function from its own entry/,
		allowed: { code: "import { format } from 'date-fns/format';\nexport const f = format;\n" },
	},
];

// The first lint of a run loads ESLint's config and the TypeScript parser: seconds on a busy machine.
const LINT_TIMEOUT = 30_000;

describe('the import rules catch a planted violation', () => {
	it.each(cases)(
		'$rule',
		async ({ file, code, expected, allowed }) => {
			const messages = await restricted(file, code);
			expect(messages).toHaveLength(1);
			expect(messages[0]).toMatch(expected);
			expect(await restricted(allowed.file ?? file, allowed.code ?? code)).toEqual([]);
		},
		LINT_TIMEOUT,
	);
});

describe('every CSV the product writes goes through the helper that escapes formulas', () => {
	const csvRule = async (path: string, code: string) => {
		const [result] = await eslint.lintText(code, { filePath: path });
		return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
	};

	it.each([
		["import Papa from 'papaparse';\nexport const csv = Papa.unparse([['=1+1']]);\n"],
		["import { unparse } from 'papaparse';\nexport const csv = unparse([['=1+1']]);\n"],
	])(
		'a planted writer is refused: %j',
		async (code) => {
			const messages = await csvRule('src/features/members/planted.ts', code);
			expect(messages.map((m) => m.message)).toEqual([
				expect.stringMatching(/Write CSV with toCsv \(src\/lib\/csv\.ts\)/),
			]);
			expect(await csvRule('src/lib/csv.ts', code)).toEqual([]);
		},
		LINT_TIMEOUT,
	);
});

describe('knip, in npm run lint, fails an export nothing imports', () => {
	const run = promisify(execFile);

	/** knip's findings with the repository's knip.json over a project of the planted files. */
	async function knipFindings(files: Record<string, string>) {
		const dir = await mkdtemp(join(tmpdir(), 'knip-planted-'));
		try {
			await cp(join(ROOT, 'knip.json'), join(dir, 'knip.json'));
			await cp(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
			const planted = { 'package.json': '{"name":"planted","private":true,"type":"module"}' };
			for (const [path, text] of Object.entries({ ...planted, ...files })) {
				await mkdir(dirname(join(dir, path)), { recursive: true });
				await writeFile(join(dir, path), text);
			}
			const knip = join(ROOT, 'node_modules/knip/bin/knip.js');
			// knip exits 1 when it finds something: the answer is its report either way.
			const { stdout } = await run(process.execPath, [knip, '--reporter', 'json'], {
				cwd: dir,
			}).catch((error: { stdout: string }) => error);
			const report = JSON.parse(stdout) as {
				issues: { file: string; exports: { name: string }[] }[];
			};
			return report.issues.flatMap((issue) =>
				issue.exports.map((found) => `${issue.file}: ${found.name}`),
			);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}

	it('runs in npm run lint', async () => {
		const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(pkg.scripts.lint).toMatch(/(^|&& )knip\b/);
	});

	it(
		'names a planted unused export, and not the one a function imports',
		async () => {
			const findings = await knipFindings({
				'netlify/functions/planted.ts':
					"import { used } from '../../src/features/planted/planted.ts';\nexport default () => used;\n",
				'src/features/planted/planted.ts':
					'export const used = 1;\nexport const plantedUnused = 2;\n',
			});
			expect(findings).toEqual(['src/features/planted/planted.ts: plantedUnused']);
		},
		LINT_TIMEOUT,
	);
});
