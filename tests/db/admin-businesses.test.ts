// Runs on: hosted — what the businesses API writes and refuses is decided in SQL (save_business,
// row-level security): proved on the production shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import type { BusinessInput } from '../../src/features/tenants/tenant-file.ts';
import type { NetlifyStandin } from '../support/netlify-api-standin.ts';
import type { Answer } from '../support/function-server.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';
import { importStaffChambers, type StaffChambers, type StaffKey } from './fixtures.ts';

// /api/admin/businesses and /api/admin/businesses/{id}… over real HTTP in the local Netlify
// server, signed in with the identity service, writing with the user's token; a stand-in of
// Netlify's API receives the build hook and the purges a change causes.

const DOMAIN = 'members.test';

let site: StaffSite<StaffChambers>;
let netlify: NetlifyStandin;
let chambers: StaffChambers;
let slug: string;
let otherSlug: string;
let tenantId: string;
let otherTenantId: string;
let tokens: StaffChambers['tokens'];
const email = (key: StaffKey) => chambers.emails[key];

function call(
	method: string,
	path: string,
	token: string | null,
	body?: unknown,
	raw?: string | FormData,
): Promise<Answer> {
	return site.server.call(path, {
		method,
		token: token ?? undefined,
		body,
		...(raw instanceof FormData ? { form: raw } : { raw }),
	});
}

const businesses = (query = '') => `/api/admin/businesses${query}`;
const business = (id: string, rest = '', query = '') =>
	`/api/admin/businesses/${id}${rest}${query}`;

/** PATCH /api/admin/businesses/{id}: `changes` made to the business as it was at `version`. */
const patch = (id: string, token: string, version: number, changes: object) =>
	call('PATCH', business(id), token, { version, changes });

async function idOf(weblinkId: string, tenant = tenantId): Promise<string> {
	const { rows } = await db.query(
		'select id from public.profiles where tenant_id = $1 and weblink_profile_id = $2',
		[tenant, weblinkId],
	);
	return rows[0].id;
}

beforeAll(async () => {
	const member = (name: string, index: number): BusinessInput => ({
		weblink_profile_id: String(7000 + index),
		report_name: name,
		city: 'Lakeside',
		categories: index % 2 ? ['Retail'] : ['Food'],
		membership_level_name: index % 2 ? 'Gold' : 'Member',
		listings: [{ description: `<p>${name}</p>` }],
	});
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'members',
				domain: DOMAIN,
				password: 'admin-businesses-password',
				name: 'Members',
				businesses: ['Lakeside Bakery', 'Harbor Books', 'Corner Café', 'Lakeside Hardware'].map(
					member,
				),
				otherBusinesses: ['Elsewhere Diner'].map(member),
			}),
	});
	({ netlify, chambers } = site);
	({ slug, otherSlug, tenantId, otherTenantId, tokens } = chambers);
});

afterAll(() => site?.close());

beforeEach(() => site.reset());

describe('GET /api/admin/businesses', () => {
	it('pages every business of the chamber by name, searchable and filtered, for its staff', async () => {
		const all = await call('GET', businesses(), tokens.editor);
		expect(all.status).toBe(200);
		expect(all.headers.get('cache-control')).toBe('no-store');
		expect(all.body.total).toBe(4);
		expect(all.body.businesses.map((b: { name: string }) => b.name)).toEqual([
			'Corner Café',
			'Harbor Books',
			'Lakeside Bakery',
			'Lakeside Hardware',
		]);
		expect(all.body.businesses[0]).toMatchObject({
			level: 'Member',
			categories: ['Food'],
			city: 'Lakeside',
			status: 'published',
			updatedBy: 'import',
		});
		const found = await call('GET', businesses('?q=lakeside&category=Retail'), tokens.admin);
		expect(found.body).toMatchObject({ total: 1, businesses: [{ name: 'Lakeside Hardware' }] });
		const gold = await call('GET', businesses('?level=Gold&page=2&pageSize=1'), tokens.admin);
		expect(gold.body).toMatchObject({ total: 2, businesses: [{ name: 'Lakeside Hardware' }] });
		const unpublished = await call('GET', businesses('?status=unpublished'), tokens.admin);
		expect(unpublished.body).toEqual({ total: 0, businesses: [] });
	});

	it('answers 400 naming a bad parameter, 401 without a token, 403 for another chamber', async () => {
		expect(await call('GET', businesses('?status=gone'), tokens.admin)).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^status: /) },
		});
		expect((await call('GET', businesses('?pageSize=1000'), tokens.admin)).status).toBe(400);
		expect((await call('GET', businesses(), null)).status).toBe(401);
		const other = await call('GET', businesses(`?chamber=${otherSlug}`), tokens.admin);
		expect(other.status).toBe(403);
		expect(JSON.stringify(other.body)).not.toContain('Elsewhere');
		expect((await call('GET', businesses('?chamber=no-such-chamber'), tokens.admin)).status).toBe(
			404,
		);
		expect((await call('PUT', businesses(), tokens.admin)).status).toBe(405);
	});
});

