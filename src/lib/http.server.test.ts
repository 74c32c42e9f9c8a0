import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
	BadRequest,
	clientIp,
	handleJson,
	HttpError,
	ipRateKey,
	parseJsonBody,
} from './http.server.ts';
import type { Context } from '@netlify/functions';

const context = (ip: string) => ({ ip }) as Context;

describe('clientIp: the address Netlify vouches for, never one a visitor sets', () => {
	it("takes Netlify's x-nf-client-connection-ip", () => {
		const req = new Request('http://x/', {
			headers: { 'x-nf-client-connection-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1' },
		});
		expect(clientIp(req, context('10.0.0.1'))).toBe('203.0.113.7');
	});

	it('ignores X-Forwarded-For and falls back to the socket address', () => {
		const req = new Request('http://x/', { headers: { 'x-forwarded-for': '198.51.100.1' } });
		expect(clientIp(req, context('10.0.0.1'))).toBe('10.0.0.1');
	});
});

describe('ipRateKey: IPv4 as is, IPv6 by /64', () => {
	it('keeps an IPv4 address and unwraps an IPv4-mapped one', () => {
		expect(ipRateKey('203.0.113.7')).toBe('203.0.113.7');
		expect(ipRateKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
	});

	it('counts every address of one /64 together, and other /64s apart', () => {
		const a = ipRateKey('2001:db8:1:2:aaaa::1');
		expect(a).toBe('2001:db8:1:2::/64');
		expect(ipRateKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
		expect(ipRateKey('2001:db8:1:3::1')).not.toBe(a);
	});

	it('leaves something that is no address as it is', () => {
		expect(ipRateKey('unknown')).toBe('unknown');
	});
});

describe('handleJson and parseJsonBody', () => {
	const schema = z.object({ email: z.string().min(1, { error: 'Email is required' }) });
	const fn = handleJson('test', ['POST'], async (req) => {
		const body = await parseJsonBody(schema, req);
		if (body.email === 'teapot') throw new HttpError(418, 'No coffee', { 'Retry-After': '5' });
		if (body.email === 'bad') throw new BadRequest('Bad e-mail');
		return Response.json(body);
	});
	const post = (body: string) =>
		fn(new Request('http://x/', { method: 'POST', body }), context('127.0.0.1'));

	it('answers a body that is no JSON with 400', async () => {
		const res = await post('{nope');
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ error: 'Expected a JSON body' });
	});

	it('names the field that failed', async () => {
		const res = await post('{"email":""}');
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ error: 'email: Email is required' });
	});

	it('answers an HttpError with its status, message and headers', async () => {
		const res = await post('{"email":"teapot"}');
		expect(res.status).toBe(418);
		expect(res.headers.get('retry-after')).toBe('5');
		expect(await res.json()).toEqual({ error: 'No coffee' });
		expect((await post('{"email":"bad"}')).status).toBe(400);
	});
});
