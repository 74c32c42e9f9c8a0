/**
  ---------------------------------------------------------------------------
  Member listings the chamber's staff maintain
  ---------------------------------------------------------------------------
  A business (a profile and its listings, social links, affiliations and web
  content) is changed by its chamber's staff through save_business, the one
  way in for a user's token: it checks the role (admins and super_admins every
  field; editors the descriptive content only), the version the change was
  made from (a field someone else changed since refuses the save with their
  value, who and when; other fields merge), records each changed field in the
  audit log, and marks it as changed here (business_overrides), so an import
  or a sync from the membership system leaves it as staff set it until staff
  take the system's value back. Removing a business unpublishes it and keeps
  its row, restorable for 30 days (its old addresses answer 410 Gone).
 */

/**
  ---------------------------------------------------------------------------
  Versions and removal on profiles
  ---------------------------------------------------------------------------
 */
alter table public.profiles
	add column if not exists version integer not null default 1,
	add column if not exists field_versions jsonb not null default '{}'::jsonb,
	add column if not exists updated_at timestamptz not null default now(),
	add column if not exists updated_by text not null default 'import',
	add column if not exists removed_at timestamptz,
	add column if not exists published_before_removal boolean;

comment on column public.profiles.version is 'Goes up by one with every change; a staff save names the version it was made from.';
comment on column public.profiles.field_versions is 'For each field staff changed: the version that change made (the conflict check of save_business).';
comment on column public.profiles.updated_by is 'Who changed the business last: a staff member''s e-mail, or import / sync.';
comment on column public.profiles.removed_at is 'When staff removed the business (it is unpublished; restorable for 30 days), else null.';

create index if not exists profiles_tenant_updated_idx on public.profiles (tenant_id, updated_at desc);

create or replace function public.profiles_version_trigger()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
	-- Columns the triggers themselves maintain (search, sort keys) are no change of the business.
	if (to_jsonb(new) - array['version', 'updated_at', 'updated_by', 'search_vector', 'search_text', 'field_versions'])
		is distinct from (to_jsonb(old) - array['version', 'updated_at', 'updated_by', 'search_vector', 'search_text', 'field_versions']) then
		new.version := old.version + 1;
		new.updated_at := now();
	end if;
	return new;
end;
$$;

comment on function public.profiles_version_trigger is 'Trigger: a real change of a business moves its version and updated_at.';

drop trigger if exists profiles_version_before_update on public.profiles;
create trigger profiles_version_before_update before update on public.profiles
	for each row execute function public.profiles_version_trigger();

/**
  ---------------------------------------------------------------------------
  Fields staff changed: kept through imports and syncs
  ---------------------------------------------------------------------------
 */
create table if not exists public.business_overrides (
	tenant_id uuid not null,
	profile_id uuid not null,
	field text not null,
	changed_at timestamptz not null default now(),
	changed_by text not null,
	primary key (profile_id, field),
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.business_overrides is 'The fields of a business its chamber''s staff changed: imports and syncs leave them as staff set them.';

alter table public.business_overrides enable row level security;
revoke all on table public.business_overrides from anon, authenticated;
grant select on table public.business_overrides to authenticated;
grant all on table public.business_overrides to service_role;

drop policy if exists "Chamber staff can read their businesses' overrides" on public.business_overrides;
create policy "Chamber staff can read their businesses' overrides" on public.business_overrides
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

/** The audit log names the business a row is about. */
alter table public.audit_log add column if not exists business_id uuid;
comment on column public.audit_log.business_id is 'The business the change is about (section business), else null.';
create index if not exists audit_log_business_at_idx on public.audit_log (business_id, at desc)
	where business_id is not null;

/**
  ---------------------------------------------------------------------------
  The fields of a business, as the tenant file names them
  ---------------------------------------------------------------------------
  Scalar fields are profiles columns; list fields are child tables, replaced
  whole. Editors may change the descriptive ones only.
 */
create or replace function public.business_scalar_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'report_name', 'address1', 'address2', 'city', 'county', 'state', 'zip', 'work_phone',
		'website', 'email', 'featured', 'categories', 'membership_level_name', 'membership_rank',
		'member_since_date', 'main_related_profile_name', 'logo_url', 'listing_position',
		'is_member', 'published'
	];
