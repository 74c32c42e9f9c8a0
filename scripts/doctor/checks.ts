import { readdir } from 'node:fs/promises';
import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../src/lib/database.ts';
import { decodeJwt } from 'jose';
import nodemailer from 'nodemailer';
import { readContactEnv } from '../../src/features/contact/contact.server.ts';
import type { StackMode } from '../../src/lib/env.server.ts';
import type { PublishWindow } from '../../src/features/config/config.ts';
import {
	DEFAULT_MONTHLY_BUDGET,
	MAX_MONTHLY_BUDGET,
	NETLIFY_CREDITS,
	PUBLISH_WINDOW_LABELS,
} from '../../src/features/publish/policy.ts';
import { MIGRATIONS_DIR } from '../stack/migrate.ts';

/**
 * `npm run doctor`: a deployment's configuration, checked the way the site will use it, one line
 * per finding with what to do about a wrong one. Every check is independent: one that fails does
 * not hide the others.
 */

export interface Finding {
	ok: boolean;
	what: string;
	/** How to put it right (for a finding that is not ok, or a warning). */
	fix?: string;
	/** Works as it is, with a default the deployment should choose deliberately: shown, not failed. */
	warn?: boolean;
}

export interface DoctorTarget {
	mode: StackMode;
	supabaseUrl: string;
	anonKey: string;
	serviceKey: string;
	tenant: string;
	env: NodeJS.ProcessEnv;
}

const TIMEOUT_MS = 5000;
const BUILD_HOOK = /^https:\/\/api\.netlify\.com\/build_hooks\/[0-9a-f]{24}$/;

/** The role a Supabase API key stands for: a legacy JWT's claim, or the new keys' prefix. */
function keyRole(key: string): string | null {
	if (key.startsWith('sb_publishable_')) return 'anon';
	if (key.startsWith('sb_secret_')) return 'service_role';
	try {
		const role = decodeJwt(key).role;
		return typeof role === 'string' ? role : null;
	} catch {
		return null;
	}
}

function checkKeys(anonKey: string, serviceKey: string): Finding[] {
	const anon = keyRole(anonKey);
	const service = keyRole(serviceKey);
	if (anon === 'service_role' && service === 'anon') {
		return [
			{
				ok: false,
				what: 'SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are swapped',
				fix: 'exchange the two values (Supabase dashboard: Project Settings → API Keys)',
			},
		];
	}
	const line = (name: string, role: string | null, wanted: string): Finding =>
		role === wanted
			? { ok: true, what: `${name} is the ${wanted} key` }
			: {
					ok: false,
					what: `${name} is ${role ? `a key of the ${role} role` : 'not a Supabase API key'}, not the ${wanted} key`,
					fix:
						wanted === 'anon'
							? 'use the project’s anon (publishable) key: it is public, and row-level security applies to it'
							: 'use the project’s service_role (secret) key',
				};
	return [
		line('SUPABASE_ANON_KEY', anon, 'anon'),
		line('SUPABASE_SERVICE_ROLE_KEY', service, 'service_role'),
	];
}

async function reachable(url: string, apikey: string, name: string, fix: string): Promise<Finding> {
	try {
		const res = await fetch(url, { headers: { apikey }, signal: AbortSignal.timeout(TIMEOUT_MS) });
		await res.body?.cancel();
		return res.ok
			? { ok: true, what: `${name} answers at ${url}` }
			: { ok: false, what: `${name} at ${url} answered ${res.status}`, fix };
	} catch (error) {
		return {
			ok: false,
			what: `${name} at ${url} did not answer (${(error as Error).message})`,
			fix,
		};
	}
}

async function checkMigrations(service: SupabaseClient): Promise<Finding[]> {
	const files = (await readdir(MIGRATIONS_DIR))
		.filter((f) => /^\d+_.+\.sql$/.test(f))
		.sort()
		.map((f) => f.replace(/\.sql$/, ''));
	const { data, error } = await service.rpc('applied_migrations');
	if (error) {
		return [
			{
				ok: false,
				what: `the applied migrations cannot be read (${error.message})`,
				fix: 'apply the migrations: `npx supabase db push` (docs/deploy.md)',
			},
		];
	}
	const applied = new Set((data as { version: string }[]).map((m) => m.version));
	return files.map((file) => {
		const version = file.split('_')[0]!;
		return applied.has(version)
			? { ok: true, what: `migration ${file} applied` }
			: {
					ok: false,
					what: `migration ${file} not applied`,
					fix: 'apply it: `npx supabase db push` (docs/deploy.md)',
				};
	});
}

