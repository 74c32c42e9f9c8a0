// @ts-check
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import { defineConfig, passthroughImageService } from 'astro/config';

/**
 * Pages whose addresses are kept from the specification or an old site, while their files in
 * src/routes/ are named for what they serve; every other page is routed by its name in src/pages/.
 * Outside src/pages/ a page cannot say `export const prerender`: the two rendered on demand say
 * it here.
 */
const NAMED_ROUTES = [
	{ pattern: '/business-page/[id]', file: 'profile-on-demand.astro', prerender: false },
	{ pattern: '/chamber-config-v2', file: 'admin-panel.astro' },
	{ pattern: '/chamber-config-v2/preview', file: 'admin-panel-preview.astro', prerender: false },
	{ pattern: '/chamber-config/generator', file: 'config-generator.astro' },
];

/** @type {import('astro').AstroIntegration} */
const namedRoutes = {
	name: 'chamber:named-routes',
	hooks: {
		'astro:config:setup': ({ injectRoute }) => {
			for (const { pattern, file, prerender } of NAMED_ROUTES) {
				injectRoute({ pattern, entrypoint: `./src/routes/${file}`, prerender });
			}
		},
	},
};

export default defineConfig({
	site: process.env.SITE_URL || process.env.URL || 'http://localhost:8888',
	output: 'static',
	// Another folder for a second build beside the one being served (a publish, another chamber).
	outDir: process.env.ASTRO_OUT_DIR || './dist',
	adapter: netlify({
		// Images are served as built files, the same locally and on Netlify; the local stack is
		// offline, so the adapter's dev emulation of Netlify's cloud features stays off.
		imageCDN: false,
		devFeatures: { environmentVariables: false, images: false, edgeFunctions: false },
	}),
	integrations: [react(), namedRoutes],
	// The site optimises no image through astro:assets (logos and banners are the chamber's own
	// files), so the on-demand function need not carry sharp and libvips (19 MB).
	image: { service: passthroughImageService() },
	// Pages carry their CSS inline: a few KB more HTML, one render-blocking request fewer, which
	// on a slow mobile connection is worth more than caching the stylesheet across pages.
	build: { format: 'directory', inlineStylesheets: 'always' },
	vite: {
		// Server-only modules (supabase-js with keys, argon2) never reach a browser bundle.
		ssr: { external: ['@node-rs/argon2'] },
		// Standalone scripts imported with `?worker&url` (the header's behaviour) are loaded with
		// import(), so they are built as ES modules.
		worker: { format: 'es' },
	},
});
