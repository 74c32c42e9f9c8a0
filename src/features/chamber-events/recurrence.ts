import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import ICAL from 'ical.js';
import { FREQUENCIES, MAX_COUNT, MAX_UNTIL_YEARS } from './rule.ts';

// A series' dates from its iCalendar rule, expanded by ical.js (RFC 5545: BYDAY, INTERVAL,
// COUNT, UNTIL, BYMONTHDAY …), never by hand. The rule repeats the series' wall-clock times
// (floating local time): 18:00 every Tuesday stays 18:00 across daylight-saving changes, and the
// database turns each date's local times into instants in the event's zone. Server only.

/** A date of a series as the database keeps it: its key (the original day) and local times. */
export interface SeriesDate {
	/** 'yyyy-mm-dd': the date's original day, which keeps its EventId while the series changes. */
	key: string;
	/** 'yyyy-mm-ddThh:mm' on the event's wall clock. */
	start: string;
	end: string;
	/** A feed's cancelled date (EXDATE, or an instance with STATUS:CANCELLED). */
	cancelled?: boolean;
	/** A feed's instance with fields of its own (RECURRENCE-ID). */
	changes?: Record<string, string>;
}

/** The most dates the database keeps of one series. */
export const MAX_DATES = 1000;

/** The most dates passed over before `from` (a daily rule over 50 years). */
const MAX_ITERATIONS = 20_000;

export type RuleProblem = string;

/** 'yyyy-mm-ddThh:mm' → ical.js floating time. */
function floating(local: string): ICAL.Time {
	return ICAL.Time.fromDateTimeString(`${local.slice(0, 16)}:00`);
}

/** ical.js time → 'yyyy-mm-ddThh:mm'. */
function localText(time: ICAL.Time): string {
	return time.toString().slice(0, 16);
}

/** Why a rule cannot be the Events tab's, or null: ical.js reads it, it ends, it is not too long. */
export function ruleProblem(rule: string, startsLocal: string): RuleProblem | null {
	let recur: ICAL.Recur;
	try {
		recur = ICAL.Recur.fromString(rule);
	} catch (error) {
		return `Not a repeat rule: ${(error as Error).message}`;
	}
	if (!(FREQUENCIES as readonly string[]).includes(recur.freq)) {
		return 'A series repeats daily, weekly, monthly or yearly';
	}
	if (!recur.isFinite()) return 'A series needs an end: a last date or a number of times';
	if (recur.count !== null && recur.count > MAX_COUNT) {
		return `A series may have at most ${MAX_COUNT} dates`;
	}
	if (recur.until) {
		const limit = floating(startsLocal);
		limit.year += MAX_UNTIL_YEARS;
		if (recur.until.compare(limit) > 0) {
			return `A series may end at most ${MAX_UNTIL_YEARS} years after its first date`;
		}
	}
	return null;
}

/** A rule with neither COUNT nor UNTIL (a feed's may be one). */
export function isEndless(rule: string): boolean {
	return !ICAL.Recur.fromString(rule).isFinite();
}

/** 'yyyy-mm-ddThh:mm' of an instant on a zone's wall clock. */
export function localDateTime(instant: Date, zone: string): string {
	return format(new TZDate(instant.getTime(), zone), "yyyy-MM-dd'T'HH:mm");
}

/**
 * The dates of a series: each date of `rule` from `startsLocal`, lasting as long as the first
 * (ends_local − starts_local, on the wall clock), at most MAX_DATES, none after `horizon` and
 * none that ended before `from` (a feed's endless rule is read over the window of its reads).
 */
export function expandDates(
	rule: string,
	startsLocal: string,
	endsLocal: string,
	options: { horizon?: string; max?: number; from?: string } = {},
): SeriesDate[] {
	const recur = ICAL.Recur.fromString(rule);
	const start = floating(startsLocal);
	const length = floating(endsLocal).subtractDate(start);
	const horizon = options.horizon ? floating(options.horizon) : null;
	const max = Math.min(options.max ?? MAX_DATES, MAX_DATES);
	const iterator = recur.iterator(start);
	const dates: SeriesDate[] = [];
	let skipped = 0;
	for (let next = iterator.next(); next && dates.length < max; next = iterator.next()) {
		if (horizon && next.compare(horizon) > 0) break;
		const end = next.clone();
		end.addDuration(length);
		const startText = localText(next);
		const endText = localText(end);
		// Dates before `from` are passed over, not counted (at most MAX_ITERATIONS of them).
		if (options.from && endText < options.from) {
			if (++skipped > MAX_ITERATIONS) break;
			continue;
		}
		dates.push({ key: startText.slice(0, 10), start: startText, end: endText });
	}
	return dates;
}
