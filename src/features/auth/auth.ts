import { z } from 'zod';
// No eval probe under the Content-Security-Policy (hardening).
import '../../lib/zod-csp.ts';

// Who may do what in the admin portal. Pure logic, no I/O: the functions, the
// pages and the tests share it. The database enforces the same table on its own (RLS and
// triggers); this module is what the interface and the functions check first.

export const ADMIN_ROLES = ['super_admin', 'admin', 'editor'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** How each role is described in the Users tab's reference table. */
export const ROLE_LABELS: Record<AdminRole, string> = {
	super_admin: 'Full Access',
	admin: 'Chamber Management',
	editor: 'Content Only',
};

/** How a role is named to people. */
export const ROLE_NAMES: Record<AdminRole, string> = {
	super_admin: 'Super Admin',
	admin: 'Admin',
	editor: 'Editor',
};

/** The capabilities, in the permission table's order. */
export const CAPABILITIES = [
	'Manage Users',
	'Edit Colors & Branding',
	'Upload Logos',
	'Edit Contact Info',
	'Manage Navigation',
	'Purge Cache',
	'Edit Content & Text',
	'View Reports',
	'View All Chambers',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * The three sets of roles that calls are allowed to, as the database's policies name them
 * (`has_tenant_role(tenant)`, `…, array['super_admin', 'admin']`, `…, array['super_admin']`).
 */
export const ROLE_SETS = {
	/** Everyone with a role in the chamber. */
	staff: ADMIN_ROLES,
	/** Who administers the chamber. */
	admins: ['super_admin', 'admin'],
	/** Who administers every chamber. */
	superAdmins: ['super_admin'],
} as const satisfies Record<string, readonly AdminRole[]>;

/** Who holds each capability. */
const CAPABILITY_ROLES: Record<Capability, readonly AdminRole[]> = {
	'Manage Users': ROLE_SETS.superAdmins,
	'Edit Colors & Branding': ROLE_SETS.admins,
	'Upload Logos': ROLE_SETS.admins,
	'Edit Contact Info': ROLE_SETS.admins,
	'Manage Navigation': ROLE_SETS.admins,
	'Purge Cache': ROLE_SETS.admins,
	'Edit Content & Text': ROLE_SETS.staff,
	'View Reports': ROLE_SETS.admins,
	'View All Chambers': ROLE_SETS.superAdmins,
};

export function can(role: AdminRole, capability: Capability): boolean {
	return CAPABILITY_ROLES[capability].includes(role);
}

/** The signed-in admin as the functions answer it. */
export const adminUserSchema = z.object({
	id: z.guid(),
	email: z.string(),
	role: z.enum(ADMIN_ROLES),
	/** The chamber the user belongs to. */
	tenantId: z.guid(),
	/** That chamber's slug (the TENANT a deployment serves). */
	tenantKey: z.string(),
	tenantName: z.string(),
});
export type AdminUser = z.output<typeof adminUserSchema>;

/**
 * May this user work in the panel of the chamber `tenantKey`? Their own chamber, or any chamber
 * for a super_admin (View All Chambers).
 */
export function mayAccessChamber(user: Pick<AdminUser, 'role' | 'tenantKey'>, tenantKey: string) {
	return user.tenantKey === tenantKey || can(user.role, 'View All Chambers');
}

export const ACCESS_DENIED_MESSAGE =
	"Access Denied: You are not authorized to access this chamber's admin panel.";

// --- Sign-in -------------------------------------------------------------------------------------

const LOGIN_REQUIRED = 'Email and password are required';

/** POST /api/auth/supabase-login: both fields required, one message for either. */
export const loginBodySchema = z
	.object({
		email: z.string({ error: LOGIN_REQUIRED }).trim().max(320).default(''),
		password: z.string({ error: LOGIN_REQUIRED }).max(1024).default(''),
	})
	.refine((body) => body.email !== '' && body.password !== '', { error: LOGIN_REQUIRED });

/** POST /api/auth/forgot-password. */
export const forgotPasswordBodySchema = z.object({
	email: z
		.string({ error: 'Please enter your email address' })
		.trim()
		.toLowerCase()
		.pipe(z.email({ error: 'Please enter a valid email address' })),
});

/** The same message for an unknown address and a wrong password: nothing to enumerate. */
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';
export const NO_PORTAL_ACCESS_MESSAGE = 'This account has no access to the admin portal.';

/** Password rules of the reset page. */
export const PASSWORD_MIN_LENGTH = 6;

export type PasswordProblem = 'Passwords do not match' | 'Password must be at least 6 characters';

/** What keeps a new password from being submitted, in the order the page shows it. */
export function newPasswordProblem(password: string, confirm: string): PasswordProblem | null {
	if (password.length < PASSWORD_MIN_LENGTH || confirm.length < PASSWORD_MIN_LENGTH) {
		return 'Password must be at least 6 characters';
	}
	if (password !== confirm) return 'Passwords do not match';
	return null;
}

/** The admin pages a sign-in may return to; any other `redirect` goes to the panel. */
const SIGN_IN_RETURN_PATHS: readonly string[] = ['/chamber-config-v2', '/chamber-config/generator'];

/**
 * Where to go after signing in. The `redirect` parameter is resolved as the browser would resolve
 * it, against this site, and followed only to one of this site's admin pages: a `redirect` could
 * otherwise send a freshly signed-in admin to another site (`//evil.example`, or
 * `/..//evil.example`, which normalises to it).
 */
export function safeRedirect(value: string | null | undefined, fallback = '/chamber-config-v2') {
	if (!value) return fallback;
	const base = 'https://site.invalid';
	let url: URL;
	try {
		url = new URL(value, base);
	} catch {
		return fallback;
	}
	if (url.origin !== base || !SIGN_IN_RETURN_PATHS.includes(url.pathname)) return fallback;
	return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The sign-in answer's user, kept in the browser beside the session: the statistics page script
 * (reports/stats-beacon.js) reads it and counts nothing for staff.
 */
export const USER_INFO_KEY = 'chamber-admin-user';
