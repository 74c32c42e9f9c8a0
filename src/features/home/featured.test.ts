import { describe, expect, it } from 'vitest';
import { pickFeatured as directoryPick } from '../directory/directory.ts';
import { pickFeatured } from './featured.ts';

describe('pickFeatured', () => {
	/** A repeatable random source. */
	const seeded = (seed: number) => () => {
		seed = (seed * 16807) % 2147483647;
		return (seed - 1) / 2147483646;
	};

	it('picks exactly as the directory rule does, for any random source', () => {
		const candidates = Array.from({ length: 11 }, (_, i) => `business ${i}`);
		for (const seed of [1, 7, 42, 1234, 99999]) {
			for (const count of [0, 1, 2, 4, 6, 20]) {
				expect(pickFeatured(candidates, count, seeded(seed))).toEqual(
					directoryPick(candidates, count, seeded(seed)),
				);
			}
		}
	});

	it('returns `count` distinct candidates, or all when there are fewer', () => {
		const candidates = ['a', 'b', 'c', 'd', 'e'];
		const picked = pickFeatured(candidates, 4);
		expect(new Set(picked).size).toBe(4);
		for (const name of picked) expect(candidates).toContain(name);
		expect(pickFeatured(candidates, 8).sort()).toEqual(candidates);
	});
});
