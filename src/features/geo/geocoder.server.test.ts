import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCensusStandin, type CensusStandin } from '../../../tests/support/census-standin.ts';
import {
	startNominatimStandin,
	type NominatimStandin,
} from '../../../tests/support/nominatim-standin.ts';
import { standinFetch, standinUrl } from '../../../tests/support/standin-fetch.ts';
import type { PublicFetch } from '../../lib/public-fetch.server.ts';
import { geocodesAddresses, readGeocoderSettings } from './geocoder-settings.server.ts';
import {
	createGeocoder,
	resetNominatimPace,
	type Clock,
	type GeocodeInput,
} from './geocoder.server.ts';

// The geocoder adapters against stand-ins speaking the Census geocoder's and Nominatim's
// protocols over real HTTP on 127.0.0.1, reached by their host names through the public-address
// fetch as production reaches the real ones.

const fetch = standinFetch(['census-geocoder.test', 'nominatim.test']);

const address = (
	key: string,
	address1: string,
	city = 'Cedarbrook',
	zip = '52901',
): GeocodeInput => ({
	key,
	address: { address1, address2: 'Suite 4', city, state: 'IA', zip },
});

const MAIN = {
	address: '100 Main Street, Cedarbrook, IA 52901',
	latitude: 41.97791,
	longitude: -91.66562,
};
const OAK = {
	address: '12 Oak Street, Cedarbrook, IA 52901',
	latitude: 41.98,
	longitude: -91.67,
	exact: false,
};
const TWIN = {
	address: '7 Twin Lane, Cedarbrook, IA 52901',
	latitude: 41.99,
	longitude: -91.6,
	tie: true,
};

