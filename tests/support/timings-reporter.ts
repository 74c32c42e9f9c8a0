import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { firstErrorLine } from '../../scripts/ci/summary.ts';

/** One test file's time and its tests', as scripts/ci-summary.ts reads them. */
export interface FileTimings {
	file: string;
	project: string;
	/** From the start of its import to its last hook: what the file costs the suite. */
	ms: number;
	state: string;
	/** A test's state: 'passed', 'failed', 'skipped', … and 'flaky' for one passed on a retry. */
	tests: Array<{ name: string; ms: number; state: string; error?: string }>;
}

/**
 * Writes each test file's time and each test's to a JSON file (vitest.config.ts adds it when
 * TEST_TIMINGS_FILE is set). Vitest's JSON reporter counts a file from its first test to its
 * last, leaving out the import and the hooks, where a database file does much of its work (a
 * build in beforeAll).
 */
export default class TimingsReporter implements Reporter {
	private readonly outputFile: string;

	constructor(options: { outputFile: string }) {
		this.outputFile = options.outputFile;
	}

	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const files: FileTimings[] = modules.map((module) => {
			const d = module.diagnostic();
			return {
				file: module.relativeModuleId,
				project: module.project.name,
				ms: Math.round(
					d.environmentSetupDuration +
						d.prepareDuration +
						d.collectDuration +
						d.setupDuration +
						d.duration,
				),
				state: module.state(),
				tests: [...module.children.allTests()].map((test) => {
					const result = test.result();
					const error = firstErrorLine(result.errors?.[0]?.message);
					return {
						name: test.fullName,
						ms: Math.round(test.diagnostic()?.duration ?? 0),
						state: result.state,
						...(error ? { error } : {}),
					};
				}),
			};
		});
		mkdirSync(dirname(this.outputFile), { recursive: true });
		writeFileSync(this.outputFile, JSON.stringify({ files }, null, '\t') + '\n');
	}
}
