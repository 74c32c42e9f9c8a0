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
import { after, callApi } from '../../ui/api.ts';
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

/**
 * The Users tab, super_admin only: the role permission table, every
 * admin user with chamber, created and last sign-in, 'Create User' and delete, each in a modal
 * dialog; success notices for 5 s.
 */
export default function UsersTab({ user, chamber, getAccessToken }: AdminTabProps) {
	const ids = useId();
	const [users, setUsers] = useState<Users>({ kind: 'loading' });
	const [tenants, setTenants] = useState<TenantListItem[] | null>(null);
	const [notice, setNotice] = useState<string | null>(null);
	const [creating, setCreating] = useState(false);
	const [form, setForm] = useState<CreateForm>({
		email: '',
		password: '',
		tenantId: chamber.id,
		role: 'admin',
	});
	const [formError, setFormError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const [deleting, setDeleting] = useState<AdminUserListItem | null>(null);
	const [deleteError, setDeleteError] = useState<string | null>(null);

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
		return after(USER_NOTICE_MS, () => setNotice(null));
	}, [notice]);

	// Without the tenants call, the chambers the users list names.
	const chambers =
		tenants ??
		(users.kind === 'ready'
			? tenantsFromUsers(users.users)
			: [{ id: chamber.id, name: chamber.name, tenant_key: chamber.key }]);

	function openCreate() {
		setForm({ email: '', password: '', tenantId: chamber.id, role: 'admin' });
		setFormError(null);
		setCreating(true);
	}

	async function submitCreate() {
		const parsed = createUserBodySchema.safeParse(form);
		if (!parsed.success) {
			setFormError(parsed.error.issues[0]?.message ?? USER_CREATE_FAILED);
			return;
		}
		setBusy(true);
		const result = await callApi<{ user: AdminUserListItem }>('/api/admin/users', getAccessToken, {
			json: parsed.data,
			fallback: USER_CREATE_FAILED,
		});
		setBusy(false);
		if (!result.ok) {
			setFormError(
				result.error === USER_CREATE_FAILED
					? result.error
					: `${USER_CREATE_FAILED}: ${result.error}`,
			);
			return;
		}
		setCreating(false);
		setNotice(`User ${result.data.user.email} created successfully`);
		setUsers(await loadUsers());
	}

	async function confirmDelete() {
		if (!deleting) return;
		setBusy(true);
		const result = await callApi<{ success: true }>('/api/admin/users', getAccessToken, {
			method: 'DELETE',
			json: { userId: deleting.userId },
			fallback: USER_DELETE_FAILED,
		});
		setBusy(false);
		if (!result.ok) {
			setDeleteError(
				result.error === USER_DELETE_FAILED
					? result.error
					: `${USER_DELETE_FAILED}: ${result.error}`,
			);
			return;
		}
		setNotice(`User ${deleting.email} deleted successfully`);
		setDeleting(null);
		setUsers(await loadUsers());
	}

	if (!can(user.role, 'Manage Users')) return null;
	return (
		<div>
			<PermissionTable />
			<section className="admin-section" aria-labelledby={`${ids}-users`}>
				<div className="ops-toolbar">
					<h3 id={`${ids}-users`}>Users</h3>
					<button type="button" className="admin-button" onClick={openCreate}>
						Create User
					</button>
				</div>
				<div role="status" aria-live="polite">
					{notice && <p className="admin-banner admin-banner--success">{notice}</p>}
				</div>
				{users.kind === 'loading' && <p>Loading users...</p>}
				{users.kind === 'failed' && (
					<p role="alert" className="admin-banner admin-banner--error">
						{USERS_LOAD_FAILED}
					</p>
				)}
				{users.kind === 'ready' && (
					<div className="ops-table-wrap">
						<table className="ops-table" aria-labelledby={`${ids}-users`}>
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
								{users.users.map((row) => (
									<tr key={row.userId}>
										<td>{row.email}</td>
										<td>{ROLE_NAMES[row.role]}</td>
										<td>{row.tenantName}</td>
										<td>{formatUserDate(row.createdAt)}</td>
										<td>{formatUserDate(row.lastSignIn)}</td>
										<td>
											{row.userId !== user.id && (
												<button
													type="button"
													className="admin-button admin-button--secondary"
													aria-label={`Delete ${row.email}`}
													onClick={() => {
														setDeleteError(null);
														setDeleting(row);
													}}
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
				)}
			</section>

			<Dialog open={creating} labelledBy={`${ids}-create`} onClose={() => setCreating(false)}>
				<form
					onSubmit={(event) => {
						event.preventDefault();
						void submitCreate();
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
					<DialogActions error={formError} onCancel={() => setCreating(false)}>
						<button type="submit" className="admin-button" disabled={busy}>
							{busy ? 'Creating...' : 'Create User'}
						</button>
					</DialogActions>
				</form>
			</Dialog>

			<Dialog
				open={deleting !== null}
				labelledBy={`${ids}-delete`}
				onClose={() => setDeleting(null)}
			>
				<h3 id={`${ids}-delete`}>Delete User</h3>
				<p>
					Delete <strong>{deleting?.email}</strong>? They will no longer be able to sign in.
				</p>
				<DialogActions error={deleteError} onCancel={() => setDeleting(null)}>
					<button
						type="button"
						className="admin-button"
						disabled={busy}
						onClick={() => void confirmDelete()}
					>
						{busy ? 'Deleting...' : 'Delete'}
					</button>
				</DialogActions>
			</Dialog>
		</div>
	);
}
