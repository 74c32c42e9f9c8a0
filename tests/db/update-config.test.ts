// Runs on: hosted — the configuration's save and its conflicts are SQL: proved on the
// production shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import type { VersionSection } from '../../src/features/admin/update-config.ts';
import { conflictOf } from '../../src/features/conflicts/conflicts.ts';
import type { NetlifyStandin } from '../support/netlify-api-standin.ts';
import { configVersions, importStaffChambers, type StaffChambers } from './fixtures.ts';
import { storedConfig, userClient as asUser } from '../support/db-clients.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// POST /api/update-config over real HTTP in the local Netlify server, signed in with
// the identity service, writing to the real database with the user's token; a stand-in of
// Netlify's API receives the build hook the save triggers.

const DOMAIN = 'update.test';

let site: StaffSite<StaffChambers>;
let netlify: NetlifyStandin;
let slug: string;
let otherSlug: string;
let tenantId: string;
let tokens: StaffChambers['tokens'];

const versions = (tenant = tenantId) => configVersions(service, tenant);

/** A section's version now: the version a save made from what is stored now states. */
async function versionOf(section: VersionSection): Promise<number> {
	const version = (await versions())[section];
	// The database versions every section, 0 until its first change.
	if (version === undefined) throw new Error(`config_versions has no ${section}`);
	return version;
}

const IDENTITY_FIELDS = new Set(['name', 'city', 'state', 'foundedYear']);

/** The section a body's change belongs to (whose version it states). */
function sectionOf(body: Record<string, unknown>): string {
	if (typeof body.section === 'string') return body.section;
	if (typeof body.field === 'string' && IDENTITY_FIELDS.has(body.field)) return 'identity';
	return Object.keys(body).find((k) => k !== 'chamber' && k !== 'version') ?? 'identity';
}

/**
 * POST /api/update-config. A body without `version` states the section's version of the moment
 * before, as a panel that has just loaded the configuration does.
 */
async function save(body: unknown, token?: string, raw?: string) {
	if (typeof body === 'object' && body !== null && !('version' in body) && 'chamber' in body) {
		const chamber = (body as { chamber: string }).chamber;
		const { data } = await service.from('tenants').select('id').eq('slug', chamber).maybeSingle();
		if (data) {
			const version = (await versions(data.id))[sectionOf(body as Record<string, unknown>)] ?? 0;
			body = { ...body, version };
		}
	}
	return site.server.call('/api/update-config', { method: 'POST', body, token, raw });
}

const userClient = (token: string) => asUser(stack, token);

const config = (tenant = tenantId) => storedConfig(service, { tenant_id: tenant });

/** A content field saved from the section's `version` (as the token's user opened it). */
const saveContent = (field: string, value: string, version: number | undefined, token: string) =>
	save({ chamber: slug, section: 'content', field, value, version }, token);

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'update',
				domain: DOMAIN,
				name: 'Update',
				password: 'update-config-password',
				config: { content: { heroTitle: 'First title' } },
			}),
	});
	({ netlify } = site);
	({ slug, otherSlug, tenantId, tokens } = site.chambers);
});

afterAll(() => site?.close());

beforeEach(() => site.reset());

