import { describe, expect, it } from 'vitest';
import { iconSvg } from './icons.server.ts';

describe('iconSvg', () => {
	it('draws a Tabler outline icon, hidden from assistive technology unless named', async () => {
		const decorative = await iconSvg('phone', { size: 18 });
		expect(decorative).toMatch(/^<svg [^>]*width="18" height="18"[^>]*aria-hidden="true"/);
		expect(decorative).toContain('<path');
		// Tabler's invisible bounding box is left out.
		expect(decorative).not.toContain('M0 0h24v24H0z');

		const named = await iconSvg('brand-facebook', { label: 'Demo "Chamber" on Facebook' });
		expect(named).toContain('role="img" aria-label="Demo &quot;Chamber&quot; on Facebook"');
		expect(named).not.toContain('aria-hidden');
	});

	it('fails the build for a name that is not an icon', async () => {
		await expect(iconSvg('no-such-icon-anywhere')).rejects.toThrow();
		await expect(iconSvg('../../package')).rejects.toThrow(/Unknown icon/);
	});
});
