import { describe, expect, it } from 'vitest';
import { distanceUnitOf, formatDistance, unitWords } from './rules.ts';

describe('the chamber’s unit', () => {
	it('is miles where road signs count miles, kilometres everywhere else', () => {
		expect(distanceUnitOf('US')).toBe('mi');
		expect(distanceUnitOf('')).toBe('mi');
		expect(distanceUnitOf('gb')).toBe('mi');
		expect(distanceUnitOf('CA')).toBe('km');
		expect(distanceUnitOf('DE')).toBe('km');
	});
});

describe('distances as cards show them', () => {
	it('has one decimal under ten, none above', () => {
		expect(formatDistance(0.04, 'mi')).toBe('0 mi');
		expect(formatDistance(2.349, 'mi')).toBe('2.3 mi');
		expect(formatDistance(12.5, 'km')).toBe('13 km');
		expect(formatDistance(1234.4, 'km')).toBe('1,234 km');
		expect(`${5} ${unitWords('mi', 5)}`).toBe('5 miles');
		expect(`${1} ${unitWords('mi', 1)}`).toBe('1 mile');
		expect(`${10} ${unitWords('km', 10)}`).toBe('10 km');
	});
});