describe('every body form saves, validated by the configuration schemas', () => {
	it('a top-level field: {field, value}, as the schema outputs it', async () => {
		const state = await save({ chamber: slug, field: 'state', value: 'mn' }, tokens.admin);
		expect(state).toMatchObject({ status: 200, body: { success: true, path: 'state' } });
		const year = await save({ chamber: slug, field: 'foundedYear', value: '1911' }, tokens.admin);
		expect(year.status).toBe(200);
		await save({ chamber: slug, field: 'name', value: '  Lakeside Chamber ' }, tokens.admin);
		const saved = await config();
		expect([saved.state, saved.foundedYear, saved.name]).toEqual(['MN', 1911, 'Lakeside Chamber']);
		expect(
			(await save({ chamber: slug, field: 'foundedYear', value: '' }, tokens.admin)).status,
		).toBe(200);
		expect((await config()).foundedYear).toBeNull();
	});

	it('a field of a section: {section, field, value}, leaving the other fields alone', async () => {
		await save(
			{ chamber: slug, section: 'content', field: 'heroSubtitle', value: 'Sub' },
			tokens.admin,
		);
		const answer = await save(
			{ chamber: slug, section: 'content', field: 'heroTitle', value: 'Shop local' },
			tokens.admin,
		);
		expect(answer.status).toBe(200);
		const saved = await config();
		expect([saved.content.heroTitle, saved.content.heroSubtitle]).toEqual(['Shop local', 'Sub']);
		await save(
			{ chamber: slug, section: 'features', field: 'featuredEventId', value: '42' },
			tokens.admin,
		);
		await save({ chamber: slug, section: 'fonts', field: 'heading', value: 'Lato' }, tokens.admin);
		await save(
			{ chamber: slug, section: 'textColors', field: 'link', value: '#112233' },
			tokens.admin,
		);
		const after = await config();
		expect(after.features.featuredEventId).toBe(42);
		expect(after.fonts.heading).toBe('Lato');
		expect(after.textColors.link).toBe('#112233');
	});

	it('whole sections: colors, navigation, featuredBusinesses (count outside 1-6 → 2), categoryDisplay, searchPage', async () => {
		const colors = { ...(await config()).colors, primary: '#7a1f5c' };
		expect((await save({ chamber: slug, colors }, tokens.admin)).status).toBe(200);
		const navigation = {
			menuItems: [{ id: 'home', label: 'Start', type: 'link', url: '/', isInternal: true }],
		};
		expect((await save({ chamber: slug, navigation }, tokens.admin)).status).toBe(200);
		const featured = { strategy: 'random', count: 9 };
		expect((await save({ chamber: slug, featuredBusinesses: featured }, tokens.admin)).status).toBe(
			200,
		);
		const categories = { count: 12, sortBy: 'alphabetical' };
		expect((await save({ chamber: slug, categoryDisplay: categories }, tokens.admin)).status).toBe(
			200,
		);
		const search = { defaultSort: 'nameAsc', availableSorts: ['nameAsc', 'nameDesc'] };
		expect((await save({ chamber: slug, searchPage: search }, tokens.admin)).status).toBe(200);
		const saved = await config();
		expect(saved.colors.primary).toBe('#7a1f5c');
		expect(saved.navigation.menuItems.map((m) => m.label)).toEqual(['Start']);
		expect(saved.featuredBusinesses).toMatchObject({ strategy: 'random', count: 2 });
		expect(saved.categoryDisplay).toEqual({ count: 12, sortBy: 'alphabetical' });
		expect(saved.searchPage.defaultSort).toBe('nameAsc');
	});

	it('two saves of different fields of one section at once both land', async () => {
		const [a, b] = await Promise.all([
			save({ chamber: slug, section: 'contact', field: 'phone', value: '555-0100' }, tokens.admin),
			save({ chamber: slug, section: 'contact', field: 'zip', value: '55401' }, tokens.admin),
		]);
		expect([a.status, b.status]).toEqual([200, 200]);
		const saved = await config();
		expect([saved.contact.phone, saved.contact.zip]).toEqual(['555-0100', '55401']);
	});

	it('a save publishes: a build hook call naming the chamber and the user, one queued build for a burst', async () => {
		const { content } = await versions();
		const answers = await Promise.all(
			['heroTitle', 'heroSubtitle', 'featuredTitle', 'categoriesTitle'].map((field) =>
				save(
					{ chamber: slug, section: 'content', field, value: `Burst ${field}`, version: content },
					tokens.admin,
				),
			),
		);
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
		expect(answers[0]!.body.publish).toMatchObject({
			state: expect.stringMatching(/queued|building/),
		});
		const { rows } = await db.query(
			'select count(*)::int as n from public.publishes where tenant_id = $1',
			[tenantId],
		);
		expect(rows[0].n).toBe(1);
		expect(netlify.buildHooks.length).toBeGreaterThanOrEqual(1);
		expect(netlify.buildHooks[0]!.triggerTitle).toContain(`Update ${slug}`);
		expect(netlify.buildHooks[0]!.triggerTitle).toContain(`admin-${slug}@update.test`);
	});
});

