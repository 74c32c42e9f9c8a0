/**
  ---------------------------------------------------------------------------
  Admin permissions in the database
  ---------------------------------------------------------------------------
  The admin portal's functions check roles first, but whatever a role may not
  do is refused here too, for any caller holding that user's token — a direct
  PostgREST call included:

    capability               super_admin  admin  editor
    Manage Users             yes          -      -       admin_users policies (migration 001)
    Edit Colors & Branding   yes          yes    -       chamber_config guard (below)
    Upload Logos             yes          yes    -       chamber_config guard (logo column)
    Edit Contact Info        yes          yes    -       chamber_config guard
    Manage Navigation        yes          yes    -       chamber_config guard
    Purge Cache              yes          yes    -       bump_cache_version (below)
    Edit Content & Text      yes          yes    yes     chamber_config guard
    View All Chambers        yes          -      -       tenant_role (below)

  This file also makes every admin write leave an audit trail written by the
  database itself.
 */

/**
  ---------------------------------------------------------------------------
  tenant_role: the one role check every rule below uses
  ---------------------------------------------------------------------------
  The signed-in user's role for a chamber: their own role in their own
  chamber, 'super_admin' in every chamber for a super_admin, else null.
  has_tenant_role (migration 001, used by every policy) is redefined on top of
  it, so the rule lives in one place.
 */
