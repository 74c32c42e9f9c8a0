import { deployEventFunction } from '../../src/features/publish/deploy-events.server.ts';

/**
 * Netlify runs this event-triggered function (named after the event) when a deploy of the site
 * failed: its publish becomes failed, with Netlify's reason.
 * No path: only Netlify's platform invokes it (src/features/publish/deploy-events.server.ts).
 */
export default deployEventFunction('deploy-failed');
