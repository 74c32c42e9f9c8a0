/**
  ---------------------------------------------------------------------------
  Baseline: the platform, tenants and the people who administer them
  ---------------------------------------------------------------------------
  The schema is defined once, by domain, in the six baseline files
  (20261121000000 to 20261121000005); later migrations change it forward
  only (CONTRIBUTING.md, "Add a migration"). supabase/schema.sql is the
  result, generated.

  This file: the extensions and default privileges every later file starts
  from, the chambers (tenants), their admin users and the one role check,
  the audit log, the tenant import's users, rate limits, the session guard
  PostgREST consults, the API roles' timeouts, and the list of applied
  migrations.

  Supabase's own objects (the API roles, auth.uid() and auth.jwt(), the auth
  and storage schemas and their tables) are the platform's: on a hosted
  project Supabase creates them, and no migration here creates or alters
  them. The local stack creates them before the migrations run
  (scripts/stack/platform/), in the shape a hosted project has them.
 */

create extension if not exists pg_trgm;
create extension if not exists btree_gin;

/**
  ---------------------------------------------------------------------------
  Privileges every object starts with
  ---------------------------------------------------------------------------
  Row-level security decides which rows; privileges decide which commands at
  all, so a missing policy is never the only thing between a visitor and a
  write. Supabase grants the API roles everything on new tables, sequences
  and functions by default; here a new object gives anon and authenticated
  nothing (each file grants what a policy lets them use), PUBLIC may execute
  no new function (PostgREST would offer it as /rest/v1/rpc/<name>), and the
  service role keeps all. The PUBLIC default can only be taken away
  globally (a per-schema REVOKE cannot remove a global default).
 */
grant usage on schema public to anon, authenticated, service_role;

alter default privileges in schema public grant all on tables to service_role;
alter default privileges in schema public grant all on sequences to service_role;
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;

alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges in schema public grant execute on functions to service_role;

/**
  ---------------------------------------------------------------------------
  Tenants: the chambers
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

create policy "Anyone can read the list of chambers" on public.tenants
	for select to anon, authenticated
	using (true);

grant select on table public.tenants to anon, authenticated;
grant all on table public.tenants to service_role;

/**
  ---------------------------------------------------------------------------
  Admin users: which auth user administers which chamber, in which role
  ---------------------------------------------------------------------------
  super_admin administers every chamber, admin manages one chamber, editor
  changes its content only. Who may do what, and where the database refuses
  the rest for a caller holding that user's token:

    capability               super_admin  admin  editor
    Manage Users             yes          -      -       admin_users policies (below)
    Edit Colors & Branding   yes          yes    -       chamber_config_check_role
    Upload Logos             yes          yes    -       may_manage_logo, the logo column
    Edit Contact Info        yes          yes    -       chamber_config_check_role
    Manage Navigation        yes          yes    -       chamber_config_check_role
    Purge Cache              yes          yes    -       bump_cache_version
    Edit Content & Text      yes          yes    yes     chamber_config_check_role
    View All Chambers        yes          -      -       tenant_role (below)
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
  The one role check
  ---------------------------------------------------------------------------
  tenant_role is the signed-in user's role for a chamber: their own role in
  their own chamber, 'super_admin' in every chamber for a super_admin, else
  null. has_tenant_role, which every policy uses, asks it. A member of a
  business (20261121000005_baseline_members.sql) is 'member' for its chamber
  only while a member function runs, and never one of has_tenant_role's
  default roles: no staff policy lets a member in. Both are security
  definer so policies can consult admin_users without granting anyone read
  access to it; search_path pinned so no caller can shadow a table or
  operator.
 */
create or replace function public.tenant_role(check_tenant_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		(
			select au.role
			from public.admin_users au
			where au.user_id = auth.uid()
				and check_tenant_id is not null
				and (au.tenant_id = check_tenant_id or au.role = 'super_admin')
		),
		-- A member, only while a member function of this chamber runs (it checked the binding).
		(
			select 'member'
			where check_tenant_id is not null
				and current_setting('chamber.acting_member', true) = check_tenant_id::text
				and auth.uid() is not null
		)
	);
$$;

comment on function public.tenant_role is 'The signed-in user''s staff role for a chamber (super_admin for every chamber if they are one), or null; member only inside the member functions.';

create or replace function public.has_tenant_role(
	check_tenant_id uuid,
	allowed_roles text[] default array['super_admin', 'admin', 'editor']
) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(public.tenant_role(check_tenant_id) = any (allowed_roles), false);
$$;

