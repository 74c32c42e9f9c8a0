import { useCallback, useEffect, useId, useState } from 'react';
import {
	ADMIN_ROLES,
	CAPABILITIES,
	can,
	ROLE_LABELS,
	ROLE_NAMES,
	type AdminRole,
} from '../../auth/auth.ts';
import type { AdminTabProps } from '../admin.ts';
import { SelectField } from '../fields.tsx';
import { at, callApi, expiresIn } from '../../ui/api.ts';
import Dialog from '../../ui/Dialog.tsx';
import DialogActions from '../../ui/DialogActions.tsx';
import '../../ui/ui.css';
import {
	createUserBodySchema,
	formatUserDate,
	tenantsFromUsers,
	USER_CREATE_FAILED,
	USER_DELETE_FAILED,
	USER_NOTICE_MS,
	USERS_LOAD_FAILED,
	type AdminUserListItem,
	type TenantListItem,
} from './users.ts';

type Users =
	{ kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; users: AdminUserListItem[] };

function PermissionTable() {
	const id = useId();
	return (
		<section className="admin-section" aria-labelledby={id}>
			<h3 id={id}>Role Permissions</h3>
			<div className="ops-table-wrap">
				<table className="ops-table" aria-labelledby={id}>
					<thead>
						<tr>
							<th scope="col">Capability</th>
							{ADMIN_ROLES.map((role) => (
								<th key={role} scope="col">
									{ROLE_NAMES[role]}
									<br />
									<small>{ROLE_LABELS[role]}</small>
								</th>
							))}
						</tr>
					</thead>
					<tbody>
						{CAPABILITIES.map((capability) => (
							<tr key={capability}>
								<th scope="row">{capability}</th>
								{ADMIN_ROLES.map((role) => (
									<td key={role}>{can(role, capability) ? 'Yes' : 'No'}</td>
								))}
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</section>
	);
}

interface CreateForm {
	email: string;
	password: string;
	tenantId: string;
	role: AdminRole;
}

/** An API error as the dialog says it: the fallback alone, or the fallback and the reason. */
function failure(fallback: string, error: string): string {
	return error === fallback ? error : `${fallback}: ${error}`;
}

/** The users, each with its Delete button (not for the signed-in user's own row). */
function UsersTable({
	users,
	labelledBy,
	selfId,
	onDelete,
}: {
	users: AdminUserListItem[];
	labelledBy: string;
	selfId: string;
	onDelete(user: AdminUserListItem): void;
}) {
	return (
		<div className="ops-table-wrap">
			<table className="ops-table" aria-labelledby={labelledBy}>
				<thead>
					<tr>
						<th scope="col">Email</th>
						<th scope="col">Role</th>
						<th scope="col">Chamber</th>
						<th scope="col">Created</th>
						<th scope="col">Last sign-in</th>
						<th scope="col">
							<span className="sr-only">Actions</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{users.map((row) => (
						<tr key={row.userId}>
							<td>{row.email}</td>
							<td>{ROLE_NAMES[row.role]}</td>
							<td>{row.tenantName}</td>
							<td>{formatUserDate(row.createdAt)}</td>
							<td>{formatUserDate(row.lastSignIn)}</td>
							<td>
								{row.userId !== selfId && (
									<button
										type="button"
										className="admin-button admin-button--secondary"
										aria-label={`Delete ${row.email}`}
										onClick={() => onDelete(row)}
									>
										Delete
									</button>
								)}
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** 'Create User': the form in its dialog, checked with the API's schema before it is sent. */
function CreateUserDialog({
	open,
	chambers,
	defaultTenantId,
	getAccessToken,
	onClose,
	onCreated,
}: {
	open: boolean;
	chambers: readonly TenantListItem[];
	defaultTenantId: string;
	getAccessToken: AdminTabProps['getAccessToken'];
	onClose(): void;
	onCreated(user: AdminUserListItem): void;
}) {
	const ids = useId();
	const [form, setForm] = useState<CreateForm>({
		email: '',
		password: '',
		tenantId: defaultTenantId,
		role: 'admin',
	});
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);

	async function submit() {
		const parsed = createUserBodySchema.safeParse(form);
		if (!parsed.success) {
			setError(parsed.error.issues[0]?.message ?? USER_CREATE_FAILED);
			return;
		}
		setBusy(true);
		const result = await callApi<{ user: AdminUserListItem }>('/api/admin/users', getAccessToken, {
			json: parsed.data,
			fallback: USER_CREATE_FAILED,
		});
		setBusy(false);
		if (!result.ok) setError(failure(USER_CREATE_FAILED, result.error));
		else onCreated(result.data.user);
	}

	return (
		<Dialog open={open} labelledBy={`${ids}-create`} onClose={onClose}>
			<form
				onSubmit={(event) => {
					event.preventDefault();
					void submit();
				}}
				noValidate
			>
				<h3 id={`${ids}-create`}>Create User</h3>
				<div className="admin-field">
					<label htmlFor={`${ids}-email`}>Email</label>
					<input
						id={`${ids}-email`}
						type="email"
						required
						autoComplete="off"
						value={form.email}
						onChange={(e) => setForm({ ...form, email: e.target.value })}
					/>
				</div>
				<div className="admin-field">
					<label htmlFor={`${ids}-password`}>Password</label>
					<input
						id={`${ids}-password`}
						type="password"
						required
						minLength={6}
						autoComplete="new-password"
						aria-describedby={`${ids}-password-hint`}
						value={form.password}
						onChange={(e) => setForm({ ...form, password: e.target.value })}
					/>
					<p id={`${ids}-password-hint`} className="admin-field__hint">
						At least 6 characters.
					</p>
				</div>
				<SelectField
					label="Chamber"
					value={form.tenantId}
					options={chambers.map((t) => ({ value: t.id, label: t.name }))}
					onChange={(tenantId) => setForm({ ...form, tenantId })}
				/>
				<SelectField
					label="Role"
					value={form.role}
					options={ADMIN_ROLES.map((role) => ({
						value: role,
						label: `${ROLE_NAMES[role]} (${ROLE_LABELS[role]})`,
					}))}
					onChange={(role) => setForm({ ...form, role })}
				/>
				<DialogActions error={error} onCancel={onClose}>
					<button type="submit" className="admin-button" disabled={busy}>
						{busy ? 'Creating...' : 'Create User'}
					</button>
				</DialogActions>
			</form>
		</Dialog>
	);
}

/** 'Delete User': asks first, then deletes through the API. */
function DeleteUserDialog({
	user,
	getAccessToken,
	onClose,
	onDeleted,
}: {
	/** The user to delete; null: the dialog is closed. */
	user: AdminUserListItem | null;
	getAccessToken: AdminTabProps['getAccessToken'];
	onClose(): void;
	onDeleted(): void;
}) {
	const id = useId();
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);

	async function confirm() {
		if (!user) return;
		setBusy(true);
		const result = await callApi<{ success: true }>('/api/admin/users', getAccessToken, {
			method: 'DELETE',
			json: { userId: user.userId },
			fallback: USER_DELETE_FAILED,
		});
		setBusy(false);
		if (!result.ok) setError(failure(USER_DELETE_FAILED, result.error));
		else onDeleted();
	}

	return (
		<Dialog open={user !== null} labelledBy={id} onClose={onClose}>
			<h3 id={id}>Delete User</h3>
			<p>
				Delete <strong>{user?.email}</strong>? They will no longer be able to sign in.
			</p>
			<DialogActions error={error} onCancel={onClose}>
				<button
					type="button"
					className="admin-button"
					disabled={busy}
					onClick={() => void confirm()}
				>
					{busy ? 'Deleting...' : 'Delete'}
				</button>
			</DialogActions>
		</Dialog>
	);
}

/**
 * The Users tab, super_admin only: the role permission table, every
 * admin user with chamber, created and last sign-in, 'Create User' and delete, each in a modal
 * dialog; success notices for 5 s.
 */
export default function UsersTab({ user, chamber, getAccessToken }: AdminTabProps) {
	const ids = useId();
	const [users, setUsers] = useState<Users>({ kind: 'loading' });
	const [tenants, setTenants] = useState<TenantListItem[] | null>(null);
	const [notice, setNotice] = useState<{ text: string; until: number } | null>(null);
	const [creating, setCreating] = useState(false);
	const [deleting, setDeleting] = useState<AdminUserListItem | null>(null);
	// Each opening of a dialog starts it afresh (an empty form, no earlier error); the dialogs stay
	// mounted while closed, so that closing them hands focus back to what opened them.
	const [opened, setOpened] = useState(0);

	const loadUsers = useCallback(
		() =>
			callApi<{ users: AdminUserListItem[] }>('/api/admin/users', getAccessToken, {
				fallback: USERS_LOAD_FAILED,
			}).then((result) =>
				result.ok
					? ({ kind: 'ready', users: result.data.users } as const)
					: ({ kind: 'failed' } as const),
			),
		[getAccessToken],
	);

	useEffect(() => {
		let live = true;
		void loadUsers().then((next) => live && setUsers(next));
		void callApi<{ tenants: TenantListItem[] }>('/api/admin/tenants', getAccessToken, {
			fallback: 'Failed to load chambers',
		}).then((result) => live && result.ok && setTenants(result.data.tenants));
		return () => {
			live = false;
		};
	}, [loadUsers, getAccessToken]);

	useEffect(() => {
		if (!notice) return;
		return at(notice.until, () => setNotice(null));
	}, [notice]);

	// Without the tenants call, the chambers the users list names.
	const chambers =
		tenants ??
		(users.kind === 'ready'
			? tenantsFromUsers(users.users)
			: [{ id: chamber.id, name: chamber.name, tenant_key: chamber.key }]);

	if (!can(user.role, 'Manage Users')) return null;
	return (
		<div>
			<PermissionTable />
			<section className="admin-section" aria-labelledby={`${ids}-users`}>
				<div className="ops-toolbar">
					<h3 id={`${ids}-users`}>Users</h3>
					<button
						type="button"
						className="admin-button"
						onClick={() => {
							setOpened(opened + 1);
							setCreating(true);
						}}
					>
						Create User
					</button>
				</div>
				<div role="status" aria-live="polite">
					{notice && <p className="admin-banner admin-banner--success">{notice.text}</p>}
				</div>
				{users.kind === 'loading' && <p>Loading users...</p>}
				{users.kind === 'failed' && (
					<p role="alert" className="admin-banner admin-banner--error">
						{USERS_LOAD_FAILED}
					</p>
				)}
				{users.kind === 'ready' && (
					<UsersTable
						users={users.users}
						labelledBy={`${ids}-users`}
						selfId={user.id}
						onDelete={(row) => {
							setOpened(opened + 1);
							setDeleting(row);
						}}
					/>
				)}
			</section>

			<CreateUserDialog
				key={`create-${opened}`}
				open={creating}
				chambers={chambers}
				defaultTenantId={chamber.id}
				getAccessToken={getAccessToken}
				onClose={() => setCreating(false)}
				onCreated={(created) => {
					setCreating(false);
					setNotice({
						text: `User ${created.email} created successfully`,
						until: expiresIn(USER_NOTICE_MS),
					});
					void loadUsers().then(setUsers);
				}}
			/>
			<DeleteUserDialog
				key={`delete-${opened}`}
				user={deleting}
				getAccessToken={getAccessToken}
				onClose={() => setDeleting(null)}
				onDeleted={() => {
					setNotice({
						text: `User ${deleting?.email} deleted successfully`,
						until: expiresIn(USER_NOTICE_MS),
					});
					setDeleting(null);
					void loadUsers().then(setUsers);
				}}
			/>
		</div>
	);
}
