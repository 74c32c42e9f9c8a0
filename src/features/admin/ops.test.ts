import { describe, expect, it } from 'vitest';
import {
	cachePurgeTags,
	incrementCacheVersionBodySchema,
	refreshPublishes,
} from './cache/cache.ts';
import { acceptFor, LOGO_FORMATS, logoObjectName } from './logos/logos.ts';
import {
	createUserBodySchema,
	formatUserDate,
	tenantsFromUsers,
	type AdminUserListItem,
} from './users/users.ts';

// The pure rules of the Logos, Cache and Users tabs (docs/behaviour.md#admin-panel).

describe('cache', () => {
	it('a refresh purges the resource’s tags and the version lookup; only categories publish', () => {
		expect(cachePurgeTags('demo', 'events')).toEqual(['demo:events', 'demo:cache-version']);
		expect(
			['events', 'community_events', 'event_details', 'categories'].filter((t) =>
				refreshPublishes(t as 'events'),
			),
		).toEqual(['categories']);
	});

	it('accepts the four resource types only', () => {
		expect(
			incrementCacheVersionBodySchema.safeParse({ resourceType: 'event_details' }).success,
		).toBe(true);
		expect(incrementCacheVersionBodySchema.safeParse({ resourceType: 'config' }).success).toBe(
			false,
		);
	});
});

describe('logos', () => {
	it('standard and stacked take PNG, SVG, JPEG, WebP; the favicon ICO, PNG, WebP', () => {
		expect(LOGO_FORMATS.standard).toEqual(['png', 'svg', 'jpg', 'webp']);
		expect(LOGO_FORMATS.favicon).toEqual(['ico', 'png', 'webp']);
		expect(acceptFor('favicon')).toBe('image/x-icon,.ico,image/png,.png,image/webp,.webp');
	});

	it('names an object by chamber folder, type and a new id', () => {
		expect(logoObjectName('t-1', 'stacked', 'svg', 'abc')).toBe('t-1/stacked-abc.svg');
	});
});

describe('users', () => {
	it('shows dates as short month, day, year, or Never', () => {
		expect(formatUserDate('2026-11-03T12:00:00Z')).toBe('Nov 3, 2026');
		expect(formatUserDate(null)).toBe('Never');
		expect(formatUserDate('not a date')).toBe('Never');
	});

	it('a new user: e-mail trimmed and lowercased, password ≥ 6, a chamber, role default admin', () => {
		const tenantId = '11111111-1111-4111-8111-111111111111';
		expect(
			createUserBodySchema.parse({ email: ' A@B.test ', password: '123456', tenantId }),
		).toEqual({
			email: 'a@b.test',
			password: '123456',
			tenantId,
			role: 'admin',
		});
		const short = createUserBodySchema.safeParse({
			email: 'a@b.test',
			password: '12345',
			tenantId,
		});
		expect(short.error?.issues[0]?.message).toBe('Password must be at least 6 characters');
		expect(
			createUserBodySchema.safeParse({ email: 'a@b.test', password: '123456' }).error?.issues[0]
				?.message,
		).toBe('Chamber is required');
	});

	it('derives the chambers from the users list when the tenants call is unavailable', () => {
		const user = (tenantId: string, tenantName: string) =>
			({ tenantId, tenantName, tenantKey: tenantName.toLowerCase() }) as AdminUserListItem;
		expect(
			tenantsFromUsers([user('2', 'Riverside'), user('1', 'Demo'), user('2', 'Riverside')]),
		).toEqual([
			{ id: '1', name: 'Demo', tenant_key: 'demo' },
			{ id: '2', name: 'Riverside', tenant_key: 'riverside' },
		]);
	});
});
