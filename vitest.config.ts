import { configDefaults, defineConfig } from 'vitest/config';
import { dbSuiteInclude } from './tests/db/runs-on.ts';

/**
 * Unit and component files share their workers' threads and loaded modules: no file depends on
 * another's leftovers (stubs and globals are put back after each test), and loading the modules
 * once per worker instead of once per file makes the suite about 2.5 times faster (measured: 147 s
 * in a process per file, 60 s so).
 */
export const SHARED_WORKERS = { pool: 'threads', isolate: false } as const;

export default defineConfig({
	test: {
		// CI's record of each file's and test's time (scripts/ci-summary.ts).
		reporters: process.env.TEST_TIMINGS_FILE
			? [
					'default',
					['./tests/support/timings-reporter.ts', { outputFile: process.env.TEST_TIMINGS_FILE }],
				]
			: ['default'],
		projects: [
			{
				test: {
					name: 'unit',
					include: [
						'src/**/*.test.ts',
						'tenants/**/*.test.ts',
						'scripts/**/*.test.ts',
						'tests/unit/**/*.test.ts',
					],
					// Component tests need Astro's compiler: project 'components' below.
					exclude: [...configDefaults.exclude, 'src/**/*.astro.test.ts'],
					environment: 'node',
					...SHARED_WORKERS,
				},
			},
			{
				test: {
					name: 'db',
					// Each db file's first line says where it runs (tests/db/runs-on.ts); tests/contract
					// holds the specification's requests, run against the embedded stack.
					include: [
						...dbSuiteInclude(process.env.DB_TESTS_ON),
						...(process.env.DB_TESTS_ON === 'hosted' ? [] : ['tests/contract/**/*.test.ts']),
					],
					exclude: [...configDefaults.exclude, 'tests/contract/**/*.astro.test.ts'],
					environment: 'node',
					globalSetup: ['tests/db/global-setup.ts'],
					// One database, one stack: files run one after another.
					fileParallelism: false,
					testTimeout: 60_000,
					hookTimeout: 180_000,
				},
			},
			'./vitest.components.config.ts',
		],
	},
});
