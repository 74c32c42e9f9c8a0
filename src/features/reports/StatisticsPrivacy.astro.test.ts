import { describe, expect, it } from 'vitest';
import { roundPosition } from '../geo/position.ts';
import { render, testConfig } from '../site/render.test-helpers.ts';
import StatisticsPrivacy from './StatisticsPrivacy.astro';

// /privacy/statistics as a visitor reads it: what becomes of their position when they press Near
// me, stated as the code rounds it (src/features/geo/position.ts).

describe('the statistics privacy page', () => {
	it('tells visitors, under #near-me, how their position is asked for, rounded, sent and not kept', async () => {
		const page = await render(StatisticsPrivacy, {
			config: testConfig({ name: 'Cedar Valley Chamber' }),
		});
		const heading = page.getByRole('heading', {
			level: 2,
			name: 'Your position, when you search near you',
		});
		expect(heading.id).toBe('near-me');
		const said = (heading.nextElementSibling?.textContent ?? '').replace(/\s+/g, ' ');
		expect(said).toContain(
			'asks your browser for your position only when you press it, and your browser asks you first',
		);
		// The decimals the page names are the ones Near me keeps: 41.97749 becomes 41.977.
		const decimals = /\(([0-9]+) decimals of a degree\)/.exec(said)?.[1];
		expect(decimals).toBeDefined();
		expect(String(roundPosition({ latitude: 41.97749, longitude: 0 }).latitude)).toBe(
			(41.97749).toFixed(Number(decimals)),
		);
		expect(said).toContain('rounds it to about 110 metres');
		expect(said).toContain('sends it to this site with that one search');
		expect(said).toContain(
			"It is not kept: not in a cookie or your browser's storage, not in the page's address, not in any cache, not in the server's logs or the database, and it is not counted in these statistics.",
		);
		expect(said).toContain('If you do not share it, the list stays as it was.');
		// A page of text: no script of its own.
		expect(page.html).not.toMatch(/<script\b/);
	});
});
