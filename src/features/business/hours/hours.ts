import { z } from 'zod';
import {
	WEEKDAY_NAMES,
	WEEKDAYS,
	type OpeningHours,
	type OpeningTime,
	type Weekday,
} from './opening-hours.ts';

export * from './opening-hours.ts';

// A business's opening hours: for each weekday the times it is open (none: closed that day) and a
// free note ("By appointment", "Closed on public holidays"). Stored as this object (profiles.hours,
// checked by public.business_hours_problem()); written as it, or as text in a file, a spreadsheet
// column or the panel's field: "Mon-Fri 9:00-17:00; Sat 10:00-14:00; by appointment on Sundays".

/** At most this many opening times a day (morning, afternoon, evening). */
const MAX_TIMES_A_DAY = 3;
const HOURS_NOTE_MAX = 200;
/** The longest text form accepted (a week of three times a day and a note fits easily). */
const HOURS_TEXT_MAX = 1000;

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:MM' on a 24-hour clock; a closing time may be 24:00 (midnight at the end of the day). */
const time = (closing: boolean) =>
	z.string().regex(closing ? /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/ : CLOCK, {
		error: `Expected a time like 09:00${closing ? ' (or 24:00)' : ''}`,
	});

const openingTimeSchema = z
	.strictObject({
		/** 'HH:MM', 24-hour clock. */
		open: time(false),
		/** 'HH:MM'; earlier than `open` means after midnight (a bar open 18:00-02:00). */
		close: time(true),
	})
	.refine((t) => t.open !== t.close, { error: 'Opening and closing times must differ' });

const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));
/** Whether a time runs past midnight into the next day. */
const overnight = (t: OpeningTime) => t.close !== '24:00' && minutes(t.close) < minutes(t.open);

/** A day's times: in order, not overlapping; one past midnight only as the day's last. */
const dayTimes = () =>
	z
		.array(openingTimeSchema)
		.default([])
		.superRefine((times, ctx) => {
			if (times.length > MAX_TIMES_A_DAY) {
				ctx.addIssue({
					code: 'custom',
					input: times,
					message: `At most ${MAX_TIMES_A_DAY} opening times a day`,
				});
			}
			times.forEach((t, i) => {
				const next = times[i + 1];
				if (!next) return;
				if (overnight(t) || t.close === '24:00' || minutes(next.open) < minutes(t.close)) {
					ctx.addIssue({
						code: 'custom',
						path: [i + 1, 'open'],
						input: next.open,
						message: 'Times of a day must be in order and not overlap',
					});
				}
			});
		});

const hoursObjectSchema = z.strictObject({
	mon: dayTimes(),
	tue: dayTimes(),
	wed: dayTimes(),
	thu: dayTimes(),
	fri: dayTimes(),
	sat: dayTimes(),
	sun: dayTimes(),
	/** Free text shown with the week, e.g. 'By appointment'. */
	note: z
		.string()
		.trim()
		.max(HOURS_NOTE_MAX, { error: `A note of at most ${HOURS_NOTE_MAX} characters` })
		.default(''),
});

// --- The text form --------------------------------------------------------------------------------

const DAY_WORDS: Readonly<Record<string, Weekday>> = Object.fromEntries(
	WEEKDAYS.flatMap((day) => {
		const name = WEEKDAY_NAMES[day].toLowerCase();
		return [
			name,
			name.slice(0, 3),
			...(day === 'tue' ? ['tues'] : []),
			...(day === 'thu' ? ['thur', 'thurs'] : []),
		].map((word) => [word, day] as const);
	}),
);

