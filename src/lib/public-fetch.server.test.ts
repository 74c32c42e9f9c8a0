import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	createPublicFetch,
	isPublicAddress,
	PublicFetchRefused,
	type AddressPolicy,
	type Resolver,
} from './public-fetch.server.ts';

// Real HTTP on 127.0.0.1. The production policy refuses that address, so the redirect-chain tests
// use the seam: a resolver that maps test host names to 127.0.0.1 and a policy that allows
// 127.0.0.1 and public addresses, nothing else. The default policy is tested on its own below.

let server: Server;
let port: number;
/** Paths the server was asked for, in order. */
const requests: string[] = [];

function handler(req: IncomingMessage, res: ServerResponse) {
	requests.push(`${req.headers.host?.split(':')[0]}${req.url}`);
	const hops = /^\/hops\/(\d+)$/.exec(req.url ?? '');
	if (hops) {
		const left = Number(hops[1]);
		const location = left === 0 ? '/image' : `/hops/${left - 1}`;
		res.writeHead(302, { location }).end();
		return;
	}
	switch (req.url) {
		case '/image':
			res.writeHead(200, { 'content-type': 'text/plain' }).end('the image');
			return;
		case '/to-other-host':
			res.writeHead(301, { location: `http://cdn.test:${port}/image` }).end();
			return;
		case '/to-private-literal':
			res.writeHead(302, { location: `http://10.0.0.1:${port}/image` }).end();
			return;
		case '/to-loopback-v6':
			res.writeHead(307, { location: `http://[::1]:${port}/image` }).end();
			return;
		case '/to-mapped-v6':
			res.writeHead(308, { location: `http://[::ffff:127.0.0.1]:${port}/image` }).end();
			return;
		case '/to-metadata':
			res.writeHead(302, { location: `http://metadata.test:${port}/latest/meta-data` }).end();
			return;
		case '/to-file':
			res.writeHead(302, { location: 'file:///etc/passwd' }).end();
			return;
		case '/to-ftp':
			res.writeHead(302, { location: `ftp://images.test:${port}/image` }).end();
			return;
		default:
			res.writeHead(404).end();
	}
}

const TEST_HOSTS: Record<string, string[]> = {
	'images.test': ['127.0.0.1'],
	'cdn.test': ['127.0.0.1'],
	'metadata.test': ['169.254.169.254'],
	'split.test': ['127.0.0.1', '10.1.2.3'],
};

