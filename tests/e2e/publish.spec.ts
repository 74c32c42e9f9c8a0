import { expect, test, type APIRequestContext } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../src/lib/database.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { dataOf, jsonObject, type JsonObject } from '../support/db-clients.ts';
import { adminSession, publishState, requestPublish, serviceClient } from './admin-support.ts';
import { BUILD_GOES_LIVE, DATA_DIR, STACK_URL, timeWithBuilds } from './e2e-env.ts';

// Publishing on `npm start`: a publish requested through the functions whose build fails (a
// configuration the build refuses) leaves the site as it was and says why; the preview shows
// unsaved changes without saving them. A save that goes live through the server's build hook, a
// real `astro build` and the swap is panel.spec.ts's last test. Builds take real time (tens of
// seconds on a busy machine), hence the longer test time; nothing here waits for time, only for
// states.

test.describe.configure({ mode: 'serial' });
test.setTimeout(timeWithBuilds(1));

interface Admin {
	token: string;
	tenantId: string;
	client: SupabaseClient;
}

/** The demo admin, with a client of the stack as them (what they read, as the panel reads it). */
async function signInAdmin(request: APIRequestContext): Promise<Admin> {
	const { token, tenantId } = await adminSession(request);
	const keys = await loadOrCreateKeys(DATA_DIR);
	const client = createClient<Database>(STACK_URL, keys.anonKey, {
		global: { headers: { Authorization: `Bearer ${token}` } },
		auth: { persistSession: false },
	});
	return { token, tenantId, client };
}

async function content(admin: Admin): Promise<JsonObject> {
	const { data, error } = await admin.client
		.from('chamber_config')
		.select('content')
		.eq('tenant_id', admin.tenantId)
		.single();
	if (error) throw new Error(error.message);
	return jsonObject(data.content, 'content');
}

async function untilFinished(request: APIRequestContext, admin: Admin, id: number) {
	await expect
		.poll(async () => (await publishState(request, admin.token, id))?.state, BUILD_GOES_LIVE)
		.toMatch(/^(live|failed)$/);
	return publishState(request, admin.token, id);
}

test('a build that fails leaves the live site as it was, and says why', async ({
	page,
	request,
}) => {
	const admin = await signInAdmin(request);
	const service = await serviceClient();
	const { colors } = dataOf(
		await service.from('chamber_config').select('colors').eq('tenant_id', admin.tenantId).single(),
	);
	const before = jsonObject(colors, 'colors');
	await page.goto('/');
	const liveTitle = await page.getByRole('heading', { level: 1 }).textContent();
	try {
		// A value the database takes (a string of a colour's length) but no save would let
		// through, written with the server's own key: the build refuses it.
		const broken = await service
			.from('chamber_config')
			.update({ colors: { ...before, primary: 'nocolor' } })
			.eq('tenant_id', admin.tenantId);
		expect(broken.error).toBeNull();
		const id = await requestPublish(request, admin.token, 'Content saved');
		const outcome = await untilFinished(request, admin, id);
		expect(outcome?.state).toBe('failed');
		expect(outcome?.error).toMatch(
			/^The site could not be built: Invalid chamber configuration .*colors\.primary: /,
		);
		expect(outcome?.error).not.toMatch(/file:|\bat /);

		await page.goto('/');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(liveTitle ?? '');
	} finally {
		await service.from('chamber_config').update({ colors: before }).eq('tenant_id', admin.tenantId);
	}
});

test('Preview renders the home page with unsaved changes for staff only, never cached or indexed', async ({
	request,
}) => {
	const admin = await signInAdmin(request);
	const saved = String((await content(admin)).heroTitle);
	const config = {
		name: 'Cedar Valley Chamber of Commerce',
		slug: 'demo',
		content: { heroTitle: 'Not saved yet' },
	};
	const response = await request.post('/chamber-config-v2/preview', {
		headers: { Authorization: `Bearer ${admin.token}` },
		data: { config },
	});
	expect(response.status()).toBe(200);
	expect(response.headers()['cache-control']).toBe('no-store');
	expect(response.headers()['netlify-cdn-cache-control']).toBe('no-store');
	expect(response.headers()['x-robots-tag']).toBe('noindex');
	const html = await response.text();
	expect(html).toContain('Not saved yet');
	expect(html).toContain('<meta name="robots" content="noindex">');
	expect(String((await content(admin)).heroTitle)).toBe(saved);

	const anonymous = await request.post('/chamber-config-v2/preview', { data: { config } });
	expect(anonymous.status()).toBe(401);
	const invalid = await request.post('/chamber-config-v2/preview', {
		headers: { Authorization: `Bearer ${admin.token}` },
		data: { config: { ...config, colors: { primary: 'red' } } },
	});
	expect(invalid.status()).toBe(400);
	expect(await invalid.json()).toEqual({
		error: 'config.colors.primary: Expected a hex colour like #0d3e63, received "red"',
	});
});