describe('POST /api/admin/businesses', () => {
	it('adds a member (201), publishes once and purges its tags', async () => {
		const added = await call('POST', businesses(), tokens.admin, {
			report_name: '  Sunrise Yoga ',
			city: 'Lakeside',
			categories: ['Health', ' ', 'Health'],
			listings: [{ description: '<p>Morning classes</p>' }],
		});
		expect(added.status).toBe(201);
		expect(added.body).toMatchObject({
			id: expect.any(String),
			version: 1,
			publish: { state: expect.stringMatching(/queued|failed|building/) },
		});
		const detail = await call('GET', business(added.body.id), tokens.admin);
		expect(detail.body.business).toMatchObject({
			report_name: 'Sunrise Yoga',
			categories: ['Health'],
			weblink_profile_id: null,
			published: true,
		});
		expect(netlify.buildHooks).toHaveLength(1);
		expect(netlify.purges.map((p) => (p.body as { cache_tags: string[] }).cache_tags)).toEqual([
			[`${slug}:business:${added.body.id}`, `${slug}:businesses`, `${slug}:categories`],
		]);
	});

	it('refuses an editor (403), a nameless member and bad values (400 with the path)', async () => {
		expect((await call('POST', businesses(), tokens.editor, { report_name: 'X' })).status).toBe(
			403,
		);
		expect(await call('POST', businesses(), tokens.admin, { city: 'Lakeside' })).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^report_name: /) },
		});
		expect(
			await call('POST', businesses(), tokens.admin, {
				report_name: 'Y',
				web_content: [{ content_type: '', content_title: 'x' }],
			}),
		).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^web_content\[0\]\.content_type: /) },
		});
		expect(
			await call('POST', businesses(), tokens.admin, {
				report_name: 'Y',
				weblink_profile_id: 'abc',
			}),
		).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/^weblink_profile_id: /) },
		});
		expect(
			await call('POST', businesses(), tokens.admin, {
				report_name: 'Y',
				weblink_profile_id: '7000',
			}),
		).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/already has a business/) },
		});
		expect((await call('POST', businesses(), tokens.admin, undefined, 'not json')).status).toBe(
			400,
		);
		expect(netlify.buildHooks).toHaveLength(0);
	});
});

