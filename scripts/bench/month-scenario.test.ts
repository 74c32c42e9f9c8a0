import { describe, expect, it } from 'vitest';
import { monthScenario } from './month-scenario.ts';

describe("bench:month's month", () => {
	const events = monthScenario({ month: '2027-01', zone: 'America/Chicago', seed: 2026 });
	const of = (kind: string) => events.filter((e) => e.kind === kind);

	it('holds what the benchmark promises: 15 staff days in bursts, 60 member updates, 4 syncs, 1 import', () => {
		const staff = events.flatMap((e) => (e.kind === 'staff' ? [e] : []));
		const days = new Set(
			staff.map((e) =>
				new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(e.at),
			),
		);
		expect(days.size).toBe(15);
		expect(new Set(staff.map((e) => e.burst)).size).toBeGreaterThanOrEqual(15);
		expect(of('member')).toHaveLength(60);
		expect(new Set(of('member').map((e) => (e as { business: number }).business)).size).toBe(60);
		expect(of('sync')).toHaveLength(4);
		expect(of('import')).toHaveLength(1);
	});

	it('in time order, inside the month on the chamber’s clock, the same for a seed', () => {
		const times = events.map((e) => e.at.getTime());
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(times[0]).toBeGreaterThanOrEqual(Date.parse('2027-01-01T06:00:00Z'));
		expect(times.at(-1)).toBeLessThan(Date.parse('2027-02-01T06:00:00Z'));
		expect(monthScenario({ month: '2027-01', zone: 'America/Chicago', seed: 2026 })).toEqual(
			events,
		);
		expect(monthScenario({ month: '2027-01', zone: 'America/Chicago', seed: 7 })).not.toEqual(
			events,
		);
	});

	it('a burst’s saves are seconds apart, within a build', () => {
		const staff = events.flatMap((e) => (e.kind === 'staff' ? [e] : []));
		for (let i = 1; i < staff.length; i++) {
			if (staff[i]!.burst !== staff[i - 1]!.burst) continue;
			const gap = staff[i]!.at.getTime() - staff[i - 1]!.at.getTime();
			expect(gap).toBeGreaterThanOrEqual(1000);
			expect(gap).toBeLessThanOrEqual(4000);
		}
	});
});
