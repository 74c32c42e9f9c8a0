import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in raster tile service for the maps in the end-to-end tests: `GET /tiles/{z}/{x}/{y}.png`
 * answers a PNG tile as a real one does (image/png, cacheable), and counts what was asked, so a
 * test can see the map asked this host, and only this host, for its tiles. Nothing reaches the
 * internet.
 */

// A 1×1 light grey PNG: the browser stretches it over the tile's 256×256 pixels.
const TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
	'base64',
);

export interface TileStandin {
	url: string;
	/** Tiles asked for, as z/x/y. */
	requests: string[];
	close(): Promise<void>;
}

export async function startTileStandin(port = 0): Promise<TileStandin> {
	const requests: string[] = [];
	const server = createServer((req, res) => {
		const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
		if (!match) {
			res.writeHead(404).end();
			return;
		}
		requests.push(`${match[1]}/${match[2]}/${match[3]}`);
		res.writeHead(200, {
			'content-type': 'image/png',
			'cache-control': 'public, max-age=86400',
			'access-control-allow-origin': '*',
		});
		res.end(TILE);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const { port: bound } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${bound}/tiles/{z}/{x}/{y}.png`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
