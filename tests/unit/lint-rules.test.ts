import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js, each shown a planted violation in a file where it applies
 * (lintText lints the text as if it were that file; nothing is written) and the same import where
 * it is allowed.
 */

const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

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

describe('the import rules catch a planted violation', () => {
	it.each(cases)('$rule', async ({ file, code, expected, allowed }) => {
		const messages = await restricted(file, code);
		expect(messages).toHaveLength(1);
		expect(messages[0]).toMatch(expected);
		expect(await restricted(allowed.file ?? file, allowed.code ?? code)).toEqual([]);
	});
});

describe('every CSV the product writes goes through the helper that escapes formulas', () => {
	const csvRule = async (path: string, code: string) => {
		const [result] = await eslint.lintText(code, { filePath: path });
		return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax');
	};

	it.each([
		["import Papa from 'papaparse';\nexport const csv = Papa.unparse([['=1+1']]);\n"],
		["import { unparse } from 'papaparse';\nexport const csv = unparse([['=1+1']]);\n"],
	])('a planted writer is refused: %j', async (code) => {
		const messages = await csvRule('src/features/members/planted.ts', code);
		expect(messages.map((m) => m.message)).toEqual([
			expect.stringMatching(/Write CSV with toCsv \(src\/lib\/csv\.ts\)/),
		]);
		expect(await csvRule('src/lib/csv.ts', code)).toEqual([]);
	});
});
