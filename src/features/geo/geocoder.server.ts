import Papa from 'papaparse';
import { FormData } from 'undici';
import { z } from 'zod';
import {
	PublicFetchRefused,
	readLimited,
	ResponseTooLarge,
	sourceFetch,
	type PublicFetch,
	type PublicResponse,
} from '../../lib/public-fetch.server.ts';
import { toMachineCsv } from '../../lib/csv.ts';
import { oneLineAddress, type AddressParts, type LocationQuality } from './geo.ts';
import type { GeocoderName, GeocoderSettings } from './geocoder-settings.server.ts';

/**
 * The geocoders that place businesses by their address, chosen by GEOCODER: the US Census
 * Bureau's (free, no key: its single-line and batch address endpoints), OpenStreetMap's
 * Nominatim (at most one request a second, with a User-Agent that names the site, as its usage
 * policy asks), or none. Every request goes through the public-address fetch with a time and a
 * size cap; an adapter never throws for one address: each answers located, unmatched (the
 * geocoder has no such address) or failed (ask again later).
 */

/** One address to place; `key` comes back with its answer (the business's id). */
export interface GeocodeInput {
	key: string;
	address: AddressParts;
}

export type GeocodeOutcome =
	| {
			key: string;
			outcome: 'located';
			latitude: number;
			longitude: number;
			quality: LocationQuality;
			source: 'census' | 'nominatim';
	  }
	| { key: string; outcome: 'unmatched'; error: string }
	| { key: string; outcome: 'failed'; error: string };

export interface Geocoder {
	name: GeocoderName;
	/** How many addresses one run of the scheduled function gives it. */
	batchSize: number;
	geocode(inputs: readonly GeocodeInput[], signal: AbortSignal): Promise<GeocodeOutcome[]>;
}

/** Time, injectable: Nominatim's one request a second is kept on it. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const systemClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface GeocoderOptions {
	/** Default: the public-address fetch (tests: their stand-ins' host names). */
	fetch?: PublicFetch;
	clock?: Clock;
}

/** The geocoder the settings name. */
export function createGeocoder(
	settings: GeocoderSettings,
	options: GeocoderOptions = {},
): Geocoder {
	switch (settings.name) {
		case 'census':
			return censusGeocoder(settings, options);
		case 'nominatim':
			return nominatimGeocoder(settings, options);
		case 'none':
			return { name: 'none', batchSize: 0, geocode: async () => [] };
	}
}

// --- Requests ------------------------------------------------------------------------------------

/** Why a request failed, in a sentence for staff (the Members tab) and the log. */
class GeocoderError extends Error {}

async function send(
	fetcher: PublicFetch,
	url: URL,
	init: Parameters<PublicFetch>[1],
	limit: number,
): Promise<{ response: PublicResponse; text: string }> {
	let response: PublicResponse;
	try {
		response = await fetcher(url, init);
	} catch (cause) {
		if (cause instanceof PublicFetchRefused) {
			throw new GeocoderError(`the geocoder's address is not a public one (${cause.message})`);
		}
		if (init.signal.aborted) throw new GeocoderError('the geocoder took too long to answer');
		throw new GeocoderError('the geocoder could not be reached');
	}
	try {
		const text = new TextDecoder().decode(await readLimited(response, limit));
		return { response, text };
	} catch (cause) {
		if (cause instanceof ResponseTooLarge) {
			throw new GeocoderError(`the geocoder answered more than ${limit / 1024} KB`);
		}
		throw new GeocoderError('the geocoder’s answer was cut off or took too long');
	}
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}

const failAll = (inputs: readonly GeocodeInput[], error: string): GeocodeOutcome[] =>
	inputs.map((input) => ({ key: input.key, outcome: 'failed', error }));

const messageOf = (error: unknown) =>
	error instanceof GeocoderError ? error.message : 'the geocoder failed';

// --- The US Census Bureau's geocoder ---------------------------------------------------------------

/** A single-line request gets this long and this many bytes of answer. */
const CENSUS_ONE_TIMEOUT_MS = 10_000;
const CENSUS_ONE_MAX_BYTES = 256 * 1024;
/** A batch request (up to CENSUS_BATCH addresses) gets this long and this many bytes. */
const CENSUS_BATCH_TIMEOUT_MS = 25_000;
const CENSUS_BATCH_MAX_BYTES = 4 * 1024 * 1024;
/** Addresses per batch; the Census accepts up to 10,000, and a run has about 25 s. */
const CENSUS_BATCH = 500;
/** Up to this many addresses are asked one by one (a staff edit): quicker than a batch. */
const CENSUS_ONE_BY_ONE = 3;

const censusOneSchema = z.object({
	result: z.object({
		addressMatches: z.array(
			z.object({
				matchedAddress: z.string().optional(),
				coordinates: z.object({ x: z.number(), y: z.number() }),
			}),
		),
	}),
});