create or replace function public.tenant_role(check_tenant_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	select au.role
	from public.admin_users au
	where au.user_id = auth.uid()
		and check_tenant_id is not null
		and (au.tenant_id = check_tenant_id or au.role = 'super_admin');
$$;

comment on function public.tenant_role is 'The signed-in user''s role for a chamber (super_admin for every chamber if they are one), or null.';

revoke all on function public.tenant_role(uuid) from public;
grant execute on function public.tenant_role(uuid) to authenticated, service_role;

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

/**
  ---------------------------------------------------------------------------
  Audit log: every admin write, recorded by the database
  ---------------------------------------------------------------------------
  One row per changed field: who (from the token the database saw, never from
  a request body), when, which chamber, what (section and field) and the old
  and new values. Triggers write it with definer rights; nobody can write,
  change or delete a row through the API, the service role included.
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
	new_value jsonb
);

comment on table public.audit_log is 'Every write to a chamber''s configuration, admin users and cache versions: who, when, section, field, old and new value. Written by triggers only.';
comment on column public.audit_log.actor_role is 'The writer''s role for the chamber (super_admin, admin, editor), or service_role / database for the import and other server-side writes.';
comment on column public.audit_log.section is 'Configuration section in the app''s naming (identity, colors, textColors, content, …), or users / cache.';
comment on column public.audit_log.field is 'Key within the section (e.g. primary, heroTitle), the user''s e-mail for users, the cache type for cache; null when the whole value changed.';

create index if not exists audit_log_tenant_at_idx on public.audit_log (tenant_id, at desc);

alter table public.audit_log enable row level security;

revoke all on table public.audit_log from anon, authenticated, service_role;
grant select on table public.audit_log to authenticated, service_role;

drop policy if exists "Chamber admins can read their chamber's audit log" on public.audit_log;
create policy "Chamber admins can read their chamber's audit log" on public.audit_log
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

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

/** A chamber_config column's name as the app (and the admin panel) calls its section. */
create or replace function public.config_section_name(p_column text)
returns text
language sql
immutable
set search_path = ''
as $$
	select case p_column
		when 'name' then 'identity'
		when 'slug' then 'identity'
		when 'city' then 'identity'
		when 'state' then 'identity'
		when 'founded_year' then 'identity'
		when 'text_colors' then 'textColors'
		when 'footer_labels' then 'footerLabels'
		when 'membership_levels' then 'membershipLevels'
		when 'featured_businesses' then 'featuredBusinesses'
		when 'category_display' then 'categoryDisplay'
		when 'search_page' then 'searchPage'
		else p_column
	end;
$$;

comment on function public.config_section_name is 'Maps a chamber_config column to its configuration section name (identity for the top-level fields).';

grant execute on function public.config_section_name(text) to anon, authenticated, service_role;

create or replace function public.chamber_config_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_old jsonb := to_jsonb(old) - array['tenant_id', 'updated_at'];
	v_new jsonb := to_jsonb(new) - array['tenant_id', 'updated_at'];
	v_actor record;
	v_column text;
begin
	select * into v_actor from public.audit_actor(new.tenant_id);
	for v_column in select jsonb_object_keys(v_new) loop
		continue when v_old -> v_column is not distinct from v_new -> v_column;
		if public.config_section_name(v_column) = 'identity' then
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
			values (
				new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'identity',
				case v_column when 'founded_year' then 'foundedYear' else v_column end,
				v_old -> v_column, v_new -> v_column
			);
		elsif jsonb_typeof(v_old -> v_column) = 'object' and jsonb_typeof(v_new -> v_column) = 'object' then
			-- A section: one row per key that changed, so the history reads field by field.
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
			select
				new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role,
				public.config_section_name(v_column), k, v_old -> v_column -> k, v_new -> v_column -> k
			from (
				select jsonb_object_keys(v_old -> v_column) as k
				union
				select jsonb_object_keys(v_new -> v_column)
			) keys
			where v_old -> v_column -> k is distinct from v_new -> v_column -> k;
		else
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
			values (
				new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role,
				public.config_section_name(v_column), null, v_old -> v_column, v_new -> v_column
			);
		end if;
	end loop;
	return null;
end;
$$;

comment on function public.chamber_config_audit is 'Trigger: one audit_log row per changed configuration field.';

revoke all on function public.chamber_config_audit() from public, anon, authenticated;

drop trigger if exists chamber_config_audit_after_update on public.chamber_config;
create trigger chamber_config_audit_after_update after update on public.chamber_config
	for each row
	when (old.* is distinct from new.*)
	execute function public.chamber_config_audit();

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

drop trigger if exists admin_users_audit on public.admin_users;
create trigger admin_users_audit after insert or update or delete on public.admin_users
	for each row execute function public.admin_users_audit();

/**
  ---------------------------------------------------------------------------
  chamber_config: what each role may change
  ---------------------------------------------------------------------------
  RLS (migration 002) lets the chamber's staff update their chamber's row at
  all; this trigger judges the columns. It runs with the caller's rights
  (security invoker), so current_user is the role PostgREST switched to:
  anon/authenticated requests are judged, the service role (import, build)
  and migrations are not.
  - Nobody changes a chamber's slug through the API: it names the deployment.
  - An editor changes `content` and the content-related display toggles of
    `features` (editor_feature_keys), nothing else.
  - An admin changes everything else of their chamber; a super_admin of every
    chamber. (Users are admin_users rows, guarded by their own policies.)
 */

/** The `features` keys an editor may change: how content shows, not what the site offers. */
create or replace function public.editor_feature_keys()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['showBusinessShortDescription', 'showEventAttendeeCountInHeader', 'showFeaturedEvent', 'featuredEventId'];
$$;

comment on function public.editor_feature_keys is 'Display toggles of chamber_config.features that editors may change (EDITOR_FEATURE_KEYS in src/features/config/config.ts).';

grant execute on function public.editor_feature_keys() to anon, authenticated, service_role;

create or replace function public.chamber_config_check_role()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_role text;
	v_keep text[] := array['content', 'features', 'updated_at'];
	v_old jsonb;
	v_new jsonb;
	v_column text;
	v_key text;
begin
	if current_user not in ('anon', 'authenticated') then
		if (to_jsonb(new) - 'updated_at') is distinct from (to_jsonb(old) - 'updated_at') then
			new.updated_at := now();
		end if;
		return new;
	end if;
	v_role := public.tenant_role(old.tenant_id);
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if new.tenant_id is distinct from old.tenant_id or new.slug is distinct from old.slug then
		raise exception 'The chamber slug cannot be changed' using errcode = '42501';
	end if;
	if v_role = 'editor' then
		v_old := to_jsonb(old) - v_keep;
		v_new := to_jsonb(new) - v_keep;
		for v_column in select jsonb_object_keys(v_new) loop
			if v_old -> v_column is distinct from v_new -> v_column then
				raise exception 'Editors can change content and text only, not %', public.config_section_name(v_column)
					using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
			end if;
		end loop;
		for v_key in
			select jsonb_object_keys(old.features) union select jsonb_object_keys(new.features)
		loop
			if not v_key = any (public.editor_feature_keys())
				and old.features -> v_key is distinct from new.features -> v_key then
				raise exception 'Editors can change content and text only, not features.%', v_key
					using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
			end if;
		end loop;
	end if;
	if (to_jsonb(new) - 'updated_at') is distinct from (to_jsonb(old) - 'updated_at') then
		new.updated_at := now();
	end if;
	return new;
end;
$$;

comment on function public.chamber_config_check_role is 'Trigger: refuses configuration changes the caller''s role may not make (editors: content only; nobody: the slug).';

revoke all on function public.chamber_config_check_role() from public;

drop trigger if exists chamber_config_check_role_before_update on public.chamber_config;
create trigger chamber_config_check_role_before_update before update on public.chamber_config
	for each row execute function public.chamber_config_check_role();

drop policy if exists "Chamber staff can update their chamber configuration" on public.chamber_config;
create policy "Chamber staff can update their chamber configuration" on public.chamber_config
	for update to authenticated
	using (public.has_tenant_role(tenant_id))
	with check (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  Cache versions only go up, by one, through bump_cache_version
  ---------------------------------------------------------------------------
  A version that went down would bring back CDN entries cached under it, so
  users lose direct writes: an admin (or super_admin) bumps a version with
  bump_cache_version, which also records the purge with the e-mail of the
  token's user. The config version is bumped by the configuration trigger
  (migration 009), not by hand.
 */
drop policy if exists "Chamber admins can create cache versions" on public.cache_versions;
drop policy if exists "Chamber admins can bump cache versions" on public.cache_versions;
revoke insert, update, delete, truncate on table public.cache_versions from anon, authenticated;

create or replace function public.cache_versions_only_up()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
	if new.version <> old.version and new.version <> old.version + 1 then
		raise exception 'A cache version only goes up by one (from % to %)', old.version, new.version
			using errcode = '23514';
	end if;
	if new.tenant_id is distinct from old.tenant_id or new.type is distinct from old.type then
		raise exception 'A cache version stays with its chamber and type' using errcode = '23514';
	end if;
	return new;
end;
$$;

comment on function public.cache_versions_only_up is 'Trigger: a cache version changes only to version + 1.';

drop trigger if exists cache_versions_only_up on public.cache_versions;
create trigger cache_versions_only_up before update on public.cache_versions
	for each row execute function public.cache_versions_only_up();

drop policy if exists "Chamber admins can record a cache purge" on public.cache_purge_log;
revoke insert, update, delete, truncate on table public.cache_purge_log from anon, authenticated;

create or replace function public.bump_cache_version(p_tenant_id uuid, p_type text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_version integer;
begin
	if not public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only a chamber admin can refresh its caches' using errcode = '42501';
	end if;
	if p_type is null or p_type not in ('events', 'community_events', 'event_details', 'categories') then
		raise exception 'Unknown cache type: %', p_type using errcode = '22023';
	end if;
	insert into public.cache_versions as c (tenant_id, type, version)
	values (p_tenant_id, p_type, 1)
	on conflict (tenant_id, type) do update set version = c.version + 1, updated_at = now()
	returning version into v_version;
	insert into public.cache_purge_log (tenant_id, user_email, purge_type)
	values (
		p_tenant_id,
		coalesce((select u.email from auth.users u where u.id = auth.uid()), 'unknown'),
		p_type
	);
	return v_version;
end;
$$;

comment on function public.bump_cache_version is 'Bumps a chamber''s cache version by one and records the purge under the signed-in admin''s e-mail; admin and super_admin only.';

revoke all on function public.bump_cache_version(uuid, text) from public, anon;
grant execute on function public.bump_cache_version(uuid, text) to authenticated, service_role;

create or replace function public.cache_versions_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	-- The config version follows configuration changes, which are audited themselves.
	if new.type = 'config' or new.version = old.version then
		return null;
	end if;
	select * into v_actor from public.audit_actor(new.tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'cache', new.type,
		to_jsonb(old.version), to_jsonb(new.version)
	);
	return null;
end;
$$;

comment on function public.cache_versions_audit is 'Trigger: an audit_log row per cache version bump (other than config).';

revoke all on function public.cache_versions_audit() from public, anon, authenticated;

drop trigger if exists cache_versions_audit on public.cache_versions;
create trigger cache_versions_audit after update on public.cache_versions
	for each row execute function public.cache_versions_audit();
