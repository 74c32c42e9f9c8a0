import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import { createAuthClient, readClientEnv, type ClientEnv } from '../../lib/supabase.server.ts';
import { parseTenantFile, TenantFileError, type TenantFile } from '../tenants/tenant-file.ts';
import { importTenant, listTenants, type ImportSummary } from '../tenants/tenants.server.ts';

/**
 * Users the import created without a password (a tenant file may name a user without one, as the
 * generator's first admin): each gets the identity service's password-reset e-mail, which for them
 * sets a first password. Returns who was sent one and who could not be.
 */
export async function sendSetPasswordEmails(
	emails: readonly string[],
	siteUrl: string,
	env: ClientEnv = readClientEnv(),
): Promise<{ sent: string[]; failed: { email: string; reason: string }[] }> {
	const result = { sent: [] as string[], failed: [] as { email: string; reason: string }[] };
	const redirectTo = new URL('/reset-password', siteUrl).href;
	for (const email of emails) {
		// A client per call: supabase-js keeps per-client auth state.
		const { error: sendError } = await createAuthClient(env).auth.resetPasswordForEmail(email, {
			redirectTo,
		});
		if (sendError) result.failed.push({ email, reason: sendError.message });
		else result.sent.push(email);
	}
	return result;
}

export interface CreatedChamber {
	slug: string;
	name: string;
	tenantId: string;
	/** Where the new chamber's configuration is edited. */
	panelUrl: string;
	/** Administrators who were sent the e-mail to set their password. */
	invited: string[];
	/** Those whose e-mail could not be sent (the chamber exists; send a reset from the login page). */
	notInvited: string[];
}

/**
 * 'Create chamber' (super_admin only; the caller checks): the generator's tenant file, validated by
 * the import's own parser, imported as a new chamber — never over an existing one — with the
 * service role (the import creates identities through the Auth admin API), then the first admin
 * invited.
 */
export async function createChamber(
	service: SupabaseClient,
	input: unknown,
	siteUrl: string,
): Promise<CreatedChamber> {
	let file: TenantFile;
	try {
		file = parseTenantFile(input, 'tenant file');
	} catch (error) {
		if (error instanceof TenantFileError) throw new HttpError(400, error.message);
		throw error;
	}
	const existing = await listTenants(service);
	if (existing.some((t) => t.slug === file.tenant.slug)) {
		throw new HttpError(409, `A chamber with the slug "${file.tenant.slug}" already exists.`);
	}
	let summary: ImportSummary;
	try {
		summary = await importTenant(service, file, { allowSuperAdmin: false });
	} catch (error) {
		const cause = (error as { cause?: { code?: string; message?: string } }).cause;
		// The database refuses users of another chamber and super_admins (import_tenant_users).
		if (cause?.code === '42501' && cause.message) throw new HttpError(409, cause.message);
		throw error;
	}
	const mail = await sendSetPasswordEmails(summary.createdWithoutPassword, siteUrl);
	for (const failure of mail.failed) {
		console.warn(`[chambers] set-password e-mail to ${failure.email} not sent: ${failure.reason}`);
	}
	return {
		slug: file.tenant.slug,
		name: file.tenant.name,
		tenantId: summary.tenant_id,
		panelUrl: `/chamber-config-v2?chamber=${encodeURIComponent(file.tenant.slug)}`,
		invited: mail.sent,
		notInvited: mail.failed.map((f) => f.email),
	};
}