async function checkTenant(service: SupabaseClient, slug: string): Promise<Finding[]> {
	const { data: tenant, error } = await service
		.from('tenants')
		.select('id, name')
		.eq('slug', slug)
		.maybeSingle();
	if (error || !tenant) {
		return [
			{
				ok: false,
				what: error
					? `the chambers cannot be read (${error.message})`
					: `TENANT "${slug}" is not in the database`,
				fix: error
					? 'check SUPABASE_SERVICE_ROLE_KEY and that the migrations are applied'
					: 'import the chamber: `npm run tenant:import -- FILE.json` (docs/deploy.md)',
			},
		];
	}
	const findings: Finding[] = [{ ok: true, what: `TENANT "${slug}" is ${tenant.name}` }];
	const { data: admins, error: adminsError } = await service
		.from('admin_users')
		.select('user_id, email, role')
		.eq('tenant_id', tenant.id)
		.order('email');
	if (adminsError) {
		return [...findings, { ok: false, what: `its admins cannot be read (${adminsError.message})` }];
	}
	if (admins.length === 0) {
		findings.push({
			ok: false,
			what: `"${slug}" has no admin`,
			fix: 'add one to the tenant file’s users and import it again',
		});
	}
	for (const admin of admins) {
		const { data, error: userError } = await service.auth.admin.getUserById(admin.user_id);
		const found = !userError && data.user?.email?.toLowerCase() === admin.email;
		findings.push(
			found
				? { ok: true, what: `admin ${admin.email} (${admin.role}) has an identity` }
				: {
						ok: false,
						what: `admin ${admin.email} (${admin.role}) is not found by the Auth admin API${userError ? ` (${userError.message})` : ''}`,
						fix: 'import the chamber again: it creates missing identities through the Auth admin API',
					},
		);
	}
	return findings;
}

async function checkLogosBucket(service: SupabaseClient): Promise<Finding> {
	const { data, error } = await service.storage.getBucket('logos');
	if (error || !data) {
		return {
			ok: false,
			what: `the logos bucket is missing (${error?.message ?? 'not found'})`,
			fix: 'apply the migrations: they create it',
		};
	}
	return data.public
		? { ok: true, what: 'the logos bucket is public' }
		: {
				ok: false,
				what: 'the logos bucket is private: logos on the site would not load',
				fix: 'make it public (Supabase dashboard: Storage → logos → Edit bucket)',
			};
}

async function checkMail(target: DoctorTarget): Promise<Finding> {
	const smtpUrl = target.env.SMTP_URL;
	if (!smtpUrl) {
		if (target.mode !== 'hosted') {
			const { outboxDir } = readContactEnv(target.env, 'local');
			return { ok: true, what: `mail goes to the outbox folder ${outboxDir}` };
		}
		return {
			ok: false,
			what: 'SMTP_URL is not set: the contact form cannot deliver messages',
			fix: 'set SMTP_URL=smtps://user:password@host:465 (and MAIL_FROM) in the site’s variables',
		};
	}
	const host = new URL(smtpUrl).host;
	try {
		const transport = nodemailer.createTransport({
			url: smtpUrl,
			connectionTimeout: TIMEOUT_MS,
			greetingTimeout: TIMEOUT_MS,
		});
		await transport.verify();
		transport.close();
		return { ok: true, what: `the mail server ${host} accepts the login` };
	} catch (error) {
		return {
			ok: false,
			what: `the mail server ${host} did not accept the connection (${(error as Error).message})`,
			fix: 'check SMTP_URL’s host, port, user and password',
		};
	}
}

function checkBuildHook(target: DoctorTarget): Finding {
	const hook = target.env.NETLIFY_BUILD_HOOK_URL;
	if (target.mode !== 'hosted') {
		return { ok: true, what: 'publishing uses npm start’s own build hook' };
	}
	if (!hook) {
		return {
			ok: false,
			what: 'NETLIFY_BUILD_HOOK_URL is not set: saves in the admin panel would not publish',
			fix: 'create a build hook (Netlify: Site configuration → Build & deploy → Build hooks) and set it',
		};
	}
	return BUILD_HOOK.test(hook)
		? { ok: true, what: 'NETLIFY_BUILD_HOOK_URL is a Netlify build hook' }
		: {
				ok: false,
				what: 'NETLIFY_BUILD_HOOK_URL is not of the form https://api.netlify.com/build_hooks/{id}',
				fix: 'copy the hook’s URL from Netlify: Site configuration → Build & deploy → Build hooks',
			};
}

