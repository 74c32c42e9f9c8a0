/**
 * Where the end-to-end suite's server and stack live, for playwright.config.ts (which starts
 * them) and the specs (which reach them). Separate from `npm start`'s folder and ports, so the
 * tests never touch a developer's data; E2E_PORT, E2E_STACK_PORT and E2E_DATA_DIR move them.
 * Plain values only: the config imports this file before any browser starts.
 */

/** The site, as the browser opens it. */
export const SITE_PORT = Number(process.env.E2E_PORT || 8899);
/** The server's data folder: the stack's state, the outbox, server.log. */
export const DATA_DIR = process.env.E2E_DATA_DIR || '.data-test/e2e';
/** The stack's first port (PostgREST's gateway); the next two are its own. */
export const STACK_PORT = Number(process.env.E2E_STACK_PORT || 26321);
export const STACK_URL = `http://127.0.0.1:${STACK_PORT}`;
/** The stand-in membership system the member sync spec starts (the port after the stack's three). */
export const ATLAS_MEMBERS_PORT = STACK_PORT + 3;
/** The stand-in tile service the map specs start (tests/support/tile-standin.ts). */
export const TILES_PORT = STACK_PORT + 4;
/** Where the Census geocoder's stand-in would listen: the server never reaches the real one. */
export const CENSUS_PORT = STACK_PORT + 5;

/**
 * How long a test waits for a publish's build to go live: a real `astro build` of the demo
 * chamber and the swap, on a loaded two-core machine (docs/performance.md has the usual time).
 */
export const BUILD_GOES_LIVE = { timeout: 240_000 };

/** A test's own time limit when it waits for `builds` builds to go live, with a minute for the rest. */
export function timeWithBuilds(builds: number): number {
	return builds * BUILD_GOES_LIVE.timeout + 60_000;
}
