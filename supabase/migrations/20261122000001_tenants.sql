/**
  ---------------------------------------------------------------------------
  Tenants and the people who administer them
  ---------------------------------------------------------------------------
  One database holds many chambers (tenants); every other table carries a
  tenant_id, and row-level security keeps each chamber's rows to itself.
 */

create table if not exists public.tenants (
	id uuid primary key default gen_random_uuid(),
	slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	name text not null check (length(trim(name)) > 0),
	created_at timestamptz not null default now()
);

comment on table public.tenants is 'One row per chamber of commerce; slug is the TENANT a deployment builds.';

alter table public.tenants enable row level security;

/**
  ---------------------------------------------------------------------------
  Admin users: which auth user administers which chamber, in which role
  ---------------------------------------------------------------------------
 */
create table if not exists public.admin_users (
	user_id uuid primary key references auth.users (id) on delete cascade,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	email text not null,
	role text not null check (role in ('super_admin', 'admin', 'editor')),
	created_at timestamptz not null default now()
);

comment on table public.admin_users is 'Admin-portal users: super_admin (full access, all chambers), admin (chamber management), editor (content only).';

create index if not exists admin_users_tenant_id_idx on public.admin_users (tenant_id);

alter table public.admin_users enable row level security;

/**
  ---------------------------------------------------------------------------
  The one reusable tenant-role check
  ---------------------------------------------------------------------------
  security definer so policies can consult admin_users without granting
  anyone read access to it; search_path pinned so no caller can shadow a
  table or operator.
 */
create or replace function public.has_tenant_role(
	check_tenant_id uuid,
	allowed_roles text[] default array['super_admin', 'admin', 'editor']
) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select exists (
		select 1
		from public.admin_users au
		where au.user_id = auth.uid()
			and au.role = any (allowed_roles)
			and (
				au.tenant_id = check_tenant_id
				-- A super_admin sees and manages every chamber.
				or (au.role = 'super_admin' and check_tenant_id is not null)
			)
	);
$$;

comment on function public.has_tenant_role is 'True when the signed-in user holds one of allowed_roles for the tenant (a super_admin holds it for every tenant).';

revoke all on function public.has_tenant_role(uuid, text[]) from public;
grant execute on function public.has_tenant_role(uuid, text[]) to anon, authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  Policies
  ---------------------------------------------------------------------------
 */
drop policy if exists "Anyone can read the list of chambers" on public.tenants;
create policy "Anyone can read the list of chambers" on public.tenants
	for select to anon, authenticated
	using (true);

drop policy if exists "Users can read their own admin record" on public.admin_users;
create policy "Users can read their own admin record" on public.admin_users
	for select to authenticated
	using (user_id = auth.uid());

drop policy if exists "Super admins can read every admin record" on public.admin_users;
create policy "Super admins can read every admin record" on public.admin_users
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));

drop policy if exists "Super admins can add admin users" on public.admin_users;
create policy "Super admins can add admin users" on public.admin_users
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin']));

drop policy if exists "Super admins can change admin users" on public.admin_users;
create policy "Super admins can change admin users" on public.admin_users
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin']));

drop policy if exists "Super admins can remove admin users" on public.admin_users;
create policy "Super admins can remove admin users" on public.admin_users
	for delete to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));
