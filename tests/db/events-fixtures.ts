import { TZDate } from '@date-fns/tz';
import { service, stack } from './clients.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import {
	localDateTime,
	parseTenantFile,
	type EventInput,
	type TenantFileInput,
} from '../../src/features/tenants/tenant-file.ts';
import { startFunctionServer } from '../support/function-server.ts';
import { randomSlug } from './fixtures.ts';

// A small chamber whose events sit at known places around today, and the site server running the
// real functions against this test stack, for the events functions' tests.

const ZONE = 'America/Chicago';
const DAY_MS = 86_400_000;

/** A local wall time in Cedarbrook, `days` from today. */
function at(days: number, hour: number, minute = 0): Date {
	const today = new TZDate(Date.now() + days * DAY_MS, ZONE);
	return new TZDate(today.getFullYear(), today.getMonth(), today.getDate(), hour, minute, ZONE);
}

/** 'yyyy-mm-dd' (UTC) of a day `days` from today, as the functions' ranges take it. */
export function utcDay(days: number, hour = 12): string {
	return at(days, hour).toISOString().slice(0, 10);
}

function event(
	EventId: number,
	EventName: string,
	start: Date,
	end: Date,
	extra: Partial<EventInput> = {},
): EventInput {
	const s = localDateTime(start, ZONE);
	const e = localDateTime(end, ZONE);
	return {
		EventId,
		EventName,
		Descr: `<p>${EventName} for members.</p>`,
		StartDateTimeUtc: start.toISOString(),
		EndDateTimeUtc: end.toISOString(),
		StartDate: s.date,
		EndDate: e.date,
		StartTime: s.time,
		EndTime: e.time,
		TimeZone: { Abbreviation: 'CST', Name: ZONE },
		Venue: 'Chamber Office',
		Address1: '200 Main Street',
		City: 'Cedarbrook',
		State: 'IA',
		Zip: '52901',
		...extra,
	};
}

export const IDS = {
	mixer: 101,
	closedGala: 102,
	oldBreakfast: 103,
	expo: 104,
	pastLunch: 105,
	market: 201,
	closedParade: 202,
} as const;

export function eventsTenantFile(slug: string): TenantFileInput {
	return {
		tenant: { slug, name: `Events Chamber ${slug}` },
		config: { urls: { eventRegistrationBaseUrl: 'https://members.example.org' } },
		events: [
			event(IDS.mixer, 'Upcoming Mixer', at(10, 17), at(10, 19), {
				Items: [
					{ ItemId: 1, ItemName: 'Member', UnitPrice: 0 },
					{ ItemId: 2, ItemName: 'Guest', UnitPrice: 25 },
					{ ItemId: 3, ItemName: 'Staff', UnitPrice: 100, IsPublic: false },
				],
			}),
			event(IDS.closedGala, 'Closed Gala', at(20, 18), at(20, 22), { Closed: true }),
			event(IDS.oldBreakfast, 'Old Breakfast', at(-150, 7), at(-150, 9)),
			event(IDS.expo, 'Three-Day Expo', at(40, 9), at(42, 16)),
			event(IDS.pastLunch, 'Past Lunch', at(-5, 11, 30), at(-5, 13)),
		],
		communityEvents: [
			event(IDS.market, 'Farmers Market', at(3, 8), at(3, 12)),
			event(IDS.closedParade, 'Cancelled Parade', at(4, 10), at(4, 12), { Closed: true }),
		],
	};
}

/** Imports the events chamber. */
export async function seedEventsTenant(prefix: string): Promise<{ slug: string; id: string }> {
	const slug = randomSlug(prefix);
	const summary = await importTenant(service, parseTenantFile(eventsTenantFile(slug), 'fixture'));
	return { slug, id: summary.tenant_id };
}

/** The functions over real HTTP on a free port, serving the chamber `slug`. */
export function startFunctions(slug: string, env: Record<string, string | undefined> = {}) {
	return startFunctionServer(stack, { tenant: slug, env });
}
