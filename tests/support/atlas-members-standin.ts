import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the membership system's member export, speaking the protocol its public API
 * documents: an OAuth 2.0 token endpoint for the client credentials grant (form-encoded
 * grant_type, client_id, client_secret, scope → `{access_token, token_type, expires_in}`; 400
 * `invalid_client` for wrong credentials), and the export, which needs `Authorization: Bearer`
 * with an issued token (401 without) and `x-tenant` (500 without, as Atlas answers). The export
 * answers the members as JSON in Atlas's `{ Result }` envelope (ids as numbers, blanks as null)
 * or as CSV.
 */

export interface AtlasMember {
	weblink_profile_id: string;
	report_name: string;
	[field: string]: unknown;
}

export interface AtlasMembersStandin {
	url: string;
	/** For ATLAS_TOKEN_URL. */
	tokenUrl: string;
	/** For ATLAS_MEMBERS_URL. */
	membersUrl: string;
	clientId: string;
	clientSecret: string;
	tenant: string;
	members: AtlasMember[];
	format: 'json' | 'csv';
	/** When set, the export answers 302 to this address instead. */
	redirect: string | null;
	/** When set, the export streams this many bytes of CSV, without a Content-Length. */
	streamBytes: number | null;
	requests: { path: string; authorization?: string; tenant?: string; body?: string }[];
	close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json') {
	res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
	res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function toCsv(members: AtlasMember[]): string {
	const headers = [...new Set(members.flatMap((m) => Object.keys(m)))];
	const cell = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;
	return [
		headers.map(cell).join(','),
		...members.map((m) => headers.map((h) => cell(m[h])).join(',')),
	].join('\r\n');
}

/** A CSV of `bytes` bytes, written as the client takes it (it may stop reading at any point). */
function streamCsv(res: ServerResponse, bytes: number): void {
	res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
	const line = Buffer.from(`${'1'.repeat(8)},Member,Lakeside,555-0100,${'x'.repeat(990)}\r\n`);
	let sent = 0;
	const write = () => {
		while (sent < bytes) {
			sent += line.byteLength;
			if (!res.write(line)) return void res.once('drain', write);
		}
		res.end();
	};
	res.write('Profile ID,Organization Name,City,Phone,Description\r\n');
	write();
}

export async function startAtlasMembersStandin(options: {
	members: AtlasMember[];
	tenant?: string;
	port?: number;
	clientSecret?: string;
}): Promise<AtlasMembersStandin> {
	const tokens = new Set<string>();
	const standin = {
		clientId: 'chamber-test-client',
		clientSecret: options.clientSecret ?? randomBytes(12).toString('hex'),
		tenant: options.tenant ?? 'chamber-test',
		members: options.members,
		format: 'json' as 'json' | 'csv',
		redirect: null as string | null,
		streamBytes: null as number | null,
		requests: [] as AtlasMembersStandin['requests'],
	};
	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://atlas.local');
			const body = req.method === 'POST' ? await readBody(req) : undefined;
			standin.requests.push({
				path: url.pathname,
				authorization: req.headers.authorization,
				tenant: req.headers['x-tenant'] as string | undefined,
				body,
			});
			if (req.method === 'POST' && url.pathname === '/connect/token') {
				const form = new URLSearchParams(body);
				if (form.get('grant_type') !== 'client_credentials') {
					return send(res, 400, JSON.stringify({ error: 'unsupported_grant_type' }));
				}
				if (
					form.get('client_id') !== standin.clientId ||
					form.get('client_secret') !== standin.clientSecret
				) {
					return send(res, 400, JSON.stringify({ error: 'invalid_client' }));
				}
				const token = randomBytes(16).toString('hex');
				tokens.add(token);
				return send(
					res,
					200,
					JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 86400 }),
				);
			}
			if (req.method === 'GET' && url.pathname === '/members/export') {
				const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
				if (!bearer || !tokens.has(bearer))
					return send(
						res,
						401,
						JSON.stringify({ Message: 'Authorization has been denied for this request.' }),
					);
				if (req.headers['x-tenant'] !== standin.tenant)
					return send(res, 500, JSON.stringify({ Message: 'An error has occurred.' }));
				if (standin.redirect !== null) {
					res.writeHead(302, { location: standin.redirect });
					return void res.end();
				}
				if (standin.streamBytes !== null) return streamCsv(res, standin.streamBytes);
				if (standin.format === 'csv') return send(res, 200, toCsv(standin.members), 'text/csv');
				const rows = standin.members.map((m) => {
					const row: Record<string, unknown> = {};
					for (const [k, v] of Object.entries(m)) row[k] = v === '' ? null : v;
					row.weblink_profile_id = Number(m.weblink_profile_id);
					return row;
				});
				return send(res, 200, JSON.stringify({ TotalCount: rows.length, Result: rows }));
			}
			return send(
				res,
				404,
				JSON.stringify({ Message: 'No HTTP resource was found that matches the request URI.' }),
			);
		})().catch(() => send(res, 500, '{}'));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	const url = `http://127.0.0.1:${port}`;
	return Object.assign(standin, {
		url,
		tokenUrl: `${url}/connect/token`,
		membersUrl: `${url}/members/export`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	});
}
