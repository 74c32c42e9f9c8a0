import { lookup } from 'node:dns/promises';
import {
	createPublicFetch,
	isPublicAddress,
	type PublicFetch,
} from '../../src/lib/public-fetch.server.ts';

/**
 * The host names the tests give the stand-ins of outside services (the membership system, the
 * geocoders, the calendar feeds: tests/support/calendar-feeds.ts), which listen on 127.0.0.1
 * (`.test` is reserved: no real resolver answers it).
 */
export const STANDIN_HOSTS = [
	'atlas-members.test',
	'atlas-events.test',
	'census-geocoder.test',
	'nominatim.test',
	'calendar-feeds.test',
] as const;

/**
 * The public-address fetch as production has it, except that the stand-ins' host names resolve
 * to 127.0.0.1 and may be connected to there. Only those names: 127.0.0.1 written as an address,
 * localhost, every other loopback or private address, and any redirect to them, are refused as
 * in production. Installed with useSourceFetch (code only: no environment variable does this).
 */
export function standinFetch(hosts: readonly string[] = STANDIN_HOSTS): PublicFetch {
	return createPublicFetch({
		resolve: async (hostname) =>
			hosts.includes(hostname)
				? [{ address: '127.0.0.1', family: 4 }]
				: lookup(hostname, { all: true, verbatim: true }),
		isAllowed: (address, hostname) =>
			(hosts.includes(hostname) && address === '127.0.0.1') || isPublicAddress(address),
	});
}

/** A stand-in's URL (on 127.0.0.1) under one of the stand-ins' host names. */
export function standinUrl(url: string, host: (typeof STANDIN_HOSTS)[number]): string {
	const parsed = new URL(url);
	parsed.hostname = host;
	return parsed.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
}