$$;

create or replace function public.business_list_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['listings', 'social_media', 'profile_affiliations', 'web_content'];
$$;

create or replace function public.business_editor_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['listings', 'web_content', 'social_media', 'logo_url'];
$$;

comment on function public.business_editor_fields is 'The fields of a business an editor may change: its descriptive content. Everything else is for admins.';

/** A business's list field as the tenant file writes it (children in their order). */
create or replace function public.business_list_value(p_profile_id uuid, p_field text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		case p_field
			when 'listings' then (
				select jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position)
				from public.listings l where l.profile_id = p_profile_id)
			when 'social_media' then (
				select jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url) order by s.position)
				from public.social_media s where s.profile_id = p_profile_id)
			when 'profile_affiliations' then (
				select jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url, 'aff_code', a.aff_code,
					'aff_name', a.aff_name, 'list_available_on_website', a.list_available_on_website
				) order by a.position)
				from public.profile_affiliations a where a.profile_id = p_profile_id)
			when 'web_content' then (
				select jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position)
				from public.web_content w where w.profile_id = p_profile_id)
		end,
		'[]'::jsonb
	);
$$;

/** Replaces a business's list field with the given rows (ids derived as the import derives them). */
create or replace function public.replace_business_list(
	p_tenant_id uuid,
	p_profile_id uuid,
	p_field text,
	p_rows jsonb
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
	if p_field = 'listings' then
		delete from public.listings where profile_id = p_profile_id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(p_profile_id::text || ':listing:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			coalesce(e.v ->> 'description', ''), coalesce(e.v ->> 'short_description', ''),
			coalesce(array(select jsonb_array_elements_text(e.v -> 'categories')), '{}'),
			coalesce(e.v ->> 'keywords', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'primary_listing')::boolean, false)
		from jsonb_array_elements(p_rows) with ordinality e(v, ord);
	elsif p_field = 'social_media' then
		delete from public.social_media where profile_id = p_profile_id;
		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select md5(p_profile_id::text || ':social:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from jsonb_array_elements(p_rows) with ordinality e(v, ord);
	elsif p_field = 'profile_affiliations' then
		delete from public.profile_affiliations where profile_id = p_profile_id;
		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select md5(p_profile_id::text || ':affiliation:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			coalesce(e.v ->> 'icon', ''), coalesce(e.v ->> 'icon_text', ''), coalesce(e.v ->> 'icon_url', ''),
			coalesce(e.v ->> 'aff_code', ''), coalesce(e.v ->> 'aff_name', ''),
			coalesce((e.v ->> 'list_available_on_website')::boolean, true)
		from jsonb_array_elements(p_rows) with ordinality e(v, ord);
	elsif p_field = 'web_content' then
		delete from public.web_content where profile_id = p_profile_id;
		insert into public.web_content (id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url)
		select md5(p_profile_id::text || ':web:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			coalesce(e.v ->> 'content_type', ''), coalesce(e.v ->> 'content_title', ''),
			coalesce(e.v ->> 'full_url', ''), coalesce(e.v ->> 'rel_url', '')
		from jsonb_array_elements(p_rows) with ordinality e(v, ord);
	else
		raise exception 'Not a list field of a business: %', p_field using errcode = '22023';
	end if;
end;
$$;

/** A business in the tenant file's shape: every field, its lists included. */
create or replace function public.business_document(p_profile_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select (to_jsonb(p) - array[
			'tenant_id', 'search_vector', 'search_text', 'version', 'field_versions', 'updated_at',
			'updated_by', 'removed_at', 'published_before_removal'
		])
		|| jsonb_build_object(
			'listings', public.business_list_value(p.id, 'listings'),
			'social_media', public.business_list_value(p.id, 'social_media'),
			'profile_affiliations', public.business_list_value(p.id, 'profile_affiliations'),
			'web_content', public.business_list_value(p.id, 'web_content')
		)
	from public.profiles p
	where p.id = p_profile_id;
$$;

/**
  ---------------------------------------------------------------------------
  save_business: a staff change of one business, as the user
  ---------------------------------------------------------------------------
  p_business_id null adds a business (admins). p_changes holds the changed
  fields in the tenant file's shape (values validated by the same zod schema
  in the function before); p_version the version the change was made from.
  A conflict raises PT409 (PostgREST answers 409) with, in its detail, the fields someone else
  changed since: their value now, who and when.
 */
create or replace function public.save_business(
	p_tenant_id uuid,
	p_business_id uuid,
	p_changes jsonb,
	p_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_role text := public.tenant_role(p_tenant_id);
	v_actor record;
	v_id uuid := p_business_id;
	v_old jsonb;
	v_row public.profiles;
	v_field text;
	v_conflicts jsonb := '[]'::jsonb;
	v_new_version integer;
	v_scalars jsonb := '{}'::jsonb;
	v_before jsonb;
	v_after jsonb;
begin
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if jsonb_typeof(p_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	for v_field in select jsonb_object_keys(p_changes) loop
		if not (v_field = any (public.business_scalar_fields() || public.business_list_fields())) then
			raise exception 'Not a field of a business: %', v_field using errcode = '22023';
		end if;
		if v_role = 'editor' and not (v_field = any (public.business_editor_fields())) then
			raise exception 'Editors can change a listing''s description, web content, social links and logo only, not %', v_field
				using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
		end if;
	end loop;
	select * into v_actor from public.audit_actor(p_tenant_id);

	if v_id is null then
		if v_role = 'editor' then
			raise exception 'Editors cannot add businesses' using errcode = '42501';
		end if;
		if coalesce(trim(p_changes ->> 'report_name'), '') = '' then
			raise exception 'A new business needs its name (report_name)' using errcode = '22023';
		end if;
		v_id := gen_random_uuid();
		insert into public.profiles (id, tenant_id, report_name, weblink_profile_id, updated_by)
		values (v_id, p_tenant_id, p_changes ->> 'report_name', 'local-' || v_id::text, v_actor.actor_email);
	end if;

	select * into v_row from public.profiles where id = v_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'P0002';
	end if;
	v_old := public.business_document(v_id);

	-- Someone else changed one of these fields after the version this change was made from.
	if p_business_id is not null then
		select coalesce(jsonb_agg(jsonb_build_object(
				'field', c.field,
				'value', v_old -> c.field,
				'changedBy', a.actor_email,
				'changedAt', a.at
			)), '[]'::jsonb)
		into v_conflicts
		from (
			select k as field from jsonb_object_keys(p_changes) k
			where coalesce((v_row.field_versions ->> k)::integer, 0) > p_version
				and (v_old -> k) is distinct from (p_changes -> k)
		) c
		left join lateral (
			select al.actor_email, al.at from public.audit_log al
			where al.business_id = v_id and al.field = c.field
			order by al.at desc limit 1
		) a on true;
		if jsonb_array_length(v_conflicts) > 0 then
			raise exception 'Someone else changed this since you opened it'
				using errcode = 'PT409', detail = jsonb_build_object('version', v_row.version, 'conflicts', v_conflicts)::text;
		end if;
	end if;

	v_new_version := v_row.version + 1;
	for v_field in select jsonb_object_keys(p_changes) loop
		v_before := v_old -> v_field;
		v_after := p_changes -> v_field;
		if v_before is not distinct from v_after and p_business_id is not null then
			continue;
		end if;
		if v_field = any (public.business_list_fields()) then
			perform public.replace_business_list(p_tenant_id, v_id, v_field, coalesce(v_after, '[]'::jsonb));
		else
			v_scalars := v_scalars || jsonb_build_object(v_field, v_after);
		end if;
		insert into public.business_overrides (tenant_id, profile_id, field, changed_at, changed_by)
		values (p_tenant_id, v_id, v_field, now(), coalesce(v_actor.actor_email, v_actor.actor_role))
		on conflict (profile_id, field) do update
			set changed_at = excluded.changed_at, changed_by = excluded.changed_by;
		insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
		values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', v_field, v_before, v_after, v_id);
		v_row.field_versions := v_row.field_versions || jsonb_build_object(v_field, v_new_version);
	end loop;

	update public.profiles p
	set (report_name, address1, address2, city, county, state, zip, work_phone, website, email,
			featured, categories, membership_level_name, membership_rank, member_since_date,
			main_related_profile_name, logo_url, listing_position, is_member, published) = (
		select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
			r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
			r.member_since_date, r.main_related_profile_name, r.logo_url, r.listing_position,
			r.is_member, r.published
		from jsonb_populate_record(p, v_scalars) r
	),
		field_versions = v_row.field_versions,
		-- Lists live in child tables: the business changed even when no column did.
		version = v_new_version,
		updated_at = now(),
		updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where p.id = v_id;

	return jsonb_build_object('id', v_id, 'version', (select version from public.profiles where id = v_id));
end;
$$;

comment on function public.save_business is 'A staff change of a business (or a new one), as the user: role per field, the version check, audit rows and overrides.';

/**
  ---------------------------------------------------------------------------
  Remove, restore, and taking the membership system's value back
  ---------------------------------------------------------------------------
 */
create or replace function public.remove_business(p_tenant_id uuid, p_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	if not public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only the chamber''s admins can remove a business' using errcode = '42501';
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	update public.profiles
	set published_before_removal = published, published = false, removed_at = now(),
		updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where id = p_business_id and tenant_id = p_tenant_id and removed_at is null;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'P0002';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'false', 'true', p_business_id);
end;
$$;

create or replace function public.restore_business(p_tenant_id uuid, p_business_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	if not public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only the chamber''s admins can restore a business' using errcode = '42501';
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	update public.profiles
	set published = coalesce(published_before_removal, true), published_before_removal = null,
		removed_at = null, updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where id = p_business_id and tenant_id = p_tenant_id
		and removed_at > now() - interval '30 days';
	if not found then
		raise exception 'No removed business to restore (a removal is kept for 30 days)' using errcode = 'P0002';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'true', 'false', p_business_id);
end;
$$;

/** Staff take the membership system's value back: the field follows imports and syncs again. */
create or replace function public.clear_business_override(p_tenant_id uuid, p_business_id uuid, p_field text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
	if public.tenant_role(p_tenant_id) is null
		or (public.tenant_role(p_tenant_id) = 'editor' and not (p_field = any (public.business_editor_fields()))) then
		raise exception 'You cannot change this field' using errcode = '42501';
	end if;
	delete from public.business_overrides
	where tenant_id = p_tenant_id and profile_id = p_business_id and field = p_field;
end;
$$;

/**
  A removed business is gone for good 30 days on: the import or any later
  staff action purges the rows whose time has passed.
 */
create or replace function public.purge_removed_businesses(p_tenant_id uuid)
returns integer
language sql
security definer
set search_path = ''
as $$
	with gone as (
		delete from public.profiles
		where tenant_id = p_tenant_id and removed_at <= now() - interval '30 days'
		returning 1
	)
	select count(*)::integer from gone;
$$;

revoke all on function public.business_scalar_fields() from public, anon;
revoke all on function public.business_list_fields() from public, anon;
revoke all on function public.business_editor_fields() from public, anon;
revoke all on function public.business_list_value(uuid, text) from public, anon, authenticated;
revoke all on function public.replace_business_list(uuid, uuid, text, jsonb) from public, anon, authenticated;
revoke all on function public.business_document(uuid) from public, anon, authenticated;
revoke all on function public.save_business(uuid, uuid, jsonb, integer) from public, anon;
revoke all on function public.remove_business(uuid, uuid) from public, anon;
revoke all on function public.restore_business(uuid, uuid) from public, anon;
revoke all on function public.clear_business_override(uuid, uuid, text) from public, anon;
revoke all on function public.purge_removed_businesses(uuid) from public, anon, authenticated;
revoke all on function public.profiles_version_trigger() from public, anon, authenticated;
grant execute on function public.business_scalar_fields() to authenticated, service_role;
grant execute on function public.business_list_fields() to authenticated, service_role;
grant execute on function public.business_editor_fields() to authenticated, service_role;
grant execute on function public.business_list_value(uuid, text) to service_role;
grant execute on function public.replace_business_list(uuid, uuid, text, jsonb) to service_role;
grant execute on function public.business_document(uuid) to service_role;
grant execute on function public.save_business(uuid, uuid, jsonb, integer) to authenticated, service_role;
grant execute on function public.remove_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.restore_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.clear_business_override(uuid, uuid, text) to authenticated, service_role;
grant execute on function public.purge_removed_businesses(uuid) to service_role;

/**
  ---------------------------------------------------------------------------
  The import leaves what staff changed
  ---------------------------------------------------------------------------
  A re-import updates each business in place (its id is derived from the
  chamber and the membership-system id, so it is the same row) instead of
  replacing them all: a field in business_overrides keeps the value staff
  gave it, a removed business stays removed, and businesses staff added (no
  membership-system id: weblink_profile_id 'local-…') are kept.
 */

/** The value an import writes into a field: the file's, unless staff changed that field here. */
create or replace function public.import_value(p_profile_id uuid, p_field text, p_current anyelement, p_file anyelement)
returns anyelement
language sql
stable
security definer
set search_path = ''
as $$
	select case
		when exists (
			select 1 from public.business_overrides o where o.profile_id = p_profile_id and o.field = p_field
		) then p_current
		else p_file
	end;
$$;

revoke all on function public.import_value(uuid, text, anyelement, anyelement) from public, anon, authenticated;
grant execute on function public.import_value(uuid, text, anyelement, anyelement) to service_role;

create or replace function public.import_tenant(payload jsonb, replace_businesses boolean default true)
returns jsonb
language plpgsql
-- Definer rights: it also writes auth.users, which the service role cannot touch on Supabase.
-- Only service_role may execute it (see the grants below).
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
	v_slug text := payload -> 'tenant' ->> 'slug';
	v_businesses integer := 0;
	v_events integer := 0;
	v_users integer := 0;
begin
	if v_slug is null then
		raise exception 'payload.tenant.slug is required';
	end if;

	insert into public.tenants (slug, name)
	values (v_slug, payload -> 'tenant' ->> 'name')
	on conflict (slug) do update set name = excluded.name
		where public.tenants.name is distinct from excluded.name;
	select id into v_tenant_id from public.tenants where slug = v_slug;

	if payload ? 'config' then
		insert into public.chamber_config as c
		select * from jsonb_populate_record(
			null::public.chamber_config,
			payload -> 'config' || jsonb_build_object('tenant_id', v_tenant_id, 'updated_at', now())
		)
		on conflict (tenant_id) do update set
			name = excluded.name, slug = excluded.slug, city = excluded.city, state = excluded.state,
			founded_year = excluded.founded_year, colors = excluded.colors, logo = excluded.logo,
			fonts = excluded.fonts, text_colors = excluded.text_colors, contact = excluded.contact,
			social = excluded.social, urls = excluded.urls, footer_labels = excluded.footer_labels,
			content = excluded.content, services = excluded.services, features = excluded.features,
			membership_levels = excluded.membership_levels,
			featured_businesses = excluded.featured_businesses,
			category_display = excluded.category_display, search_page = excluded.search_page,
			navigation = excluded.navigation, updated_at = excluded.updated_at
		-- Only a real change moves updated_at.
		where to_jsonb(c) - 'updated_at' is distinct from to_jsonb(excluded) - 'updated_at';
	end if;

	insert into public.cache_versions (tenant_id, type)
	select v_tenant_id, t
	from unnest(array['config', 'categories', 'events', 'community_events', 'event_details']) t
	on conflict do nothing;

	if payload ? 'businesses' then
		create temporary table pg_temp.import_businesses on commit drop as
		select
			coalesce(
				(b ->> 'id')::uuid,
				md5(v_tenant_id::text || ':profile:' || (b ->> 'weblink_profile_id'))::uuid
			) as id,
			b
		from jsonb_array_elements(payload -> 'businesses') b;

		-- Businesses the file no longer has go, but those added by staff (no membership-system id).
		if replace_businesses then
			delete from public.profiles p
			where p.tenant_id = v_tenant_id
				and p.weblink_profile_id not like 'local-%'
				and not exists (select 1 from pg_temp.import_businesses i where i.id = p.id);
		end if;
		perform public.purge_removed_businesses(v_tenant_id);

		-- Fields staff changed (business_overrides) keep their value; a removed business stays removed.
		insert into public.profiles as p (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published, updated_by
		)
		select
			i.id, v_tenant_id, i.b ->> 'report_name', coalesce(i.b ->> 'address1', ''),
			coalesce(i.b ->> 'address2', ''), coalesce(i.b ->> 'city', ''),
			coalesce(i.b ->> 'county', ''), coalesce(i.b ->> 'state', ''), coalesce(i.b ->> 'zip', ''),
			coalesce(i.b ->> 'work_phone', ''), coalesce(i.b ->> 'website', ''),
			coalesce(i.b ->> 'email', ''), coalesce((i.b ->> 'featured')::boolean, false),
			coalesce(array(select jsonb_array_elements_text(i.b -> 'categories')), '{}'),
			coalesce(i.b ->> 'membership_level_name', 'Member'), (i.b ->> 'membership_rank')::integer,
			(i.b ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			coalesce(i.b ->> 'main_related_profile_name', ''), coalesce(i.b ->> 'logo_url', ''),
			coalesce((i.b ->> 'listing_position')::integer, 1000),
			coalesce((i.b ->> 'is_member')::boolean, true), coalesce((i.b ->> 'published')::boolean, true),
			'import'
		from pg_temp.import_businesses i
		on conflict (id) do update set
			report_name = public.import_value(p.id, 'report_name', p.report_name, excluded.report_name),
			address1 = public.import_value(p.id, 'address1', p.address1, excluded.address1),
			address2 = public.import_value(p.id, 'address2', p.address2, excluded.address2),
			city = public.import_value(p.id, 'city', p.city, excluded.city),
			county = public.import_value(p.id, 'county', p.county, excluded.county),
			state = public.import_value(p.id, 'state', p.state, excluded.state),
			zip = public.import_value(p.id, 'zip', p.zip, excluded.zip),
			work_phone = public.import_value(p.id, 'work_phone', p.work_phone, excluded.work_phone),
			website = public.import_value(p.id, 'website', p.website, excluded.website),
			email = public.import_value(p.id, 'email', p.email, excluded.email),
			featured = public.import_value(p.id, 'featured', p.featured, excluded.featured),
			categories = public.import_value(p.id, 'categories', p.categories, excluded.categories),
			membership_level_name = public.import_value(p.id, 'membership_level_name', p.membership_level_name, excluded.membership_level_name),
			membership_rank = public.import_value(p.id, 'membership_rank', p.membership_rank, excluded.membership_rank),
			member_since_date = public.import_value(p.id, 'member_since_date', p.member_since_date, excluded.member_since_date),
			weblink_profile_id = excluded.weblink_profile_id,
			main_related_profile_name = public.import_value(p.id, 'main_related_profile_name', p.main_related_profile_name, excluded.main_related_profile_name),
			logo_url = public.import_value(p.id, 'logo_url', p.logo_url, excluded.logo_url),
			listing_position = public.import_value(p.id, 'listing_position', p.listing_position, excluded.listing_position),
			is_member = public.import_value(p.id, 'is_member', p.is_member, excluded.is_member),
			published = case
				when p.removed_at is not null then false
				else public.import_value(p.id, 'published', p.published, excluded.published)
			end,
			updated_by = 'import'
		-- Only a business whose file values differ is written: an unchanged re-import changes nothing.
		where (p.report_name, p.address1, p.address2, p.city, p.county, p.state, p.zip, p.work_phone,
				p.website, p.email, p.featured, p.categories, p.membership_level_name, p.membership_rank,
				p.member_since_date, p.weblink_profile_id, p.main_related_profile_name, p.logo_url,
				p.listing_position, p.is_member, p.published)
			is distinct from (excluded.report_name, excluded.address1, excluded.address2, excluded.city,
				excluded.county, excluded.state, excluded.zip, excluded.work_phone, excluded.website,
				excluded.email, excluded.featured, excluded.categories, excluded.membership_level_name,
				excluded.membership_rank, excluded.member_since_date, excluded.weblink_profile_id,
				excluded.main_related_profile_name, excluded.logo_url, excluded.listing_position,
				excluded.is_member, excluded.published);
		select count(*) into v_businesses from pg_temp.import_businesses;

		-- The lists of each business, but those staff changed.
		create temporary table pg_temp.import_lists on commit drop as
		select i.id, f.field, coalesce(i.b -> f.field, '[]'::jsonb) as rows
		from pg_temp.import_businesses i
		cross join unnest(public.business_list_fields()) f(field)
		where not exists (
			select 1 from public.business_overrides o where o.profile_id = i.id and o.field = f.field
		);

		delete from public.listings l using pg_temp.import_lists x
		where x.field = 'listings' and l.profile_id = x.id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(x.id::text || ':listing:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			coalesce(e.v ->> 'description', ''), coalesce(e.v ->> 'short_description', ''),
			coalesce(array(select jsonb_array_elements_text(e.v -> 'categories')), '{}'),
			coalesce(e.v ->> 'keywords', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'primary_listing')::boolean, false)
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'listings';

		delete from public.social_media s using pg_temp.import_lists x
		where x.field = 'social_media' and s.profile_id = x.id;
		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select
			md5(x.id::text || ':social:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'social_media';

		delete from public.profile_affiliations a using pg_temp.import_lists x
		where x.field = 'profile_affiliations' and a.profile_id = x.id;
		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select
			md5(x.id::text || ':affiliation:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			coalesce(e.v ->> 'icon', ''), coalesce(e.v ->> 'icon_text', ''),
			coalesce(e.v ->> 'icon_url', ''), coalesce(e.v ->> 'aff_code', ''),
			coalesce(e.v ->> 'aff_name', ''),
			coalesce((e.v ->> 'list_available_on_website')::boolean, true)
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'profile_affiliations';

		delete from public.web_content w using pg_temp.import_lists x
		where x.field = 'web_content' and w.profile_id = x.id;
		insert into public.web_content (
			id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url
		)
		select
			md5(x.id::text || ':web:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			coalesce(e.v ->> 'content_type', ''), coalesce(e.v ->> 'content_title', ''),
			coalesce(e.v ->> 'full_url', ''), coalesce(e.v ->> 'rel_url', '')
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'web_content';
	end if;

	if payload ? 'banners' then
		delete from public.banners where tenant_id = v_tenant_id;
		insert into public.banners (
			id, tenant_id, banner_name, image_url, navigate_url, target, alternate_text, active, position
		)
		select
			case
				when e.v ->> 'id' is null then md5(v_tenant_id::text || ':banner:' || e.ord)::uuid
				when e.v ->> 'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (e.v ->> 'id')::uuid
				-- The membership system's numeric banner id: a stable id per chamber and banner.
				else md5(v_tenant_id::text || ':banner-id:' || (e.v ->> 'id'))::uuid
			end,
			v_tenant_id, e.v ->> 'banner_name', e.v ->> 'image_url',
			coalesce(e.v ->> 'navigate_url', ''), coalesce(e.v ->> 'target', '_blank'),
			coalesce(e.v ->> 'alternate_text', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'position')::integer, e.ord::integer)
		from jsonb_array_elements(payload -> 'banners') with ordinality e(v, ord);
	end if;

	if payload ? 'events' or payload ? 'communityEvents' then
		delete from public.events where tenant_id = v_tenant_id;
		insert into public.events (tenant_id, source, event_id, start_utc, end_utc, closed, data)
		select
			v_tenant_id, s.source, (e ->> 'EventId')::integer, (e ->> 'StartDateTimeUtc')::timestamptz,
			(e ->> 'EndDateTimeUtc')::timestamptz, coalesce((e ->> 'Closed')::boolean, false), e
		from (
			select 'chamber' as source, e from jsonb_array_elements(coalesce(payload -> 'events', '[]')) e
			union all
			select 'community', e from jsonb_array_elements(coalesce(payload -> 'communityEvents', '[]')) e
		) s;
		get diagnostics v_events = row_count;
	end if;

	if payload ? 'users' then
		v_users := public.import_tenant_users(
			v_tenant_id,
			payload -> 'users',
			coalesce((payload ->> 'allow_super_admin')::boolean, false)
		);
	end if;

	-- Fresh statistics keep search plans on their indexes right after a large import
	-- (PGlite runs no autovacuum).
	analyze public.profiles;
	analyze public.listings;
	analyze public.profile_affiliations;
	analyze public.search_words;
	analyze public.events;

	return jsonb_build_object(
		'tenant_id', v_tenant_id,
		'businesses', v_businesses,
		'events', v_events,
		'users', v_users
	);
end;
$$;

comment on function public.import_tenant is 'Upserts a whole tenant from a validated tenant file in one transaction (service role only).';

revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;
