import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type FormData, type Response } from 'undici';

/**
 * Fetching an address that outside data names (a banner's image URL), without letting that data
 * reach this machine's own network: only http(s), only public addresses after DNS, the same
 * checks at every redirect, and the connection made to the very address that was checked (the
 * check sits in the connection's DNS lookup, so a name cannot resolve to a public address for
 * the check and to a private one for the connection).
 */

/** Why a fetch was refused: for the server's log, never for the visitor. */
export class PublicFetchRefused extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PublicFetchRefused';
	}
}

/** A host name's addresses, as `dns.lookup(name, { all: true })` answers them. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Whether a connection to this IP address, found for (or written as) this host name, is allowed. */
export type AddressPolicy = (address: string, hostname: string) => boolean;

export interface PublicFetchOptions {
	/** Defaults to the system resolver. Tests map their host names to 127.0.0.1 here. */
	resolve?: Resolver;
	/** Defaults to isPublicAddress. */
	isAllowed?: AddressPolicy;
	/** Redirects followed at most (default 3); one more is refused. */
	maxRedirects?: number;
}

export interface PublicFetchInit {
	signal: AbortSignal;
	headers?: Record<string, string>;
	/** GET by default. Only GET and HEAD follow redirects; another method gets the 3xx answer. */
	method?: string;
	body?: string | URLSearchParams | FormData;
}

/** What a PublicFetch answers (undici's Response). */
export type PublicResponse = Response;

export type PublicFetch = (url: URL, init: PublicFetchInit) => Promise<Response>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291) is not one of ipaddr.js's special
// ranges, and global unicast IPv6 is 2000::/3 only; everything else ipaddr.js classifies.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is a public unicast one: not loopback, private, link-local, unique-local,
 * carrier-grade NAT, multicast, broadcast, unspecified, reserved or documentation, and not one
 * of those inside IPv6 (IPv4-mapped, NAT64, 6to4, Teredo). ipaddr.js names the ranges.
 */
export function isPublicAddress(address: string): boolean {
	if (!ipaddr.isValid(address)) return false;
	// IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
	const ip = ipaddr.process(address);
	if (ip.range() !== 'unicast') return false;
	return ip.kind() === 'ipv4' || (ip as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST);
}

const defaultResolve: Resolver = (hostname) =>
	systemLookup(hostname, { all: true, verbatim: true });

type LookupCallback = (
	error: NodeJS.ErrnoException | null,
	address: string | LookupAddress[],
	family?: number,
) => void;

/** A `net.connect` lookup that answers only with addresses the policy allows. */
function checkedLookup(resolve: Resolver, isAllowed: AddressPolicy) {
	const allowed = async (hostname: string, family: number) => {
		let found: readonly LookupAddress[];
		try {
			found = await resolve(hostname);
		} catch (error) {
			throw new PublicFetchRefused(`${hostname} could not be resolved (${errorCode(error)})`);
		}
		// One refused address among allowed ones refuses the name: which one a connection would
		// use is not ours to choose.
		const refused = found.find((a) => !isAllowed(a.address, hostname));
		if (refused) {
			throw new PublicFetchRefused(
				`${hostname} resolves to ${refused.address}, which is not a public address`,
			);
		}
		const usable = family ? found.filter((a) => a.family === family) : [...found];
		if (usable.length === 0) throw new PublicFetchRefused(`${hostname} has no address`);
		return usable;
	};
	return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
		const family =
			options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
		allowed(hostname, family).then(
			(usable) => {
				const [first] = usable;
				if (options.all || !first) callback(null, usable);
				else callback(null, first.address, first.family);
			},
			(error: PublicFetchRefused) => callback(error, ''),
		);
	};
}

function errorCode(error: unknown): string {
	return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}

/** Refuses what no request may go to, before any connection: the checks of each hop. */
function checkTarget(url: URL, isAllowed: AddressPolicy): void {
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new PublicFetchRefused(`${url.protocol} addresses are not fetched`);
	}
	if (url.username || url.password) {
		throw new PublicFetchRefused('an address with credentials is not fetched');
	}
	// The lookup never runs for an IP address written in the URL: check it here.
	const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
	if (isIP(host) && !isAllowed(host, host)) {
		throw new PublicFetchRefused(`${host} is not a public address`);
	}
}

