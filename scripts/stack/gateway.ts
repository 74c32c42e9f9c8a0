import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { StackMode } from '../../src/lib/env.server.ts';

export interface Gateway {
	url: string;
	close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/**
 * The local stand-in for Supabase's API gateway: `/rest/v1/*` goes to PostgREST with the
 * prefix stripped, exactly the paths supabase-js calls on a hosted project.
 */
export async function startGateway(options: {
	port: number;
	postgrestUrl: string;
	mode: StackMode;
	reload: () => Promise<void>;
}): Promise<Gateway> {
	const upstream = new URL(options.postgrestUrl);

	function proxy(req: IncomingMessage, res: ServerResponse, path: string): void {
		const headers: Record<string, string | string[] | undefined> = {
			...req.headers,
			host: upstream.host,
		};
		// Like Supabase's gateway: a request carrying only an apikey is authorised as that key.
		if (!headers.authorization && typeof headers.apikey === 'string') {
			headers.authorization = `Bearer ${headers.apikey}`;
		}
		const upstreamReq = request(
			{ hostname: upstream.hostname, port: upstream.port, method: req.method, path, headers },
			(upstreamRes) => {
				res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
				upstreamRes.pipe(res);
			},
		);
		upstreamReq.on('error', (error) => {
			if (!res.headersSent) json(res, 502, { message: `PostgREST unreachable: ${error.message}` });
			else res.destroy(error);
		});
		req.pipe(upstreamReq);
	}

	const server: Server = createServer((req, res) => {
		const url = req.url ?? '/';
		if (url.startsWith('/rest/v1/') || url === '/rest/v1') {
			proxy(req, res, url.slice('/rest/v1'.length) || '/');
			return;
		}
		if (url === '/_stack/health') {
			json(res, 200, { ok: true, mode: options.mode, pid: process.pid });
			return;
		}
		if (url === '/_stack/reload' && req.method === 'POST') {
			options.reload().then(
				() => json(res, 200, { reloaded: true }),
				(error: Error) => json(res, 500, { message: error.message }),
			);
			return;
		}
		json(res, 404, { message: `No route for ${req.method} ${url}` });
	});
	// Clients (undici: 4 s) must drop idle keep-alive sockets before the server closes them.
	// With Node's default of 5 s, a client whose event loop was busy for a few seconds (an Astro
	// build) sends its next request on a socket the gateway has just closed, and a POST (an RPC)
	// is not retried: 'fetch failed: other side closed'.
	server.keepAliveTimeout = 65_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${options.port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
