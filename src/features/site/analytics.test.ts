import { describe, expect, it } from 'vitest';
import { analyticsIdFor, gtagScriptUrl } from './analytics.ts';

const services = {
	googleAnalyticsId: '',
	recaptchaSiteKey: '',
	mapTileUrl: '',
	mapAttribution: '',
	emailDomain: '',
};
const withId = { services: { ...services, googleAnalyticsId: 'G-ABC123' } };
const withoutId = { services };

describe('analytics', () => {
	it('loads on public pages when a measurement id is set', () => {
		for (const path of ['/', '/search/', '/business/x/y/', '/events/1/x', '/no-such-page/']) {
			expect(analyticsIdFor(withId, path), path).toBe('G-ABC123');
		}
	});

	it('never on the admin pages, the generator or the panel preview', () => {
		for (const path of [
			'/chamber-login-v2/',
			'/chamber-login',
			'/forgot-password/',
			'/reset-password/',
			'/chamber-config-v2/',
			'/chamber-config-v2/preview',
			'/chamber-config/',
			'/chamber-config/generator/',
		]) {
			expect(analyticsIdFor(withId, path), path).toBeNull();
		}
	});

	it('not at all without an id', () => {
		expect(analyticsIdFor(withoutId, '/')).toBeNull();
	});

	it("asks Google's host for the id's gtag.js", () => {
		expect(gtagScriptUrl('G-ABC123')).toBe('https://www.googletagmanager.com/gtag/js?id=G-ABC123');
	});
});
