import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
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
				},
			},
			{
				test: {
					name: 'db',
					// tests/contract: the specification's requests, against the same stack.
					include: ['tests/db/**/*.test.ts', 'tests/contract/**/*.test.ts'],
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