/** The cause behind undici's `TypeError: fetch failed`, if it is one of our refusals. */
function refusalIn(error: unknown): PublicFetchRefused | undefined {
	for (let e = error; e instanceof Error; e = e.cause) {
		if (e instanceof PublicFetchRefused) return e;
	}
	return undefined;
}

/**
 * A fetch for outside addresses: redirects followed by hand (at most `maxRedirects`), each hop
 * checked. Throws PublicFetchRefused for what it refuses, fetch's own errors otherwise
 * (a TimeoutError when the signal times out).
 */
export function createPublicFetch(options: PublicFetchOptions = {}): PublicFetch {
	const resolve = options.resolve ?? defaultResolve;
	const isAllowed = options.isAllowed ?? isPublicAddress;
	const maxRedirects = options.maxRedirects ?? 3;
	const dispatcher = new Agent({ connect: { lookup: checkedLookup(resolve, isAllowed) } });

	return async (start, init) => {
		let url = start;
		const method = init.method ?? 'GET';
		for (let hop = 0; ; hop++) {
			checkTarget(url, isAllowed);
			let response: Response;
			try {
				response = await fetch(url, {
					dispatcher,
					redirect: 'manual',
					signal: init.signal,
					headers: init.headers,
					method,
					body: init.body,
				});
			} catch (error) {
				throw refusalIn(error) ?? error;
			}
			const location = response.headers.get('location');
			if (!REDIRECTS.has(response.status) || location === null) return response;
			if (method !== 'GET' && method !== 'HEAD') return response;
			await response.body?.cancel();
			if (hop >= maxRedirects) {
				throw new PublicFetchRefused(`more than ${maxRedirects} redirects`);
			}
			try {
				url = new URL(location, url);
			} catch {
				throw new PublicFetchRefused('a redirect to an invalid address');
			}
		}
	};
}

/** An answer larger than its reader's cap: for the log and the caller's own message. */
export class ResponseTooLarge extends Error {
	readonly limit: number;
	constructor(limit: number) {
		super(`larger than ${Math.round(limit / 1024 / 1024)} MB`);
		this.name = 'ResponseTooLarge';
		this.limit = limit;
	}
}

/**
 * An answer's body, at most `limit` bytes as they arrive (after any Content-Encoding is undone,
 * so a compressed answer is counted as it unpacks): a larger one is cancelled at that point,
 * whatever its Content-Length said. The request's signal bounds the time.
 */
export async function readLimited(
	response: Pick<globalThis.Response, 'headers' | 'body'> | Pick<Response, 'headers' | 'body'>,
	limit: number,
): Promise<Uint8Array> {
	if (Number(response.headers.get('content-length') ?? 0) > limit) {
		await response.body?.cancel();
		throw new ResponseTooLarge(limit);
	}
	const chunks: Uint8Array[] = [];
	let size = 0;
	const reader = response.body?.getReader();
	if (!reader) return new Uint8Array();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel();
			throw new ResponseTooLarge(limit);
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks);
}

// --- The membership system's addresses -----------------------------------------------------------

let sourceFetcher: PublicFetch | undefined;

/**
 * The fetch for the addresses the server reads on the chamber's behalf: those the operator
 * configured for the membership system (its member export and token endpoint, its events API)
 * and for the geocoder, and the calendar feeds the chamber's admins add. Public addresses only,
 * like every fetch here, since an address that answers with a redirect decides where the next hop
 * goes. There is no variable that changes it.
 */
export function sourceFetch(): PublicFetch {
	return (sourceFetcher ??= createPublicFetch());
}

/**
 * Code's seam, for tests and the end-to-end server, whose stand-ins of the membership system and
 * the geocoder listen on 127.0.0.1 (tests/support/standin-fetch.ts): sourceFetch() answers `fetcher` until the
 * returned function puts the public-only fetch back.
 */
export function useSourceFetch(fetcher: PublicFetch): () => void {
	sourceFetcher = fetcher;
	return () => {
		sourceFetcher = undefined;
	};
}
