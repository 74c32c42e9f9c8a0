import config from './astro.config.mjs';

/**
 * `npm run typecheck`'s Astro configuration: the site's own without the Netlify adapter. The
 * adapter's setup empties `.netlify/build` whenever a configuration with it is loaded, so a check
 * loading it would pull the files from under a build running beside it (CI runs the two side by
 * side). No type of the site depends on the adapter.
 */
export default { ...config, adapter: undefined };
