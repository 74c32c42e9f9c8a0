import { format } from 'date-fns/format';
import { z } from 'zod';
import { ADMIN_ROLES, PASSWORD_MIN_LENGTH, type AdminRole } from '../../auth/auth.ts';

// The Users tab and /api/admin/users, /api/admin/tenants (docs/behaviour.md#users): the shapes
// the functions answer, the bodies they accept, and the texts the tab shows.

/** An admin user as the list shows it. */
export interface AdminUserListItem {
	/** auth.users.id (the list answers it as both userId and id). */
	userId: string;
	id: string;
	email: string;
	role: AdminRole;
	tenantId: string;
	tenantName: string;
	tenantKey: string;
	/** ISO time the admin record was created. */
	createdAt: string;
	/** ISO time of the last sign-in, or null when they never signed in. */
	lastSignIn: string | null;
}

/** A chamber users can be created in. */
export interface TenantListItem {
	id: string;
	name: string;
	tenant_key: string;
}

const email = z
	.string({ error: 'Email is required' })
	.trim()
	.toLowerCase()
	.min(1, { error: 'Email is required' })
	.max(320)
	.pipe(z.email({ error: 'Please enter a valid email address' }));

/** POST /api/admin/users. */
export const createUserBodySchema = z.object({
	/** The new user's e-mail; required. */
	email,
	/** At least 6 characters. */
	password: z
		.string({ error: 'Password is required' })
		.min(PASSWORD_MIN_LENGTH, {
			error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
		})
		.max(72, { error: 'Password must be at most 72 characters' }),
	/** The chamber (tenants.id); required. */
	tenantId: z.guid({ error: 'Chamber is required' }),
	/** super_admin, admin or editor; default admin. */
	role: z
		.enum(ADMIN_ROLES, { error: `role must be one of ${ADMIN_ROLES.join(', ')}` })
		.default('admin'),
});
export type CreateUserBody = z.output<typeof createUserBodySchema>;

/** DELETE /api/admin/users. */
export const deleteUserBodySchema = z.object({
	/** The auth user's id. */
	userId: z.guid({ error: 'userId must be a user id' }),
});

export const USERS_LOAD_FAILED = 'Failed to load users';
export const USER_CREATE_FAILED = 'Failed to create user';
export const USER_DELETE_FAILED = 'Failed to delete user';
export const CANNOT_DELETE_SELF = 'You cannot delete your own account.';
/** How long the tab shows a success notice. */
export const USER_NOTICE_MS = 5_000;

/** Dates in the list: 'Nov 3, 2026', or 'Never'. */
export function formatUserDate(iso: string | null | undefined): string {
	if (!iso) return 'Never';
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? 'Never' : format(date, 'MMM d, yyyy');
}

/**
 * The chambers to offer in 'Create User': the tenants call's answer, or, when it failed, the
 * chambers the users list names.
 */
export function tenantsFromUsers(users: readonly AdminUserListItem[]): TenantListItem[] {
	const byId = new Map<string, TenantListItem>();
	for (const user of users) {
		byId.set(user.tenantId, {
			id: user.tenantId,
			name: user.tenantName,
			tenant_key: user.tenantKey,
		});
	}
	return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}
