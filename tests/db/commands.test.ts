// Runs on: PGlite — the npm commands find and use the running embedded stack (its stack file and
// lock); the hosted stage runs them against Postgres in its deploy guide.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stack } from './clients.ts';

const run = promisify(execFile);

/** The npm commands, run as people run them, against the already-running test stack. */
function command(script: string, env: Record<string, string> = {}) {
	return run(process.execPath, [script], {
		env: {
			...process.env,
			CHAMBER_DATA_DIR: stack.dataDir,
			CHAMBER_STACK_PORT: stack.stackPort,
			...env,
		},
	}).then(
		(result) => ({ code: 0, ...result }),
		(error: { code: number; stdout: string; stderr: string }) => error,
	);
}

describe('commands use the running stack', () => {
	it('db:migrate finds every migration applied and says so', async () => {
		const result = await command('scripts/db-migrate.ts');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('using the running stack');
		expect(result.stdout).toMatch(/0 applied, \d+ already up to date/);
	});

	it('build with an unknown TENANT fails with the list of tenants that exist', async () => {
		const result = await command('scripts/build.ts', { TENANT: 'no-such-chamber' });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(
			/Tenant "no-such-chamber" is not in the database\. Tenants there: .+/,
		);
		expect(result.stderr).not.toMatch(/\n\s+at /);
	});

	it('tenant:import without a file explains its usage', async () => {
		const result = await command('scripts/tenant-import.ts');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('Usage: npm run tenant:import -- FILE.json');
	});
});