describe('the US Census Bureau geocoder', () => {
	let census: CensusStandin;
	const settings = () =>
		readGeocoderSettings('US', {
			CENSUS_GEOCODER_URL: standinUrl(census.url, 'census-geocoder.test'),
		});
	const geocoder = () => createGeocoder(settings(), { fetch });
	const signal = () => AbortSignal.timeout(10_000);

	beforeAll(async () => {
		census = await startCensusStandin({ places: [MAIN, OAK, TWIN] });
	});
	afterAll(() => census.close());
	afterEach(() => {
		census.failWith = null;
		census.requests.length = 0;
	});

	it('is the default for a chamber in the United States, and none elsewhere', () => {
		expect(readGeocoderSettings('US', {}).name).toBe('census');
		expect(readGeocoderSettings('', {}).name).toBe('census');
		expect(readGeocoderSettings('CA', {}).name).toBe('none');
		expect(readGeocoderSettings('CA', { GEOCODER: 'census' }).name).toBe('census');
		expect(() => readGeocoderSettings('US', { GEOCODER: 'google' })).toThrow(
			/GEOCODER is census, nominatim or none/,
		);
		// What the Members tab is told: whether anything looks addresses up on this site. Settings
		// that name a geocoder wrongly still name one (each run logs why it fails).
		expect(geocodesAddresses('US', {})).toBe(true);
		expect(geocodesAddresses('CA', {})).toBe(false);
		expect(geocodesAddresses('US', { GEOCODER: 'none' })).toBe(false);
		expect(geocodesAddresses('US', { GEOCODER: 'nominatim' })).toBe(true);
	});

	it('asks the single-line endpoint for a few addresses, the street, town, state and ZIP', async () => {
		const outcomes = await geocoder().geocode(
			[address('a', '100 Main Street'), address('b', '999 Nowhere Road')],
			signal(),
		);
		expect(census.requests).toEqual([
			{
				path: '/geocoder/locations/onelineaddress',
				benchmark: 'Public_AR_Current',
				addresses: ['100 Main Street, Cedarbrook, IA 52901'],
			},
			{
				path: '/geocoder/locations/onelineaddress',
				benchmark: 'Public_AR_Current',
				addresses: ['999 Nowhere Road, Cedarbrook, IA 52901'],
			},
		]);
		expect(outcomes).toEqual([
			{
				key: 'a',
				outcome: 'located',
				latitude: MAIN.latitude,
				longitude: MAIN.longitude,
				quality: 'exact',
				source: 'census',
			},
			{ key: 'b', outcome: 'unmatched', error: 'The geocoder found no such address' },
		]);
	});

	it('sends more addresses as one batch file and reads its CSV answer in any order', async () => {
		const outcomes = await geocoder().geocode(
			[
				address('main', '100 Main Street'),
				address('oak', '12 Oak Street'),
				address('twin', '7 Twin Lane'),
				address('none', '1 Lost Way', 'Elsewhere', '50000'),
			],
			signal(),
		);
		expect(census.requests).toHaveLength(1);
		expect(census.requests[0]).toMatchObject({
			path: '/geocoder/locations/addressbatch',
			benchmark: 'Public_AR_Current',
		});
		expect(outcomes).toEqual([
			expect.objectContaining({
				key: 'main',
				outcome: 'located',
				quality: 'exact',
				latitude: MAIN.latitude,
			}),
			expect.objectContaining({
				key: 'oak',
				outcome: 'located',
				quality: 'approximate',
				longitude: OAK.longitude,
			}),
			{
				key: 'twin',
				outcome: 'unmatched',
				error: 'The geocoder found several places with this address',
			},
			{ key: 'none', outcome: 'unmatched', error: 'The geocoder found no such address' },
		]);
	});

	it('answers an address the Census refuses to read as not found, with its reason', async () => {
		const [outcome] = await geocoder().geocode(
			[address('long', `${'9'.repeat(120)} Main Street`)],
			signal(),
		);
		expect(outcome).toEqual({
			key: 'long',
			outcome: 'unmatched',
			error: 'Address cannot be empty and cannot exceed 100 characters',
		});
	});

	it('answers every address as failed when the Census is down, to be asked again', async () => {
		census.failWith = 503;
		const one = await geocoder().geocode([address('a', '100 Main Street')], signal());
		expect(one).toEqual([{ key: 'a', outcome: 'failed', error: 'the geocoder answered HTTP 503' }]);
		const batch = await geocoder().geocode(
			['a', 'b', 'c', 'd'].map((key) => address(key, '100 Main Street')),
			signal(),
		);
		expect(batch.map((o) => o.outcome)).toEqual(['failed', 'failed', 'failed', 'failed']);
	});

	it('with GEOCODER=none places nothing and sends nothing, whatever else is set', async () => {
		const asked: string[] = [];
		const counting: PublicFetch = (url, init) => {
			asked.push(url.href);
			return fetch(url, init);
		};
		const none = createGeocoder(
			readGeocoderSettings('US', {
				GEOCODER: 'none',
				CENSUS_GEOCODER_URL: standinUrl(census.url, 'census-geocoder.test'),
			}),
			{ fetch: counting },
		);
		// No batch: the scheduled run claims nothing for it (src/features/geo/geocode.server.ts).
		expect(none).toMatchObject({ name: 'none', batchSize: 0 });
		expect(
			await none.geocode(
				[
					address('a', '100 Main Street'),
					address('b', '12 Oak Street'),
					address('c', '7 Twin Lane'),
					address('d', '1 Lost Way'),
				],
				signal(),
			),
		).toEqual([]);
		expect(asked).toEqual([]);
		expect(census.requests).toEqual([]);
	});

	it('never reaches a private address, however it is named', async () => {
		const direct = createGeocoder(readGeocoderSettings('US', { CENSUS_GEOCODER_URL: census.url }));
		const [outcome] = await direct.geocode([address('a', '100 Main Street')], signal());
		expect(outcome).toMatchObject({ outcome: 'failed', error: /not a public one/ });
		expect(census.requests).toEqual([]);
	});
});

