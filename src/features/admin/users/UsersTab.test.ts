// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAPABILITIES } from '../../auth/auth.ts';
import {
	advance,
	backend,
	CHAMBER,
	cleanup,
	on,
	render,
	tabProps,
	type Route,
} from '../../ui/test-support.ts';
import UsersTab from './UsersTab.tsx';
import type { AdminUserListItem } from './users.ts';

const SELF = '22222222-2222-4222-8222-222222222222';
const OTHER_CHAMBER = {
	id: '33333333-3333-4333-8333-333333333333',
	name: 'Riverside Chamber',
	tenant_key: 'riverside',
};

function person(
	email: string,
	role: AdminUserListItem['role'],
	userId: string,
	lastSignIn: string | null,
	tenant = { id: CHAMBER.id, name: CHAMBER.name, tenant_key: CHAMBER.key },
): AdminUserListItem {
	return {
		userId,
		id: userId,
		email,
		role,
		tenantId: tenant.id,
		tenantName: tenant.name,
		tenantKey: tenant.tenant_key,
		createdAt: '2026-10-05T15:00:00.000Z',
		lastSignIn,
	};
}

let people: AdminUserListItem[];

function usersServer(extra: Route[] = []) {
	return backend(
		...extra,
		on('GET', '/api/admin/users', () => Response.json({ users: people })),
		on('GET', '/api/admin/tenants', () =>
			Response.json({
				tenants: [{ id: CHAMBER.id, name: CHAMBER.name, tenant_key: CHAMBER.key }, OTHER_CHAMBER],
			}),
		),
	);
}

afterEach(() => {
	cleanup();
	vi.useRealTimers();
});

function freshPeople() {
	people = [
		person('super@demo.test', 'super_admin', SELF, '2026-11-03T12:00:00.000Z'),
		person('admin@demo.test', 'admin', '44444444-4444-4444-8444-444444444444', null),
		person(
			'admin@riverside.test',
			'admin',
			'55555555-5555-4555-8555-555555555555',
			'2026-11-01T12:00:00.000Z',
			OTHER_CHAMBER,
		),
	];
}

