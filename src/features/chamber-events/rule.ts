// A repeat as the Events tab's editor offers it (daily, weekly on some days, monthly on a day or
// on the first Thursday, yearly; every N; until a date or a number of times), and its iCalendar
// RRULE text. No zod and no date library: the panel's island ships it. Expanding a rule into
// dates is recurrence.ts's, with ical.js.

export const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
type Frequency = (typeof FREQUENCIES)[number];

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
	MO: 'Monday',
	TU: 'Tuesday',
	WE: 'Wednesday',
	TH: 'Thursday',
	FR: 'Friday',
	SA: 'Saturday',
	SU: 'Sunday',
};

const ORDINALS: Readonly<Record<string, string>> = {
	'1': 'first',
	'2': 'second',
	'3': 'third',
	'4': 'fourth',
	'-1': 'last',
};

/** The most dates a series of the Events tab may have (COUNT), and how far UNTIL may reach. */
export const MAX_COUNT = 500;
export const MAX_UNTIL_YEARS = 5;

export interface Repeat {
	freq: Frequency;
	/** Every N days/weeks/months/years. */
	interval: number;
	/** Weekly: the days (at least one). */
	byDay: Weekday[];
	/** Monthly: on the start's day of the month, or on its weekday's place ('the first Thursday'). */
	monthly: 'day' | 'weekday';
	/** The last day, 'yyyy-mm-dd' (inclusive), or null with `count`. */
	until: string | null;
	/** How many dates, or null with `until`. */
	count: number | null;
}

/** The weekday of a 'yyyy-mm-dd' day (a calendar fact, read as noon UTC). */
export function weekdayOf(day: string): Weekday {
	const index = new Date(`${day}T12:00:00Z`).getUTCDay();
	return WEEKDAYS[(index + 6) % 7]!;
}

/** Which of its weekdays a day is in its month: 1 to 4, or -1 for the last (the fifth). */
export function weekdayPlace(day: string): number {
	const date = Number(day.slice(8, 10));
	const place = Math.ceil(date / 7);
	return place >= 5 ? -1 : place;
}

/** The repeat a new series starts with: weekly on the start's weekday, 10 times. */
export function defaultRepeat(startDay: string): Repeat {
	return {
		freq: 'WEEKLY',
		interval: 1,
		byDay: [weekdayOf(startDay)],
		monthly: 'weekday',
		until: null,
		count: 10,
	};
}

/** The RRULE value of a repeat starting on `startDay` (floating local time, as the series' times). */
export function ruleOf(repeat: Repeat, startDay: string): string {
	const parts = [`FREQ=${repeat.freq}`];
	if (repeat.interval > 1) parts.push(`INTERVAL=${repeat.interval}`);
	if (repeat.freq === 'WEEKLY') {
		const days = WEEKDAYS.filter((d) => repeat.byDay.includes(d));
		parts.push(`BYDAY=${(days.length ? days : [weekdayOf(startDay)]).join(',')}`);
	}
	if (repeat.freq === 'MONTHLY' && repeat.monthly === 'weekday') {
		parts.push(`BYDAY=${weekdayPlace(startDay)}${weekdayOf(startDay)}`);
	}
	if (repeat.until) parts.push(`UNTIL=${repeat.until.replaceAll('-', '')}T235959`);
	else parts.push(`COUNT=${repeat.count ?? 1}`);
	return parts.join(';');
}

/** The rule's parts, NAME=VALUE separated by semicolons. */
function ruleParts(rule: string): Map<string, string> {
	return new Map(
		rule.split(';').map((part) => {
			const at = part.indexOf('=');
			return [part.slice(0, at).toUpperCase(), part.slice(at + 1).toUpperCase()] as const;
		}),
	);
}

/**
 * The editor's repeat of a rule, or null when the editor cannot show it (a feed's rule with
 * parts it does not offer): such a rule is kept as it is until staff choose another.
 */
export function repeatOf(rule: string | null, startDay: string): Repeat | null {
	if (!rule) return null;
	const parts = ruleParts(rule);
	const freq = parts.get('FREQ') as Frequency | undefined;
	if (!freq || !FREQUENCIES.includes(freq)) return null;
	const known = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'UNTIL', 'COUNT', 'WKST']);
	if ([...parts.keys()].some((key) => !known.has(key))) return null;
	const interval = Number(parts.get('INTERVAL') ?? '1');
	const byDay = (parts.get('BYDAY') ?? '').split(',').filter(Boolean);
	const until = parts.get('UNTIL');
	const count = parts.get('COUNT');
	const repeat: Repeat = {
		freq,
		interval: Number.isInteger(interval) && interval > 0 ? interval : 1,
		byDay: [],
		monthly: 'day',
		until:
			until && /^\d{8}/.test(until)
				? `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`
				: null,
		count: count ? Number(count) : null,
	};
	if (freq === 'WEEKLY') {
		if (!byDay.every((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d))) return null;
		repeat.byDay = byDay.length ? byDay : [weekdayOf(startDay)];
	} else if (freq === 'MONTHLY' && byDay.length) {
		if (byDay.length !== 1 || byDay[0] !== `${weekdayPlace(startDay)}${weekdayOf(startDay)}`) {
			return null;
		}
		repeat.monthly = 'weekday';
	} else if (byDay.length) {
		return null;
	}
	if (!repeat.until && !repeat.count) return null;
	return repeat;
}

const UNITS: Readonly<Record<Frequency, [string, string]>> = {
	DAILY: ['day', 'days'],
	WEEKLY: ['week', 'weeks'],
	MONTHLY: ['month', 'months'],
	YEARLY: ['year', 'years'],
};

/** 'Every week on Tuesday, 10 times', 'Every month on the first Thursday, until 2027-12-31'. */
export function describeRule(rule: string | null, startDay: string): string {
	if (!rule) return 'Does not repeat';
	const parts = ruleParts(rule);
	const freq = parts.get('FREQ') as Frequency | undefined;
	if (!freq || !FREQUENCIES.includes(freq)) return `Repeats (${rule})`;
	const interval = Number(parts.get('INTERVAL') ?? '1');
	const [one, many] = UNITS[freq];
	let text = interval > 1 ? `Every ${interval} ${many}` : `Every ${one}`;
	const byDay = (parts.get('BYDAY') ?? '').split(',').filter(Boolean);
	if (freq === 'WEEKLY' && byDay.length) {
		text += ` on ${byDay.map((d) => WEEKDAY_NAMES[d as Weekday] ?? d).join(', ')}`;
	} else if (freq === 'MONTHLY' && byDay.length === 1) {
		const match = /^(-?\d)([A-Z]{2})$/.exec(byDay[0]!);
		if (match) {
			text += ` on the ${ORDINALS[match[1]!] ?? match[1]} ${WEEKDAY_NAMES[match[2] as Weekday] ?? match[2]}`;
		}
	} else if (freq === 'MONTHLY') {
		text += ` on day ${Number(startDay.slice(8, 10))}`;
	}
	const until = parts.get('UNTIL');
	const count = parts.get('COUNT');
	if (until && /^\d{8}/.test(until)) {
		text += `, until ${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`;
	} else if (count) {
		text += `, ${count} ${count === '1' ? 'time' : 'times'}`;
	}
	return text;
}
