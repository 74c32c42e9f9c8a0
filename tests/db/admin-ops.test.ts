// Runs on: hosted — what each role may do with logos, caches and users is decided by row-level
// security and the platform's storage and auth tables: proved on the production shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import type { NetlifyStandin } from '../support/netlify-api-standin.ts';
import { importStaffChambers, removeChamberFiles, type StaffChambers } from './fixtures.ts';
import { signInAs, storedConfig, userClient as asUser } from '../support/db-clients.ts';
import type { FunctionServer } from '../support/function-server.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// The admin panel's Logos, Cache and Users functions over real HTTP in the local
// Netlify server, signed in with the identity service, writing with the user's token to the real
// database and file service; a stand-in of Netlify's API receives the purges and build hooks.

const PASSWORD = 'admin-ops-password';
const DOMAIN = 'admin-ops.test';

let site: StaffSite<StaffChambers>;
let netlify: NetlifyStandin;
let chambers: StaffChambers;
let slug: string;
let tenantId: string;
let otherTenantId: string;
let tokens: StaffChambers['tokens'];
let ids: StaffChambers['ids'];

const call: FunctionServer['call'] = (path, options) => site.server.call(path, options);

/** The address of a user `key` of this test's chamber (the staff's, or a new one). */
const email = (key: string) => `${key.toLowerCase()}-${slug}@${DOMAIN}`;

const signIn = (address: string, password = PASSWORD) => signInAs(stack, address, password);

const userClient = (token: string) => asUser(stack, token);

const config = () => storedConfig(service, { tenant_id: tenantId });

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'ops',
				domain: DOMAIN,
				name: 'Ops',
				password: PASSWORD,
			}),
	});
	({ netlify, chambers } = site);
	({ slug, tenantId, otherTenantId, tokens, ids } = chambers);
});

afterAll(async () => {
	if (chambers) await removeChamberFiles(db, 'logos', [tenantId, otherTenantId]);
	await site?.close();
});

beforeEach(() => site.reset());

// --- Cache ---------------------------------------------------------------------------------------

describe('POST /api/admin/increment-cache-version', () => {
	const bump = (resourceType: unknown, token?: string) =>
		call('/api/admin/increment-cache-version', { token, body: { resourceType } });

	async function version(type: string): Promise<number> {
		const { rows } = await db.query<{ version: number }>(
			'select version from public.cache_versions where tenant_id = $1 and type = $2',
			[tenantId, type],
		);
		return rows[0]?.version ?? 0;
	}

	it('an admin bumps a version by one, the purge is logged under their e-mail and the CDN tags purged', async () => {
		const before = await version('events');
		const answer = await bump('events', tokens.admin);
		expect(answer).toMatchObject({ status: 200, body: { newVersion: before + 1, publish: null } });
		expect(await version('events')).toBe(before + 1);
		const { rows } = await db.query(
			`select user_email, purge_type from public.cache_purge_log
			where tenant_id = $1 order by id desc limit 1`,
			[tenantId],
		);
		expect(rows[0]).toEqual({ user_email: email('admin'), purge_type: 'events' });
		expect(netlify.purges.map((p) => p.body)).toEqual([
			expect.objectContaining({ cache_tags: [`${slug}:events`, `${slug}:cache-version`] }),
		]);
		// Events are read by the browser from the functions: nothing to rebuild.
		expect(netlify.buildHooks).toEqual([]);
	});

	it('a categories refresh also publishes the site', async () => {
		const before = await version('categories');
		const answer = await bump('categories', tokens.super);
		expect(answer.status).toBe(200);
		expect(answer.body.newVersion).toBe(before + 1);
		expect(answer.body.publish).toMatchObject({ state: expect.stringMatching(/queued|building/) });
		expect(netlify.buildHooks).toHaveLength(1);
		expect(netlify.purges[0]?.body).toMatchObject({
			cache_tags: [`${slug}:categories`, `${slug}:cache-version`],
		});
	});

	it('each of the four types; anything else is a 400 and changes nothing', async () => {
		for (const type of ['community_events', 'event_details']) {
			expect((await bump(type, tokens.admin)).status).toBe(200);
		}
		const before = await version('config');
		const bad = await bump('config', tokens.admin);
		expect(bad.status).toBe(400);
		expect(bad.body.error).toMatch(/^resourceType: resourceType must be one of events/);
		expect(
			(await call('/api/admin/increment-cache-version', { token: tokens.admin, body: {} })).status,
		).toBe(400);
		expect(await version('config')).toBe(before);
	});

	it('an editor, another chamber’s admin and a visitor are refused; so is the editor in the database', async () => {
		const before = await version('events');
		expect((await bump('events', tokens.editor)).status).toBe(403);
		expect((await bump('events', tokens.otherAdmin)).status).toBe(403);
		expect((await bump('events')).status).toBe(401);
		const direct = await userClient(tokens.editor).rpc('bump_cache_version', {
			p_tenant_id: tenantId,
			p_type: 'events',
		});
		expect(direct.error?.code).toBe('42501');
		expect(await version('events')).toBe(before);
		expect(netlify.purges).toEqual([]);
	});

	it('the history: super_admins read the newest 15 rows with their token, admins read none', async () => {
		for (let i = 0; i < 16; i += 1) await bump('events', tokens.admin);
		const history = await userClient(tokens.super)
			.from('cache_purge_log')
			.select('id, user_email, purge_type, created_at')
			.eq('tenant_id', tenantId)
			.order('created_at', { ascending: false })
			.order('id', { ascending: false })
			.limit(15);
		expect(history.error).toBeNull();
		expect(history.data).toHaveLength(15);
		const idsInOrder = history.data!.map((row) => row.id as number);
		expect(idsInOrder).toEqual([...idsInOrder].sort((a, b) => b - a));
		const asAdmin = await userClient(tokens.admin)
			.from('cache_purge_log')
			.select('id')
			.eq('tenant_id', tenantId);
		expect(asAdmin.data).toEqual([]);
	});
});

