import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	parseTenantFile,
	type EventRecord,
	type TenantFileInput,
} from '../../src/features/tenants/tenant-file.ts';

/**
 * A stand-in for the membership system's public events API (WebLink Connect "Atlas"), as observed:
 *
 *   GET /Events?PageSize=0&OrganizationEvent=true&CommunityEvent=true|false&EventClosed=false
 *       &SearchDateBegin={iso}&SearchDateEnd={iso}  → { TotalCount, TotalPages, Result: [...] }
 *   GET /Event/{id}/Details                       → the event, or a "soft 404" (200, error object)
 *
 * Every request needs `x-tenant: <tenant>`, else 500, as the real API does. The events come from a
 * tenant file and are sent the way Atlas sends them: instants without the Z, null for empty
 * fields. Failure modes can be switched on while it runs.
 */

type AtlasMode =
	/** Answers normally. */
	| 'ok'
	/** HTTP 500 with an error body. */
	| 'error500'
	/** Holds every request for `hangMs` (default 6 s, past our 5-second timeout), then answers. */
	| 'hang'
	/** 200 with a body that has no Result array. */
	| 'noResult'
	/** 200 with an empty body, as Atlas does for an event it does not know. */
	| 'soft404'
	/** 302 to `redirectTo` (setRedirect) for every request. */
	| 'redirect'
	/** 200 with 11 MB of events, streamed without a Content-Length. */
	| 'huge';

export interface AtlasStandin {
	/** Base URL, for ATLAS_BASE_URL. */
	url: string;
	tenant: string;
	setMode(mode: AtlasMode): void;
	/** Where the 'redirect' mode sends requests. */
	setRedirect(location: string): void;
	/**
	 * Fields Atlas sends for one event on top of (or instead of) the tenant file's, as it may send
	 * them: anything at all (a javascript: link, fields of its own, attendees). Cleared by
	 * `patchEvent(id, null)`.
	 */
	patchEvent(eventId: number, fields: Record<string, unknown> | null): void;
	/** Every request seen: path with query, and its x-tenant header. */
	requests: { path: string; tenant: string | undefined }[];
	close(): Promise<void>;
}

/** An event row as Atlas sends it: UTC instants without the Z, blank fields as null. */
function toAtlasRow(event: EventRecord): Record<string, unknown> {
	const row: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(event)) row[key] = value === '' ? null : value;
	row.StartDateTimeUtc = event.StartDateTimeUtc.replace(/(?:\.000)?Z$/, '');
	row.EndDateTimeUtc = event.EndDateTimeUtc.replace(/(?:\.000)?Z$/, '');
	row.StartDate = `${event.StartDate}T00:00:00`;
	row.EndDate = `${event.EndDate}T00:00:00`;
	return row;
}

function send(res: ServerResponse, status: number, body: unknown): void {
	const text = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(text);
}

export async function startAtlasStandin(options: {
	file: TenantFileInput;
	tenant?: string;
	hangMs?: number;
	/** Send closed events even when asked for EventClosed=false (to prove we drop them anyway). */
	ignoreClosedFilter?: boolean;
}): Promise<AtlasStandin> {
	const parsed = parseTenantFile(options.file, 'atlas stand-in');
	const tenant = options.tenant ?? parsed.tenant.slug;
	const chamber = parsed.events;
	const community = parsed.communityEvents;
	let mode: AtlasMode = 'ok';
	let redirectTo = '/';
	const requests: AtlasStandin['requests'] = [];
	const hangMs = options.hangMs ?? 6_000;
	const patches = new Map<number, Record<string, unknown>>();
	const row = (event: EventRecord) => ({ ...toAtlasRow(event), ...patches.get(event.EventId) });

	function answer(req: IncomingMessage, res: ServerResponse): void {
		const url = new URL(req.url ?? '/', 'http://atlas.local');
		const given = req.headers['x-tenant'];
		const xTenant = Array.isArray(given) ? given[0] : given;
		requests.push({ path: `${url.pathname}${url.search}`, tenant: xTenant });
		if (xTenant !== tenant) {
			return send(res, 500, { Message: 'An error has occurred.', ExceptionMessage: 'No tenant' });
		}
		if (mode === 'error500') return send(res, 500, { Message: 'An error has occurred.' });
		if (mode === 'noResult') return send(res, 200, { TotalCount: 0, Message: 'Unexpected' });
		if (mode === 'soft404') return send(res, 200, undefined);
		if (mode === 'redirect') {
			res.writeHead(302, { location: redirectTo });
			return void res.end();
		}
		if (mode === 'huge') {
			res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
			const filler = JSON.stringify({ EventId: 1, EventName: 'x'.repeat(1000) });
			res.write('{"Result":[');
			for (let i = 0; i < 11 * 1024; i += 1) res.write(`${filler},`);
			return void res.end(`${filler}]}`);
		}

		if (req.method === 'GET' && url.pathname === '/Events') {
			const q = url.searchParams;
			const from = Date.parse(q.get('SearchDateBegin') ?? '');
			const to = Date.parse(q.get('SearchDateEnd') ?? '');
			let rows = q.get('CommunityEvent') === 'true' ? community : chamber;
			if (q.get('EventClosed') === 'false' && !options.ignoreClosedFilter)
				rows = rows.filter((e) => !e.Closed);
			if (!Number.isNaN(from)) rows = rows.filter((e) => Date.parse(e.EndDateTimeUtc) >= from);
			if (!Number.isNaN(to)) rows = rows.filter((e) => Date.parse(e.StartDateTimeUtc) <= to);
			return send(res, 200, {
				TotalCount: rows.length,
				TotalPages: 1,
				Result: rows.map(row),
			});
		}
		const details = /^\/Event\/(\d+)\/Details$/.exec(url.pathname);
		if (req.method === 'GET' && details) {
			const id = Number(details[1]);
			const event = [...chamber, ...community].find((e) => e.EventId === id);
			if (!event) return send(res, 200, { Message: `No event found with id ${id}` });
			return send(res, 200, row(event));
		}
		return send(res, 404, { Message: 'No HTTP resource was found that matches the request URI.' });
	}

	const server = createServer((req, res) => {
		if (mode === 'hang') {
			const timer = setTimeout(() => answer(req, res), hangMs);
			res.on('close', () => clearTimeout(timer));
			return;
		}
		answer(req, res);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		tenant,
		setMode: (next) => {
			mode = next;
		},
		setRedirect: (location) => {
			redirectTo = location;
		},
		patchEvent: (eventId, fields) => {
			if (fields) patches.set(eventId, fields);
			else patches.delete(eventId);
		},
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
