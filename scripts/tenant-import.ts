/**
 * npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin]
 * Validates each tenant file with zod and upserts it in one transaction; a bad file writes nothing.
 * A file may create users of its own chamber only; super_admins (who administer every chamber)
 * only with --allow-super-admin.
 */
import { readFile } from 'node:fs/promises';
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
	const unknown = args.filter((a) => a.startsWith('--') && a !== '--allow-super-admin');
	if (files.length === 0 || unknown.length > 0)
		throw new Error(
			'Usage: npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin]' +
				(unknown.length ? ` (unknown option ${unknown.join(', ')})` : ''),
		);
	const allowSuperAdmin = args.includes('--allow-super-admin');
	// Parse everything first, so a bad file fails before the stack even starts.
	const parsed: { file: string; data: TenantFile }[] = [];
	for (const file of files) {
		let json: unknown;
		try {
			json = JSON.parse(await readFile(file, 'utf8'));
		} catch (error) {
			throw new Error(`${file}: not readable JSON: ${(error as Error).message}`, { cause: error });
		}
		parsed.push({ file, data: parseTenantFile(json, file) });
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
		for (const { file, data } of parsed) {
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
