import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userClient } from '../support/db-clients.ts';
import { stack } from '../db/clients.ts';
import type { StaffChamber } from '../db/fixtures.ts';
import { startContractSite, type ContractSite } from './site.ts';

// The contract of the Cache tab's calls: the refresh, and the read of its history through the
// data service.

let site: ContractSite<StaffChamber<'admin' | 'editor' | 'super'>>;

beforeAll(async () => {
	site = await startContractSite({
		domain: 'contract-cache.test',
		staff: { admin: 'admin', editor: 'editor', super: 'super_admin' },
	});
});
afterAll(() => site?.close());

const refresh = (resourceType: string, token = site.chambers.tokens.admin) =>
	site.server.call('/api/admin/increment-cache-version', { body: { resourceType }, token });

describe('cache management', () => {
	it.each(['events', 'community_events', 'event_details', 'categories'])(
		'POST /api/admin/increment-cache-version {resourceType: %s} with bearer authorization → {newVersion}',
		async (resourceType) => {
			const answer = await refresh(resourceType);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(expect.objectContaining({ newVersion: expect.any(Number) }));
		},
	);

	it('POST /api/admin/increment-cache-version, refused → {error}', async () => {
		const answer = await refresh('events', site.chambers.tokens.editor);
		expect(answer.status).toBe(403);
		expect(answer.body).toEqual({ error: expect.any(String) });
	});

	it('read of table cache_purge_log: id, user_email, purge_type, created_at, newest first, limit 15, super_admin only', async () => {
		const read = (token: string) =>
			userClient(stack, token)
				.from('cache_purge_log')
				.select('id, user_email, purge_type, created_at')
				.eq('tenant_id', site.chambers.tenantId)
				.order('created_at', { ascending: false })
				.limit(15);
		const { data, error } = await read(site.chambers.tokens.super);
		expect(error).toBeNull();
		expect(data?.map((r) => r.purge_type)).toEqual([
			'categories',
			'event_details',
			'community_events',
			'events',
		]);
		expect(data?.[0]).toEqual({
			id: expect.any(Number),
			user_email: site.chambers.emails.admin,
			purge_type: 'categories',
			created_at: expect.any(String),
		});
		expect((await read(site.chambers.tokens.admin)).data).toEqual([]);
	});
});