comment on function public.has_tenant_role is 'True when the signed-in user holds one of allowed_roles for the tenant (a super_admin holds it for every tenant).';

/** The order of the roles: what a role may do includes what the ones below it may. */
create or replace function public.admin_role_rank(p_role text)
returns integer
language sql
immutable
set search_path = ''
as $$
	select case p_role when 'super_admin' then 3 when 'admin' then 2 when 'editor' then 1 else 0 end;
$$;

comment on function public.admin_role_rank is 'super_admin 3, admin 2, editor 1, anything else 0.';

-- Staff policies of most tables call has_tenant_role, and the invoker trigger on chamber_config
-- tenant_role: authenticated runs them. No policy that applies to anon calls either.
revoke all on function public.tenant_role(uuid) from public, anon;
revoke all on function public.has_tenant_role(uuid, text[]) from public, anon;
revoke all on function public.admin_role_rank(text) from public, anon, authenticated;
grant execute on function public.tenant_role(uuid) to authenticated, service_role;
grant execute on function public.has_tenant_role(uuid, text[]) to authenticated, service_role;
grant execute on function public.admin_role_rank(text) to service_role;

create policy "Users can read their own admin record" on public.admin_users
	for select to authenticated
	using (user_id = auth.uid());

create policy "Super admins can read every admin record" on public.admin_users
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));

create policy "Super admins can add admin users" on public.admin_users
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin']));

create policy "Super admins can change admin users" on public.admin_users
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin']));

create policy "Super admins can remove admin users" on public.admin_users
	for delete to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));

grant select, insert, update, delete on table public.admin_users to authenticated;
grant all on table public.admin_users to service_role;

/**
  ---------------------------------------------------------------------------
  Audit log: every admin write, recorded by the database
  ---------------------------------------------------------------------------
  One row per changed field: who (from the token the database saw, never from
  a request body), when, which chamber, what (section and field) and the old
  and new values. Triggers and definer functions write it; nobody can write,
  change or delete a row through the API, the service role included. A
  configuration section's version is the id of its newest row here
  (config_section_version).
 */
create table if not exists public.audit_log (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	at timestamptz not null default now(),
	actor_id uuid,
	actor_email text,
	actor_role text not null,
	section text not null,
	field text,
	old_value jsonb,
	new_value jsonb,
	business_id uuid
);

comment on table public.audit_log is 'Every write to a chamber''s configuration, admin users and cache versions: who, when, section, field, old and new value. Written by triggers only.';
comment on column public.audit_log.actor_role is 'The writer''s role for the chamber (super_admin, admin, editor), or service_role / database for the import and other server-side writes.';
comment on column public.audit_log.section is 'Configuration section in the app''s naming (identity, colors, textColors, content, …), or users / cache.';
comment on column public.audit_log.field is 'Key within the section (e.g. primary, heroTitle), the user''s e-mail for users, the cache type for cache; null when the whole value changed.';
comment on column public.audit_log.business_id is 'The business the change is about (section business), else null.';

create index if not exists audit_log_tenant_at_idx on public.audit_log (tenant_id, at desc);
create index if not exists audit_log_business_at_idx on public.audit_log (business_id, at desc)
	where business_id is not null;
-- A configuration section's version: its newest row.
create index if not exists audit_log_tenant_section_id_idx
	on public.audit_log (tenant_id, section, id desc);

alter table public.audit_log enable row level security;

create policy "Chamber admins can read their chamber's audit log" on public.audit_log
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

revoke all on table public.audit_log from anon, authenticated, service_role;
grant select on table public.audit_log to authenticated, service_role;

/** Who is writing: the token's user, or the server side (service role, a direct connection). */
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

comment on function public.audit_actor is 'The current writer for audit rows: user id, e-mail and role for the chamber (or service_role / database).';

revoke all on function public.audit_actor(uuid) from public, anon, authenticated;
grant execute on function public.audit_actor(uuid) to service_role;

create or replace function public.admin_users_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
	v_email text;
	v_actor record;
begin
	if tg_op = 'UPDATE' and (old.role, old.tenant_id) is not distinct from (new.role, new.tenant_id) then
		return null;
	end if;
	if tg_op = 'DELETE' then
		v_tenant_id := old.tenant_id;
		v_email := old.email;
		-- Removed with its whole chamber: the chamber's audit log goes with it.
		if not exists (select 1 from public.tenants t where t.id = v_tenant_id) then
			return null;
		end if;
	else
		v_tenant_id := new.tenant_id;
		v_email := new.email;
	end if;
	select * into v_actor from public.audit_actor(v_tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		v_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'users', v_email,
		case when tg_op = 'INSERT' then null else jsonb_build_object('role', old.role, 'tenant_id', old.tenant_id) end,
		case when tg_op = 'DELETE' then null else jsonb_build_object('role', new.role, 'tenant_id', new.tenant_id) end
	);
	return null;
