import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it can, and probes whether it can by
 * trying once: under the site's Content-Security-Policy (no 'unsafe-eval') that probe is refused
 * and reported as a violation on every admin page. Parsing without the compiled fast path is what
 * it then falls back to anyway. Import this module before any schema parses in the browser.
 */
z.config({ jitless: true });
