import { describe, expect, it } from 'vitest';
import { formatInZone, nextScheduleMark, saveSummary, scheduleBodySchema } from './schedule.ts';

describe('scheduled publishing', () => {
	it('runs every 5 minutes, and times are on those marks', () => {
		const body = (at: string) => scheduleBodySchema.safeParse({ at, changes: [{}] });
		expect(body('2026-11-28T09:05').success).toBe(true);
		expect(body('2026-11-28T09:07').error?.issues[0]?.message).toBe(
			'Publish times are on the 5-minute marks (09:00, 09:05 …): changes go live every 5 minutes',
		);
		expect(body('28/11/2026 9:05').error?.issues[0]?.message).toMatch(/^Expected at, a date/);
		expect(scheduleBodySchema.safeParse({ at: '2026-11-28T09:05', changes: [] }).success).toBe(
			false,
		);
	});

	it('offers the next mark at least ten minutes ahead, on the chamber’s clock', () => {
		const now = new Date('2026-11-28T15:02:10Z');
		expect(nextScheduleMark(now, 'America/Chicago')).toBe('2026-11-28T09:15');
		expect(nextScheduleMark(now, 'America/Los_Angeles', 1)).toBe('2026-11-28T07:05');
	});

	it('says when and what, for people', () => {
		expect(formatInZone('2026-11-28T15:00:00Z', 'America/Chicago')).toBe('Nov 28, 2026, 09:00 CST');
		expect(saveSummary(['content.heroTitle'])).toBe('1 change: content.heroTitle');
		expect(saveSummary(['name', 'colors'])).toBe('2 changes: name, colors');
		const long = saveSummary(Array.from({ length: 100 }, (_, i) => `content.field${i}`));
		expect(long.length).toBeLessThanOrEqual(300);
		expect(long).toMatch(/^100 changes: content\.field0, .+…$/);
	});
});
