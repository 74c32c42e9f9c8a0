import { describe, expect, it } from 'vitest';
import {
	dayLabel,
	formatHoursText,
	openingHoursSchema,
	openingHoursSpecification,
	type OpeningHours,
} from './hours.ts';
import { businessSchema } from '../../tenants/tenant-file.ts';

const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const nineToFive = [{ open: '09:00', close: '17:00' }];

function issues(value: unknown): string[] {
	const result = openingHoursSchema.safeParse(value);
	return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('opening hours', () => {
	it('read the text form: day ranges, lists, several times a day, closed days, a note', () => {
		expect(
			openingHoursSchema.parse(
				'Mon-Fri 9:00-17:00; Sat 10-2pm\nTue 8:00-12:00, 13:00-17:30; Sun closed; By appointment',
			),
		).toEqual({
			...closed,
			mon: nineToFive,
			tue: [
				{ open: '08:00', close: '12:00' },
				{ open: '13:00', close: '17:30' },
			],
			wed: nineToFive,
			thu: nineToFive,
			fri: nineToFive,
			sat: [{ open: '10:00', close: '14:00' }],
			note: 'By appointment',
		});
		expect(openingHoursSchema.parse('Saturday, Sunday 9am-5:30pm')).toEqual({
			...closed,
			sat: [{ open: '09:00', close: '17:30' }],
			sun: [{ open: '09:00', close: '17:30' }],
			note: '',
		});
		expect(openingHoursSchema.parse('Fri-Sat 18:00-02:00')).toMatchObject({
			fri: [{ open: '18:00', close: '02:00' }],
			sat: [{ open: '18:00', close: '02:00' }],
		});
	});

	it('are null when none are given (blank text, null, left out)', () => {
		expect(openingHoursSchema.parse('   ')).toBeNull();
		expect(openingHoursSchema.parse(null)).toBeNull();
		expect(openingHoursSchema.parse(undefined)).toBeNull();
		expect(businessSchema.parse({ report_name: 'A', weblink_profile_id: 1 }).hours).toBeNull();
	});

	it('fill in the days an object leaves out as closed, and keep the note trimmed', () => {
		expect(openingHoursSchema.parse({ mon: nineToFive, note: ' Closed on holidays ' })).toEqual({
			...closed,
			mon: nineToFive,
			note: 'Closed on holidays',
		});
	});

	it('refuse times that are no times, equal or overlapping times, too many times, unknown keys', () => {
		expect(issues({ mon: [{ open: '9:00', close: '17:00' }] })).toEqual([
			'Expected a time like 09:00',
		]);
		expect(issues({ mon: [{ open: '25:00', close: '17:00' }] })).toHaveLength(1);
		expect(issues({ mon: [{ open: '09:00', close: '09:00' }] })).toEqual([
			'Opening and closing times must differ',
		]);
		expect(
			issues({
				mon: [
					{ open: '09:00', close: '13:00' },
					{ open: '12:00', close: '17:00' },
				],
			}),
		).toEqual(['Times of a day must be in order and not overlap']);
		expect(
			issues({
				mon: [
					{ open: '08:00', close: '09:00' },
					{ open: '10:00', close: '11:00' },
					{ open: '12:00', close: '13:00' },
					{ open: '14:00', close: '15:00' },
				],
			}),
		).toEqual(['At most 3 opening times a day']);
		expect(issues({ monday: nineToFive })).toHaveLength(1);
		expect(issues({ note: 'x'.repeat(201) })).toEqual(['A note of at most 200 characters']);
		expect(issues('Mon-Fri 9 to five')).toEqual([
			'"9 to five": expected opening and closing times like 9:00-17:00',
		]);
		expect(issues('Mon 9:00-13:00, 12:00-17:00')).toEqual([
			'Times of a day must be in order and not overlap',
		]);
	});

	it('write the text form back so that it reads the same', () => {
		const text = 'Mon-Fri 09:00-17:00; Sat 10:00-14:00, 15:00-18:00; By appointment';
		const hours = openingHoursSchema.parse(text) as OpeningHours;
		expect(formatHoursText(hours)).toBe(text);
		expect(openingHoursSchema.parse(formatHoursText(hours))).toEqual(hours);
		expect(formatHoursText(null)).toBe('');
	});

	it('label days for visitors and describe them for schema.org', () => {
		expect(dayLabel([])).toBe('Closed');
		expect(
			dayLabel([
				{ open: '00:00', close: '12:30' },
				{ open: '13:00', close: '24:00' },
			]),
		).toBe('12:00 AM – 12:30 PM, 1:00 PM – 12:00 AM');
		expect(
			openingHoursSpecification({ ...closed, sat: [{ open: '10:00', close: '24:00' }], note: '' }),
		).toEqual([
			{
				'@type': 'OpeningHoursSpecification',
				dayOfWeek: 'https://schema.org/Saturday',
				opens: '10:00',
				closes: '23:59',
			},
		]);
	});
});
