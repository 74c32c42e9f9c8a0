import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { BROWSER_TAG, FULL_BROWSER_PATH, HEADLESS_SHELL_PATH } from './tests/e2e/full-browser.ts';
import {
	ATLAS_MEMBERS_PORT,
	CENSUS_PORT,
	DATA_DIR,
	SITE_PORT,
	STACK_PORT,
	TILES_PORT,
} from './tests/e2e/e2e-env.ts';

/**
 * Most tests run in Debian's Chromium headless shell, what Playwright itself runs for headless
 * Chromium: the same engine without the desktop browser around it, at about a third of the
 * processor time per test. The tests whose subject is the desktop browser's own behaviour are
 * tagged BROWSER_TAG (tests/e2e/full-browser.ts) and run in the full browser; where the shell is
 * not installed, every test does.
 */
const SHELL = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_BROWSER_PATH;

const launchOptions = (executablePath: string) => ({
	executablePath,
	args: [
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
	],
});
const desktop = { ...devices['Desktop Chrome'], channel: undefined };
/** A project's browser: the headless shell, or the full browser for BROWSER_TAG's tests. */
export const shellUse = { ...desktop, launchOptions: launchOptions(SHELL) };
const fullBrowserUse = { ...desktop, launchOptions: launchOptions(FULL_BROWSER_PATH) };

/**
 * End-to-end tests drive Debian's Chromium (a test tool's own browser download cannot work
 * here) against `npm start`'s real server: a fresh data folder, the demo import, the build,
 * the functions.
 */
export default defineConfig({
	fullyParallel: false,
	workers: 1,
	// A failing test runs once more, recording its trace (below), and fails the run whatever the
	// second run does: a test that passes only on its retry is flaky, and flaky fails.
	retries: 1,
	failOnFlakyTests: true,
	timeout: 30_000,
	// A failure's trace and screenshot. A folder of its own: Playwright empties it at each start,
	// and the hosted stage's browser pass may be writing to test-results/hosted at the same time.
	outputDir: 'test-results/e2e',
	// The list on the console; per file and per test durations in JSON, which .ci/run summarises.
	reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
	use: {
		baseURL: `http://localhost:${SITE_PORT}`,
		// A failing test's second run keeps its trace: each action's page, network and console.
		// Recording is for failures only: kept for every test, its DOM snapshots cost about an
		// eighth of the suite's processor time, the screencast a third (left out: the failure's own
		// screenshot is kept).
		trace: { mode: 'on-first-retry', screenshots: false, snapshots: true, sources: true },
		screenshot: 'only-on-failure',
	},
	projects: [
		{
			name: 'chromium',
			testDir: 'tests/e2e',
			grepInvert: new RegExp(BROWSER_TAG),
			use: shellUse,
		},
		// The specification's visible texts, on the same server (tests/contract/*.spec.ts).
		{
			name: 'contract',
			testDir: 'tests/contract',
			testMatch: '**/*.spec.ts',
			use: shellUse,
		},
		{
			name: 'browser',
			testDir: 'tests/e2e',
			grep: new RegExp(BROWSER_TAG),
			use: fullBrowserUse,
		},
	],
	webServer: {
		// The server's log also goes to a file, where tests find the line of a failure by its error id.
		// tee ignores the stop signal, so it keeps writing until the server has shut down cleanly.
		// tests/support/e2e-server.ts is scripts/start.ts with the membership system's stand-in
		// reachable by its host name (code, not a variable: production cannot do the same).
		command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && node tests/support/e2e-server.ts 2>&1 | (trap '' TERM; tee ${DATA_DIR}/server.log)`,
		url: `http://localhost:${SITE_PORT}/`,
		timeout: 300_000,
		reuseExistingServer: false,
		// Lets `npm start` close PGlite cleanly instead of being killed mid-write.
		gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
		stdout: 'pipe',
		stderr: 'pipe',
		env: {
			PORT: String(SITE_PORT),
			TENANT: 'demo',
			CHAMBER_DATA_DIR: DATA_DIR,
			// The scheduled functions run when a test posts to them, never by the clock: a test's
			// outcome must not depend on the minute it runs at (a window's publish at :50, say).
			SCHEDULED_FUNCTIONS: 'on-request',
			CHAMBER_STACK_PORT: String(STACK_PORT),
			// Every test signs in from 127.0.0.1: the identity service's per-address limit (GoTrue's
			// 150 token requests per 5 minutes) would otherwise stop the suite, not an attacker.
			AUTH_RATE_LIMIT_TOKEN: '100000',
			// The member sync reads tests/e2e/member-imports.spec.ts's stand-in of the membership system
			// (on 127.0.0.1; the server resolves this name there: tests/support/e2e-server.ts).
			ATLAS_MEMBERS_URL: `http://atlas-members.test:${ATLAS_MEMBERS_PORT}/members/export`,
			ATLAS_TOKEN_URL: `http://atlas-members.test:${ATLAS_MEMBERS_PORT}/connect/token`,
			ATLAS_CLIENT_ID: 'chamber-test-client',
			ATLAS_CLIENT_SECRET: 'e2e-atlas-secret',
			ATLAS_MEMBERS_TENANT: 'chamber-test',
			// The maps' tiles come from the map specs' stand-in; no test asks the internet for any.
			MAP_TILE_URL: `http://127.0.0.1:${TILES_PORT}/tiles/{z}/{x}/{y}.png`,
			MAP_TILE_ATTRIBUTION: 'Test tiles',
			// The geocoder (the Census, the default) is asked at a stand-in's name only.
			GEOCODER: 'census',
			CENSUS_GEOCODER_URL: `http://census-geocoder.test:${CENSUS_PORT}/geocoder`,
		},
	},
});