/** '9', '9:30', '09:30', '9am', '5:30 pm', '12 noon' → 'HH:MM'; null when it is no time. */
function readClock(text: string): string | null {
	const m = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/i.exec(text.trim());
	if (!m) return null;
	let hour = Number(m[1]);
	const minute = Number(m[2] ?? '0');
	const half = m[3]?.toLowerCase().replaceAll('.', '');
	if (minute > 59) return null;
	if (half) {
		if (hour < 1 || hour > 12) return null;
		hour = (hour % 12) + (half === 'pm' ? 12 : 0);
	} else if (hour > 24 || (hour === 24 && minute > 0)) return null;
	return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** 'Mon-Fri', 'Sat, Sun', 'Monday' → the days; null when the text names no days. */
function readDays(text: string): Weekday[] | null {
	const days: Weekday[] = [];
	for (const part of text.split(/\s*(?:,|&|\band\b)\s*/i)) {
		const range = /^([a-z]+)\.?\s*(?:-|–|to|through|thru)\s*([a-z]+)\.?$/i.exec(part.trim());
		if (range) {
			const from = DAY_WORDS[range[1]!.toLowerCase()];
			const to = DAY_WORDS[range[2]!.toLowerCase()];
			if (!from || !to) return null;
			let i = WEEKDAYS.indexOf(from);
			for (;;) {
				days.push(WEEKDAYS[i]!);
				if (WEEKDAYS[i] === to) break;
				i = (i + 1) % WEEKDAYS.length;
			}
			continue;
		}
		const day = DAY_WORDS[part.trim().replace(/\.$/, '').toLowerCase()];
		if (!day) return null;
		days.push(day);
	}
	return days.length ? days : null;
}

const DAYS_THEN_TIMES = /^([a-z.,&\s–-]+?)\s*:?\s+((?:closed|\d).*)$/i;

/**
 * The text form as an object, or a message saying what is wrong. Segments are separated by ';' or
 * new lines; each is days and times ("Mon-Fri 9:00-17:00", "Sat 10-2pm", "Sun closed",
 * "Tue 8:00-12:00, 13:00-17:00"); days not named are closed. The one segment that does not start
 * with a day is the note ("By appointment"). Blank text: no hours given (null).
 */
export function parseHoursText(text: string): { hours: unknown } | { error: string } {
	const segments = text
		.split(/[;\n]+/)
		.map((s) => s.trim())
		.filter(Boolean);
	if (segments.length === 0) return { hours: null };
	const hours: Record<string, unknown> = { note: '' };
	for (const day of WEEKDAYS) hours[day] = [];
	const notes: string[] = [];
	for (const segment of segments) {
		const m = DAYS_THEN_TIMES.exec(segment);
		const days = m ? readDays(m[1]!) : readDays(segment.split(/\s/)[0] ?? '');
		if (!days) {
			notes.push(segment);
			continue;
		}
		if (!m)
			return { error: `"${segment}": expected times after the days, e.g. Mon-Fri 9:00-17:00` };
		const spec = m[2]!.trim();
		const times: OpeningTime[] = [];
		if (!/^closed$/i.test(spec)) {
			for (const span of spec.split(/\s*,\s*/)) {
				const [from, to, ...rest] = span.split(/\s*(?:-|–|to)\s*/i);
				let open = from === undefined ? null : readClock(from);
				const close = to === undefined ? null : readClock(to);
				// '10-2pm': the first time takes the second's half of the day when it has none.
				if (open && close && from && !/[ap]/i.test(from) && /pm/i.test(to ?? '')) {
					const pm = readClock(`${from}pm`);
					if (pm && pm < close) open = pm;
				}
				if (!open || !close || rest.length) {
					return { error: `"${span}": expected opening and closing times like 9:00-17:00` };
				}
				times.push({ open, close });
			}
		}
		for (const day of days) hours[day] = times;
	}
	hours.note = notes.join('; ');
	return { hours };
}

/**
 * A business's opening hours, as the tenant file, the panel, the API and the imports give them:
 * the object, or its text form; null (or blank text) when the business gives none.
 */
export const openingHoursSchema = z
	.union([hoursObjectSchema, z.string().max(HOURS_TEXT_MAX), z.null()])
	.default(null)
	.transform((value, ctx): OpeningHours | null => {
		if (typeof value !== 'string') return value;
		const parsed = parseHoursText(value);
		if ('error' in parsed) {
			ctx.addIssue({ code: 'custom', input: value, message: parsed.error });
			return z.NEVER;
		}
		if (parsed.hours === null) return null;
		const checked = hoursObjectSchema.safeParse(parsed.hours);
		if (!checked.success) {
			for (const issue of checked.error.issues) {
				ctx.addIssue({ code: 'custom', input: value, path: issue.path, message: issue.message });
			}
			return z.NEVER;
		}
		return checked.data;
	});