describe("the specification's bodies, without version: last write wins", () => {
	/** POST /api/update-config exactly as the body is written: no version added. */
	const send = (body: unknown, token?: string) =>
		site.server.call('/api/update-config', { method: 'POST', body, token });

	const forms: [
		string,
		Record<string, unknown>,
		(saved: Awaited<ReturnType<typeof config>>) => unknown,
		unknown,
	][] = [
		['{field, value}', { field: 'city', value: 'Written City' }, (c) => c.city, 'Written City'],
		[
			'{section, field, value}',
			{ section: 'content', field: 'heroTitle', value: 'Written title' },
			(c) => c.content.heroTitle,
			'Written title',
		],
		[
			'{colors}',
			{
				colors: {
					primary: '#111111',
					primaryLight: '#222222',
					primaryDark: '#333333',
					secondary: '#444444',
					secondaryLight: '#555555',
					secondaryDark: '#666666',
				},
			},
			(c) => c.colors.primary,
			'#111111',
		],
		[
			'{navigation}',
			{
				navigation: {
					menuItems: [{ id: 'home', label: 'Written', type: 'link', url: '/', isInternal: true }],
				},
			},
			(c) => c.navigation.menuItems.map((m) => m.label),
			['Written'],
		],
		[
			'{featuredBusinesses}',
			{ featuredBusinesses: { strategy: 'random', count: 4 } },
			(c) => [c.featuredBusinesses.strategy, c.featuredBusinesses.count],
			['random', 4],
		],
		[
			'{categoryDisplay}',
			{ categoryDisplay: { count: 16, sortBy: 'alphabetical' } },
			(c) => c.categoryDisplay,
			{ count: 16, sortBy: 'alphabetical' },
		],
		[
			'{searchPage}',
			{ searchPage: { defaultSort: 'nameDesc' } },
			(c) => c.searchPage.defaultSort,
			'nameDesc',
		],
	];

	it.each(forms)(
		'%s is saved, goes live, and the answer carries the new version',
		async (_form, change, read, expected) => {
			const body = { chamber: slug, ...change };
			const answer = await send(body, tokens.admin);
			expect(answer.status).toBe(200);
			expect(answer.body).toMatchObject({
				success: true,
				version: expect.any(Number),
				previousVersion: expect.any(Number),
				publish: expect.objectContaining({ state: expect.stringMatching(/queued|building/) }),
			});
			expect(answer.body.version).toBeGreaterThan(answer.body.previousVersion);
			expect(read(await config())).toEqual(expected);
			expect(netlify.buildHooks.length).toBeGreaterThanOrEqual(1);
		},
	);

	it('overwrites a change made since by someone else; a stale version is still refused', async () => {
		const opened = await versionOf('content');
		expect((await saveContent('heroTitle', 'Ann’s title', opened, tokens.admin)).status).toBe(200);
		const stale = await saveContent('heroTitle', 'Bo’s title', opened, tokens.second);
		expect(stale.status).toBe(409);
		expect(stale.body.conflicts).toEqual([
			expect.objectContaining({ field: 'content.heroTitle', value: 'Ann’s title' }),
		]);
		const written = await send(
			{ chamber: slug, section: 'content', field: 'heroTitle', value: 'Bo’s title' },
			tokens.second,
		);
		expect(written.status).toBe(200);
		expect(written.body.version).toBe(await versionOf('content'));
		expect((await config()).content.heroTitle).toBe('Bo’s title');
	});

	it('version: null is not a version left out: 400, nothing saved', async () => {
		const before = await config();
		const answer = await send(
			{ chamber: slug, field: 'city', value: 'Null City', version: null },
			tokens.admin,
		);
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(/^Expected version/);
		expect(await config()).toEqual(before);
	});

	it('the database writes without a version only when the caller says last write wins', async () => {
		const client = userClient(tokens.second);
		const args = {
			p_tenant_id: tenantId,
			p_column: 'content',
			p_field: 'heroTitle',
			p_value: 'Blind',
		};
		await save(
			{ chamber: slug, section: 'content', field: 'heroTitle', value: 'Newer' },
			tokens.admin,
		);
		const blind = await client.rpc('update_chamber_config', {
			...args,
			p_version: null,
			p_last_write_wins: true,
		});
		expect(blind.error).toBeNull();
		expect(blind.data).toMatchObject({ version: await versionOf('content') });
		expect((await config()).content.heroTitle).toBe('Blind');
		const both = await client.rpc('update_chamber_config', {
			...args,
			p_version: await versionOf('content'),
			p_last_write_wins: true,
		});
		expect(both.error).toMatchObject({ code: '22023' });
	});
});

