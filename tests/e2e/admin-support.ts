import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import type { Database, Json, RowUpdate, SupabaseClient } from '../../src/lib/database.ts';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import type { ChamberConfig } from '../../src/features/config/config.ts';
import { USER_INFO_KEY } from '../../src/features/auth/auth.ts';
import { slugify } from '../../src/features/directory/rules.ts';
import { getTenantBySlug, importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile, type UserRole } from '../../src/features/tenants/tenant-file.ts';
import { jsonObject, storedConfig, type JsonObject } from '../support/db-clients.ts';
import { BUILD_GOES_LIVE, DATA_DIR, STACK_URL } from './e2e-env.ts';

/** Shared by the admin-portal specs: the e2e stack as a server-side script sees it. */

export const DEMO_PASSWORD = 'demo-password';

/** The admin panel's page. */
export const PANEL = '/chamber-config-v2';

/** A 1×1 PNG, for the logo uploads. */
export const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

let service: SupabaseClient | undefined;

/** The stack's service-role client (its keys are in the e2e data folder). */
export async function serviceClient(): Promise<SupabaseClient> {
	if (!service) {
		const keys = await loadOrCreateKeys(DATA_DIR);
		service = createClient<Database>(STACK_URL, keys.serviceKey, {
			auth: { persistSession: false },
		});
	}
	return service;
}

/**
 * Runs SQL on the e2e stack's database as its owner (the address is in the stack's state file):
 * for what only a hand edit in the database can do, such as a value its own checks refuse.
 */
export async function withDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
	const state = JSON.parse(await readFile(join(DATA_DIR, 'stack.json'), 'utf8')) as {
		databaseUrl: string;
	};
	const db = new pg.Client({ connectionString: state.databaseUrl });
	await db.connect();
	try {
		return await fn(db);
	} finally {
		await db.end();
	}
}

type ConfigUpdate = RowUpdate<'chamber_config'>;

/** A jsonb section of the configuration: a column of chamber_config that takes any JSON. */
type ConfigSection = {
	[K in keyof ConfigUpdate]-?: NonNullable<Json> extends ConfigUpdate[K] ? K : never;
}[keyof ConfigUpdate];

/**
 * Rewrites one section (a column of its chamber_config row) of the demo chamber's configuration
 * with the service key, as a hand edit in the database would, and returns what it was, so a test
 * can put it back. No build follows: publish or rebuild where the site must show it.
 */
export async function changeDemoConfig(
	section: ConfigSection,
	change: (current: JsonObject) => JsonObject,
): Promise<JsonObject> {
	const service = await serviceClient();
	const tenant = await getTenantBySlug(service, 'demo');
	const { data, error } = await service
		.from('chamber_config')
		.select('*')
		.eq('tenant_id', tenant.id)
		.single();
	if (error) throw new Error(`Failed to read the demo's ${section}: ${error.message}`);
	const current = jsonObject(data[section], `the demo's ${section}`);
	const values: ConfigUpdate = {};
	values[section] = change(current);
	const update = await service.from('chamber_config').update(values).eq('tenant_id', tenant.id);
	if (update.error)
		throw new Error(`Failed to write the demo's ${section}: ${update.error.message}`);
	return current;
}

/** A user of a chamber that no other test signs in with, so a test may change its password. */
export async function createUser(
	slug: string,
	role: UserRole,
	password = DEMO_PASSWORD,
): Promise<string> {
	const email = `${role.replace('_', '-')}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.test`;
	const client = await serviceClient();
	// The import upserts the tenant too: its name must stay as it is.
	const { data, error } = await client.from('tenants').select('name').eq('slug', slug).single();
	if (error) throw new Error(`No tenant ${slug}: ${error.message}`);
	await importTenant(
		client,
		parseTenantFile(
			{ tenant: { slug, name: data.name }, users: [{ email, password, role }] },
			'e2e user',
		),
		{ only: ['users'], allowSuperAdmin: role === 'super_admin' },
	);
	return email;
}

/**
 * Imports a chamber of the spec's own, slug `{prefix}-{time}` and named `{name} {slug}`, with the
 * other parts of a tenant file (config, businesses…), so what the spec saves there rebuilds
 * nothing of the demo site; answers its slug.
 */