function censusGeocoder(settings: GeocoderSettings, options: GeocoderOptions): Geocoder {
	const fetcher = () => options.fetch ?? sourceFetch();

	async function one(input: GeocodeInput, signal: AbortSignal): Promise<GeocodeOutcome> {
		const url = new URL(`${settings.censusUrl}/locations/onelineaddress`);
		url.searchParams.set('address', oneLineAddress(input.address));
		url.searchParams.set('benchmark', settings.censusBenchmark);
		url.searchParams.set('format', 'json');
		try {
			const { response, text } = await send(
				fetcher(),
				url,
				{
					signal: AbortSignal.any([signal, AbortSignal.timeout(CENSUS_ONE_TIMEOUT_MS)]),
					headers: { accept: 'application/json' },
				},
				CENSUS_ONE_MAX_BYTES,
			);
			const body = parseJson(text);
			if (!response.ok) {
				const errors = (body as { errors?: unknown } | null)?.errors;
				const said = Array.isArray(errors) ? errors.filter((e) => typeof e === 'string') : [];
				// The Census answers 400 for an address it cannot read ('Address cannot be empty…').
				if (response.status === 400 && said.length) {
					return { key: input.key, outcome: 'unmatched', error: said.join(' ').slice(0, 300) };
				}
				return {
					key: input.key,
					outcome: 'failed',
					error: `the geocoder answered HTTP ${response.status}`,
				};
			}
			const answer = censusOneSchema.safeParse(body);
			if (!answer.success) {
				return {
					key: input.key,
					outcome: 'failed',
					error: 'the geocoder’s answer was not its usual JSON',
				};
			}
			const matches = answer.data.result.addressMatches;
			const [first] = matches;
			if (!first) {
				return {
					key: input.key,
					outcome: 'unmatched',
					error: 'The geocoder found no such address',
				};
			}
			return {
				key: input.key,
				outcome: 'located',
				latitude: first.coordinates.y,
				longitude: first.coordinates.x,
				// One match is the address; several are candidates, the first the likeliest.
				quality: matches.length === 1 ? 'exact' : 'approximate',
				source: 'census',
			};
		} catch (error) {
			return { key: input.key, outcome: 'failed', error: messageOf(error) };
		}
	}

	async function batch(
		inputs: readonly GeocodeInput[],
		signal: AbortSignal,
	): Promise<GeocodeOutcome[]> {
		// The batch file: "Unique ID, Street address, City, State, ZIP", no heading.
		const csv = toMachineCsv(
			inputs.map((input, index) => [
				String(index + 1),
				input.address.address1.trim(),
				input.address.city.trim(),
				input.address.state.trim(),
				input.address.zip.trim(),
			]),
		);
		const form = new FormData();
		form.set('addressFile', new Blob([csv], { type: 'text/csv' }), 'addresses.csv');
		form.set('benchmark', settings.censusBenchmark);
		let text: string;
		try {
			const sent = await send(
				fetcher(),
				new URL(`${settings.censusUrl}/locations/addressbatch`),
				{
					method: 'POST',
					body: form,
					signal: AbortSignal.any([signal, AbortSignal.timeout(CENSUS_BATCH_TIMEOUT_MS)]),
				},
				CENSUS_BATCH_MAX_BYTES,
			);
			if (!sent.response.ok) {
				return failAll(inputs, `the geocoder answered HTTP ${sent.response.status}`);
			}
			text = sent.text;
		} catch (error) {
			return failAll(inputs, messageOf(error));
		}
		// One line per address, in any order: "id","input","Match|No_Match|Tie","Exact|Non_Exact",
		// "matched address","longitude,latitude","TIGER line id","L|R".
		const rows = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
		const answers = new Map<number, string[]>();
		for (const row of rows) {
			const index = Number(row[0]);
			if (Number.isInteger(index) && index >= 1 && index <= inputs.length) answers.set(index, row);
		}
		return inputs.map((input, i): GeocodeOutcome => {
			const row = answers.get(i + 1);
			if (!row)
				return {
					key: input.key,
					outcome: 'failed',
					error: 'the geocoder gave no answer for this address',
				};
			const [, , match, type, , coordinates] = row;
			if (match === 'No_Match') {
				return {
					key: input.key,
					outcome: 'unmatched',
					error: 'The geocoder found no such address',
				};
			}
			if (match === 'Tie') {
				return {
					key: input.key,
					outcome: 'unmatched',
					error: 'The geocoder found several places with this address',
				};
			}
			const [longitude, latitude] = (coordinates ?? '').split(',').map(Number);
			if (match !== 'Match' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
				return {
					key: input.key,
					outcome: 'failed',
					error: 'the geocoder’s answer was not its usual CSV',
				};
			}
			return {
				key: input.key,
				outcome: 'located',
				latitude: latitude!,
				longitude: longitude!,
				quality: type === 'Exact' ? 'exact' : 'approximate',
				source: 'census',
			};
		});
	}

	return {
		name: 'census',
		batchSize: CENSUS_BATCH,
		async geocode(inputs, signal) {
			if (inputs.length === 0) return [];
			if (inputs.length > CENSUS_ONE_BY_ONE) return batch(inputs, signal);
			const outcomes: GeocodeOutcome[] = [];
			for (const input of inputs) outcomes.push(await one(input, signal));
			return outcomes;
		},
	};
}

