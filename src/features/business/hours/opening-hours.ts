// Opening hours as the pages and the panel show them, with no zod: the profile, the search
// island's cards and the panel import these (the schema and the text form's reader are in
// hours.ts).

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
	mon: 'Monday',
	tue: 'Tuesday',
	wed: 'Wednesday',
	thu: 'Thursday',
	fri: 'Friday',
	sat: 'Saturday',
	sun: 'Sunday',
};

const SHORT_NAMES: Readonly<Record<Weekday, string>> = {
	mon: 'Mon',
	tue: 'Tue',
	wed: 'Wed',
	thu: 'Thu',
	fri: 'Fri',
	sat: 'Sat',
	sun: 'Sun',
};

/** One opening time: 'HH:MM' on a 24-hour clock; a close earlier than the open is past midnight. */
export type OpeningTime = {
	open: string;
	close: string;
};

/** Each weekday's opening times (none: closed) and a note; as profiles.hours keeps them. */
export type OpeningHours = Record<Weekday, OpeningTime[]> & { note: string };

/** An hours object as its text form (consecutive days with the same times share a range). */
export function formatHoursText(hours: OpeningHours | null): string {
	if (!hours) return '';
	const segments: string[] = [];
	let i = 0;
	while (i < WEEKDAYS.length) {
		const day = WEEKDAYS[i]!;
		const key = JSON.stringify(hours[day]);
		let j = i;
		while (j + 1 < WEEKDAYS.length && JSON.stringify(hours[WEEKDAYS[j + 1]!]) === key) j++;
		if (hours[day].length > 0) {
			const days = i === j ? SHORT_NAMES[day] : `${SHORT_NAMES[day]}-${SHORT_NAMES[WEEKDAYS[j]!]}`;
			segments.push(`${days} ${hours[day].map((t) => `${t.open}-${t.close}`).join(', ')}`);
		}
		i = j + 1;
	}
	if (hours.note) segments.push(hours.note);
	return segments.join('; ');
}

/** Whether a value is an hours object (as the database keeps it), for showing it as text. */
export function isOpeningHours(value: unknown): value is OpeningHours {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		WEEKDAYS.every((day) => Array.isArray((value as Record<string, unknown>)[day]))
	);
}

/** Whether the business opens on any day (else only its note is shown). */
export function hasOpeningTimes(hours: OpeningHours | null): hours is OpeningHours {
	return !!hours && WEEKDAYS.some((day) => hours[day].length > 0);
}

/** '9:00 AM', as a US visitor reads a time; '24:00' is midnight. */
function clockLabel(clock: string): string {
	const hour = Number(clock.slice(0, 2)) % 24;
	const minute = clock.slice(3);
	return `${hour % 12 === 0 ? 12 : hour % 12}:${minute} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** A day's times as a visitor reads them: 'Closed', or '9:00 AM – 5:00 PM, 6:00 PM – 9:00 PM'. */
export function dayLabel(times: readonly OpeningTime[]): string {
	if (times.length === 0) return 'Closed';
	return times.map((t) => `${clockLabel(t.open)} – ${clockLabel(t.close)}`).join(', ');
}

const SCHEMA_DAYS: Readonly<Record<Weekday, string>> = {
	mon: 'https://schema.org/Monday',
	tue: 'https://schema.org/Tuesday',
	wed: 'https://schema.org/Wednesday',
	thu: 'https://schema.org/Thursday',
	fri: 'https://schema.org/Friday',
	sat: 'https://schema.org/Saturday',
	sun: 'https://schema.org/Sunday',
};

/** schema.org openingHoursSpecification: one entry per opening time (none for closed days). */
export function openingHoursSpecification(hours: OpeningHours | null) {
	if (!hours) return [];
	return WEEKDAYS.flatMap((day) =>
		hours[day].map((t) => ({
			'@type': 'OpeningHoursSpecification',
			dayOfWeek: SCHEMA_DAYS[day],
			opens: t.open,
			closes: t.close === '24:00' ? '23:59' : t.close,
		})),
	);
}