describe('GET and PATCH /api/admin/businesses/{id}', () => {
	it('answers the business in the tenant file’s shape with its version and overrides', async () => {
		const id = await idOf('7000');
		const answer = await call('GET', business(id), tokens.editor);
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			business: {
				id,
				weblink_profile_id: '7000',
				report_name: 'Lakeside Bakery',
				listings: [{ description: '<p>Lakeside Bakery</p>', categories: [], active: true }],
			},
			version: expect.any(Number),
			status: 'published',
			overrides: [],
		});
	});

	it('saves changes (200), merges different fields and answers 409 with who and when for the same one', async () => {
		const id = await idOf('7000');
		const { body: opened } = await call('GET', business(id), tokens.admin);
		const first = await patch(id, tokens.second, opened.version, { work_phone: '555-0101' });
		expect(first).toMatchObject({ status: 200, body: { id, version: opened.version + 1 } });
		const merged = await patch(id, tokens.admin, opened.version, {
			website: 'https://bakery.example',
		});
		expect(merged.status).toBe(200);
		const conflict = await patch(id, tokens.admin, opened.version, {
			work_phone: '555-0199',
			city: 'Hilltop',
		});
		expect(conflict.status).toBe(409);
		expect(conflict.body).toMatchObject({
			error: expect.any(String),
			version: opened.version + 2,
			conflicts: [{ field: 'work_phone', value: '555-0101', changedBy: email('second') }],
		});
		expect(Date.parse(conflict.body.conflicts[0].changedAt)).not.toBeNaN();
		const detail = await call('GET', business(id), tokens.admin);
		expect(detail.body.business).toMatchObject({
			work_phone: '555-0101',
			website: 'https://bakery.example',
			city: 'Lakeside',
		});
		expect(detail.body.overrides.map((o: { field: string }) => o.field)).toEqual([
			'website',
			'work_phone',
		]);
		expect(netlify.buildHooks).toHaveLength(1);
	});

	it('refuses bad values with 400 and the path, an editor’s admin field with 403, and never a stale save', async () => {
		const id = await idOf('7001');
		const { body } = await call('GET', business(id), tokens.admin);
		for (const [changes, path] of [
			[{ city: 'x'.repeat(201) }, 'city'],
			[{ featured: 'yes' }, 'featured'],
			[{ social_media: [{ platform: 'Facebook' }] }, 'social_media[0].url'],
			[{ nickname: 'x' }, 'nickname'],
		] as const) {
			const answer = await patch(id, tokens.admin, body.version, changes);
			expect(answer.status, path).toBe(400);
			expect(answer.body.error, path).toMatch(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}: `));
		}
		expect(
			(await call('PATCH', business(id), tokens.admin, { changes: { city: 'x' } })).body.error,
		).toMatch(/^version: /);
		const editor = await patch(id, tokens.editor, body.version, { report_name: 'Renamed' });
		expect(editor.status).toBe(403);
		const allowed = await patch(id, tokens.editor, body.version, {
			social_media: [{ platform: 'Instagram', url: 'https://instagram.com/books' }],
		});
		expect(allowed.status).toBe(200);
		expect((await call('GET', business(id), tokens.admin)).body.business.report_name).toBe(
			'Harbor Books',
		);
	});

	it('answers 404 for another chamber’s business, never its data, and for an unknown id', async () => {
		const foreign = await idOf('7000', otherTenantId);
		for (const [method, rest, payload] of [
			['GET', '', undefined],
			['PATCH', '', { version: 1, changes: { city: 'X' } }],
			['DELETE', '', undefined],
			['POST', '/restore', undefined],
			['GET', '/history', undefined],
			['DELETE', '/overrides/city', undefined],
		] as const) {
			const answer = await call(method, business(foreign, rest), tokens.admin, payload);
			expect(answer.status, `${method} ${rest}`).toBe(404);
			expect(JSON.stringify(answer.body)).not.toContain('Elsewhere');
		}
		expect((await call('GET', business('not-a-uuid'), tokens.admin)).status).toBe(404);
		expect(
			(await call('GET', business(foreign, '', `?chamber=${otherSlug}`), tokens.admin)).status,
		).toBe(403);
		const { rows } = await db.query('select city from public.profiles where id = $1', [foreign]);
		expect(rows[0].city).toBe('Lakeside');
		expect((await call('PUT', business(foreign), tokens.admin)).status).toBe(405);
		expect((await call('GET', business(foreign, '/restore'), tokens.admin)).status).toBe(405);
		expect((await call('GET', business(foreign, '/whatever'), tokens.admin)).status).toBe(404);
	});
});

describe('remove, restore, history and the membership system’s value', () => {
	it('removes (admins), after which the old address answers 410; restores within 30 days', async () => {
		const id = await idOf('7002');
		expect((await call('DELETE', business(id), tokens.editor)).status).toBe(403);
		const removed = await call('DELETE', business(id), tokens.admin);
		expect(removed).toMatchObject({ status: 200, body: { id, version: expect.any(Number) } });
		const listed = await call('GET', businesses('?status=removed'), tokens.admin);
		expect(listed.body.businesses.map((b: { id: string }) => b.id)).toEqual([id]);
		const page = await call('GET', `/business/${id}/corner-cafe`, null);
		expect(page.status).toBe(410);
		expect((await call('GET', '/business/7002/corner-cafe', null)).status).toBe(410);
		expect((await call('GET', `/business/${await idOf('7000')}/x`, null)).status).toBe(301);
		const stale = await patch(id, tokens.admin, removed.body.version, { city: 'X' });
		expect(stale.status).toBe(409);
		expect((await call('POST', business(id, '/restore'), tokens.editor)).status).toBe(403);
		const restored = await call('POST', business(id, '/restore'), tokens.admin);
		expect(restored.status).toBe(200);
		expect((await call('GET', business(id), tokens.admin)).body.status).toBe('published');
		expect((await call('POST', business(id, '/restore'), tokens.admin)).status).toBe(404);
		expect(netlify.buildHooks.length).toBeGreaterThanOrEqual(1);
	});

	it('lists a listing’s changes for admins (403 for editors)', async () => {
		const id = await idOf('7000');
		const history = await call('GET', business(id, '/history'), tokens.admin);
		expect(history.status).toBe(200);
		expect(history.body.history[0]).toMatchObject({
			actor: email('admin'),
			field: 'website',
			oldValue: '',
			newValue: 'https://bakery.example',
		});
		expect((await call('GET', business(id, '/history'), tokens.editor)).status).toBe(403);
	});

	it('takes the membership system’s value back at once', async () => {
		const id = await idOf('7000');
		const back = await call('DELETE', business(id, '/overrides/work_phone'), tokens.admin);
		expect(back.status).toBe(200);
		const detail = await call('GET', business(id), tokens.admin);
		expect(detail.body.business.work_phone).toBe('');
		expect(detail.body.overrides.map((o: { field: string }) => o.field)).toEqual(['website']);
		expect((await call('DELETE', business(id, '/overrides/work_phone'), tokens.admin)).status).toBe(
			404,
		);
		expect((await call('DELETE', business(id, '/overrides/website'), tokens.editor)).status).toBe(
			403,
		);
		expect((await call('DELETE', business(id, '/overrides/nickname'), tokens.admin)).status).toBe(
			400,
		);
	});
});

describe('POST /api/admin/businesses/{id}/logo', () => {
	const PNG = Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
		'base64',
	);
	const upload = (id: string, token: string, bytes: Uint8Array<ArrayBuffer>, name = 'logo.png') => {
		const form = new FormData();
		form.set('logo', new File([bytes], name));
		return call('POST', business(id, '/logo'), token, undefined, form);
	};

	it('stores a checked logo under the chamber’s folder for staff who may change it, editors too', async () => {
		const id = await idOf('7001');
		const answer = await upload(id, tokens.editor, PNG);
		expect(answer.status).toBe(200);
		expect(answer.body.url).toMatch(
			new RegExp(`/logos/${tenantId}/businesses/${id}-[0-9a-f-]+\\.png$`),
		);
		const file = await fetch(answer.body.url);
		expect(file.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
	});

	it('refuses a file that is no image (400) and another chamber’s business (404)', async () => {
		const id = await idOf('7001');
		const text = await upload(id, tokens.admin, new TextEncoder().encode('hello'), 'logo.png');
		expect(text).toMatchObject({
			status: 400,
			body: { error: expect.stringMatching(/Invalid file type/) },
		});
		const foreign = await idOf('7000', otherTenantId);
		expect((await upload(foreign, tokens.admin, PNG)).status).toBe(404);
		expect((await upload(id, '', PNG)).status).toBe(401);
	});
});