describe('who may change the chamber is decided before the body is read', () => {
	const send = (body: unknown, token?: string) =>
		site.server.call('/api/update-config', { method: 'POST', body, token });
	const bodies: [string, Record<string, unknown>][] = [
		["the specification's body", { field: 'city', value: 'Elsewhere' }],
		['a colour that is not one', { colors: { primary: 'red' } }],
		['an unknown section', { section: 'nope', field: 'x', value: 1 }],
		['no change at all', {}],
		['a stale version', { section: 'content', field: 'heroTitle', value: 'x', version: 0 }],
	];

	it.each(bodies)("another chamber's admin gets 403 for %s", async (_name, change) => {
		const before = await config();
		const answer = await send({ chamber: slug, ...change }, tokens.otherAdmin);
		expect(answer).toEqual({
			status: 403,
			body: {
				error: "Access Denied: You are not authorized to access this chamber's admin panel.",
			},
		});
		expect(await config()).toEqual(before);
	});

	it.each(bodies)('an admin naming another chamber gets 403 for %s', async (_name, change) => {
		const answer = await send({ chamber: otherSlug, ...change }, tokens.admin);
		expect(answer).toEqual({
			status: 403,
			body: {
				error: "Access Denied: You are not authorized to access this chamber's admin panel.",
			},
		});
		// A chamber that does not exist looks the same to them; a super_admin learns it does not.
		expect((await send({ chamber: 'no-such-chamber', ...change }, tokens.admin)).status).toBe(403);
	});

	it('an editor gets 403 for a section editors may not change, whatever its value', async () => {
		const colors = await send({ chamber: slug, colors: { primary: 'red' } }, tokens.editor);
		expect(colors).toEqual({
			status: 403,
			body: { error: 'Editors can change content and text only, not colors' },
		});
		const feature = await send(
			{ chamber: slug, section: 'features', field: 'showEvents', value: 'yes' },
			tokens.editor,
		);
		expect(feature).toEqual({
			status: 403,
			body: { error: 'Editors can change content and text only, not features.showEvents' },
		});
		// Content is theirs: a bad value there is a 400 naming the field.
		const content = await send(
			{ chamber: slug, section: 'content', field: 'heroTitle', value: { x: 1 } },
			tokens.editor,
		);
		expect(content.status).toBe(400);
	});

	it("the database refuses another chamber's admin before it looks at the column or the version", async () => {
		const other = userClient(tokens.otherAdmin);
		for (const args of [
			{ p_column: 'slug', p_field: null, p_value: 'taken', p_version: 0 },
			{ p_column: 'content', p_field: 'heroTitle', p_value: 'x', p_version: null },
			{ p_column: 'content', p_field: 'heroTitle', p_value: 'x', p_version: 1_000_000 },
		]) {
			const { error } = await other.rpc('update_chamber_config', {
				p_tenant_id: tenantId,
				...args,
			});
			expect(error, JSON.stringify(args)).toMatchObject({
				code: '42501',
				message: "You cannot change this chamber's configuration",
			});
		}
	});
});

