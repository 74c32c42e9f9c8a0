import { describe, expect, it } from 'vitest';
import { buildFailureReason, shouldSeedDemo } from './site.ts';

describe('shouldSeedDemo: demo accounts only where they are harmless, or when asked', () => {
	it('seeds the embedded database', () => {
		expect(shouldSeedDemo('embedded', {})).toBe(true);
	});

	it('leaves a real Postgres or a hosted project alone unless SEED_DEMO=1', () => {
		expect(shouldSeedDemo('postgres', {})).toBe(false);
		expect(shouldSeedDemo('hosted', {})).toBe(false);
		expect(shouldSeedDemo('hosted', { SEED_DEMO: 'true' })).toBe(false);
		expect(shouldSeedDemo('postgres', { SEED_DEMO: '1' })).toBe(true);
		expect(shouldSeedDemo('hosted', { SEED_DEMO: '1' })).toBe(true);
	});
});

describe('buildFailureReason: what staff read when a publish fails', () => {
	it('names the configuration problems, not the stack', () => {
		const tail = [
			'[ConfigError] Invalid chamber configuration in chamber_config (demo):',
			'- colors.primary: Expected a hex colour like #0d3e63, received "not-a-colour"',
			'Stack trace:',
			'at loadConfig (file:///work/main/.netlify/build/chunks/site.server_X.mjs:10:3)',
			'at async file:///work/main/.netlify/build/.prerender/chunks/site.server_Y.mjs:1363:12',
		];
		expect(buildFailureReason(tail, 1)).toBe(
			': Invalid chamber configuration in chamber_config (demo); colors.primary: Expected a hex colour like #0d3e63, received "not-a-colour"',
		);
	});

	it('else the last error line that is not a stack frame, else the exit code', () => {
		expect(buildFailureReason(['TypeError: x is undefined', 'at f (file:///a.mjs:1:1)'], 1)).toBe(
			': TypeError: x is undefined',
		);
		expect(buildFailureReason(['building…'], 3)).toBe(' (astro build exit code 3)');
	});
});
