import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffChamber } from '../db/fixtures.ts';
import { startContractSite, type ContractSite } from './site.ts';

// The contract of the Users tab's calls, with a super_admin's bearer token: the users, the
// tenants, creating and deleting a user. Errors come in a message: `{error}`, a text to show.

const DOMAIN = 'contract-users.test';
let site: ContractSite<StaffChamber<'super' | 'admin'>>;

beforeAll(async () => {
	site = await startContractSite({
		domain: DOMAIN,
		staff: { super: 'super_admin', admin: 'admin' },
	});
});
afterAll(() => site?.close());

const call = (path: string, options: { method?: string; body?: unknown } = {}) =>
	site.server.call(path, { ...options, token: site.chambers.tokens.super });

describe('users', () => {
	it('GET /api/admin/users returns users', async () => {
		const answer = await call('/api/admin/users');
		expect(answer.status).toBe(200);
		const admin = answer.body.users.find(
			(u: { email: string }) => u.email === site.chambers.emails.admin,
		);
		expect(admin).toEqual(
			expect.objectContaining({
				userId: site.chambers.ids.admin,
				id: site.chambers.ids.admin,
				email: site.chambers.emails.admin,
				role: 'admin',
				tenantId: site.chambers.tenantId,
				tenantName: site.chambers.tenantName,
				tenantKey: site.chambers.slug,
				createdAt: expect.any(String),
				lastSignIn: expect.toBeOneOf([expect.any(String), null]),
			}),
		);
	});

	it('GET /api/admin/tenants returns tenants', async () => {
		const answer = await call('/api/admin/tenants');
		expect(answer.status).toBe(200);
		expect(answer.body.tenants).toEqual(
			expect.arrayContaining([
				{
					id: site.chambers.tenantId,
					name: site.chambers.tenantName,
					tenant_key: site.chambers.slug,
				},
			]),
		);
	});

	let created: string;

	it('POST /api/admin/users with body email, password, tenantId, role', async () => {
		const answer = await call('/api/admin/users', {
			body: {
				email: `new-${site.chambers.slug}@${DOMAIN}`,
				password: 'secret1',
				tenantId: site.chambers.tenantId,
				role: 'editor',
			},
		});
		expect(answer.status).toBe(201);
		expect(answer.body.user).toEqual(
			expect.objectContaining({ email: `new-${site.chambers.slug}@${DOMAIN}`, role: 'editor' }),
		);
		created = answer.body.user.userId;
	});

	it('DELETE /api/admin/users with body userId', async () => {
		const answer = await call('/api/admin/users', { method: 'DELETE', body: { userId: created } });
		expect(answer).toEqual({ status: 200, body: { success: true } });
	});

	it('errors come in a message', async () => {
		const short = await call('/api/admin/users', {
			body: {
				email: `short-${site.chambers.slug}@${DOMAIN}`,
				password: '12345',
				tenantId: site.chambers.tenantId,
				role: 'admin',
			},
		});
		expect(short.status).toBe(400);
		expect(short.body).toEqual({ error: expect.stringMatching(/\S/) });
		const admin = await site.server.call('/api/admin/users', { token: site.chambers.tokens.admin });
		expect(admin.status).toBe(403);
		expect(admin.body).toEqual({ error: expect.stringMatching(/\S/) });
	});
});