/** On a deployment every setting is explicit: no chamber is picked by default there. */
function checkVariables(target: DoctorTarget): Finding {
	if (target.mode !== 'hosted') {
		return { ok: true, what: `the local stack (${target.mode}) serves TENANT "${target.tenant}"` };
	}
	return target.env.TENANT
		? {
				ok: true,
				what: 'SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and TENANT are set',
			}
		: {
				ok: false,
				what: 'TENANT is not set: the site would build the demo chamber',
				fix: 'set TENANT to the chamber’s slug (its tenant file’s tenant.slug)',
			};
}

/**
 * The month's publish budget (PUBLISH_MONTHLY_BUDGET): each publish is a production deploy,
 * 15 Netlify credits; left unset the default applies, which fits the Personal plan.
 */
function checkPublishBudget(env: NodeJS.ProcessEnv): Finding {
	const value = env.PUBLISH_MONTHLY_BUDGET?.trim();
	if (!value) {
		return {
			ok: true,
			warn: true,
			what: `PUBLISH_MONTHLY_BUDGET is not set: the chamber may make ${DEFAULT_MONTHLY_BUDGET} publishes a month (${DEFAULT_MONTHLY_BUDGET * NETLIFY_CREDITS.deploy} Netlify credits of deploys)`,
			fix: 'set it to what your Netlify plan’s credits allow (docs/deploy.md#what-a-chambers-month-costs)',
		};
	}
	const budget = Number(value);
	return Number.isInteger(budget) && budget >= 1 && budget <= MAX_MONTHLY_BUDGET
		? {
				ok: true,
				what: `PUBLISH_MONTHLY_BUDGET is ${budget} publishes a month (${budget * NETLIFY_CREDITS.deploy} Netlify credits of deploys)`,
			}
		: {
				ok: false,
				what: `PUBLISH_MONTHLY_BUDGET is "${value}", not a number of publishes from 1 to ${MAX_MONTHLY_BUDGET}`,
				fix: 'set a whole number, e.g. 40 for the Personal plan (docs/deploy.md#what-a-chambers-month-costs)',
			};
}

/** The chamber's publish window (features.publishWindow): unset, the default hour applies. */
async function checkPublishWindow(service: SupabaseClient, slug: string): Promise<Finding | null> {
	const { data, error } = await service
		.from('chamber_config')
		.select('features')
		.eq('slug', slug)
		.maybeSingle<{ features: Record<string, unknown> | null }>();
	if (error || !data) return null;
	const window = data.features?.publishWindow;
	return typeof window === 'string'
		? {
				ok: true,
				what: `members' changes, syncs and imports of "${slug}" go live ${PUBLISH_WINDOW_LABELS[window as PublishWindow]?.toLowerCase() ?? window}`,
			}
		: {
				ok: true,
				warn: true,
				what: `the publish window of "${slug}" is not set: members' changes, syncs and imports go live every hour`,
				fix: 'choose it in the admin panel: Content → Member updates (docs/publishing.md)',
			};
}

export async function runDoctor(target: DoctorTarget): Promise<Finding[]> {
	const findings: Finding[] = [
		{ ok: true, what: `mode: ${target.mode}, ${target.supabaseUrl}` },
		checkVariables(target),
	];
	const keys = checkKeys(target.anonKey, target.serviceKey);
	findings.push(...keys);
	findings.push(
		await reachable(
			`${target.supabaseUrl}/rest/v1/`,
			target.anonKey,
			'the Data API (REST)',
			'check SUPABASE_URL (https://<project-ref>.supabase.co) and that the project is not paused',
		),
		await reachable(
			`${target.supabaseUrl}/auth/v1/health`,
			target.anonKey,
			'the Auth API',
			'check SUPABASE_URL and that the project is not paused',
		),
	);
	// With a key of the wrong role, the checks below would only repeat the same finding.
	if (keys.some((k) => !k.ok)) return findings;
	const service = createClient<Database>(target.supabaseUrl, target.serviceKey, {
		auth: { persistSession: false, autoRefreshToken: false },
	});
	findings.push(...(await checkMigrations(service)));
	findings.push(...(await checkTenant(service, target.tenant)));
	findings.push(await checkLogosBucket(service));
	findings.push(await checkMail(target));
	findings.push(checkBuildHook(target));
	findings.push(checkPublishBudget(target.env));
	const window = await checkPublishWindow(service, target.tenant);
	if (window) findings.push(window);
	return findings;
}

export function formatFinding(finding: Finding): string {
	if (finding.warn) return `! ${finding.what}${finding.fix ? `: ${finding.fix}` : ''}`;
	return finding.ok
		? `✓ ${finding.what}`
		: `✗ ${finding.what}${finding.fix ? `: ${finding.fix}` : ''}`;
}
