import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Papa from 'papaparse';

/**
 * A stand-in for the US Census Bureau's geocoder (geocoding.geo.census.gov/geocoder), speaking
 * its documented protocol for the two address calls the directory makes, under the same paths:
 *
 * - `GET /geocoder/locations/onelineaddress?address=…&benchmark=…&format=json` answers
 *   `{result: {input: {address: {address}, benchmark: {…}}, addressMatches: [{tigerLine,
 *   coordinates: {x: longitude, y: latitude}, addressComponents, matchedAddress}]}}`, an empty
 *   list for an address it does not know; 400 `{errors: […], status: "400"}` for a missing
 *   benchmark, or an address that is empty or longer than 100 characters.
 * - `POST /geocoder/locations/addressbatch`, multipart/form-data with `addressFile` (CSV without a
 *   heading: Unique ID, Street address, City, State, ZIP) and `benchmark`, answers CSV, one line
 *   per address and not in the file's order: `"id","input address","Match","Exact" or
 *   "Non_Exact","MATCHED ADDRESS","longitude,latitude","TIGER line id","L" or "R"`, or only the
 *   first three fields for `No_Match` and `Tie`; more than 10,000 addresses is a 400.
 *
 * It knows the addresses `places` lists (compared in capitals, spaces collapsed, as the Census
 * normalises them); `failWith` makes every call answer that HTTP status.
 */

export interface CensusPlace {
	/** 'street, city, state zip' as the directory writes its one-line address. */
	address: string;
	latitude: number;
	longitude: number;
	/** Non_Exact in a batch (the address matched only approximately); default exact. */
	exact?: boolean;
	/** Several candidates: a batch answers Tie, the single line two matches. */
	tie?: boolean;
}

export interface CensusStandin {
	/** The base address, as CENSUS_GEOCODER_URL: `http://127.0.0.1:{port}/geocoder`. */
	url: string;
	places: CensusPlace[];
	/** When set, every call answers this status (a Census outage). */
	failWith: number | null;
	requests: { path: string; benchmark: string | null; addresses: string[] }[];
	close(): Promise<void>;
}

const BENCHMARK = {
	isDefault: true,
	benchmarkDescription: 'Public Address Ranges - Current Benchmark',
	id: '4',
	benchmarkName: 'Public_AR_Current',
};

const normalise = (address: string) => address.toUpperCase().replace(/\s+/g, ' ').trim();

function send(res: ServerResponse, status: number, body: string, type: string) {
	res.writeHead(status, { 'content-type': type });
	res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

const tiger = (place: CensusPlace) =>
	String(Math.abs(Math.round(place.latitude * 1e5 + place.longitude * 1e3)));

function match(place: CensusPlace) {
	const [street = '', city = '', stateZip = ''] = place.address.split(',').map((s) => s.trim());
	const [state = '', zip = ''] = stateZip.split(' ');
	return {
		tigerLine: { side: 'L', tigerLineId: tiger(place) },
		coordinates: { x: place.longitude, y: place.latitude },
		addressComponents: {
			zip,
			streetName: street.replace(/^\d+\s+/, '').toUpperCase(),
			preType: '',
			city: city.toUpperCase(),
			preDirection: '',
			suffixDirection: '',
			fromAddress: '',
			state: state.toUpperCase(),
			suffixType: '',
			toAddress: '',
			suffixQualifier: '',
			preQualifier: '',
		},
		matchedAddress: normalise(place.address),
	};
}

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

export async function startCensusStandin(
	options: { places?: CensusPlace[] } = {},
): Promise<CensusStandin> {
	const standin: Omit<CensusStandin, 'url' | 'close'> = {
		places: options.places ?? [],
		failWith: null,
		requests: [],
	};
	const find = (address: string) =>
		standin.places.find((p) => normalise(p.address) === normalise(address));

	const server = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://standin');
		if (standin.failWith) {
			await readBody(req);
			send(res, standin.failWith, '<html><body>Service Unavailable</body></html>', 'text/html');
			return;
		}
		if (req.method === 'GET' && url.pathname === '/geocoder/locations/onelineaddress') {
			const address = url.searchParams.get('address') ?? '';
			const benchmark = url.searchParams.get('benchmark');
			standin.requests.push({ path: url.pathname, benchmark, addresses: [address] });
			if (url.searchParams.get('format') !== 'json') {
				send(res, 200, '<html><body>Geocoding results</body></html>', 'text/html');
				return;
			}
			const errors = [
				...(benchmark ? [] : ['Benchmark is required']),
				...(address.trim() === '' || address.length > 100
					? ['Address cannot be empty and cannot exceed 100 characters']
					: []),
			];
			if (errors.length) {
				send(res, 400, JSON.stringify({ errors, status: '400' }), 'application/json');
				return;
			}
			const place = find(address);
			const matches = !place ? [] : place.tie ? [match(place), match(place)] : [match(place)];
			send(
				res,
				200,
				JSON.stringify({
					result: {
						input: { address: { address }, benchmark: BENCHMARK },
						addressMatches: matches,
					},
				}),
				'application/json',
			);
			return;
		}
		if (req.method === 'POST' && url.pathname === '/geocoder/locations/addressbatch') {
			const body = await readBody(req);
			let form: FormData;
			try {
				form = await new Request('http://standin/', {
					method: 'POST',
					headers: { 'content-type': req.headers['content-type'] ?? '' },
					body: new Uint8Array(body),
				}).formData();
			} catch {
				send(res, 400, '<html><body>Invalid request</body></html>', 'text/html');
				return;
			}
			const file = form.get('addressFile');
			const benchmark = form.get('benchmark');
			if (!(file instanceof Blob) || typeof benchmark !== 'string') {
				send(
					res,
					400,
					'<html><body>addressFile and benchmark are required</body></html>',
					'text/html',
				);
				return;
			}
			const rows = Papa.parse<string[]>((await file.text()).trim(), { skipEmptyLines: true }).data;
			standin.requests.push({
				path: url.pathname,
				benchmark,
				addresses: rows.map((r) => r.slice(1).join(', ')),
			});
			if (rows.length > 10_000) {
				send(
					res,
					400,
					'<html><body>Too many records: the limit is 10,000</body></html>',
					'text/html',
				);
				return;
			}
			// The Census answers in its own order, not the file's.
			const lines = [...rows]
				.reverse()
				.map(([id = '', street = '', city = '', state = '', zip = '']) => {
					const input = `${street}, ${city}, ${state}, ${zip}`;
					const place = find(`${street}, ${city}, ${state} ${zip}`);
					if (!place) return [id, input, 'No_Match'].map(quote).join(',');
					if (place.tie) return [id, input, 'Tie'].map(quote).join(',');
					return [
						id,
						input,
						'Match',
						place.exact === false ? 'Non_Exact' : 'Exact',
						normalise(place.address),
						`${place.longitude},${place.latitude}`,
						tiger(place),
						'L',
					]
						.map(quote)
						.join(',');
				});
			send(res, 200, `${lines.join('\n')}\n`, 'text/csv');
			return;
		}
		send(res, 404, '<html><body>Not Found</body></html>', 'text/html');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(standin, {
		url: `http://127.0.0.1:${port}/geocoder`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	});
}
