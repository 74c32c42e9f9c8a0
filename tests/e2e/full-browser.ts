/** Debian's Chromium (apt's `chromium`), or CHROMIUM_PATH. */
export const FULL_BROWSER_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Debian's Chromium as a headless shell (apt's `chromium-headless-shell`), or
 * CHROMIUM_HEADLESS_SHELL_PATH: what most end-to-end tests run in (playwright.config.ts).
 */
export const HEADLESS_SHELL_PATH =
	process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell';

/**
 * The tag of the tests whose subject is the desktop browser's own behaviour, which the headless
 * shell most tests run in does not share: it places the pointer over each new page's top-left
 * corner, now and then (the site's header is there, and its hover loads the header's script),
 * draws form controls at other widths, and shows no focus on a frame. playwright.config.ts runs
 * these in the full browser.
 */
export const BROWSER_TAG = '@browser';

/** A test's details that run it in the full browser: `test(title, IN_FULL_BROWSER, body)`. */
export const IN_FULL_BROWSER = { tag: BROWSER_TAG };
