// Test support for the events unit tests (not a test file itself).
import { localDateTime } from '../tenants/tenant-file.ts';
import type { Event } from './events.ts';
import { parseSourceEvents } from './source-schema.ts';

export const CHICAGO = 'America/Chicago';

/** An event from two UTC instants, local fields derived in Chicago as the source would send them. */
export function sourceEvent(fields: Partial<Event> & { start: string; end: string }): Event {
	const { start, end, ...rest } = fields;
	const s = localDateTime(start, CHICAGO);
	const e = localDateTime(end, CHICAGO);
	const [parsed] = parseSourceEvents(
		[
			{
				EventId: 1,
				EventName: 'Coffee Connections',
				StartDateTimeUtc: start,
				EndDateTimeUtc: end,
				StartDate: s.date,
				EndDate: e.date,
				StartTime: s.time,
				EndTime: e.time,
				TimeZone: { Abbreviation: 'CST', Name: CHICAGO },
				...rest,
			},
		],
		'test',
	);
	if (!parsed) throw new Error('fixture event did not parse');
	return parsed;
}
