import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/features/geo/geocoder.server.ts';

/**
 * A stand-in for Nominatim's search (nominatim.openstreetmap.org), speaking its documented
 * protocol and holding callers to its usage policy:
 *
 * - `GET /search` with a structured query (`street`, `city`, `state`, `postalcode`,
 *   `countrycodes`; never together with the free-text `q`, which is a 400) and `format=jsonv2`
 *   answers a JSON list of places, `[{place_id, licence, osm_type, osm_id, lat, lon, category,
 *   type, place_rank, importance, addresstype, name, display_name, boundingbox}]` (coordinates
 *   as strings), at most `limit`, empty when nothing matches.
 * - A request without a User-Agent naming the application (none, or a library's default) is
 *   refused with 403, as the policy's operators block them; a second request less than a second
 *   after the last, by `clock` (the tests' clock, which the geocoder under test also keeps its
 *   pace by), is refused with 429.
 */

export interface NominatimPlace {
	street: string;
	city: string;
	latitude: number;
	longitude: number;
	/** 30 a house, 26 a street, 16 a town; default 30. */
	placeRank?: number;
}

export interface NominatimStandin {
	url: string;
	places: NominatimPlace[];
	requests: { at: number; query: Record<string, string>; userAgent: string | undefined }[];
	/** Requests refused for coming too soon (429) or without an identifying User-Agent (403). */
	refused: { status: number; at: number }[];
	close(): Promise<void>;
}

const GENERIC_AGENTS = /^(?:$|node|undici|python-requests|curl|wget|java|go-http-client|axios)/i;

function send(res: ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startNominatimStandin(options: {
	clock: Clock;
	places?: NominatimPlace[];
}): Promise<NominatimStandin> {
	const standin: Omit<NominatimStandin, 'url' | 'close'> = {
		places: options.places ?? [],
		requests: [],
		refused: [],
	};
	let last = Number.NEGATIVE_INFINITY;
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://standin');
		const at = options.clock.now();
		const userAgent = req.headers['user-agent'];
		if (url.pathname !== '/search') {
			send(res, 404, { error: 'Not Found' });
			return;
		}
		if (!userAgent || GENERIC_AGENTS.test(userAgent)) {
			standin.refused.push({ status: 403, at });
			send(res, 403, '<html><body>Access blocked: see the usage policy</body></html>');
			return;
		}
		if (at - last < 1000) {
			standin.refused.push({ status: 429, at });
			send(res, 429, { error: 'Too Many Requests' });
			return;
		}
		last = at;
		const query = Object.fromEntries(url.searchParams);
		standin.requests.push({ at, query, userAgent });
		if (query.q && (query.street || query.city || query.postalcode)) {
			send(res, 400, {
				error: {
					code: 400,
					message: 'Structured query parameters can not be used together with q.',
				},
			});
			return;
		}
		if (query.format !== 'jsonv2') {
			send(res, 400, {
				error: { code: 400, message: 'format: this stand-in answers jsonv2 only' },
			});
			return;
		}
		const same = (a: string | undefined, b: string) =>
			(a ?? '').trim().toLowerCase() === b.trim().toLowerCase();
		const place = standin.places.find(
			(p) => same(query.street, p.street) && same(query.city, p.city),
		);
		if (!place) {
			send(res, 200, []);
			return;
		}
		const rank = place.placeRank ?? 30;
		send(
			res,
			200,
			[
				{
					place_id: 100000 + standin.places.indexOf(place),
					licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
					osm_type: 'node',
					osm_id: 500000 + standin.places.indexOf(place),
					lat: String(place.latitude),
					lon: String(place.longitude),
					category: rank >= 30 ? 'place' : 'highway',
					type: rank >= 30 ? 'house' : 'residential',
					place_rank: rank,
					importance: 0.00001,
					addresstype: rank >= 30 ? 'place' : 'road',
					name: '',
					display_name: `${place.street}, ${place.city}, United States`,
					boundingbox: [
						String(place.latitude - 0.0001),
						String(place.latitude + 0.0001),
						String(place.longitude - 0.0001),
						String(place.longitude + 0.0001),
					],
				},
			].slice(0, Number(query.limit ?? 10)),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return Object.assign(standin, {
		url: `http://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	});
}