// --- Users ---------------------------------------------------------------------------------------

describe('/api/admin/users and /api/admin/tenants', () => {
	it('a super_admin lists every chamber’s admins with role, chamber, created and last sign-in', async () => {
		const answer = await call('/api/admin/users', { token: tokens.super });
		expect(answer.status).toBe(200);
		const admin = answer.body.users.find((u: { email: string }) => u.email === email('admin'));
		expect(admin).toMatchObject({
			userId: ids.admin,
			id: ids.admin,
			role: 'admin',
			tenantId,
			tenantKey: slug,
			tenantName: `Ops ${slug}`,
			createdAt: expect.any(String),
			lastSignIn: expect.any(String),
		});
		expect(answer.body.users.map((u: { email: string }) => u.email)).toEqual(
			expect.arrayContaining([email('editor'), chambers.emails.otherAdmin, chambers.emails.super]),
		);
	});

	it('admins, editors and visitors may not list, create or delete users', async () => {
		for (const token of [tokens.admin, tokens.editor]) {
			expect((await call('/api/admin/users', { token })).status).toBe(403);
			expect((await call('/api/admin/tenants', { token })).status).toBe(403);
			const create = await call('/api/admin/users', {
				token,
				body: { email: email('nope'), password: 'secret1', tenantId, role: 'admin' },
			});
			expect(create.status).toBe(403);
			const remove = await call('/api/admin/users', {
				token,
				method: 'DELETE',
				body: { userId: ids.editor },
			});
			expect(remove.status).toBe(403);
		}
		expect((await call('/api/admin/users')).status).toBe(401);
		const { rows } = await db.query('select 1 from auth.users where email = $1', [email('nope')]);
		expect(rows).toEqual([]);
	});

	it('the tenants call lists the chambers as {id, name, tenant_key}', async () => {
		const answer = await call('/api/admin/tenants', { token: tokens.super });
		expect(answer.status).toBe(200);
		expect(answer.body.tenants).toEqual(
			expect.arrayContaining([{ id: tenantId, name: `Ops ${slug}`, tenant_key: slug }]),
		);
	});

	it('creates the sign-in and the admin record together (role default admin); the new user signs in and was never signed in before', async () => {
		const address = email('Created');
		const answer = await call('/api/admin/users', {
			token: tokens.super,
			body: { email: ` ${address.toUpperCase()} `, password: 'secret1', tenantId },
		});
		expect(answer.status).toBe(201);
		expect(answer.body.user).toMatchObject({
			email: address,
			role: 'admin',
			tenantKey: slug,
			lastSignIn: null,
		});
		const listed = await call('/api/admin/users', { token: tokens.super });
		expect(listed.body.users.find((u: { email: string }) => u.email === address)).toMatchObject({
			lastSignIn: null,
		});
		const token = await signIn(address, 'secret1');
		const verify = await call('/api/auth/supabase-verify', { token });
		expect(verify.body.user).toMatchObject({ email: address, role: 'admin', tenantKey: slug });
	});

	it('bad input is a 400 naming what is wrong, and nothing is created', async () => {
		const cases: [unknown, RegExp][] = [
			[
				{ email: email('short'), password: '12345', tenantId },
				/Password must be at least 6 characters/,
			],
			[{ email: 'not-an-email', password: 'secret1', tenantId }, /valid email/],
			[{ email: email('short'), password: 'secret1' }, /Chamber is required/],
			[
				{ email: email('short'), password: 'secret1', tenantId, role: 'owner' },
				/role must be one of/,
			],
		];
		for (const [json, message] of cases) {
			const answer = await call('/api/admin/users', { token: tokens.super, body: json });
			expect(answer.status).toBe(400);
			expect(answer.body.error).toMatch(message);
		}
		const { rows } = await db.query('select 1 from auth.users where email = $1', [email('short')]);
		expect(rows).toEqual([]);
	});

	it('no orphan: when the admin record cannot be written, the new sign-in is removed again', async () => {
		const address = email('Orphan');
		const answer = await call('/api/admin/users', {
			token: tokens.super,
			body: {
				email: address,
				password: 'secret1',
				tenantId: '00000000-0000-4000-8000-000000000000',
			},
		});
		expect(answer.status).toBe(400);
		const { rows } = await db.query('select 1 from auth.users where email = $1', [address]);
		expect(rows).toEqual([]);
	});

	it('an e-mail that exists already is refused (409) and the existing user is untouched', async () => {
		const answer = await call('/api/admin/users', {
			token: tokens.super,
			body: { email: email('editor'), password: 'secret1', tenantId, role: 'admin' },
		});
		expect(answer.status).toBe(409);
		const { rows } = await db.query('select role from public.admin_users where email = $1', [
			email('editor'),
		]);
		expect(rows).toEqual([{ role: 'editor' }]);
		await signIn(email('editor'));
	});

	it('deletes the admin record and the sign-in together; not oneself; an unknown id is a 404', async () => {
		const address = email('Doomed');
		const created = await call('/api/admin/users', {
			token: tokens.super,
			body: { email: address, password: 'secret1', tenantId, role: 'editor' },
		});
		const userId = created.body.user.userId as string;
		const removed = await call('/api/admin/users', {
			token: tokens.super,
			method: 'DELETE',
			body: { userId },
		});
		expect(removed).toEqual({ status: 200, body: { success: true } });
		const left = await db.query(
			`select (select count(*) from auth.users where id = $1)::int as auth,
			(select count(*) from public.admin_users where user_id = $1)::int as admin`,
			[userId],
		);
		expect(left.rows[0]).toEqual({ auth: 0, admin: 0 });

		const self = await call('/api/admin/users', {
			token: tokens.super,
			method: 'DELETE',
			body: { userId: ids.super },
		});
		expect(self).toEqual({ status: 400, body: { error: 'You cannot delete your own account.' } });
		const again = await call('/api/admin/users', {
			token: tokens.super,
			method: 'DELETE',
			body: { userId },
		});
		expect(again.status).toBe(404);
		const bad = await call('/api/admin/users', {
			token: tokens.super,
			method: 'DELETE',
			body: { userId: 'x' },
		});
		expect(bad.status).toBe(400);
	});
});

