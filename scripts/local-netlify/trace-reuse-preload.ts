import { registerHooks } from 'node:module';

/**
 * Loaded with `--import` by local builds only (scripts/lib/site.ts): the Netlify adapter's import
 * of @vercel/nft (in its lib/nft.js) gets trace-reuse.ts, which reuses the trace of unchanged
 * code. Every other importer gets @vercel/nft itself, trace-reuse.ts included.
 */
const reuse = new URL('./trace-reuse.ts', import.meta.url).href;

registerHooks({
	resolve(specifier, context, nextResolve) {
		if (
			specifier === '@vercel/nft' &&
			context.parentURL?.endsWith('/node_modules/@astrojs/netlify/dist/lib/nft.js')
		) {
			return { url: reuse, shortCircuit: true };
		}
		return nextResolve(specifier, context);
	},
});