describe('bad input: 400 naming the field, nothing saved', () => {
	const cases: [string, unknown, RegExp][] = [
		[
			'a colour that is not hex',
			{ colors: { primary: 'red' } },
			/^colors\.primary: Expected a hex colour/,
		],
		[
			'an unknown section',
			{ section: 'services', field: 'googleAnalyticsId', value: 'G-1' },
			/^Expected section to be one of/,
		],
		[
			'an unknown field',
			{ section: 'content', field: 'nope', value: 'x' },
			/^content\.nope: no such field$/,
		],
		[
			'an unknown top-level field',
			{ field: 'slug', value: 'other' },
			/^Expected field to be one of name, city, state, foundedYear/,
		],
		[
			'a font outside the list',
			{ section: 'fonts', field: 'body', value: 'Comic Sans' },
			/^fonts\.body: Expected one of the 20 supported fonts/,
		],
		['a state of three letters', { field: 'state', value: 'ABC' }, /^state: /],
		['two changes in one body', { field: 'name', value: 'A', colors: {} }, /^Expected one change/],
		['no value', { section: 'content', field: 'heroTitle' }, /^Expected value$/],
		[
			'a three-megabyte tagline',
			{ section: 'content', field: 'footerTagline', value: 'x'.repeat(3_000_000) },
			/^content\.footerTagline: Expected at most 1000 characters, received 3000000$/,
		],
		[
			'a hero title of 201 characters',
			{ section: 'content', field: 'heroTitle', value: 'x'.repeat(201) },
			/^content\.heroTitle: Expected at most 200 characters, received 201$/,
		],
		[
			'an object where a title belongs',
			{ section: 'content', field: 'heroTitle', value: { x: 1 } },
			/^content\.heroTitle: /,
		],
		[
			'a script URL in the menu',
			{ navigation: { menuItems: [{ id: 'x', label: 'X', url: 'javascript:alert(1)' }] } },
			/^navigation\.menuItems\.0\.url: /,
		],
	];
	it.each(cases)('%s', async (_name, change, message) => {
		const before = await config();
		const answer = await save({ chamber: slug, ...(change as object) }, tokens.admin);
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(message);
		expect(await config()).toEqual(before);
	});

	it('a body that is not JSON, or without chamber', async () => {
		expect((await save(undefined, tokens.admin, '{nope')).body).toEqual({
			error: 'Expected a JSON body',
		});
		expect((await save({ field: 'name', value: 'x' }, tokens.admin)).body).toEqual({
			error: 'Expected chamber, the chamber slug',
		});
		expect(
			(
				await save(
					{ chamber: 'no-such-chamber', field: 'name', value: 'x', version: 0 },
					tokens.super,
				)
			).status,
		).toBe(404);
	});
});

