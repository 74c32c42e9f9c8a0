import { describe, expect, it } from 'vitest';
import { defaultRepeat, describeRule, repeatOf, ruleOf, weekdayOf, weekdayPlace } from './rule.ts';

describe('the editor’s repeat and its RRULE', () => {
	it('a new series: weekly on the start’s weekday, 10 times', () => {
		expect(weekdayOf('2027-03-02')).toBe('TU');
		expect(ruleOf(defaultRepeat('2027-03-02'), '2027-03-02')).toBe('FREQ=WEEKLY;BYDAY=TU;COUNT=10');
	});

	it('monthly on the start’s weekday place, every 2, until a day', () => {
		expect(weekdayPlace('2027-03-04')).toBe(1);
		expect(weekdayPlace('2027-03-30')).toBe(-1);
		const rule = ruleOf(
			{
				freq: 'MONTHLY',
				interval: 2,
				byDay: [],
				monthly: 'weekday',
				until: '2027-12-31',
				count: null,
			},
			'2027-03-04',
		);
		expect(rule).toBe('FREQ=MONTHLY;INTERVAL=2;BYDAY=1TH;UNTIL=20271231T235959');
		expect(describeRule(rule, '2027-03-04')).toBe(
			'Every 2 months on the first Thursday, until 2027-12-31',
		);
	});

	it('reads back what it writes', () => {
		for (const rule of [
			'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6',
			'FREQ=DAILY;INTERVAL=3;COUNT=4',
			'FREQ=YEARLY;UNTIL=20301231T235959',
			'FREQ=MONTHLY;COUNT=12',
		]) {
			const repeat = repeatOf(rule, '2027-03-01');
			expect(repeat, rule).not.toBeNull();
			expect(ruleOf(repeat!, '2027-03-01')).toBe(rule);
		}
	});

	it('leaves a feed’s rule it cannot show as it is (null), and an endless one too', () => {
		expect(repeatOf('FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=4', '2027-03-01')).toBeNull();
		expect(repeatOf('FREQ=WEEKLY', '2027-03-01')).toBeNull();
		expect(describeRule(null, '2027-03-01')).toBe('Does not repeat');
	});
});