describe('Nominatim', () => {
	let nominatim: NominatimStandin;
	let time = 0;
	const clock: Clock = {
		now: () => time,
		sleep: async (ms) => {
			time += ms;
		},
	};
	const env = () => ({
		GEOCODER: 'nominatim',
		NOMINATIM_URL: standinUrl(nominatim.url, 'nominatim.test'),
		NOMINATIM_USER_AGENT: 'Cedar Valley Chamber directory (https://cedarvalley.example)',
		NOMINATIM_EMAIL: 'web@cedarvalley.example',
	});
	const signal = () => AbortSignal.timeout(10_000);

	beforeAll(async () => {
		nominatim = await startNominatimStandin({
			clock,
			places: [
				{ street: '100 Main Street', city: 'Cedarbrook', latitude: 41.9779, longitude: -91.6656 },
				{
					street: '5 Mill Street',
					city: 'Cedarbrook',
					latitude: 41.97,
					longitude: -91.66,
					placeRank: 26,
				},
			],
		});
	});
	afterAll(() => nominatim.close());
	afterEach(() => {
		nominatim.requests.length = 0;
		nominatim.refused.length = 0;
		resetNominatimPace();
	});

	it('needs a User-Agent naming the site, as the usage policy asks', () => {
		expect(() => readGeocoderSettings('US', { GEOCODER: 'nominatim' })).toThrow(
			/NOMINATIM_USER_AGENT/,
		);
	});

	it('asks one address a second with a structured query, and says how exact each place is', async () => {
		time = 5_000;
		const geocoder = createGeocoder(readGeocoderSettings('US', env()), { fetch, clock });
		const outcomes = await geocoder.geocode(
			[
				address('main', '100 Main Street'),
				address('mill', '5 Mill Street'),
				address('lost', '1 Lost Way'),
			],
			signal(),
		);
		expect(nominatim.refused).toEqual([]);
		expect(nominatim.requests.map((r) => r.at)).toEqual([5_000, 6_000, 7_000]);
		expect(nominatim.requests[0]).toMatchObject({
			userAgent: 'Cedar Valley Chamber directory (https://cedarvalley.example)',
			query: {
				street: '100 Main Street',
				city: 'Cedarbrook',
				state: 'IA',
				postalcode: '52901',
				countrycodes: 'us',
				format: 'jsonv2',
				limit: '1',
				email: 'web@cedarvalley.example',
			},
		});
		expect(nominatim.requests[0]!.query).not.toHaveProperty('q');
		expect(outcomes).toEqual([
			{
				key: 'main',
				outcome: 'located',
				latitude: 41.9779,
				longitude: -91.6656,
				quality: 'exact',
				source: 'nominatim',
			},
			{
				key: 'mill',
				outcome: 'located',
				latitude: 41.97,
				longitude: -91.66,
				quality: 'street',
				source: 'nominatim',
			},
			{ key: 'lost', outcome: 'unmatched', error: 'The geocoder found no such address' },
		]);
	});

	it('keeps the pace across runs: the next run waits for the second to pass', async () => {
		time = 20_000;
		const geocoder = createGeocoder(readGeocoderSettings('US', env()), { fetch, clock });
		await geocoder.geocode([address('a', '100 Main Street')], signal());
		time += 300;
		await geocoder.geocode([address('b', '100 Main Street')], signal());
		expect(nominatim.requests.map((r) => r.at)).toEqual([20_000, 21_000]);
		expect(nominatim.refused).toEqual([]);
	});

	it('stops the run when Nominatim refuses, leaving the rest for later', async () => {
		time = 40_000;
		const generic = createGeocoder(
			readGeocoderSettings('US', { ...env(), NOMINATIM_USER_AGENT: 'node-fetch/1.0 generic' }),
			{ fetch, clock },
		);
		const outcomes = await generic.geocode(
			[address('a', '100 Main Street'), address('b', '5 Mill Street')],
			signal(),
		);
		expect(nominatim.refused).toEqual([{ status: 403, at: 40_000 }]);
		expect(outcomes).toEqual([
			{ key: 'a', outcome: 'failed', error: 'Nominatim refused the request (HTTP 403)' },
			{ key: 'b', outcome: 'failed', error: 'Nominatim refused the request (HTTP 403)' },
		]);
	});
});