const testResolve: Resolver = async (hostname) => {
	const addresses = TEST_HOSTS[hostname];
	if (!addresses)
		throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
	return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const testPolicy: AddressPolicy = (address) => address === '127.0.0.1' || isPublicAddress(address);

const testFetch = createPublicFetch({ resolve: testResolve, isAllowed: testPolicy });
const signal = () => AbortSignal.timeout(5000);

async function refusal(promise: Promise<unknown>): Promise<string> {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(PublicFetchRefused);
	return (error as Error).message;
}

beforeAll(async () => {
	server = createServer(handler);
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	port = (server.address() as AddressInfo).port;
});
afterAll(() => {
	server.closeAllConnections();
	server.close();
});

describe('isPublicAddress', () => {
	it.each([
		['127.0.0.1', 'loopback'],
		['127.8.9.10', 'loopback'],
		['10.1.2.3', 'private'],
		['172.16.5.4', 'private'],
		['192.168.0.1', 'private'],
		['169.254.169.254', 'link-local (cloud metadata)'],
		['100.64.0.1', 'carrier-grade NAT'],
		['0.0.0.0', 'unspecified'],
		['224.0.0.1', 'multicast'],
		['255.255.255.255', 'broadcast'],
		['192.0.2.1', 'documentation'],
		['240.0.0.1', 'reserved'],
		['::1', 'IPv6 loopback'],
		['::', 'IPv6 unspecified'],
		['fe80::1', 'IPv6 link-local'],
		['fc00::1', 'IPv6 unique-local'],
		['fd12:3456::1', 'IPv6 unique-local'],
		['ff02::1', 'IPv6 multicast'],
		['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
		['::ffff:10.0.0.1', 'IPv4-mapped private'],
		['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
		['::127.0.0.1', 'IPv4-compatible loopback'],
		['64:ff9b::a00:1', 'NAT64 of a private address'],
		['2002:7f00:1::', '6to4 of loopback'],
		['not an address', 'no address at all'],
	])('refuses %s (%s)', (address) => {
		expect(isPublicAddress(address)).toBe(false);
	});

	it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
		'allows %s',
		(address) => {
			expect(isPublicAddress(address)).toBe(true);
		},
	);
});

describe('createPublicFetch with the production policy', () => {
	const publicFetch = createPublicFetch();

	it('refuses loopback, private and link-local addresses written in the URL, without connecting', async () => {
		requests.length = 0;
		for (const host of [
			'127.0.0.1',
			'[::1]',
			'[::ffff:127.0.0.1]',
			// 2130706433 and 0x7f.1 are 127.0.0.1 in other spellings; the URL parser normalises them.
			'2130706433',
			'0x7f.1',
			'10.0.0.1',
			'169.254.169.254',
			'[fc00::1]',
		]) {
			const message = await refusal(
				publicFetch(new URL(`http://${host}:${port}/image`), { signal: signal() }),
			);
			expect(message, host).toMatch(/is not a public address$/);
		}
		expect(requests).toEqual([]);
	});

	it('refuses a name that resolves to loopback (localhost), at connection time', async () => {
		requests.length = 0;
		const message = await refusal(
			publicFetch(new URL(`http://localhost:${port}/image`), { signal: signal() }),
		);
		expect(message).toMatch(
			/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
		);
		expect(requests).toEqual([]);
	});

	it('fetches only http and https', async () => {
		expect(await refusal(publicFetch(new URL('file:///etc/passwd'), { signal: signal() }))).toBe(
			'file: addresses are not fetched',
		);
		expect(
			await refusal(publicFetch(new URL('ftp://example.com/banner.png'), { signal: signal() })),
		).toBe('ftp: addresses are not fetched');
	});
});

describe('createPublicFetch through redirects (test host names on 127.0.0.1)', () => {
	it('connects to the address the check saw: the test resolver’s, never a second lookup', async () => {
		// images.test exists nowhere but in the test resolver, so an answer proves the connection
		// went to the address the lookup checked.
		const response = await testFetch(new URL(`http://images.test:${port}/image`), {
			signal: signal(),
		});
		expect(response.status).toBe(200);
		expect(await response.text()).toBe('the image');
	});

	it('follows up to 3 redirects, relative or to another host, and refuses a fourth', async () => {
		const three = await testFetch(new URL(`http://images.test:${port}/hops/2`), {
			signal: signal(),
		});
		expect(await three.text()).toBe('the image');
		const other = await testFetch(new URL(`http://images.test:${port}/to-other-host`), {
			signal: signal(),
		});
		expect(await other.text()).toBe('the image');
		requests.length = 0;
		expect(
			await refusal(testFetch(new URL(`http://images.test:${port}/hops/3`), { signal: signal() })),
		).toBe('more than 3 redirects');
		// The fourth redirect's target was never asked for.
		expect(requests).toEqual([
			'images.test/hops/3',
			'images.test/hops/2',
			'images.test/hops/1',
			'images.test/hops/0',
		]);
	});

	it('checks every hop: no redirect to a private, loopback or link-local address or another scheme', async () => {
		const cases: [string, RegExp][] = [
			['/to-private-literal', /^10\.0\.0\.1 is not a public address$/],
			['/to-loopback-v6', /^::1 is not a public address$/],
			['/to-mapped-v6', /^::ffff:7f00:1 is not a public address$/],
			[
				'/to-metadata',
				/^metadata\.test resolves to 169\.254\.169\.254, which is not a public address$/,
			],
			['/to-file', /^file: addresses are not fetched$/],
			['/to-ftp', /^ftp: addresses are not fetched$/],
		];
		for (const [path, expected] of cases) {
			requests.length = 0;
			const message = await refusal(
				testFetch(new URL(`http://images.test:${port}${path}`), { signal: signal() }),
			);
			expect(message, path).toMatch(expected);
			// Only the redirecting request reached a server.
			expect(requests, path).toEqual([`images.test${path}`]);
		}
	});

	it('refuses a name with one refused address among allowed ones', async () => {
		requests.length = 0;
		const message = await refusal(
			testFetch(new URL(`http://split.test:${port}/image`), { signal: signal() }),
		);
		expect(message).toBe('split.test resolves to 10.1.2.3, which is not a public address');
		expect(requests).toEqual([]);
	});

	it('reports a name that does not resolve as a refusal naming the DNS error', async () => {
		const message = await refusal(
			testFetch(new URL(`http://nowhere.test:${port}/image`), { signal: signal() }),
		);
		expect(message).toBe('nowhere.test could not be resolved (ENOTFOUND)');
	});
});