describe('who may save what, refused by the server and by the database', () => {
	it('no token: 401', async () => {
		const answer = await save({ chamber: slug, field: 'name', value: 'x' });
		expect(answer.status).toBe(401);
	});

	it('an editor saves content and its display toggles, nothing else', async () => {
		expect(
			(
				await save(
					{ chamber: slug, section: 'content', field: 'footerTagline', value: 'Hi' },
					tokens.editor,
				)
			).status,
		).toBe(200);
		expect(
			(
				await save(
					{ chamber: slug, section: 'features', field: 'showFeaturedEvent', value: true },
					tokens.editor,
				)
			).status,
		).toBe(200);
		const colors = await save({ chamber: slug, colors: { primary: '#000000' } }, tokens.editor);
		expect(colors).toEqual({
			status: 403,
			body: { error: 'Editors can change content and text only, not colors' },
		});
		const feature = await save(
			{ chamber: slug, section: 'features', field: 'showEvents', value: false },
			tokens.editor,
		);
		expect(feature.status).toBe(403);
		expect(feature.body.error).toBe(
			'Editors can change content and text only, not features.showEvents',
		);
		const saved = await config();
		expect(saved.colors.primary).not.toBe('#000000');
		expect(saved.features.showEvents).toBe(true);
		expect(saved.content.footerTagline).toBe('Hi');
	});

	it("the database refuses an editor's direct write and another chamber's admin, whatever the function does", async () => {
		const editor = await userClient(tokens.editor).rpc('update_chamber_config', {
			p_tenant_id: tenantId,
			p_column: 'colors',
			p_field: 'primary',
			p_value: '#000000',
			p_version: await versionOf('colors'),
		});
		expect(editor.error?.code).toBe('42501');
		const other = await userClient(tokens.otherAdmin).rpc('update_chamber_config', {
			p_tenant_id: tenantId,
			p_column: 'content',
			p_field: 'heroTitle',
			p_value: 'Hijacked',
			p_version: await versionOf('content'),
		});
		expect(other.error).toMatchObject({
			code: '42501',
			message: "You cannot change this chamber's configuration",
		});
		const column = await userClient(tokens.admin).rpc('update_chamber_config', {
			p_tenant_id: tenantId,
			p_column: 'slug',
			p_field: null,
			p_value: 'renamed',
			p_version: 0,
		});
		expect(column.error?.code).toBe('22023');
		expect((await config()).content.heroTitle).not.toBe('Hijacked');
	});

	it("another chamber's admin is denied by the function (403), a super_admin may save any chamber", async () => {
		const other = await save(
			{ chamber: slug, field: 'city', value: 'Elsewhere' },
			tokens.otherAdmin,
		);
		expect(other.status).toBe(403);
		const superAdmin = await save(
			{ chamber: otherSlug, field: 'city', value: 'Duluth' },
			tokens.super,
		);
		expect(superAdmin).toMatchObject({ status: 200, body: { success: true, publish: null } });
		const { data } = await service.from('tenants').select('id').eq('slug', otherSlug).single();
		expect((await config(data!.id)).city).toBe('Duluth');
	});

	it('every save is in the audit log with who made it', async () => {
		await save(
			{ chamber: slug, section: 'social', field: 'facebook', value: 'https://facebook.com/x' },
			tokens.admin,
		);
		const { rows } = await db.query(
			`select actor_email, section, field, new_value from public.audit_log
			where tenant_id = $1 and section = 'social' order by id desc limit 1`,
			[tenantId],
		);
		expect(rows[0]).toMatchObject({
			actor_email: `admin-${slug}@update.test`,
			section: 'social',
			field: 'facebook',
		});
	});
});

