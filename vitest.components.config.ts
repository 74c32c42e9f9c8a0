import { getViteConfig } from 'astro/config';

/**
 * Astro and React components rendered to HTML by Astro's container API, in Node, with the
 * project's own Vite setup, for configuration variants the demo chamber does not show.
 */
export default getViteConfig({
	test: {
		name: 'components',
		include: ['src/**/*.astro.test.ts'],
		environment: 'node',
	},
});
