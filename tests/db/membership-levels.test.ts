import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { db, service, stack } from './clients.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';

let fx: DirectoryFixture;
let server: FunctionServer;

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, { prefix: 'levels' });
	server = await startFunctionServer(stack, { tenant: fx.a.slug });
});
afterAll(async () => {
	await server?.close();
	await removeDirectoryTenants(db, fx);
	await db.end();
});

it("answers the levels of the chamber's published businesses", async () => {
	const answer = await server.call('/api/membership-levels');
	expect(answer.status).toBe(200);
	expect(answer.body).toContainEqual({ name: 'Trustee', count: 2 });
});
