import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import {
	chamberTimeZone,
	instantToZonedWallTime,
	stateTimeZone,
	zonedWallTimeToInstant,
} from './time-zone.ts';

describe("the chamber's time zone", () => {
	it('is the configured one, else its state’s, else Eastern time', () => {
		const config = (input: object) => parseConfig({ name: 'X', slug: 'x', ...input }, 'test');
		expect(chamberTimeZone(config({ state: 'IA', contact: { timeZone: 'America/Denver' } }))).toBe(
			'America/Denver',
		);
		expect(chamberTimeZone(config({ state: 'IA', contact: { state: 'CA' } }))).toBe(
			'America/Los_Angeles',
		);
		expect(chamberTimeZone(config({ state: 'az' }))).toBe('America/Phoenix');
		expect(chamberTimeZone(config({}))).toBe('America/New_York');
		expect(stateTimeZone('ZZ')).toBeNull();
	});

	it('refuses a zone outside the list', () => {
		expect(() =>
			parseConfig({ name: 'X', slug: 'x', contact: { timeZone: 'Mars/Olympus' } }, 'test'),
		).toThrow(/contact.timeZone: Expected a US time zone such as America\/Chicago/);
	});
});

describe('wall times on the chamber’s clock', () => {
	it('map to instants and back, across daylight saving time', () => {
		expect(zonedWallTimeToInstant('2026-11-28T09:00', 'America/Chicago').toISOString()).toBe(
			'2026-11-28T15:00:00.000Z',
		);
		expect(zonedWallTimeToInstant('2026-07-04T09:00', 'America/Chicago').toISOString()).toBe(
			'2026-07-04T14:00:00.000Z',
		);
		expect(instantToZonedWallTime('2026-07-04T14:00:00.000Z', 'America/Chicago')).toBe(
			'2026-07-04T09:00',
		);
		expect(() => zonedWallTimeToInstant('tomorrow', 'America/Chicago')).toThrow(RangeError);
	});
});
