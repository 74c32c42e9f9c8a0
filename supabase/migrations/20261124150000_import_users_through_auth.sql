/**
  ---------------------------------------------------------------------------
  Admin users: the identity service's users, our admin records
  ---------------------------------------------------------------------------
  The auth schema belongs to Supabase Auth (GoTrue): its users are created,
  changed and found through its admin API, never by writing auth.users. The
  import (src/features/tenants/tenants.server.ts) creates the users it needs
  there first, then records them here, in the same transaction as the rest of
  the chamber:
  - import_users_check refuses a file that names another chamber's admin, or
    a super_admin without --allow-super-admin, before anything is created;
  - import_tenant_users writes the admin records from the users' ids.
 */

create or replace function public.import_users_conflicts(
	p_tenant_id uuid,
	p_users jsonb,
	p_allow_super_admin boolean
) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_conflict text;
begin
	select string_agg(format('%s (%s)', au.email, t.slug), ', ' order by au.email)
	into v_conflict
	from jsonb_array_elements(p_users) u
	join public.admin_users au on au.email = lower(u ->> 'email')
	join public.tenants t on t.id = au.tenant_id
	where au.tenant_id is distinct from p_tenant_id;
	if v_conflict is not null then
		raise exception 'These users belong to another chamber and an import changes only its own chamber''s users: %', v_conflict
			using errcode = '42501';
	end if;

	if not p_allow_super_admin then
		select string_agg(lower(u ->> 'email'), ', ')
		into v_conflict
		from jsonb_array_elements(p_users) u
		where u ->> 'role' = 'super_admin';
		if v_conflict is not null then
			raise exception 'A super_admin administers every chamber; import with --allow-super-admin to create or keep one: %', v_conflict
				using errcode = '42501';
		end if;
	end if;
end;
$$;

comment on function public.import_users_conflicts is 'Raises when a tenant file''s users include another chamber''s admin, or a super_admin without the flag.';
revoke all on function public.import_users_conflicts(uuid, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_users_conflicts(uuid, jsonb, boolean) to service_role;

create or replace function public.import_users_check(
	p_slug text,
	p_users jsonb,
	p_allow_super_admin boolean
) returns table (email text, user_id uuid)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	perform public.import_users_conflicts(
		(select t.id from public.tenants t where t.slug = p_slug), p_users, p_allow_super_admin
	);
	return query
	select au.email, au.user_id
	from public.admin_users au
	join public.tenants t on t.id = au.tenant_id
	where t.slug = p_slug and au.email in (select lower(u ->> 'email') from jsonb_array_elements(p_users) u);
end;
$$;

comment on function public.import_users_check is 'Before an import creates identities: refuses conflicting users (see import_users_conflicts) and answers which of the file''s users are already this chamber''s admins.';
revoke all on function public.import_users_check(text, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_users_check(text, jsonb, boolean) to service_role;

create or replace function public.import_tenant_users(
	p_tenant_id uuid,
	p_users jsonb,
	p_allow_super_admin boolean
) returns integer
language plpgsql
security definer
set search_path = ''
as $$
begin
	-- Again inside the import's transaction: another import may have run since the check.
	perform public.import_users_conflicts(p_tenant_id, p_users, p_allow_super_admin);

	insert into public.admin_users (user_id, tenant_id, email, role)
	select (u ->> 'user_id')::uuid, p_tenant_id, lower(u ->> 'email'), u ->> 'role'
	from jsonb_array_elements(p_users) u
	on conflict (user_id) do update set role = excluded.role
		where public.admin_users.tenant_id = excluded.tenant_id
			and public.admin_users.role is distinct from excluded.role;

	return jsonb_array_length(p_users);
end;
$$;

comment on function public.import_tenant_users is 'Records the importing chamber''s admin users (created beforehand through the Auth admin API) and their roles.';

drop function if exists public.get_user_password_hashes(text[]);

drop trigger if exists admin_users_sync_app_metadata on public.admin_users;
drop function if exists public.admin_users_sync_app_metadata();

create or replace function public.audit_actor(p_tenant_id uuid)
returns table (actor_id uuid, actor_email text, actor_role text)
language sql
stable
security definer
set search_path = ''
as $$
	select
		auth.uid(),
		coalesce(
			nullif(auth.jwt() ->> 'email', ''),
			(select au.email from public.admin_users au where au.user_id = auth.uid())
		),
		coalesce(public.tenant_role(p_tenant_id), nullif(auth.role(), ''), 'database');
$$;

/**
  ---------------------------------------------------------------------------
  applied_migrations: what `npm run doctor` compares with the checkout
  ---------------------------------------------------------------------------
  The Supabase CLI (and the local stack) record each applied migration in
  supabase_migrations.schema_migrations, a schema the Data API does not
  expose. The service role reads the list through this function.
 */
create or replace function public.applied_migrations()
returns table (version text, name text)
language sql
stable
security definer
set search_path = ''
as $$
	select m.version, m.name from supabase_migrations.schema_migrations m order by m.version;
$$;

comment on function public.applied_migrations is 'The migrations applied to this database (version and name), for npm run doctor. Service role only.';
revoke all on function public.applied_migrations() from public, anon, authenticated;
grant execute on function public.applied_migrations() to service_role;
