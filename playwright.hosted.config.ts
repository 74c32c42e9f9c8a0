import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// tests/hosted/run.sh sets both from HOSTED_PORT.
const PORT = Number(process.env.HOSTED_BROWSER_PORT || 54331);
const STACK_PORT = process.env.HOSTED_BROWSER_STACK_PORT || '54338';
const DATA_DIR = '.data-test/hosted-e2e';

/**
 * The hosted stage's browser pass (tests/hosted/run.sh): `npm start` in postgres mode against
 * the hosted-shaped database (DATABASE_URL and the services' logins come from run.sh), serving
 * the chamber the deploy guide imported.
 */
export default defineConfig({
	...base,
	testDir: 'tests/hosted',
	testMatch: '*.spec.ts',
	// Its own folder and report: the end-to-end suite's (test-results/) stay as that run left them.
	outputDir: 'test-results/hosted',
	reporter: 'list',
	use: { ...base.use, baseURL: `http://localhost:${PORT}` },
	webServer: {
		...base.webServer,
		command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && node scripts/start.ts`,
		url: `http://localhost:${PORT}/`,
		env: {
			PORT: String(PORT),
			TENANT: 'example',
			CHAMBER_DATA_DIR: DATA_DIR,
			CHAMBER_STACK_PORT: STACK_PORT,
		},
	},
});
