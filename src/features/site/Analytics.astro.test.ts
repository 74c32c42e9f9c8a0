import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, it } from 'vitest';
import Analytics from './Analytics.astro';
import { testConfig } from './render.test-helpers.ts';

// What the page carries for analytics; that it loads gtag.js only after load, and not with
// Global Privacy Control, is tested in a browser (tests/e2e/analytics.spec.ts).

async function html(googleAnalyticsId: string, path = '/'): Promise<string> {
	const container = await AstroContainer.create();
	return container.renderToString(Analytics, {
		props: { config: testConfig({ services: { googleAnalyticsId } }) },
		request: new Request(`http://site.test${path}`),
	});
}

describe('the analytics loader', () => {
	it('is one inline script for the id when a measurement id is set', async () => {
		const page = await html('G-ABC123');
		expect(page.match(/<script\b/g)).toHaveLength(1);
		expect(page).not.toMatch(/<script[^>]*\bsrc=/);
		expect(page).toContain('"G-ABC123"');
		expect(page).toContain('"https://www.googletagmanager.com/gtag/js?id=G-ABC123"');
		expect(page).toContain('"allow_ad_personalization_signals":false');
		expect(page).toContain('navigator.globalPrivacyControl');
	});

	it('renders nothing without an id', async () => {
		expect((await html('')).trim()).toBe('');
	});

	it('renders nothing on an admin page', async () => {
		expect((await html('G-ABC123', '/chamber-config-v2/preview')).trim()).toBe('');
	});
});
