import { TZDate } from '@date-fns/tz';
import type { ChamberConfig, TimeZone } from './config.ts';

/**
 * The chamber's time zone: the one its configuration names, else the usual one of its state
 * (where a state spans two zones, the one most of its people live in), else Eastern time.
 */

const STATE_ZONES: Readonly<Record<string, TimeZone>> = {
	AL: 'America/Chicago',
	AK: 'America/Anchorage',
	AZ: 'America/Phoenix',
	AR: 'America/Chicago',
	CA: 'America/Los_Angeles',
	CO: 'America/Denver',
	CT: 'America/New_York',
	DE: 'America/New_York',
	DC: 'America/New_York',
	FL: 'America/New_York',
	GA: 'America/New_York',
	HI: 'Pacific/Honolulu',
	ID: 'America/Boise',
	IL: 'America/Chicago',
	IN: 'America/Indiana/Indianapolis',
	IA: 'America/Chicago',
	KS: 'America/Chicago',
	KY: 'America/New_York',
	LA: 'America/Chicago',
	ME: 'America/New_York',
	MD: 'America/New_York',
	MA: 'America/New_York',
	MI: 'America/Detroit',
	MN: 'America/Chicago',
	MS: 'America/Chicago',
	MO: 'America/Chicago',
	MT: 'America/Denver',
	NE: 'America/Chicago',
	NV: 'America/Los_Angeles',
	NH: 'America/New_York',
	NJ: 'America/New_York',
	NM: 'America/Denver',
	NY: 'America/New_York',
	NC: 'America/New_York',
	ND: 'America/Chicago',
	OH: 'America/New_York',
	OK: 'America/Chicago',
	OR: 'America/Los_Angeles',
	PA: 'America/New_York',
	RI: 'America/New_York',
	SC: 'America/New_York',
	SD: 'America/Chicago',
	TN: 'America/Chicago',
	TX: 'America/Chicago',
	UT: 'America/Denver',
	VT: 'America/New_York',
	VA: 'America/New_York',
	WA: 'America/Los_Angeles',
	WV: 'America/New_York',
	WI: 'America/Chicago',
	WY: 'America/Denver',
	PR: 'America/Puerto_Rico',
	VI: 'America/Puerto_Rico',
	GU: 'Pacific/Guam',
};

const DEFAULT_TIME_ZONE: TimeZone = 'America/New_York';

/** The states (2-letter codes) with a usual time zone; public.chamber_time_zone() holds the same. */
export const ZONED_STATES: readonly string[] = Object.keys(STATE_ZONES);

/** The usual time zone of a US state (2-letter code), or null for an unknown one. */
export function stateTimeZone(state: string): TimeZone | null {
	return STATE_ZONES[state.trim().toUpperCase()] ?? null;
}

export function chamberTimeZone(config: Pick<ChamberConfig, 'state' | 'contact'>): TimeZone {
	return (
		config.contact.timeZone ||
		stateTimeZone(config.contact.state) ||
		stateTimeZone(config.state) ||
		DEFAULT_TIME_ZONE
	);
}

/** 'YYYY-MM-DDTHH:mm' as a clock in `zone` shows it, to the instant it names. */
export function zonedWallTimeToInstant(wall: string, zone: string): Date {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
	if (!match)
		throw new RangeError(`Expected a date and time like 2026-11-28T09:00, received ${wall}`);
	const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
	return new Date(new TZDate(y, mo - 1, d, h, mi, zone).getTime());
}

/** An instant as a clock in `zone` shows it: 'YYYY-MM-DDTHH:mm' (for a datetime-local input). */
export function instantToZonedWallTime(instant: Date | string, zone: string): string {
	const at = new TZDate(new Date(instant).getTime(), zone);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
