import { defineConfig } from '@playwright/test';
import base, { shellUse } from './playwright.config.ts';

// tests/hosted/run.sh sets both from HOSTED_PORT.
const PORT = Number(process.env.HOSTED_BROWSER_PORT || 24331);
const STACK_PORT = process.env.HOSTED_BROWSER_STACK_PORT || '24338';
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
	// Its own folders, so the end-to-end suite's report and artefacts outlive it (the two may run at once).
	outputDir: 'test-results/hosted',
	reporter: [['list'], ['json', { outputFile: 'test-results/hosted-e2e-report.json' }]],
	use: { ...base.use, baseURL: `http://localhost:${PORT}` },
	// One project of its own: the base's projects name the end-to-end and contract folders.
	projects: [{ name: 'hosted', use: shellUse }],
	webServer: {
		...base.webServer,
		command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && node scripts/start.ts`,
		url: `http://localhost:${PORT}/`,
		env: {
			PORT: String(PORT),
			TENANT: 'example',
			CHAMBER_DATA_DIR: DATA_DIR,
			CHAMBER_STACK_PORT: STACK_PORT,
			SCHEDULED_FUNCTIONS: 'on-request',
		},
	},
});
