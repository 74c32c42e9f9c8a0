import { describe, expect, it } from 'vitest';
import { dbSuiteInclude, dbTestFiles, runsOn } from '../db/runs-on.ts';

describe('where each database test file runs', () => {
	it('every file of tests/db says so in its first line, with why', () => {
		const unsaid = dbTestFiles()
			.filter((f) => !f.where)
			.map((f) => f.file);
		expect(unsaid).toEqual([]);
	});

	it('the PGlite suite and the hosted stage together run every file', () => {
		const files = dbTestFiles().map((f) => f.file);
		const run = new Set([...dbSuiteInclude('pglite'), ...dbSuiteInclude('hosted')]);
		expect(files.filter((f) => !run.has(f))).toEqual([]);
		expect(files.length).toBeGreaterThan(30);
	});

	it('a file that says both runs in each suite, one that says one runs only there', () => {
		const both = dbTestFiles().find((f) => f.where === 'both')!.file;
		const pglite = dbTestFiles().find((f) => f.where === 'PGlite')!.file;
		expect(dbSuiteInclude('pglite')).toEqual(expect.arrayContaining([both, pglite]));
		expect(dbSuiteInclude('hosted')).toContain(both);
		expect(dbSuiteInclude('hosted')).not.toContain(pglite);
		expect(dbSuiteInclude(undefined)).toEqual(['tests/db/**/*.test.ts']);
		expect(() => dbSuiteInclude('postgres')).toThrow('DB_TESTS_ON is pglite or hosted');
	});

	it('reads only the first line, and only with a reason', () => {
		expect(runsOn('// Runs on: hosted — SQL behaviour.\nimport x;')).toBe('hosted');
		expect(runsOn('// Runs on: PGlite\nimport x;')).toBeNull();
		expect(runsOn('import x;\n// Runs on: both — later.')).toBeNull();
	});
});
