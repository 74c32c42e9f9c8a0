import { describe, expect, it } from 'vitest';
import { shouldSeedDemo } from './site.ts';

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