end;
$$;

comment on function public.admin_users_audit is 'Trigger: an audit_log row when an admin user is added, changed or removed.';

revoke all on function public.admin_users_audit() from public, anon, authenticated;
grant execute on function public.admin_users_audit() to service_role;

create trigger admin_users_audit after insert or update or delete on public.admin_users
	for each row execute function public.admin_users_audit();

/**
  ---------------------------------------------------------------------------
  Tenant import: users of the importing chamber only
  ---------------------------------------------------------------------------
  A tenant file could move an existing admin of another chamber into the
  importing one by naming their e-mail, and could create super_admins, who
  administer every chamber. So:
  - an import creates and updates users of its own chamber only; an e-mail
    that belongs to another chamber's admin stops the import, naming it;
  - a super_admin is created (or kept) only when the command was given
    --allow-super-admin (payload.allow_super_admin).
  The users themselves are Supabase Auth's: the import
  (src/features/tenants/tenants.server.ts) creates them through its admin API,
  never by writing auth.users, after import_users_check has refused a file
  that breaks the rules above; import_tenant then records them as this
  chamber's admins (import_tenant_users) in the same transaction as the rest
  of the chamber.
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

revoke all on function public.import_users_conflicts(uuid, jsonb, boolean) from public, anon, authenticated;
revoke all on function public.import_users_check(text, jsonb, boolean) from public, anon, authenticated;
revoke all on function public.import_tenant_users(uuid, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_users_conflicts(uuid, jsonb, boolean) to service_role;
grant execute on function public.import_users_check(text, jsonb, boolean) to service_role;
grant execute on function public.import_tenant_users(uuid, jsonb, boolean) to service_role;

/**
  ---------------------------------------------------------------------------
  Rate limits that hold across function instances
  ---------------------------------------------------------------------------
  Netlify runs many instances of a function, each with its own memory, so a
  limit kept in a process is a limit per instance. These hits live in the
  database instead: every instance sees the same count. A bucket is a text key
  the caller builds (e.g. 'login-ip:203.0.113.7', 'login-account:a@b.test');
  a limit is "at most N hits per bucket within a sliding window".

  Only the service role reaches these functions (the functions call them with
  the service key): a visitor holding the anon key must not be able to record
  hits against someone else's account, nor read who is being limited.
 */
create table if not exists public.rate_limit_hits (
	id bigint generated always as identity primary key,
	bucket text not null check (length(bucket) between 1 and 300),
	hit_at timestamptz not null default now()
);

comment on table public.rate_limit_hits is 'One row per counted request of a rate-limited action (failed sign-in, reset e-mail, contact message), keyed by bucket; pruned as windows pass.';
comment on column public.rate_limit_hits.bucket is 'What is limited, e.g. login-ip:203.0.113.7 or reset-email:a@b.test.';

create index if not exists rate_limit_hits_bucket_hit_at_idx on public.rate_limit_hits (bucket, hit_at);
create index if not exists rate_limit_hits_hit_at_idx on public.rate_limit_hits (hit_at);

-- No policies: nobody reads or writes the table through PostgREST; the functions below do.
alter table public.rate_limit_hits enable row level security;

revoke all on table public.rate_limit_hits from anon, authenticated;
grant all on table public.rate_limit_hits to service_role;

/** How long until a bucket may be hit again (0 = now). */
create or replace function public.rate_limit_status(
	p_bucket text,
	p_limit integer,
	p_window_seconds integer
) returns integer
language sql
stable
security definer
set search_path = ''
as $$
	-- With p_limit hits inside the window, the bucket frees up when the oldest of the newest
	-- p_limit hits leaves it.
	select coalesce(
		(
			select greatest(
				1,
				ceil(extract(epoch from (h.hit_at + make_interval(secs => p_window_seconds) - now())))::integer
			)
			from (
				select hit_at
				from public.rate_limit_hits
				where bucket = p_bucket and hit_at > now() - make_interval(secs => p_window_seconds)
				order by hit_at desc
				limit 1 offset greatest(p_limit - 1, 0)
			) h
		),
		0
	);
$$;

comment on function public.rate_limit_status is 'Seconds until p_bucket is below p_limit hits in the last p_window_seconds (0 when it is already).';