// --- Logos ---------------------------------------------------------------------------------------

// A 1×1 PNG, and the other formats' signatures (file-type reads these bytes, never the name).
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);
const JPEG = Buffer.concat([
	Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
	Buffer.alloc(64),
]);
const ICO = Buffer.concat([
	Buffer.from([0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x20, 0x00]),
	Buffer.from([0x30, 0x00, 0x00, 0x00, 0x16, 0x00, 0x00, 0x00]),
	Buffer.alloc(48),
]);
const SVG =
	'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0d3e63"/></svg>';
const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert('onload')">
<script>alert('script')</script>
<rect width="10" height="10" fill="#0d3e63" onclick="alert('click')"/>
<a xlink:href="javascript:alert('link')"><circle r="3"/></a>
<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert('frame')"></iframe></body></foreignObject>
<image href="https://tracker.example/pixel.png"/>
</svg>`;

function logoForm(
	logoType: string,
	bytes: Buffer | string,
	name: string,
	type: string,
	chamber = slug,
) {
	const form = new FormData();
	form.set(
		'logo',
		new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type }),
	);
	form.set('logoType', logoType);
	form.set('chamber', chamber);
	return form;
}

const upload = (form: FormData, token?: string) => call('/api/upload-logo', { token, form });

describe('POST /api/upload-logo', () => {
	it('a PNG is stored in the public bucket under the chamber, the configuration points at it and the site publishes', async () => {
		const answer = await upload(logoForm('standard', PNG, 'logo.png', 'image/png'), tokens.admin);
		expect(answer.status).toBe(200);
		const url = answer.body.url as string;
		expect(url).toMatch(
			new RegExp(
				`^${stack.supabaseUrl}/storage/v1/object/public/logos/${tenantId}/standard-[0-9a-f-]+\\.png$`,
			),
		);
		const served = await fetch(url);
		expect(served.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
		expect((await config()).logo.standard).toBe(url);
		expect(answer.body.publish).toMatchObject({ state: expect.stringMatching(/queued|building/) });
		expect(netlify.buildHooks).toHaveLength(1);

		// A new name per upload: the old file stays for the live site until the new build is live.
		const second = await upload(logoForm('standard', PNG, 'logo.png', 'image/png'), tokens.admin);
		expect(second.body.url).not.toBe(url);
		expect((await fetch(url)).status).toBe(200);
	});

	it('the type comes from the bytes: a PNG named .svg is stored as a PNG, an SVG named .png as an SVG', async () => {
		const png = await upload(logoForm('stacked', PNG, 'logo.svg', 'image/svg+xml'), tokens.admin);
		expect(png.status).toBe(200);
		expect(png.body.url).toMatch(/\.png$/);
		expect((await fetch(png.body.url)).headers.get('content-type')).toBe('image/png');
		const svg = await upload(logoForm('stacked', SVG, 'logo.png', 'image/png'), tokens.admin);
		expect(svg.status).toBe(200);
		expect(svg.body.url).toMatch(/\.svg$/);
		const served = await fetch(svg.body.url);
		expect(served.headers.get('content-type')).toBe('image/svg+xml');
		expect(await served.text()).toMatch(
			/<rect width="10" height="10" fill="#0d3e63"(\/>|><\/rect>)/,
		);
		expect((await config()).logo.stacked).toBe(svg.body.url);
	});

	it('a logo that is not well-formed XML is refused with the reason, not a failure of ours', async () => {
		const answer = await upload(
			logoForm(
				'standard',
				'<svg xmlns="http://www.w3.org/2000/svg"><a><b></a></svg>',
				'broken.svg',
				'image/svg+xml',
			),
			tokens.admin,
		);
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(
			/^The file is not a well-formed SVG \(Unexpected close tag\)\./,
		);
	});

	it('a hostile SVG is stored sanitised: no script, handlers, foreignObject, javascript: or outside references', async () => {
		const answer = await upload(
			logoForm('standard', HOSTILE_SVG, 'evil.svg', 'image/svg+xml'),
			tokens.super,
		);
		expect(answer.status).toBe(200);
		const stored = await (await fetch(answer.body.url)).text();
		expect(stored).toContain('<rect');
		expect(stored).toMatch(/<circle r="3"(\/>|><\/circle>)/);
		for (const bad of [
			/<script/i,
			/\bon\w+=/i,
			/foreignObject/i,
			/javascript:/i,
			/tracker\.example/,
			/<iframe/i,
			/<image/i,
		]) {
			expect(stored).not.toMatch(bad);
		}
	});

	it('each logo takes its own formats: favicon ICO, PNG; standard JPEG; not an ICO as a logo nor a JPEG favicon', async () => {
		expect(
			(await upload(logoForm('favicon', ICO, 'favicon.ico', 'image/x-icon'), tokens.admin)).status,
		).toBe(200);
		expect((await config()).logo.favicon).toMatch(/\/favicon-[0-9a-f-]+\.ico$/);
		expect(
			(await upload(logoForm('favicon', PNG, 'icon.png', 'image/png'), tokens.admin)).status,
		).toBe(200);
		expect(
			(await upload(logoForm('standard', JPEG, 'photo.jpg', 'image/jpeg'), tokens.admin)).status,
		).toBe(200);
		const refused = [
			await upload(logoForm('standard', ICO, 'logo.png', 'image/png'), tokens.admin),
			await upload(logoForm('favicon', JPEG, 'favicon.ico', 'image/x-icon'), tokens.admin),
			await upload(logoForm('favicon', SVG, 'favicon.svg', 'image/svg+xml'), tokens.admin),
			await upload(logoForm('standard', 'just text', 'logo.png', 'image/png'), tokens.admin),
			await upload(
				logoForm('standard', '<html><body>hi</body></html>', 'logo.svg', 'image/svg+xml'),
				tokens.admin,
			),
		];
		for (const answer of refused) {
			expect(answer).toEqual({
				status: 400,
				body: { error: 'Invalid file type. Use PNG, JPG, SVG, WebP, or ICO' },
			});
		}
	});

	it('5 MB is accepted, 5 MB + 1 byte is refused with the tab’s text', async () => {
		const limit = 5 * 1024 * 1024;
		const exact = Buffer.concat([PNG, Buffer.alloc(limit - PNG.length)]);
		expect(
			(await upload(logoForm('standard', exact, 'big.png', 'image/png'), tokens.admin)).status,
		).toBe(200);
		const over = Buffer.concat([exact, Buffer.alloc(1)]);
		const before = (await config()).logo.standard;
		const answer = await upload(logoForm('standard', over, 'big.png', 'image/png'), tokens.admin);
		expect(answer).toEqual({ status: 413, body: { error: 'File size must be under 5MB' } });
		expect((await config()).logo.standard).toBe(before);
	});

	it('bad forms: a missing file, an unknown logo type, a JSON body', async () => {
		const form = new FormData();
		form.set('logoType', 'standard');
		form.set('chamber', slug);
		expect((await upload(form, tokens.admin)).status).toBe(400);
		const unknown = await upload(logoForm('banner', PNG, 'a.png', 'image/png'), tokens.admin);
		expect(unknown).toEqual({
			status: 400,
			body: { error: 'logoType must be one of standard, stacked, favicon' },
		});
		const json = await call('/api/upload-logo', {
			token: tokens.admin,
			body: { logoType: 'standard' },
		});
		expect(json.status).toBe(400);
	});

	it('an editor, another chamber’s admin and a visitor are refused, and nothing changes', async () => {
		const before = (await config()).logo;
		expect(
			(await upload(logoForm('standard', PNG, 'a.png', 'image/png'), tokens.editor)).status,
		).toBe(403);
		expect(
			(await upload(logoForm('standard', PNG, 'a.png', 'image/png'), tokens.otherAdmin)).status,
		).toBe(403);
		expect((await upload(logoForm('standard', PNG, 'a.png', 'image/png'))).status).toBe(401);
		expect((await config()).logo).toEqual(before);
	});
});

describe('the logos bucket’s policies, called directly with supabase-js storage and a user’s token', () => {
	const put = (token: string, folder: string) =>
		userClient(token)
			.storage.from('logos')
			.upload(`${folder}/direct-${Date.now()}-${Math.random()}.png`, PNG, {
				contentType: 'image/png',
			});

	it('nobody writes the bucket with their own token, not even the chamber’s admin: only the upload function does', async () => {
		const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
		for (const token of [
			tokens.admin,
			tokens.super,
			tokens.editor,
			tokens.otherAdmin,
			stack.anonKey,
		]) {
			const { error } = await put(token, tenantId);
			expect(error).not.toBeNull();
			expect((error as unknown as { statusCode: string }).statusCode).toBe('403');
			const script = await userClient(token)
				.storage.from('logos')
				.upload(`${tenantId}/direct.svg`, svg, { contentType: 'image/svg+xml' });
			expect((script.error as unknown as { statusCode: string }).statusCode).toBe('403');
		}
		const { rows } = await db.query(
			`select count(*)::int as n from storage.objects
			where bucket_id = 'logos' and name like $1 and name like '%direct%'`,
			[`${tenantId}/%`],
		);
		expect(rows[0].n).toBe(0);
	});

	it('the chamber’s admins still list its logos', async () => {
		const { data, error } = await userClient(tokens.admin).storage.from('logos').list(tenantId);
		expect(error).toBeNull();
		expect(data?.length).toBeGreaterThan(0);
	});

	it('the bucket refuses other types and files over 5 MB even for the service role', async () => {
		const text = await service.storage
			.from('logos')
			.upload(`${tenantId}/notes.txt`, 'hello', { contentType: 'text/plain' });
		expect(text.error).not.toBeNull();
		const big = await service.storage
			.from('logos')
			.upload(`${tenantId}/big.png`, Buffer.alloc(5 * 1024 * 1024 + 1), {
				contentType: 'image/png',
			});
		expect(big.error).not.toBeNull();
	});

	it('an editor cannot point the configuration’s logo anywhere, even with set_chamber_logo directly', async () => {
		const { error } = await userClient(tokens.editor).rpc('set_chamber_logo', {
			p_tenant_id: tenantId,
			p_type: 'standard',
			p_url: 'https://evil.example/logo.png',
		});
		expect(error?.code).toBe('42501');
		expect((await config()).logo.standard).not.toBe('https://evil.example/logo.png');
	});
});
