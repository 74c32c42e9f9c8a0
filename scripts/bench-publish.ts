/**
 * npm run bench:publish -- [--url http://localhost:8888] [--runs 3]
 * Save-to-live time on the running `npm start` (start it first; PORT and CHAMBER_* as for it):
 * signs in as the demo admin, changes the hero title through the same path a save of the panel
 * takes, and polls the public home page until it shows the new title. Prints each run, the phases
 * the publish went through, and the median; puts the title back at the end. A benchmark, not a
 * test: it prints.
 */
import { parseArgs } from 'node:util';
import { createClient } from '@supabase/supabase-js';
import { escapeHTML } from 'astro/runtime/server/escape.js';
import type { PublishView } from '../src/features/publish/publish.ts';
import { readClientEnv } from '../src/lib/supabase.server.ts';
import { runMain } from './lib/main.ts';
import { withStack } from './stack/index.ts';

/** The target: from 'Save Changes' to the public home page showing the change. */
const TARGET_SECONDS = 30;
const GIVE_UP_SECONDS = 180;

interface Session {
	token: string;
	tenantId: string;
}

async function json(response: Response): Promise<Record<string, unknown>> {
	const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
	if (!response.ok)
		throw new Error(`${response.url}: ${response.status} ${String(body.error ?? '')}`);
	return body;
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: `http://localhost:${process.env.PORT || 8888}` },
			runs: { type: 'string', default: '3' },
			email: { type: 'string', default: 'admin@demo.test' },
			password: { type: 'string', default: 'demo-password' },
		},
	});
	const runs = Number(values.runs);
	if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive whole number');
	const site = values.url.replace(/\/$/, '');
	await fetch(site).catch(() => {
		throw new Error(`Nothing answers at ${site}: start the site first (npm start)`);
	});

	await withStack(async (stack) => {
		const env = readClientEnv({ ...process.env, ...stack.env });
		const login = await json(
			await fetch(`${site}/api/auth/supabase-login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ email: values.email, password: values.password }),
			}),
		);
		const session: Session = {
			token: (login.session as { access_token: string }).access_token,
			tenantId: (login.user as { tenantId: string }).tenantId,
		};
		const client = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
			global: { headers: { Authorization: `Bearer ${session.token}` } },
			auth: { persistSession: false },
		});
		const tenantKey = (login.user as { tenantKey: string }).tenantKey;

		async function readContent(): Promise<Record<string, unknown>> {
			return (await readConfig()).content;
		}

		/** The content section and its version (a save states the version it was made from). */
		async function readConfig() {
			const { data, error } = await client
				.from('chamber_config')
				.select('content, config_versions')
				.eq('tenant_id', session.tenantId)
				.single<{ content: Record<string, unknown>; config_versions: { content?: number } }>();
			if (error) throw new Error(`Reading the configuration failed: ${error.message}`);
			return data;
		}

		/**
		 * A save as the panel makes it: POST /api/update-config (which writes with the user's token
		 * and requests the publish). Where that function is not there yet, its two steps: the write
		 * with the user's token, then POST /api/publish.
		 */
		async function save(title: string): Promise<'update-config' | 'write + publish'> {
			const response = await fetch(`${site}/api/update-config`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
				body: JSON.stringify({
					chamber: tenantKey,
					section: 'content',
					field: 'heroTitle',
					value: title,
					version: (await readConfig()).config_versions.content ?? 0,
				}),
			});
			if (response.status !== 404) {
				await json(response);
				return 'update-config';
			}
			await response.body?.cancel();
			const content = await readContent();
			const { error } = await client
				.from('chamber_config')
				.update({ content: { ...content, heroTitle: title } })
				.eq('tenant_id', session.tenantId);
			if (error) throw new Error(`Saving failed: ${error.message}`);
			await json(
				await fetch(`${site}/api/publish`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
					body: JSON.stringify({ reason: 'Content saved' }),
				}),
			);
			return 'write + publish';
		}

		async function latestPublish(): Promise<PublishView | undefined> {
			const body = await json(
				await fetch(`${site}/api/publish-status?limit=1`, {
					headers: { authorization: `Bearer ${session.token}` },
				}),
			);
			return (body.publishes as PublishView[])[0];
		}

		/** Saves `title` and waits for the home page to show it; seconds and the phases seen. */
		async function measure(title: string) {
			const started = performance.now();
			const path = await save(title);
			const phases: string[] = [];
			const expected = String(escapeHTML(title));
			for (;;) {
				const elapsed = (performance.now() - started) / 1000;
				if (elapsed > GIVE_UP_SECONDS) throw new Error(`Not live after ${GIVE_UP_SECONDS} s`);
				const [home, publish] = await Promise.all([
					fetch(`${site}/`, { headers: { 'cache-control': 'no-cache' } }).then((r) => r.text()),
					latestPublish(),
				]);
				const phase = `${publish?.state ?? 'none'} ${elapsed.toFixed(1)} s`;
				if (publish && !phases.some((p) => p.startsWith(`${publish.state} `))) phases.push(phase);
				if (publish?.state === 'failed') throw new Error(`Publish failed: ${publish.error}`);
				if (home.includes(expected)) return { seconds: elapsed, phases, path };
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}

		const original = String((await readContent()).heroTitle ?? '');
		const results: number[] = [];
		try {
			for (let run = 1; run <= runs; run++) {
				const title = `Shop local, run ${run} at ${new Date().toISOString().slice(11, 19)}`;
				const { seconds, phases, path } = await measure(title);
				results.push(seconds);
				console.log(
					`run ${run}: live after ${seconds.toFixed(1)} s (${path}; ${phases.join(' → ')})`,
				);
			}
		} finally {
			console.log('Putting the hero title back…');
			await measure(original || 'Discover local businesses').catch((error: unknown) =>
				console.error(`Could not put the title back: ${String(error)}`),
			);
		}
		const sorted = [...results].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
		console.log(
			`\nSave to live on ${tenantKey}: median ${median.toFixed(1)} s, min ${sorted[0]?.toFixed(1)} s, ` +
				`max ${sorted.at(-1)?.toFixed(1)} s over ${results.length} run(s); target ≤ ${TARGET_SECONDS} s: ` +
				(median <= TARGET_SECONDS ? 'met' : 'NOT met'),
		);
	});
});
