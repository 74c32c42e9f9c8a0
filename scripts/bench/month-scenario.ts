import { TZDate } from '@date-fns/tz';
import { Faker, base, en } from '@faker-js/faker';
import { addDays } from 'date-fns/addDays';
import { addSeconds } from 'date-fns/addSeconds';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { isWeekend } from 'date-fns/isWeekend';

/**
 * bench:month's month of a 300-member chamber, the same for a seed: staff saving in bursts on 15
 * working days, members' own updates spread over the month, the weekly sync of the membership
 * system and one import of a member file. Pure: the benchmark replays it against the publish
 * pipeline (scripts/bench-month.ts).
 */

/** The fields members change themselves, with how often each is changed. */
const MEMBER_FIELDS = [
	{ field: 'hours', weight: 8 },
	{ field: 'social_media', weight: 4 },
	{ field: 'listings', weight: 4 },
	{ field: 'work_phone', weight: 2 },
	{ field: 'website', weight: 2 },
] as const;
export type MemberBenchField = (typeof MEMBER_FIELDS)[number]['field'];

export type MonthEvent =
	/** One save of a burst (the person saves again a few seconds after the last). */
	| { kind: 'staff'; at: Date; burst: number; save: number }
	| { kind: 'member'; at: Date; business: number; field: MemberBenchField }
	| { kind: 'sync'; at: Date; businesses: number }
	| { kind: 'import'; at: Date; businesses: number };

export interface ScenarioOptions {
	/** 'yyyy-mm'. */
	month: string;
	/** The chamber's time zone: working hours and days are on its clock. */
	zone: string;
	seed?: number;
	/** Businesses of the chamber (members change distinct ones). */
	businesses?: number;
	staffDays?: number;
	memberUpdates?: number;
	syncs?: number;
	imports?: number;
}

/** The month's events in time order. */
export function monthScenario(options: ScenarioOptions): MonthEvent[] {
	const faker = new Faker({ locale: [en, base] });
	faker.seed(options.seed ?? 2026);
	const [year, month] = options.month.split('-').map(Number) as [number, number];
	const first = new TZDate(year, month - 1, 1, options.zone);
	const days = getDaysInMonth(first);
	const at = (day: number, hour: number, minute: number, second = 0) =>
		new TZDate(year, month - 1, day, hour, minute, second, options.zone);
	const events: MonthEvent[] = [];

	// Staff: 15 working days, one burst on most, two on some; a burst is 2 to 5 saves, each 1 to 4
	// seconds after the last (a field, Save, the next field, Save), within the time a build takes,
	// so they coalesce as the publishes of one working session do (on Netlify, where a build takes
	// a minute or two, saves a minute apart coalesce alike).
	const workdays = Array.from({ length: days }, (_, i) => i + 1).filter(
		(day) => !isWeekend(at(day, 12, 0)),
	);
	const staffDays = faker.helpers
		.arrayElements(workdays, Math.min(options.staffDays ?? 15, workdays.length))
		.sort((a, b) => a - b);
	let burst = 0;
	for (const day of staffDays) {
		const bursts = faker.datatype.boolean({ probability: 0.3 }) ? 2 : 1;
		const starts = Array.from({ length: bursts }, (_, i) =>
			at(day, i === 0 ? 9 : 14, faker.number.int({ min: 0, max: 150 })),
		);
		for (const start of starts) {
			burst += 1;
			let when: Date = start;
			const saves = faker.number.int({ min: 2, max: 5 });
			for (let save = 1; save <= saves; save++) {
				events.push({ kind: 'staff', at: when, burst, save });
				when = addSeconds(when, faker.number.int({ min: 1, max: 4 }));
			}
		}
	}

	// Members: distinct businesses, any day, 07:00 to 22:00 on the chamber's clock.
	const businesses = faker.helpers.arrayElements(
		Array.from({ length: options.businesses ?? 300 }, (_, i) => i),
		options.memberUpdates ?? 60,
	);
	for (const business of businesses) {
		events.push({
			kind: 'member',
			at: at(
				faker.number.int({ min: 1, max: days }),
				faker.number.int({ min: 7, max: 21 }),
				faker.number.int({ min: 0, max: 59 }),
				faker.number.int({ min: 0, max: 59 }),
			),
			business,
			field: faker.helpers.weightedArrayElement(
				MEMBER_FIELDS.map(({ field, weight }) => ({ value: field, weight })),
			),
		});
	}

	// The membership system's sync: its scheduled function runs daily at 00:00 UTC (Netlify's
	// @daily); the export changes about once a week.
	const syncs = options.syncs ?? 4;
	for (let i = 1; i <= syncs; i++) {
		const day = Math.min(days, Math.round((i * days) / (syncs + 1)));
		events.push({
			kind: 'sync',
			at: addDays(new Date(Date.UTC(year, month - 1, day)), 1),
			businesses: faker.number.int({ min: 3, max: 12 }),
		});
	}
	// An admin imports a member file mid-month.
	for (let i = 0; i < (options.imports ?? 1); i++) {
		events.push({
			kind: 'import',
			at: at(Math.min(days, 16 + i), 10, 30),
			businesses: 25,
		});
	}
	return events
		.filter((event) => event.at.getTime() < addDays(at(days, 0, 0), 1).getTime())
		.sort((a, b) => a.at.getTime() - b.at.getTime());
}
