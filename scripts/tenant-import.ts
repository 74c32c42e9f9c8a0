/**
 * npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin] [--dry-run]
 * Validates each tenant file with zod and upserts it in one transaction; a bad file writes nothing.
 * A file may create users of its own chamber only; super_admins (who administer every chamber)
 * only with --allow-super-admin. Each file's businesses are first compared with the directory by
 * the member import's dry run, whose summary is printed; --dry-run stops there and writes nothing.
 */
import { readFile } from 'node:fs/promises';
import type { SupabaseClient } from '../src/lib/database.ts';
import { resolveMapping } from '../src/features/members/import/fields.ts';
import {
	countDecision,
	emptyCounts,
	fieldLabel,
	formatSummary,
	showValue,
} from '../src/features/members/import/import.ts';
import { dryRun } from '../src/features/members/import/import.server.ts';
import { readTable } from '../src/features/members/import/read.server.ts';
import { getTenantBySlugOrNull } from '../src/features/tenants/lookup.server.ts';
import { parseTenantFile, type TenantFile } from '../src/features/tenants/tenant-file.ts';
import { importTenant } from '../src/features/tenants/tenants.server.ts';
import { sendSetPasswordEmails } from '../src/features/generator/generator.server.ts';
import {
	getServiceClient,
	readClientEnv,
	LONG_CALL_TIMEOUT_MS,
} from '../src/lib/supabase.server.ts';
import { withStack } from './stack/index.ts';
import { runMain } from './lib/main.ts';

runMain(async () => {
	const args = process.argv.slice(2);
	const files = args.filter((a) => !a.startsWith('--'));
	const unknown = args.filter(
		(a) => a.startsWith('--') && a !== '--allow-super-admin' && a !== '--dry-run',
	);
	if (files.length === 0 || unknown.length > 0)
		throw new Error(
			'Usage: npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin] [--dry-run]' +
				(unknown.length ? ` (unknown option ${unknown.join(', ')})` : ''),
		);
	const allowSuperAdmin = args.includes('--allow-super-admin');
	const dryRunOnly = args.includes('--dry-run');
	// Parse everything first, so a bad file fails before the stack even starts.
	const parsed: { file: string; data: TenantFile; bytes: Uint8Array; businesses: boolean }[] = [];
	for (const file of files) {
		let json: unknown;
		const bytes = await readFile(file);
		try {
			json = JSON.parse(bytes.toString('utf8'));
		} catch (error) {
			throw new Error(`${file}: not readable JSON: ${(error as Error).message}`, { cause: error });
		}
		// A file without businesses leaves the directory as it is (a chamber's settings and users).
		const businesses = Array.isArray((json as { businesses?: unknown } | null)?.businesses);
		parsed.push({ file, data: parseTenantFile(json, file), bytes, businesses });
	}
	await withStack(async (stack) => {
		const env = readClientEnv({
			...process.env,
			...stack.env,
			SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
		});
		const client = getServiceClient(env);
		// Where the set-password e-mail's link leads: the chamber's site (its /reset-password page).
		const siteUrl = process.env.SITE_URL || `http://localhost:${process.env.PORT || 8888}`;
		for (const { file, data, bytes, businesses } of parsed) {
			if (businesses) await printDryRun(client, file, data, bytes);
			else
				console.log(
					`${file} (tenant "${data.tenant.slug}"): no businesses; the directory stays as it is`,
				);
			if (dryRunOnly) continue;
			const started = Date.now();
			const summary = await importTenant(client, data, { allowSuperAdmin });
			console.log(
				`Imported ${file} as tenant "${data.tenant.slug}": ${summary.businesses} businesses, ` +
					`${summary.events} events, ${summary.users} users (${Date.now() - started} ms)`,
			);
			const mail = await sendSetPasswordEmails(summary.createdWithoutPassword, siteUrl, env);
			for (const email of mail.sent) {
				console.log(`  ${email} has no password yet: sent the e-mail to set one.`);
			}
			for (const { email, reason } of mail.failed) {
				console.warn(`  ${email} has no password and the e-mail to set one failed: ${reason}`);
			}
		}
		await stack.vacuum();
	});
});

/**
 * The member import's dry run of a tenant file's businesses (each the whole business, as the
 * import writes it), printed as the panel shows it: the summary, then each change and problem.
 */
async function printDryRun(
	client: SupabaseClient,
	file: string,
	data: TenantFile,
	bytes: Uint8Array,
): Promise<void> {
	const tenant = await getTenantBySlugOrNull(client, data.tenant.slug);
	// A file without businesses (users or events only) has none to compare: every business of
	// the chamber from the membership system is missing from it, as the import will treat them.
	const table = await readTable(
		data.businesses.length ? bytes : new TextEncoder().encode('[]'),
		data.businesses.length ? file : 'none.json',
	);
	const { mapping } = resolveMapping(table.headers, new Map());
	const counts = emptyCounts();
	const lines: string[] = [];
	const started = Date.now();
	for await (const decisions of dryRun(
		client,
		tenant?.id ?? '00000000-0000-0000-0000-000000000000',
		table.rows,
		mapping,
		{ whole: true },
	)) {
		for (const d of decisions) {
			countDecision(counts, d);
			const who = `${d.name ?? '(no name)'} (#${d.weblinkProfileId ?? '?'})`;
			if (d.action === 'invalid') {
				for (const e of d.errors)
					lines.push(`  invalid: business ${d.rowNumber}: ${e.column || e.field}: ${e.message}`);
			} else if (d.action === 'add') lines.push(`  add: ${who}`);
			else if (d.action === 'missing') lines.push(`  missing from the file (removed): ${who}`);
			for (const c of d.changes) {
				lines.push(
					c.kept
						? `  keep ${who}: ${fieldLabel(c.field)} as changed here (${showValue(c.before)}; the file has ${showValue(c.after)})`
						: `  change ${who}: ${fieldLabel(c.field)}: ${showValue(c.before)} → ${showValue(c.after)}`,
				);
			}
		}
	}
	console.log(
		`${file} (tenant "${data.tenant.slug}"): ${formatSummary(counts)} (${Date.now() - started} ms)`,
	);
	const shown = 200;
	for (const line of lines.slice(0, shown)) console.log(line);
	if (lines.length > shown) console.log(`  … and ${lines.length - shown} more.`);
}