/**
  Counts a hit if the bucket allows it: 0 when the hit was counted, else the
  seconds to wait (nothing is counted then, so a client hammering a closed
  bucket does not extend its own wait). A transaction-scoped advisory lock per
  bucket makes check-and-count one step, so two instances cannot both take
  the last slot.
 */
create or replace function public.rate_limit_hit(
	p_bucket text,
	p_limit integer,
	p_window_seconds integer
) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_wait integer;
begin
	perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_bucket, 0));
	v_wait := public.rate_limit_status(p_bucket, p_limit, p_window_seconds);
	if v_wait > 0 then
		return v_wait;
	end if;
	insert into public.rate_limit_hits (bucket) values (p_bucket);
	perform public.rate_limit_prune();
	return 0;
end;
$$;

comment on function public.rate_limit_hit is 'Counts a hit on p_bucket if it has fewer than p_limit in the last p_window_seconds; returns 0, else the seconds to wait.';

/**
  Sign-in limits, counted before the password is checked: a limit checked
  first and counted after a failed check lets a burst through (a hundred
  concurrent guesses all pass the check before the first failure is
  counted). rate_limit_take counts the attempt in every bucket it names in
  one step, under a lock per bucket, or counts nothing and answers how long
  to wait when any bucket is full; only a counted attempt goes on to the
  password check. A bucket may be named with several windows (5 in 5
  minutes, 10 in an hour, 20 in a day): the waits grow as failures go on.
 */
create or replace function public.rate_limit_take(p_limits jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_bucket text;
	v_wait integer;
begin
	-- One lock per bucket, taken in a fixed order so overlapping callers cannot deadlock.
	for v_bucket in
		select distinct l ->> 'bucket' from jsonb_array_elements(p_limits) l order by 1
	loop
		perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || v_bucket, 0));
	end loop;
	select coalesce(max(public.rate_limit_status(
		l ->> 'bucket', (l ->> 'limit')::integer, (l ->> 'window')::integer
	)), 0)
	into v_wait
	from jsonb_array_elements(p_limits) l;
	if v_wait > 0 then
		return v_wait;
	end if;
	insert into public.rate_limit_hits (bucket)
	select distinct l ->> 'bucket' from jsonb_array_elements(p_limits) l;
	perform public.rate_limit_prune();
	return 0;
end;
$$;

comment on function public.rate_limit_take is 'Counts one hit in each bucket of p_limits ([{bucket, limit, window}]) when all have room, atomically; returns 0, else the seconds to wait (and counts nothing).';

/**
  A sign-in that succeeded clears its address-and-account bucket, and takes
  its hit back from its address's (an office where the whole staff signs in
  is not a burst).
 */
