import { hash as argon2Hash } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { mimeTypeAllowed, parseFileSizeLimit } from '../storage/storage.ts';
import { paginationLink } from './http.ts';
import { decideRefresh, isEmailLinkFresh, passwordHashKind, RecentRefreshTokens } from './rules.ts';
import { passwordMatches } from './service.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

const T0 = new Date('2026-11-23T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('refresh tokens: rotation, the 10 s parent grace, reuse detection', () => {
	// A session's chain: first → second (active). `first` was rotated at T0.
	const first = newOpaqueToken();
	const second = newOpaqueToken();
	const active = { hash: hashToken(second), parent: hashToken(first) };
	const spentFirst = { hash: hashToken(first), revoked: true, revokedAt: T0 };
	const decide = (over: Partial<Parameters<typeof decideRefresh>[0]>) =>
		decideRefresh({
			presented: spentFirst,
			active,
			reissuable: second,
			now: at(5_000),
			reuseSeconds: 10,
			hash: hashToken,
			...over,
		});

	it('an active token is rotated', () => {
		expect(
			decide({ presented: { hash: hashToken(second), revoked: false, revokedAt: T0 } }),
		).toEqual({ kind: 'rotate' });
	});

	it('the parent of the active token, within 10 s of its rotation, gets the active token back', () => {
		expect(decide({ now: at(0) })).toEqual({ kind: 'return-active', token: second });
		expect(decide({ now: at(10_000) })).toEqual({ kind: 'return-active', token: second });
	});

	it('the parent after 10 s is reuse', () => {
		expect(decide({ now: at(10_001) })).toEqual({ kind: 'reuse-detected' });
	});

	it('any other spent token is reuse, even within the interval', () => {
		const zeroth = newOpaqueToken();
		// A grandparent: spent before `first`, presented 1 s after `first` was rotated.
		expect(
			decide({ presented: { hash: hashToken(zeroth), revoked: true, revokedAt: T0 } }),
		).toEqual({ kind: 'reuse-detected' });
		// The active token was itself rotated since: `first` is no longer its parent.
		const third = newOpaqueToken();
		expect(
			decide({ active: { hash: hashToken(third), parent: hashToken(second) }, reissuable: third }),
		).toEqual({ kind: 'reuse-detected' });
		// The session has no active token any more.
		expect(decide({ active: null })).toEqual({ kind: 'reuse-detected' });
	});

	it('without the plain active token (another process issued it), the parent is reuse', () => {
		expect(decide({ reissuable: undefined })).toEqual({ kind: 'reuse-detected' });
		expect(decide({ reissuable: newOpaqueToken() })).toEqual({ kind: 'reuse-detected' });
	});

	it('the plain child is kept for the interval only', () => {
		const recent = new RecentRefreshTokens(10);
		recent.remember(hashToken(first), second, T0);
		expect(recent.childOf(hashToken(first), at(10_000))).toBe(second);
		expect(recent.childOf(hashToken(first), at(10_001))).toBeUndefined();
		expect(recent.childOf(hashToken(second), T0)).toBeUndefined();
		// Remembering another drops the entries whose time has passed.
		recent.remember(hashToken(second), newOpaqueToken(), at(20_000));
		expect(recent.childOf(hashToken(first), T0)).toBeUndefined();
	});
});

describe('e-mailed links', () => {
	it('work for one hour after they were sent, to the second', () => {
		expect(isEmailLinkFresh(T0, at(3_600_000), 3600)).toBe(true);
		expect(isEmailLinkFresh(T0, at(3_600_001), 3600)).toBe(false);
		expect(isEmailLinkFresh(T0, T0, 3600)).toBe(true);
	});
});

describe('stored passwords', () => {
	it('accepts argon2id (the import) and bcrypt $2a/$2b/$2y (GoTrue) hashes, nothing else', async () => {
		const argon = await argon2Hash('correct horse');
		const bcrypt = await bcryptHash('correct horse', { cost: 4 });
		expect(passwordHashKind(argon)).toBe('argon2');
		expect(await passwordMatches(argon, 'correct horse')).toBe(true);
		expect(await passwordMatches(argon, 'wrong horse')).toBe(false);
		for (const version of ['2a', '2b', '2y']) {
			const stored = `$${version}$${bcrypt.slice(4)}`;
			expect(passwordHashKind(stored)).toBe('bcrypt');
			expect(await passwordMatches(stored, 'correct horse')).toBe(true);
			expect(await passwordMatches(stored, 'wrong horse')).toBe(false);
		}
		for (const stored of [null, '', 'correct horse', '$1$abc$def', '$2b$04$tooshort']) {
			expect(await passwordMatches(stored, 'correct horse')).toBe(false);
		}
	});
});

describe("the admin list's Link header (GoTrue pagination.go)", () => {
	it('next while there is one, last always, query keys sorted as Go encodes them', () => {
		expect(paginationLink(new URLSearchParams('per_page=2&page=1'), 1, 2, 5)).toBe(
			'</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=3&per_page=2>; rel="last"',
		);
		expect(paginationLink(new URLSearchParams('page=3&per_page=2'), 3, 2, 5)).toBe(
			'</admin/users?page=3&per_page=2>; rel="last"',
		);
		// auth-js's listUsers() without arguments sends empty values.
		expect(paginationLink(new URLSearchParams('page=&per_page='), 1, 50, 0)).toBe(
			'</admin/users?page=0&per_page=>; rel="last"',
		);
	});
});

describe('storage bucket limits (Storage limits.ts, uploader.ts)', () => {
	it('file_size_limit as bytes or with a unit', () => {
		expect(parseFileSizeLimit(undefined)).toBeNull();
		expect(parseFileSizeLimit(1024)).toBe(1024);
		expect(parseFileSizeLimit('5MB')).toBe(5_000_000);
		expect(parseFileSizeLimit('1.5gb')).toBe(1_500_000_000);
		expect(parseFileSizeLimit('300KB')).toBe(300_000);
		expect(() => parseFileSizeLimit('5 megabytes')).toThrow(/Invalid file size format/);
		expect(() => parseFileSizeLimit(-1)).toThrow();
	});

	it('allowed_mime_types: exact types and type/*', () => {
		expect(mimeTypeAllowed('image/png', ['image/png'])).toBe(true);
		expect(mimeTypeAllowed('image/webp', ['image/*'])).toBe(true);
		expect(mimeTypeAllowed('image/svg+xml', ['image/png', 'image/jpeg'])).toBe(false);
		expect(mimeTypeAllowed('text/html', ['image/*'])).toBe(false);
		expect(mimeTypeAllowed('nonsense', ['*/*', 'nonsense'])).toBe(false);
	});
});