export async function importChamber(
	prefix: string,
	name: string,
	parts: Record<string, unknown> = {},
): Promise<string> {
	const slug = `${prefix}-${Date.now().toString(36)}`;
	await importTenant(
		await serviceClient(),
		parseTenantFile({ tenant: { slug, name: `${name} ${slug}` }, ...parts }, `${prefix} e2e`),
	);
	return slug;
}

/** Removes a chamber importChamber made, with everything of it. */
export async function removeChamber(slug: string): Promise<void> {
	await (await serviceClient()).from('tenants').delete().eq('slug', slug);
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
	await page.getByLabel('Email').fill(email);
	await page.getByLabel('Password', { exact: true }).fill(password);
	await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs in as `email` on the login page, which then opens `redirect` (where given). */
export async function logIn(page: Page, email: string, redirect?: string): Promise<void> {
	await page.goto(
		redirect ? `/chamber-login-v2?redirect=${encodeURIComponent(redirect)}` : '/chamber-login-v2',
	);
	await signIn(page, email);
}

/** Where supabase-js keeps the browser's session: `sb-{first label of the project's host}-auth-token`. */
const SESSION_KEY = `sb-${new URL(STACK_URL).hostname.split('.')[0]}-auth-token`;

/**
 * Gives the page's browser a session of `email` of its own, as the login page leaves it (the
 * sign-in answer's session where supabase-js keeps it, and the user-info beside it), without going
 * through the form: for tests that are not about signing in. Each call is a new session from the
 * sign-in function, so a test that signs out, or a suite that outlasts a token, never leaves another
 * test with a session the server has ended.
 */
export async function useSession(page: Page, email: string): Promise<void> {
	const login = await page.request.post('/api/auth/supabase-login', {
		data: { email, password: DEMO_PASSWORD },
	});
	expect(login.status(), `sign-in of ${email}`).toBe(200);
	const answer = (await login.json()) as { session: unknown; user: unknown };
	// Any page of the site's origin, to reach its storage; the robots file is the smallest.
	await page.goto('/robots.txt');
	await page.evaluate(
		({ sessionKey, userKey, session, user }) => {
			localStorage.setItem(sessionKey, JSON.stringify(session));
			localStorage.setItem(userKey, JSON.stringify(user));
		},
		{ sessionKey: SESSION_KEY, userKey: USER_INFO_KEY, session: answer.session, user: answer.user },
	);
}

/** Opens the panel, of `chamber` where given (a super_admin's ?chamber=), signed in as `email`. */
export async function openPanel(page: Page, email: string, chamber?: string): Promise<void> {
	await useSession(page, email);
	await page.goto(chamber ? `${PANEL}?chamber=${chamber}` : PANEL);
	await expect(page.getByRole('tablist', { name: 'Settings' })).toBeVisible();
}

/** Signs in on the login page as a new user of `slug` (see createUser); answers its address. */
export async function logInAsNewUser(page: Page, slug: string, role: UserRole): Promise<string> {
	const email = await createUser(slug, role);
	await logIn(page, email);
	return email;
}

/** Opens a tab of the panel and answers its panel, once the tab is the selected one. */
export async function panelTab(page: Page, name: string | RegExp) {
	const tab = page.getByRole('tab', { name, exact: true });
	await tab.click();
	await expect(tab).toHaveAttribute('aria-selected', 'true');
	return page.getByRole('tabpanel');
}

/** In the Members tab, finds a business by its name and opens its listing. */
export async function openListing(page: Page, name: string) {
	const panel = page.getByRole('tabpanel');
	await panel.getByRole('searchbox', { name: 'Name' }).fill(name);
	await panel.getByRole('button', { name: 'Search', exact: true }).click();
	await panel.getByRole('button', { name, exact: true }).click();
	await expect(panel.getByRole('heading', { name, level: 3 })).toBeVisible();
	return panel;
}

/** Saves the panel's changes and waits until it says they are saved, with nothing left to save. */
export async function saveChanges(page: Page): Promise<void> {
	await page.getByRole('button', { name: /^Save Changes/ }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Saved!' })).toBeVisible();
	await expect(page.getByText('Changes saved successfully!')).toBeVisible();
	await expect(page.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
}

/** A chamber's configuration as it is saved in the database. */
export async function savedConfig(slug: string): Promise<ChamberConfig> {
	return storedConfig(await serviceClient(), { slug });
}

/** The demo admin signed in through the API as the panel signs in: the token and the chamber. */
export async function adminSession(
	request: APIRequestContext,
): Promise<{ token: string; tenantId: string }> {
	const login = await request.post('/api/auth/supabase-login', {
		data: { email: 'admin@demo.test', password: DEMO_PASSWORD },
	});
	expect(login.status()).toBe(200);
	const body = (await login.json()) as {
		session: { access_token: string };
		user: { tenantId: string };
	};
	return { token: body.session.access_token, tenantId: body.user.tenantId };
}

/** Asks for a publish as the holder of `token` (POST /api/publish); answers its id. */
export async function requestPublish(
	request: APIRequestContext,
	token: string,
	reason: string,
): Promise<number> {
	const started = await request.post('/api/publish', {
		headers: { Authorization: `Bearer ${token}` },
		data: { reason },
	});
	expect(started.status()).toBe(202);
	return ((await started.json()) as { publish: { id: number } }).publish.id;
}

/** Publish `id` as the panel's status reads it (GET /api/publish-status). */
export async function publishState(request: APIRequestContext, token: string, id: number) {
	const status = await request.get('/api/publish-status?limit=20', {
		headers: { Authorization: `Bearer ${token}` },
	});
	const body = (await status.json()) as {
		publishes: { id: number; state: string; error: string | null }[];
	};
	return body.publishes.find((p) => p.id === id);
}

/** Waits until the demo's publish `id` is live: a real build, minutes on a busy machine. */
export async function waitUntilLive(request: APIRequestContext, id: number): Promise<void> {
	const { token } = await adminSession(request);
	await expect
		.poll(async () => (await publishState(request, token, id))?.state, BUILD_GOES_LIVE)
		.toBe('live');
}

/** Publishes the demo site as it is in the database, as its admin, and waits until it is live. */
export async function publishDemo(request: APIRequestContext, reason: string): Promise<void> {
	const { token } = await adminSession(request);
	await waitUntilLive(request, await requestPublish(request, token, reason));
}

export interface DemoBusiness {
	id: string;
	name: string;
	/** Its address, lower-cased as the outbox's file names have it; '' where it has none. */
	email: string;
	/** Its profile page. */
	profile: string;
}

/**
 * A published demo business, the one at `rank` in name order (from the end where `descending`),
 * among those with an address where `withEmail`. Each spec that edits one takes a rank no other
 * spec takes, so none sees another's edit.
 */
export async function demoBusiness(
	rank: number,
	{ descending = false, withEmail = false } = {},
): Promise<DemoBusiness> {
	const service = await serviceClient();
	const tenant = await getTenantBySlug(service, 'demo');
	let query = service
		.from('profiles')
		.select('id, report_name, email')
		.eq('tenant_id', tenant.id)
		.eq('published', true);
	if (withEmail) query = query.neq('email', '');
	const { data, error } = await query
		.order('report_name', { ascending: !descending })
		.range(rank, rank)
		.single<{ id: string; report_name: string; email: string }>();
	if (error) throw new Error(`No demo business at ${rank}: ${error.message}`);
	return {
		id: data.id,
		name: data.report_name,
		email: data.email.toLowerCase(),
		profile: `/business/${data.id}/${slugify(data.report_name)}`,
	};
}

/** The link of the newest reset e-mail to an address, once it is in the stack's outbox. */
export async function resetLinkFor(email: string): Promise<string> {
	const outbox = join(DATA_DIR, 'outbox');
	let file: string | undefined;
	await expect
		.poll(async () => {
			const files = (await readdir(outbox).catch(() => [] as string[])).filter(
				(f) => f.includes('reset-password') && f.includes(email),
			);
			file = files.sort().at(-1);
			return file;
		})
		.toBeTruthy();
	const mail = await simpleParser(await readFile(join(outbox, file!)));
	const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')?.[0];
	if (!link) throw new Error(`No reset link in ${file}`);
	return link;
}
