import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './gateway.ts';

// The gateway's /_stack/reload makes PostgREST reload only for the service key, not for anyone
// who asks (any local process, or a web page through the visitor's browser). Port from the
// hardening spare range.
const PORT = Number(process.env.GATEWAY_TEST_PORT || 8913);
const KEY = 'service-key-for-the-test';

let gateway: Gateway;
let reloads = 0;

beforeAll(async () => {
	gateway = await startGateway({
		port: PORT,
		postgrestUrl: 'http://127.0.0.1:9',
		mode: 'embedded',
		apiKeys: ['anon-key', KEY],
		secretKeys: [KEY],
		reload: async () => {
			reloads++;
		},
		reloadKey: KEY,
	});
});

afterAll(() => gateway?.close());

describe('POST /_stack/reload', () => {
	it('needs the service key', async () => {
		const reload = (headers: Record<string, string> = {}) =>
			fetch(`${gateway.url}/_stack/reload`, { method: 'POST', headers });
		expect((await reload()).status).toBe(401);
		expect((await reload({ Authorization: 'Bearer anon-key' })).status).toBe(401);
		expect(reloads).toBe(0);
		expect((await reload({ Authorization: `Bearer ${KEY}` })).status).toBe(200);
		expect(reloads).toBe(1);
	});
});
