import { describe, expect, it } from 'vitest';
import { boundsParam, parseBounds, roundCoordinate, roundPosition } from './position.ts';

describe('a visitor’s position', () => {
	it('keeps three decimals, about 110 m, rounding both signs alike', () => {
		expect(roundPosition({ latitude: 41.97749, longitude: -91.66551 })).toEqual({
			latitude: 41.977,
			longitude: -91.666,
		});
		expect(roundCoordinate(-0.0004)).toBe(0);
		expect(Object.is(roundCoordinate(-0.0004), -0)).toBe(false);
		expect(roundCoordinate(12.3456789, 4)).toBe(12.3457);
	});
});

describe('a map’s area in the address bar', () => {
	it('reads south,west,north,east and writes four decimals', () => {
		const bounds = parseBounds('41.91234567, -91.7, 42.05, -91.6');
		expect(bounds).toEqual({ south: 41.91234567, west: -91.7, north: 42.05, east: -91.6 });
		expect(boundsParam(bounds!)).toBe('41.9123,-91.7,42.05,-91.6');
	});

	it.each(['', '1,2,3', '42,-91,41,-90', '41,-90,42,-91', '-91,0,0,1', '0,-181,1,0', 'a,b,c,d'])(
		'is no area for %j',
		(value) => expect(parseBounds(value)).toBeNull(),
	);
});
