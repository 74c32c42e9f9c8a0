import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedConfig } from '../support/db-clients.ts';
import { service } from '../db/clients.ts';
import type { StaffChambers } from '../db/fixtures.ts';
import { startContractChambers, type ContractSite } from './site.ts';

// The contract of POST /api/update-config: every body form the specification defines, sent as it
// writes it (no version: the product's versions go beyond the specification), saved and published;
// failures carry error. The product's own form (with version) is checked here only as far as the
// specification's promise goes: a stale one is refused with the conflicts.

let site: ContractSite<StaffChambers>;

beforeAll(async () => {
	site = await startContractChambers({ domain: 'contract-admin.test' });
});
afterAll(() => site?.close());
beforeEach(() => site.reset());

const save = (body: Record<string, unknown>, token = site.chambers.tokens.admin) =>
	site.server.call('/api/update-config', { body: { chamber: site.chambers.slug, ...body }, token });

const config = () => storedConfig(service, { tenant_id: site.chambers.tenantId });

/** A save's answer: success, the new version, and the publish it asked for. */
function expectSaved(answer: { status: number; body: Record<string, unknown> }) {
	expect(answer.status).toBe(200);
	expect(answer.body).toEqual(
		expect.objectContaining({
			success: true,
			version: expect.any(Number),
			publish: expect.objectContaining({ state: expect.any(String) }),
		}),
	);
	expect(answer.body).not.toHaveProperty('error');
}

describe('POST /api/update-config with bearer token, as the specification writes the body', () => {
	it.each([
		['name', 'Contract Chamber Renamed', 'name'],
		['city', 'Marion', 'city'],
		['state', 'MN', 'state'],
		['foundedYear', 1921, 'foundedYear'],
	] as const)('chamber plus field and value: %s', async (field, value, key) => {
		expectSaved(await save({ field, value }));
		expect((await config())[key]).toBe(value);
	});

	it.each([
		['fonts', 'heading', 'Lato'],
		['textColors', 'link', '#123456'],
		['contact', 'phone', '319-555-0199'],
		['social', 'youtube', 'https://youtube.com/@contract'],
		['urls', 'joinUrl', 'https://example.org/join'],
		['content', 'heroTitle', 'Shop Cedarbrook'],
		['footerLabels', 'jobBoardLabel', 'Jobs'],
		['features', 'showBanners', false],
	] as const)('chamber plus section, field and value: %s', async (section, field, value) => {
		expectSaved(await save({ section, field, value }));
		expect((await config())[section]).toEqual(expect.objectContaining({ [field]: value }));
	});

	it('chamber plus colors (all six)', async () => {
		const colors = {
			primary: '#0d3e63',
			primaryLight: '#5fa6d7',
			primaryDark: '#082a44',
			secondary: '#aa5500',
			secondaryLight: '#FBBF24',
			secondaryDark: '#D97706',
		};
		expectSaved(await save({ colors }));
		expect((await config()).colors).toEqual(colors);
	});

	it('chamber plus navigation', async () => {
		const navigation = {
			menuItems: [
				{ id: 'home', label: 'Home', type: 'link', url: '/', isInternal: true },
				{
					id: 'about',
					label: 'About',
					type: 'dropdown',
					url: '',
					isInternal: false,
					items: [{ label: 'Our Team', url: 'teamUrl', isInternal: false }],
				},
			],
		};
		expectSaved(await save({ navigation }));
		expect((await config()).navigation.menuItems.map((m) => m.label)).toEqual(['Home', 'About']);
	});

	it('chamber plus featuredBusinesses', async () => {
		const featuredBusinesses = {
			strategy: 'affiliation',
			count: 4,
			requireCompleteProfile: false,
			membershipLevels: ['trustee'],
			affiliation: 'Women in Business',
			showViewAllButton: true,
		};
		expectSaved(await save({ featuredBusinesses }));
		expect((await config()).featuredBusinesses).toEqual(featuredBusinesses);
	});

	it('chamber plus categoryDisplay', async () => {
		expectSaved(await save({ categoryDisplay: { count: 12, sortBy: 'alphabetical' } }));
		expect((await config()).categoryDisplay).toEqual({ count: 12, sortBy: 'alphabetical' });
	});

	it('chamber plus searchPage', async () => {
		const searchPage = {
			defaultSort: 'nameAsc',
			availableSorts: ['nameAsc', 'nameDesc', 'random'],
			showSortDropdown: true,
			showFilters: true,
			availableFilters: ['city', 'affiliation'],
			membershipHierarchy: [
				{ name: 'Trustee', rank: 2 },
				{ name: 'Member', rank: 1 },
			],
		};
		expectSaved(await save({ searchPage }));
		expect((await config()).searchPage).toEqual(searchPage);
	});

	it('response carries error on failure', async () => {
		const invalid = await save({ colors: { primary: 'red' } });
		expect(invalid.status).toBe(400);
		expect(invalid.body).toEqual({ error: expect.any(String) });
		const editor = await save({ colors: { primary: '#000000' } }, site.chambers.tokens.editor);
		expect(editor.status).toBe(403);
		expect(editor.body).toEqual({ error: expect.any(String) });
		const otherChamber = await save({ field: 'city', value: 'x' }, site.chambers.tokens.otherAdmin);
		expect(otherChamber.status).toBe(403);
		expect(otherChamber.body).toEqual({ error: expect.any(String) });
	});

	it('beyond the specification: a body stating a stale version is refused with the conflicts', async () => {
		const { data } = await service
			.from('chamber_config')
			.select('config_versions')
			.eq('tenant_id', site.chambers.tenantId)
			.single();
		const opened = (data?.config_versions as Record<string, number>).content!;
		expectSaved(await save({ section: 'content', field: 'whyJoinTitle', value: 'Mine' }));
		const stale = await save(
			{ section: 'content', field: 'whyJoinTitle', value: 'Theirs', version: opened },
			site.chambers.tokens.second,
		);
		expect(stale.status).toBe(409);
		expect(stale.body).toEqual({
			error: expect.any(String),
			conflicts: [expect.objectContaining({ field: 'content.whyJoinTitle', value: 'Mine' })],
			version: expect.any(Number),
		});
	});
});
