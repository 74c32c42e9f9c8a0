import { describe, expect, it } from 'vitest';
import { ADMIN_ROLES, CAPABILITIES, can, mayAccessChamber, safeRedirect } from './auth.ts';

describe('the permission table (docs/behaviour.md#roles-and-permissions)', () => {
	// Row by row as docs/behaviour.md prints it: super_admin, admin, editor.
	const TABLE: Record<(typeof CAPABILITIES)[number], [boolean, boolean, boolean]> = {
		'Manage Users': [true, false, false],
		'Edit Colors & Branding': [true, true, false],
		'Upload Logos': [true, true, false],
		'Edit Contact Info': [true, true, false],
		'Manage Navigation': [true, true, false],
		'Purge Cache': [true, true, false],
		'Edit Content & Text': [true, true, true],
		'View Reports': [true, true, false],
		'View All Chambers': [true, false, false],
	};

	for (const capability of CAPABILITIES) {
		it(`${capability}: ${TABLE[capability].join(' / ')}`, () => {
			expect(ADMIN_ROLES.map((role) => can(role, capability))).toEqual(TABLE[capability]);
		});
	}
});

describe('mayAccessChamber', () => {
	it('lets admins and editors into their own chamber only, a super_admin into any', () => {
		expect(mayAccessChamber({ role: 'admin', tenantKey: 'demo' }, 'demo')).toBe(true);
		expect(mayAccessChamber({ role: 'admin', tenantKey: 'riverside' }, 'demo')).toBe(false);
		expect(mayAccessChamber({ role: 'editor', tenantKey: 'riverside' }, 'demo')).toBe(false);
		expect(mayAccessChamber({ role: 'super_admin', tenantKey: 'riverside' }, 'demo')).toBe(true);
	});
});

describe('safeRedirect', () => {
	it('follows a redirect to an admin page of this site, with its query', () => {
		expect(safeRedirect('/chamber-config-v2?chamber=riverside')).toBe(
			'/chamber-config-v2?chamber=riverside',
		);
		expect(safeRedirect('/chamber-config/generator')).toBe('/chamber-config/generator');
	});

	it('sends every other address to the panel, however it is spelt', () => {
		for (const value of [
			'https://evil.example/steal',
			'//evil.example/phish',
			'/..//evil.example/phish',
			'/./..//evil.example',
			'/\\evil.example',
			'/%2F%2Fevil.example',
			'javascript:alert(1)',
			'/search',
			'/chamber-config-v2/../search',
			'',
			null,
		]) {
			expect(safeRedirect(value), String(value)).toBe('/chamber-config-v2');
		}
	});
});
