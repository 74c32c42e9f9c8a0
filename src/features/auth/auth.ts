import { z } from 'zod';

// Who may do what in the admin portal (spec 02 §6). Pure logic, no I/O: the functions, the
// pages and the tests share it. The database enforces the same table on its own (RLS and
// triggers); this module is what the interface and the functions check first.

export const ADMIN_ROLES = ['super_admin', 'admin', 'editor'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** How each role is described in the Users tab's reference table (spec 02 §6). */
export const ROLE_LABELS: Record<AdminRole, string> = {
	super_admin: 'Full Access',
	admin: 'Chamber Management',
	editor: 'Content Only',
};

/** The capabilities of spec 02 §6, in the table's order. */
export const CAPABILITIES = [
	'Manage Users',
	'Edit Colors & Branding',
	'Upload Logos',
	'Edit Contact Info',
	'Manage Navigation',
	'Purge Cache',
	'Edit Content & Text',
	'View All Chambers',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const PERMISSIONS: Record<AdminRole, ReadonlySet<Capability>> = {
	super_admin: new Set(CAPABILITIES),
	admin: new Set<Capability>([
		'Edit Colors & Branding',
		'Upload Logos',
		'Edit Contact Info',
		'Manage Navigation',
		'Purge Cache',
		'Edit Content & Text',
	]),
	editor: new Set<Capability>(['Edit Content & Text']),
};

export function can(role: AdminRole, capability: Capability): boolean {
	return PERMISSIONS[role].has(capability);
}

/** The signed-in admin as the functions answer it (spec 02 §3 Admin user). */
export const adminUserSchema = z.object({
	id: z.uuid(),
	email: z.string(),
	role: z.enum(ADMIN_ROLES),
	/** The chamber the user belongs to. */
	tenantId: z.uuid(),
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
