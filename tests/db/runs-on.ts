import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where each database test file runs, as its first line says, with why:
 *
 *   // Runs on: hosted — SQL behaviour, proved on the production shape (`npm run test:hosted`)
 *   // Runs on: PGlite — the embedded stack is the subject, or the file starts its own (`npm test`)
 *   // Runs on: both — each database proves something the other cannot
 *
 * DB_TESTS_ON picks the files of one suite (`pglite` for `npm run test:db`, `hosted` for the
 * hosted stage); without it every file runs, on whichever database the stack has (so any file can
 * still be run by hand on PGlite: `npx vitest run --project db tests/db/rls.test.ts`).
 */
export type RunsOn = 'PGlite' | 'hosted' | 'both';
type DbSuite = 'pglite' | 'hosted';

const DIR = import.meta.dirname;
const LINE = /^\/\/ Runs on: (PGlite|hosted|both) — \S/;

/** Where a test file's source says it runs; null when its first line does not say. */
export function runsOn(source: string): RunsOn | null {
	const match = LINE.exec(source.split('\n', 1)[0] ?? '');
	return match ? (match[1] as RunsOn) : null;
}

function runsIn(where: RunsOn, suite: DbSuite): boolean {
	return where === 'both' || where.toLowerCase() === suite;
}

/** tests/db/*.test.ts with where each runs, by name. */
export function dbTestFiles(): Array<{ file: string; where: RunsOn | null }> {
	return readdirSync(DIR)
		.filter((name) => name.endsWith('.test.ts'))
		.sort()
		.map((name) => ({
			file: `tests/db/${name}`,
			where: runsOn(readFileSync(join(DIR, name), 'utf8')),
		}));
}

/** The db project's include: the files of DB_TESTS_ON's suite, or every file without it. */
export function dbSuiteInclude(suite: string | undefined): string[] {
	if (!suite) return ['tests/db/**/*.test.ts'];
	if (suite !== 'pglite' && suite !== 'hosted') {
		throw new Error(`DB_TESTS_ON is pglite or hosted, not "${suite}"`);
	}
	const files = dbTestFiles();
	const unsaid = files.filter((f) => !f.where).map((f) => f.file);
	if (unsaid.length) {
		throw new Error(
			`Say where these run in their first line (// Runs on: PGlite|hosted|both — why): ${unsaid.join(', ')}`,
		);
	}
	return files.filter((f) => runsIn(f.where!, suite)).map((f) => f.file);
}
