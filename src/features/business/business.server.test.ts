import { describe, expect, it } from 'vitest';
import {
	DEFAULT_PRERENDERED_PROFILES_MAX,
	onDemandProfilePath,
	prerenderedProfilesMax,
	profileCacheTags,
} from './business.server.ts';

describe('prerenderedProfilesMax', () => {
	it('is none (every profile on demand) unless PRERENDERED_PROFILES_MAX says otherwise', () => {
		expect(DEFAULT_PRERENDERED_PROFILES_MAX).toBe(0);
		expect(prerenderedProfilesMax({})).toBe(0);
		expect(prerenderedProfilesMax({ PRERENDERED_PROFILES_MAX: ' ' })).toBe(0);
		expect(prerenderedProfilesMax({ PRERENDERED_PROFILES_MAX: '1000' })).toBe(1_000);
		expect(prerenderedProfilesMax({ PRERENDERED_PROFILES_MAX: '50000' })).toBe(50_000);
	});

	it.each(['-1', '2.5', 'many', '1e'])('fails the build for %j, naming the variable', (value) => {
		expect(() => prerenderedProfilesMax({ PRERENDERED_PROFILES_MAX: value })).toThrow(
			'PRERENDERED_PROFILES_MAX must be a whole number of businesses (0 or more)',
		);
	});
});

describe('onDemandProfilePath', () => {
	it('is the on-demand route of the internal id', () => {
		expect(onDemandProfilePath('5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11')).toBe(
			'/business-page/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/',
		);
	});
});

describe('profileCacheTags', () => {
	it('tags the tenant (purged by every publish), its businesses and the business', () => {
		expect(profileCacheTags('demo', 'b1')).toEqual(['demo', 'demo:businesses', 'demo:business:b1']);
		expect(profileCacheTags('demo')).toEqual(['demo', 'demo:businesses']);
	});
});
