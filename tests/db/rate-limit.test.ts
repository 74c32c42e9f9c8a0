// Runs on: hosted — the rate limiter is SQL, concurrent hits included: proved on the production
// shape.
import { randomBytes } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../src/lib/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import { clearRateLimit, takeRateLimit, takeRateLimits } from '../../src/lib/rate-limit.server.ts';

// The database-backed rate limiter through supabase-js, as the functions use it: limits hold
// across clients (function instances), windows slide, and nobody but the service role reaches it.

const bucket = (name: string) => `test-${name}:${randomBytes(4).toString('hex')}`;

beforeAll(() => db.connect());
afterAll(async () => {
	await db.query(`delete from public.rate_limit_hits where bucket like 'test-%'`);
	await db.end();
});

describe('rate limits kept in the database', () => {
	it('lets `limit` hits through, then answers the seconds to wait and counts no more', async () => {
		const limit = { bucket: bucket('take'), limit: 3, windowSeconds: 300 };
		expect(await takeRateLimit(service, limit)).toBe(0);
		expect(await takeRateLimit(service, limit)).toBe(0);
		expect(await takeRateLimit(service, limit)).toBe(0);
		const wait = await takeRateLimit(service, limit);
		expect(wait).toBeGreaterThan(290);
		expect(wait).toBeLessThanOrEqual(300);
		const { rows } = await db.query(
			'select count(*)::int as n from public.rate_limit_hits where bucket = $1',
			[limit.bucket],
		);
		expect(rows[0].n).toBe(3);
	});

	it('is shared by every client, as by every function instance', async () => {
		const other = createClient<Database>(stack.supabaseUrl, stack.serviceKey, {
			auth: { persistSession: false },
		});
		const limit = { bucket: bucket('shared'), limit: 2, windowSeconds: 60 };
		expect(await takeRateLimit(service, limit)).toBe(0);
		expect(await takeRateLimit(other, limit)).toBe(0);
		expect(await takeRateLimit(service, limit)).toBeGreaterThan(0);
		expect(await takeRateLimit(other, limit)).toBeGreaterThan(0);
	});

	it('gives concurrent callers exactly `limit` slots', async () => {
		const limit = { bucket: bucket('race'), limit: 5, windowSeconds: 60 };
		const results = await Promise.all(
			Array.from({ length: 12 }, () => takeRateLimit(service, limit)),
		);
		expect(results.filter((wait) => wait === 0)).toHaveLength(5);
	});

	it('slides: hits older than the window no longer count', async () => {
		const name = bucket('slide');
		await db.query(
			`insert into public.rate_limit_hits (bucket, hit_at) values ($1, now() - interval '10 minutes'), ($1, now() - interval '6 minutes'), ($1, now() - interval '1 minute')`,
			[name],
		);
		// Window 7 minutes: two count, and the older one leaves the window in about a minute.
		const wait = await takeRateLimits(service, [{ bucket: name, limit: 2, windowSeconds: 420 }]);
		expect(wait).toBeGreaterThan(50);
		expect(wait).toBeLessThanOrEqual(60);
		// Window 5 minutes: one recent hit counts, so this one is taken.
		expect(await takeRateLimits(service, [{ bucket: name, limit: 2, windowSeconds: 300 }])).toBe(0);
	});

	it('takes every bucket or none, answering the longest wait; windows of one bucket grow the wait', async () => {
		const ip = bucket('ip');
		const pair = bucket('pair');
		const limits = [
			{ bucket: ip, limit: 3, windowSeconds: 300 },
			{ bucket: pair, limit: 2, windowSeconds: 300 },
			{ bucket: pair, limit: 3, windowSeconds: 3600 },
		];
		expect(await takeRateLimits(service, limits)).toBe(0);
		expect(await takeRateLimits(service, limits)).toBe(0);
		const wait = await takeRateLimits(service, limits);
		expect(wait).toBeGreaterThan(290);
		expect(wait).toBeLessThanOrEqual(300);
		const count = async (name: string) =>
			(
				await db.query('select count(*)::int as n from public.rate_limit_hits where bucket = $1', [
					name,
				])
			).rows[0].n;
		// Refused: neither bucket counted the third attempt.
		expect([await count(ip), await count(pair)]).toEqual([2, 2]);
		// Past the five-minute window the hour's still holds: the next wait is longer.
		await db.query(
			`update public.rate_limit_hits set hit_at = now() - interval '10 minutes' where bucket = $1`,
			[pair],
		);
		expect(await takeRateLimits(service, limits.slice(1))).toBe(0);
		expect(await takeRateLimits(service, limits.slice(1))).toBeGreaterThan(2900);
		await clearRateLimit(service, pair);
		expect(await count(pair)).toBe(0);
	});

	it('gives a concurrent burst on several buckets exactly `limit` attempts', async () => {
		const limits = [
			{ bucket: bucket('burst-ip'), limit: 20, windowSeconds: 300 },
			{ bucket: bucket('burst-pair'), limit: 5, windowSeconds: 300 },
		];
		const results = await Promise.all(
			Array.from({ length: 100 }, () => takeRateLimits(service, limits)),
		);
		expect(results.filter((wait) => wait === 0)).toHaveLength(5);
	});

	it('prunes hits older than a day', async () => {
		const name = bucket('old');
		await db.query(
			`insert into public.rate_limit_hits (bucket, hit_at) values ($1, now() - interval '2 days')`,
			[name],
		);
		await takeRateLimit(service, { bucket: bucket('trigger'), limit: 1, windowSeconds: 1 });
		const { rows } = await db.query(
			'select count(*)::int as n from public.rate_limit_hits where bucket = $1',
			[name],
		);
		expect(rows[0].n).toBe(0);
	});

	it('is closed to visitors: the anon key can neither count, read nor check', async () => {
		const { error: hit } = await anon.rpc('rate_limit_hit', {
			p_bucket: 'login-account:victim@example.com',
			p_limit: 1,
			p_window_seconds: 3600,
		});
		expect(hit?.code).toBe('42501');
		const { error: take } = await anon.rpc('rate_limit_take', {
			p_limits: [{ bucket: 'login-ip:203.0.113.7', limit: 1, window: 300 }],
		});
		expect(take?.code).toBe('42501');
		const { error: clear } = await anon.rpc('rate_limit_clear', { p_bucket: 'x' });
		expect(clear?.code).toBe('42501');
		const { error: status } = await anon.rpc('rate_limit_status', {
			p_bucket: 'x',
			p_limit: 1,
			p_window_seconds: 1,
		});
		expect(status?.code).toBe('42501');
		const { data } = await anon.from('rate_limit_hits').select('bucket');
		expect(data ?? []).toEqual([]);
	});
});