// --- Nominatim -------------------------------------------------------------------------------------

/** Nominatim's usage policy: at most one request a second from the whole site. */
const NOMINATIM_INTERVAL_MS = 1000;
const NOMINATIM_TIMEOUT_MS = 10_000;
const NOMINATIM_MAX_BYTES = 64 * 1024;
/** Addresses per run: one a second fits a scheduled function's half minute. */
const NOMINATIM_BATCH = 20;

const nominatimSchema = z.array(
	z.object({
		lat: z.coerce.number(),
		lon: z.coerce.number(),
		place_rank: z.coerce.number().optional(),
	}),
);

/** How exact a Nominatim place is by its rank: a house 30, a street 26–27, larger areas less. */
function nominatimQuality(rank: number | undefined): LocationQuality {
	if (rank === undefined) return 'approximate';
	if (rank >= 30) return 'exact';
	if (rank >= 26) return 'street';
	return 'area';
}

/** When the last request went out, for every Nominatim geocoder of this process. */
let lastNominatimRequest = Number.NEGATIVE_INFINITY;

function nominatimGeocoder(settings: GeocoderSettings, options: GeocoderOptions): Geocoder {
	const fetcher = () => options.fetch ?? sourceFetch();
	const clock = options.clock ?? systemClock;
	const userAgent = settings.nominatimUserAgent!;

	async function one(input: GeocodeInput, signal: AbortSignal): Promise<GeocodeOutcome> {
		const url = new URL(`${settings.nominatimUrl}/search`);
		// A structured search: quicker for Nominatim than free text, and never both.
		url.searchParams.set('street', input.address.address1.trim());
		if (input.address.city.trim()) url.searchParams.set('city', input.address.city.trim());
		if (input.address.state.trim()) url.searchParams.set('state', input.address.state.trim());
		if (input.address.zip.trim()) url.searchParams.set('postalcode', input.address.zip.trim());
		url.searchParams.set('countrycodes', settings.country.toLowerCase());
		url.searchParams.set('format', 'jsonv2');
		url.searchParams.set('limit', '1');
		if (settings.nominatimEmail) url.searchParams.set('email', settings.nominatimEmail);
		const { response, text } = await send(
			fetcher(),
			url,
			{
				signal: AbortSignal.any([signal, AbortSignal.timeout(NOMINATIM_TIMEOUT_MS)]),
				headers: { accept: 'application/json', 'user-agent': userAgent },
			},
			NOMINATIM_MAX_BYTES,
		);
		if (response.status === 429 || response.status === 403) {
			throw new RateLimited(`Nominatim refused the request (HTTP ${response.status})`);
		}
		if (!response.ok) {
			return {
				key: input.key,
				outcome: 'failed',
				error: `the geocoder answered HTTP ${response.status}`,
			};
		}
		const answer = nominatimSchema.safeParse(parseJson(text));
		if (!answer.success) {
			return {
				key: input.key,
				outcome: 'failed',
				error: 'the geocoder’s answer was not its usual JSON',
			};
		}
		const [place] = answer.data;
		if (!place) {
			return { key: input.key, outcome: 'unmatched', error: 'The geocoder found no such address' };
		}
		return {
			key: input.key,
			outcome: 'located',
			latitude: place.lat,
			longitude: place.lon,
			quality: nominatimQuality(place.place_rank),
			source: 'nominatim',
		};
	}

	return {
		name: 'nominatim',
		batchSize: NOMINATIM_BATCH,
		async geocode(inputs, signal) {
			const outcomes: GeocodeOutcome[] = [];
			for (const [index, input] of inputs.entries()) {
				const wait = lastNominatimRequest + NOMINATIM_INTERVAL_MS - clock.now();
				if (wait > 0) await clock.sleep(wait);
				if (signal.aborted) {
					outcomes.push(...failAll(inputs.slice(index), 'left for the next run'));
					break;
				}
				lastNominatimRequest = clock.now();
				try {
					outcomes.push(await one(input, signal));
				} catch (error) {
					if (error instanceof RateLimited) {
						// Told to slow down: nothing more this run.
						outcomes.push(...failAll(inputs.slice(index), error.message));
						break;
					}
					outcomes.push({ key: input.key, outcome: 'failed', error: messageOf(error) });
				}
			}
			return outcomes;
		},
	};
}

class RateLimited extends Error {}

/** Tests: forget when the last Nominatim request went out. */
export function resetNominatimPace(): void {
	lastNominatimRequest = Number.NEGATIVE_INFINITY;
}