describe('UsersTab', () => {
	it('the role permission table follows can()', async () => {
		freshPeople();
		await render(UsersTab, tabProps('super_admin', usersServer()));
		screen.getByRole('table', { name: 'Role Permissions' });
		for (const capability of CAPABILITIES) screen.getByRole('rowheader', { name: capability });
		const row = (name: string) =>
			within(screen.getByRole('rowheader', { name }).closest('tr')!)
				.getAllByRole('cell')
				.map((c) => c.textContent);
		expect(row('Manage Users')).toEqual(['Yes', 'No', 'No']);
		expect(row('Purge Cache')).toEqual(['Yes', 'Yes', 'No']);
		expect(row('Edit Content & Text')).toEqual(['Yes', 'Yes', 'Yes']);
		screen.getByRole('columnheader', { name: 'Editor Content Only' });
	});

	it('lists every user with role, chamber, created and last sign-in (a date or Never); no delete for oneself', async () => {
		freshPeople();
		await render(UsersTab, tabProps('super_admin', usersServer()));
		const cells = async (email: string) =>
			within((await screen.findByRole('cell', { name: email })).closest('tr')!)
				.getAllByRole('cell')
				.map((c) => c.textContent);
		expect(await cells('admin@demo.test')).toEqual([
			'admin@demo.test',
			'Admin',
			'Demo Chamber',
			'Oct 5, 2026',
			'Never',
			'Delete',
		]);
		expect((await cells('super@demo.test')).slice(1, 5)).toEqual([
			'Super Admin',
			'Demo Chamber',
			'Oct 5, 2026',
			'Nov 3, 2026',
		]);
		expect(screen.queryByRole('button', { name: 'Delete super@demo.test' })).toBeNull();
		screen.getByRole('button', { name: 'Delete admin@riverside.test' });
	});

	it('a failed load says so', async () => {
		await render(
			UsersTab,
			tabProps(
				'super_admin',
				backend(
					on('GET', '/api/admin/users', () => Response.json({ error: 'x' }, { status: 500 })),
				),
			),
		);
		await screen.findByText('Failed to load users');
	});

	it('Create User: a modal dialog; validation; the call; a notice for 5 s and the list reloaded', async () => {
		vi.useFakeTimers();
		freshPeople();
		const server = usersServer([
			on('POST', '/api/admin/users', (request) => {
				const body = request.body as { email: string; tenantId: string; role: 'editor' };
				const created = person(
					body.email,
					body.role,
					'66666666-6666-4666-8666-666666666666',
					null,
					OTHER_CHAMBER,
				);
				people = [...people, created];
				return Response.json({ user: created }, { status: 201 });
			}),
		]);
		await render(UsersTab, tabProps('super_admin', server));
		await screen.findByRole('cell', { name: 'admin@demo.test' });
		fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
		const dialog = await screen.findByRole('dialog', { name: 'Create User' });
		expect((dialog as HTMLDialogElement).open).toBe(true);
		expect((within(dialog).getByLabelText('Role') as HTMLSelectElement).value).toBe('admin');
		await waitFor(() =>
			expect(
				within(dialog)
					.getAllByRole('option')
					.map((o) => o.textContent),
			).toContain('Riverside Chamber'),
		);

		fireEvent.input(within(dialog).getByLabelText('Email'), {
			target: { value: 'new@riverside.test' },
		});
		fireEvent.input(within(dialog).getByLabelText('Password'), { target: { value: '12345' } });
		fireEvent.submit(within(dialog).getByRole('button', { name: 'Create User' }).closest('form')!);
		await within(dialog).findByText('Password must be at least 6 characters');
		expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

		fireEvent.input(within(dialog).getByLabelText('Password'), { target: { value: '123456' } });
		fireEvent.change(within(dialog).getByLabelText('Chamber'), {
			target: { value: OTHER_CHAMBER.id },
		});
		fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'editor' } });
		fireEvent.submit(within(dialog).getByRole('button', { name: 'Create User' }).closest('form')!);
		await screen.findByText('User new@riverside.test created successfully');
		expect(server.requests.find((r) => r.method === 'POST')!.body).toEqual({
			email: 'new@riverside.test',
			password: '123456',
			tenantId: OTHER_CHAMBER.id,
			role: 'editor',
		});
		await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
		await screen.findByRole('cell', { name: 'new@riverside.test' });
		await advance(5_000);
		expect(screen.queryByText(/created successfully/)).toBeNull();
	});

	it('a refused create keeps the dialog open with the reason', async () => {
		freshPeople();
		const server = usersServer([
			on('POST', '/api/admin/users', () =>
				Response.json(
					{ error: 'A user with this email address has already been registered' },
					{ status: 409 },
				),
			),
		]);
		await render(UsersTab, tabProps('super_admin', server));
		fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
		const dialog = await screen.findByRole('dialog', { name: 'Create User' });
		fireEvent.input(within(dialog).getByLabelText('Email'), {
			target: { value: 'admin@demo.test' },
		});
		fireEvent.input(within(dialog).getByLabelText('Password'), { target: { value: 'secret1' } });
		fireEvent.submit(dialog.querySelector('form')!);
		await within(dialog).findByText(
			'Failed to create user: A user with this email address has already been registered',
		);
		expect((dialog as HTMLDialogElement).open).toBe(true);
	});

	it('delete asks first, then removes the user; a failure is shown in the dialog', async () => {
		freshPeople();
		let fail = true;
		const server = usersServer([
			on('DELETE', '/api/admin/users', (request) => {
				if (fail) return new Response('oops', { status: 502 });
				const { userId } = request.body as { userId: string };
				people = people.filter((p) => p.userId !== userId);
				return Response.json({ success: true });
			}),
		]);
		await render(UsersTab, tabProps('super_admin', server));
		fireEvent.click(await screen.findByRole('button', { name: 'Delete admin@riverside.test' }));
		const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
		within(dialog).getByText('admin@riverside.test');
		expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);

		fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
		await within(dialog).findByText('Failed to delete user');
		fail = false;
		fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
		await screen.findByText('User admin@riverside.test deleted successfully');
		expect(server.requests.filter((r) => r.method === 'DELETE').at(-1)!.body).toEqual({
			userId: '55555555-5555-4555-8555-555555555555',
		});
		await waitFor(() =>
			expect(screen.queryByRole('cell', { name: 'admin@riverside.test' })).toBeNull(),
		);
	});

	it('Cancel closes the delete dialog without a call', async () => {
		freshPeople();
		const server = usersServer();
		await render(UsersTab, tabProps('super_admin', server));
		fireEvent.click(await screen.findByRole('button', { name: 'Delete admin@demo.test' }));
		const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
		fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
		await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
		expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
	});

	it('without the tenants call, the chambers come from the users list', async () => {
		freshPeople();
		const server = backend(
			on('GET', '/api/admin/users', () => Response.json({ users: people })),
			on('GET', '/api/admin/tenants', () => Response.json({ error: 'Not found' }, { status: 404 })),
		);
		await render(UsersTab, tabProps('super_admin', server));
		await screen.findByRole('cell', { name: 'admin@demo.test' });
		fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
		const dialog = await screen.findByRole('dialog', { name: 'Create User' });
		expect(
			within(dialog)
				.getAllByRole('option', { hidden: true })
				.map((o) => o.textContent),
		).toEqual(expect.arrayContaining(['Demo Chamber', 'Riverside Chamber']));
	});

	it('an admin sees nothing (and asks for nothing)', async () => {
		const server = usersServer();
		await render(UsersTab, tabProps('admin', server));
		expect(screen.queryByRole('button')).toBeNull();
	});
});