describe('no lost edits: a save states the version it was made from', () => {
	const ann = () => `admin-${slug}@update.test`;

	it('the same field changed since: 409 with their value, who and when; nothing overwritten', async () => {
		const opened = await versionOf('content');
		const first = await saveContent('heroTitle', 'Ann’s title', opened, tokens.admin);
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ previousVersion: opened });
		expect(first.body.version).toBeGreaterThan(opened);

		const second = await saveContent('heroTitle', 'Bo’s title', opened, tokens.second);
		expect(second.status).toBe(409);
		expect(second.body).toEqual({
			error: 'Someone else changed content.heroTitle since you opened it',
			conflicts: [
				{
					field: 'content.heroTitle',
					value: 'Ann’s title',
					changedBy: ann(),
					changedAt: expect.any(String),
				},
			],
			version: first.body.version,
		});
		expect(Date.now() - Date.parse(second.body.conflicts[0].changedAt)).toBeLessThan(120_000);
		expect((await config()).content.heroTitle).toBe('Ann’s title');

		// Keep mine: the same value again, made from the version the refusal named.
		const kept = await saveContent('heroTitle', 'Bo’s title', second.body.version, tokens.second);
		expect(kept.status).toBe(200);
		expect((await config()).content.heroTitle).toBe('Bo’s title');
	});

	it('different fields of the section still merge; the same value is no conflict', async () => {
		const opened = await versionOf('content');
		await saveContent('whyJoinTitle', 'Join us', opened, tokens.admin);
		const other = await saveContent('whyJoinText', 'Because', opened, tokens.second);
		expect(other.status).toBe(200);
		// Someone else came between: the answer says so (previousVersion is not the one stated).
		expect(other.body.previousVersion).toBeGreaterThan(opened);
		const same = await saveContent('whyJoinTitle', 'Join us', opened, tokens.second);
		expect(same.status).toBe(200);
		expect((await config()).content).toMatchObject({
			whyJoinTitle: 'Join us',
			whyJoinText: 'Because',
		});
	});

	it('a whole section names only the keys someone else changed, and merges when it carries theirs', async () => {
		const opened = await versions();
		const before = (await config()).colors;
		expect(
			(
				await save(
					{ chamber: slug, colors: { ...before, primary: '#101010' }, version: opened.colors },
					tokens.admin,
				)
			).status,
		).toBe(200);
		const stale = await save(
			{ chamber: slug, colors: { ...before, secondary: '#202020' }, version: opened.colors },
			tokens.second,
		);
		expect(stale.status).toBe(409);
		expect(stale.body.conflicts).toEqual([
			expect.objectContaining({ field: 'colors.primary', value: '#101010', changedBy: ann() }),
		]);
		const merged = await save(
			{
				chamber: slug,
				colors: { ...before, primary: '#101010', secondary: '#202020' },
				version: opened.colors,
			},
			tokens.second,
		);
		expect(merged.status).toBe(200);
		expect((await config()).colors).toMatchObject({ primary: '#101010', secondary: '#202020' });
	});

	it('identity fields too; a change by the import names the server side', async () => {
		const opened = await versions();
		await db.query(`update public.chamber_config set city = 'Imported' where tenant_id = $1`, [
			tenantId,
		]);
		const answer = await save(
			{ chamber: slug, field: 'city', value: 'Typed', version: opened.identity },
			tokens.admin,
		);
		expect(answer.status).toBe(409);
		expect(answer.body.conflicts).toEqual([
			expect.objectContaining({ field: 'city', value: 'Imported', changedBy: 'database' }),
		]);
	});

	it('the database holds it for a direct call: no version, a version from the future, an old one', async () => {
		const client = userClient(tokens.second);
		const opened = await versionOf('content');
		const args = {
			p_tenant_id: tenantId,
			p_column: 'content',
			p_field: 'heroTitle',
			p_value: 'Direct',
		};
		const none = await client.rpc('update_chamber_config', { ...args, p_version: null });
		expect(none.error).toMatchObject({
			code: '22023',
			message: 'A save states the version of content it was made from',
		});
		const future = await client.rpc('update_chamber_config', {
			...args,
			p_version: opened + 1000,
		});
		expect(future.error?.code).toBe('22023');
		// The four-argument form of before is gone: a blind write is no longer possible.
		// @ts-expect-error -- the types know it too: p_version has no default
		expect((await client.rpc('update_chamber_config', args)).error).not.toBeNull();

		await save(
			{ chamber: slug, section: 'content', field: 'heroTitle', value: 'Newer' },
			tokens.admin,
		);
		const old = await client.rpc('update_chamber_config', { ...args, p_version: opened });
		expect(old.error?.code).toBe('PT409');
		expect(conflictOf(old.error)).toEqual({
			conflicts: [expect.objectContaining({ field: 'content.heroTitle', value: 'Newer' })],
			version: expect.any(Number),
		});
		expect((await config()).content.heroTitle).toBe('Newer');
	});

	it('staff read the versions with the configuration; visitors do not', async () => {
		const read = async (client: ReturnType<typeof userClient>) =>
			(
				await client
					.from('chamber_config')
					.select('config_versions')
					.eq('tenant_id', tenantId)
					.single<{ config_versions: Record<string, number> | null }>()
			).data?.config_versions;
		const editor = await read(userClient(tokens.editor));
		expect(editor).toMatchObject({ content: expect.any(Number), identity: expect.any(Number) });
		const visitor = await anon
			.from('chamber_config')
			.select('config_versions')
			.eq('tenant_id', tenantId);
		expect(visitor.error?.code).toBe('42501');
		expect(await read(userClient(tokens.otherAdmin))).toBeNull();
	});
});
