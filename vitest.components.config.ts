import react from '@astrojs/react';
import { getViteConfig } from 'astro/config';
import { SHARED_WORKERS } from './vitest.config.ts';

/**
 * Astro and React components rendered to HTML by Astro's container API, in Node, for
 * configuration variants the demo chamber does not show. astro.config.mjs is not loaded: its
 * Netlify adapter would clear .netlify/build under a build running at the same time.
 */
export default getViteConfig(
	{
		test: {
			name: 'components',
			// tests/contract: the specification's texts of states the demo's build does not show.
			include: ['src/**/*.astro.test.ts', 'tests/contract/**/*.astro.test.ts'],
			environment: 'node',
			...SHARED_WORKERS,
		},
	},
	{ configFile: false, integrations: [react()] },
);