create or replace function public.rate_limit_clear(p_bucket text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits where bucket = p_bucket;
$$;

comment on function public.rate_limit_clear is 'Forgets every hit of a bucket.';

create or replace function public.rate_limit_refund(p_bucket text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits
	where id = (
		select id from public.rate_limit_hits where bucket = p_bucket order by hit_at desc, id desc limit 1
	);
$$;

comment on function public.rate_limit_refund is 'Takes back the newest hit of a bucket.';

/**
  Hits older than a day are past every window in use; they go, a little at a
  time, so the table stays the size of one day's traffic.
 */
create or replace function public.rate_limit_prune()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits
	where id in (
		select id from public.rate_limit_hits
		where hit_at < now() - interval '1 day'
		order by hit_at
		limit 500
	);
$$;

comment on function public.rate_limit_prune is 'Deletes up to 500 hits older than one day (called by every hit).';

revoke all on function public.rate_limit_status(text, integer, integer) from public, anon, authenticated;
revoke all on function public.rate_limit_hit(text, integer, integer) from public, anon, authenticated;
revoke all on function public.rate_limit_take(jsonb) from public, anon, authenticated;
revoke all on function public.rate_limit_clear(text) from public, anon, authenticated;
revoke all on function public.rate_limit_refund(text) from public, anon, authenticated;
revoke all on function public.rate_limit_prune() from public, anon, authenticated;
grant execute on function public.rate_limit_status(text, integer, integer) to service_role;
grant execute on function public.rate_limit_hit(text, integer, integer) to service_role;
grant execute on function public.rate_limit_take(jsonb) to service_role;
grant execute on function public.rate_limit_clear(text) to service_role;
grant execute on function public.rate_limit_refund(text) to service_role;
grant execute on function public.rate_limit_prune() to service_role;

/**
  ---------------------------------------------------------------------------
  A signed-out token stops working everywhere, not only at /auth/v1
  ---------------------------------------------------------------------------
  An access token is a signed JWT: PostgREST checks its signature and expiry,
  nothing else, so after a sign-out (or a password change, or a detected
  refresh-token reuse) the token would still read and write through
  /rest/v1 until it expires, up to an hour. The identity service refuses it
  at once (GET /auth/v1/user: session_not_found), because its session row is
  gone. This makes PostgREST refuse it too: a pre-request check (PostgREST's
  db-pre-request) that ends the request with 401 when the token names a
  session that no longer exists. Tokens without a session_id (the anon and
  service keys) pass untouched.

  The same works on hosted Supabase, where GoTrue deletes auth.sessions rows
  on sign-out: `alter role authenticator set pgrst.db_pre_request` is how
  Supabase's docs install a pre-request check (supautils lets the postgres
  role set pgrst.* there). The local stack's PostgREST may connect with
  another login, so scripts/stack/postgrest.ts names the function in
  PGRST_DB_PRE_REQUEST as well. There is one pre-request function per
  PostgREST: add further checks to this one rather than replacing it.
 */
create schema if not exists auth_guard;

comment on schema auth_guard is 'Checks PostgREST makes of every request''s token beyond its signature (db-pre-request). Not exposed as an API schema.';

-- PostgREST calls the check as the request's role.
grant usage on schema auth_guard to anon, authenticated, service_role;

create or replace function auth_guard.check_session() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_session_id text := nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id';
	v_active boolean;
begin
	if v_session_id is null or v_session_id = '' then
		return;
	end if;
	begin
		v_active := v_session_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
			and exists (select 1 from auth.sessions s where s.id = v_session_id::uuid);
	exception when insufficient_privilege then
		-- A project where the function's owner may not read auth.sessions: behave as Supabase does
		-- without the check rather than refuse every request.
		return;
	end;
	if not v_active then
		-- PostgREST's own answer for a token it refuses (v12: PGRST301, 401, WWW-Authenticate).
		raise sqlstate 'PGRST' using
			message = json_build_object(
				'code', 'PGRST301',
				'message', 'JWT session has ended',
				'details', 'The session this token belongs to was signed out',
				'hint', null
			)::text,
			detail = json_build_object(
				'status', 401,
				'headers', json_build_object(
					'WWW-Authenticate',
					'Bearer error="invalid_token", error_description="JWT session has ended"'
				)
			)::text;
	end if;
end;
$$;

comment on function auth_guard.check_session() is 'PostgREST db-pre-request: refuses (401) a token whose session_id names a session that has ended (signed out, password changed, refresh token reused).';

revoke all on function auth_guard.check_session() from public;
grant execute on function auth_guard.check_session() to anon, authenticated, service_role;

do $$
begin
	if exists (select 1 from pg_roles where rolname = 'authenticator') then
		alter role authenticator set pgrst.db_pre_request to 'auth_guard.check_session';
	end if;
end
$$;

notify pgrst, 'reload config';

/**
  ---------------------------------------------------------------------------
  Timeouts on the API roles: no statement runs away, no transaction idles
  ---------------------------------------------------------------------------
  A statement that runs for minutes holds its connection and its locks, and
  a client that opens a transaction and goes quiet holds its locks until it
  comes back. Both are ended by the database on the roles the API uses:
  PostgREST logs in as authenticator (its settings apply to the session) and
  applies the impersonated role's own settings in each request's transaction.

  - anon 3 s and authenticated 8 s: a hosted project's own defaults, set here
    too so a plain PostgreSQL (DATABASE_URL) behaves the same.
  - service_role 5 minutes: the import writes a whole chamber in one call;
    without its own setting it would inherit authenticator's 8 s.
  - idle in a transaction for 60 s: the session is ended (SQLSTATE 25P03).

  The postgres role may set these on a hosted project (supautils lets it
  configure the API roles). PGlite, the embedded database, is skipped: it
  cannot interrupt a statement and spins once
  idle_in_transaction_session_timeout is set; the embedded stack ends idle
  transactions itself (scripts/stack/wire.ts).
 */

do $$
begin
	if version() like '%PGlite%' then
		return;
	end if;

	alter role anon set statement_timeout = '3s';
	alter role authenticated set statement_timeout = '8s';
	alter role service_role set statement_timeout = '5min';
	alter role authenticator set statement_timeout = '8s';

	alter role anon set idle_in_transaction_session_timeout = '60s';
	alter role authenticated set idle_in_transaction_session_timeout = '60s';
	alter role service_role set idle_in_transaction_session_timeout = '60s';
	alter role authenticator set idle_in_transaction_session_timeout = '60s';
end;
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
