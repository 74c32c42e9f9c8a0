import { z } from 'zod';
import { httpUrlEnv, optionalEnv } from '../../lib/env.server.ts';

/**
 * Which geocoder places this site's businesses by their address, and where it answers: read from
 * the environment (GEOCODER and the geocoders' addresses) and the chamber's country. Apart from
 * the geocoders themselves (geocoder.server.ts), so what only asks which one runs — the Members
 * tab's listing — loads no connection to an address outside the site.
 */

export type GeocoderName = 'census' | 'nominatim' | 'none';

const geocoderEnvSchema = z.object({
	/** census | nominatim | none; default census for a chamber in the United States, else none. */
	GEOCODER: optionalEnv(
		z.enum(['census', 'nominatim', 'none'], { error: 'GEOCODER is census, nominatim or none' }),
	),
	/** The Census geocoder's base address (default its public one). */
	CENSUS_GEOCODER_URL: optionalEnv(httpUrlEnv('CENSUS_GEOCODER_URL')),
	/** The Census locator to use (default Public_AR_Current, the current address ranges). */
	CENSUS_GEOCODER_BENCHMARK: optionalEnv(
		z
			.string()
			.trim()
			.regex(/^[\w.-]{1,60}$/),
	),
	/** Nominatim's base address (default the OpenStreetMap Foundation's). */
	NOMINATIM_URL: optionalEnv(httpUrlEnv('NOMINATIM_URL')),
	/** What the site calls itself to Nominatim: its name and a way to reach its operator. */
	NOMINATIM_USER_AGENT: optionalEnv(z.string().trim().min(8).max(200)),
	/** An address Nominatim's operators may write to about the requests (sent as email=). */
	NOMINATIM_EMAIL: optionalEnv(z.email()),
});

export interface GeocoderSettings {
	name: GeocoderName;
	censusUrl: string;
	censusBenchmark: string;
	nominatimUrl: string;
	nominatimUserAgent: string | null;
	nominatimEmail: string | null;
	/** The chamber's country (ISO 3166-1 alpha-2): Nominatim searches it only. */
	country: string;
}

const CENSUS_URL = 'https://geocoding.geo.census.gov/geocoder';
const NOMINATIM_URL = 'https://nominatim.openstreetmap.org';

/** The geocoder's settings for a chamber; throws naming a wrong variable. */
export function readGeocoderSettings(
	country: string,
	env: NodeJS.ProcessEnv = process.env,
): GeocoderSettings {
	const parsed = geocoderEnvSchema.safeParse(env);
	if (!parsed.success) {
		throw new Error(
			`Invalid geocoder settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
		);
	}
	const e = parsed.data;
	const code = (country.trim() || 'US').toUpperCase();
	const name = e.GEOCODER ?? (code === 'US' ? 'census' : 'none');
	if (name === 'nominatim' && !e.NOMINATIM_USER_AGENT) {
		throw new Error(
			"Invalid geocoder settings: NOMINATIM_USER_AGENT is required with GEOCODER=nominatim (Nominatim's usage policy: a User-Agent naming the site and how to reach its operator)",
		);
	}
	return {
		name,
		censusUrl: (e.CENSUS_GEOCODER_URL ?? CENSUS_URL).replace(/\/+$/, ''),
		censusBenchmark: e.CENSUS_GEOCODER_BENCHMARK ?? 'Public_AR_Current',
		nominatimUrl: (e.NOMINATIM_URL ?? NOMINATIM_URL).replace(/\/+$/, ''),
		nominatimUserAgent: e.NOMINATIM_USER_AGENT ?? null,
		nominatimEmail: e.NOMINATIM_EMAIL ?? null,
		country: code,
	};
}

/**
 * Whether a geocoder looks this chamber's addresses up: not with GEOCODER=none (the default
 * outside the United States), where staff place the pins. Settings that name a geocoder wrongly
 * still count: the scheduled function logs why each run fails.
 */
export function geocodesAddresses(country: string, env: NodeJS.ProcessEnv = process.env): boolean {
	try {
		return readGeocoderSettings(country, env).name !== 'none';
	} catch {
		return true;
	}
}
