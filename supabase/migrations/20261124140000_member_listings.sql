/**
  ---------------------------------------------------------------------------
  Member listings the chamber's staff maintain
  ---------------------------------------------------------------------------
  A business (a profile and its listings, social links, affiliations and web
  content) is changed by its chamber's staff through save_business, the one
  way in for a user's token: it checks the role (admins and super_admins every
  field; editors the descriptive content only), holds every value to the
  tenant file's rules (business_rules), checks the version the change was
  made from (a field someone else changed since refuses the save with their
  value, who and when; other fields merge), and marks each changed field as
  changed here (business_overrides), so an import or a sync from the
  membership system leaves it as staff set it until staff take the system's
  value back. Every change of a business, whoever makes it, moves its version
  and leaves one audit_log row per field (a trigger). Removing a business
  unpublishes it and keeps its row, restorable for 30 days; its old addresses
  answer 410 Gone (business_gone).
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

comment on column public.profiles.version is 'Goes up with every change of the business (its fields or lists); a staff save names the version it was made from.';
comment on column public.profiles.field_versions is 'For each field: the version its last change made (the conflict check of save_business).';
comment on column public.profiles.updated_at is 'When the business last changed.';
comment on column public.profiles.updated_by is 'Who changed the business last: a staff member''s e-mail, or import / sync for the membership system.';
comment on column public.profiles.removed_at is 'When staff removed the business (it is unpublished; restorable for 30 days), else null.';
comment on column public.profiles.published_before_removal is 'Whether a removed business was published: restoring it puts that back.';

alter table public.profiles drop constraint if exists profiles_removed_not_published;
alter table public.profiles add constraint profiles_removed_not_published
	check (removed_at is null or not published);

-- The Members tab's list: every business of a chamber by name (the directory's indexes hold
-- published ones only), names found by any part, removed ones for the Removed filter and purge.
create index if not exists profiles_admin_name_idx on public.profiles (tenant_id, sort_name, id);
create index if not exists profiles_admin_name_trgm_idx on public.profiles using gin (sort_name gin_trgm_ops);
create index if not exists profiles_removed_idx on public.profiles (tenant_id, removed_at)
	where removed_at is not null;

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
	system_value jsonb,
	primary key (profile_id, field),
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

alter table public.business_overrides add column if not exists system_value jsonb;

comment on table public.business_overrides is 'The fields of a business its chamber''s staff changed: imports and syncs leave them as staff set them.';
comment on column public.business_overrides.system_value is 'The membership system''s value of the field, as its last import or sync sent it (before that: the value staff replaced); null when not known.';

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
  whole. Editors may change the descriptive ones only. The same lists are in
  src/features/members/members.ts (a test compares them).
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

comment on function public.business_scalar_fields is 'The fields of a business kept in profiles columns, as the tenant file names them.';
comment on function public.business_list_fields is 'The list fields of a business (child tables, replaced whole).';
comment on function public.business_editor_fields is 'The fields of a business an editor may change: its descriptive content (of listings, the descriptions only). Everything else is for admins.';

/**
  The rules every staff change is held to, derived from the business fields'
  zod schemas (src/features/members/database-rules.ts; node
  scripts/business-rules.ts prints it); checked with config_value_problem.
 */
create or replace function public.business_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '{
	"report_name": {"types":["string"],"maxLength":200},
	"address1": {"types":["string"],"maxLength":200},
	"address2": {"types":["string"],"maxLength":200},
	"city": {"types":["string"],"maxLength":200},
	"county": {"types":["string"],"maxLength":200},
	"state": {"types":["string"],"maxLength":200},
	"zip": {"types":["string"],"maxLength":200},
	"work_phone": {"types":["string"],"maxLength":200},
	"website": {"types":["string"],"maxLength":2000},
	"email": {"types":["string"],"maxLength":254},
	"featured": {"types":["boolean"]},
	"categories": {"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},
	"membership_level_name": {"types":["string"],"maxLength":200},
	"membership_rank": {"types":["integer","null"]},
	"member_since_date": {"types":["null","string"]},
	"main_related_profile_name": {"types":["string"],"maxLength":200},
	"logo_url": {"types":["string"],"maxLength":2000},
	"listing_position": {"types":["integer"]},
	"is_member": {"types":["boolean"]},
	"published": {"types":["boolean"]},
	"listings": {"types":["array"],"maxItems":20,"items":{"types":["object"],"properties":{"description":{"types":["string"],"maxLength":50000},"short_description":{"types":["string"],"maxLength":1000},"categories":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"keywords":{"types":["string"],"maxLength":2000},"active":{"types":["boolean"]},"primary_listing":{"types":["boolean"]}}}},
	"social_media": {"types":["array"],"maxItems":20,"items":{"types":["object"],"properties":{"platform":{"types":["string"],"maxLength":50},"url":{"types":["string"],"maxLength":2000}},"required":["platform","url"]}},
	"profile_affiliations": {"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"icon":{"types":["string"],"maxLength":2000},"icon_text":{"types":["string"],"maxLength":200},"icon_url":{"types":["string"],"maxLength":2000},"aff_code":{"types":["string"],"maxLength":200},"aff_name":{"types":["string"],"maxLength":200},"list_available_on_website":{"types":["boolean"]}},"required":["aff_name"]}},
	"web_content": {"types":["array"],"maxItems":100,"items":{"types":["object"],"properties":{"content_type":{"types":["string"],"maxLength":200},"content_title":{"types":["string"],"maxLength":500},"full_url":{"types":["string"],"maxLength":2000},"rel_url":{"types":["string"],"maxLength":2000}},"required":["content_type","content_title"]}}
}'::jsonb;
$rules$;

comment on function public.business_rules is 'The rules every staff change of a business is held to, derived from the app''s zod schemas (scripts/business-rules.ts).';

/**
  A list field's rows as the database keeps them: the tenant file's fields
  with its defaults filled in, in order. Both the stored lists
  (business_list_value) and lists from a file or a staff change
  (business_list_normalized) come out in this one shape, so equal lists are
  equal jsonb.
 */
create or replace function public.business_list_normalized(p_field text, p_rows jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
	select coalesce(
		case p_field
			when 'listings' then (
				select jsonb_agg(jsonb_build_object(
					'description', coalesce(e.v ->> 'description', ''),
					'short_description', coalesce(e.v ->> 'short_description', ''),
					'categories', to_jsonb(coalesce(array(select jsonb_array_elements_text(e.v -> 'categories')), '{}'::text[])),
					'keywords', coalesce(e.v ->> 'keywords', ''),
					'active', coalesce((e.v ->> 'active')::boolean, true),
					'primary_listing', coalesce((e.v ->> 'primary_listing')::boolean, false)
				) order by e.ord)
				from jsonb_array_elements(p_rows) with ordinality e(v, ord))
			when 'social_media' then (
				select jsonb_agg(jsonb_build_object('platform', e.v ->> 'platform', 'url', e.v ->> 'url') order by e.ord)
				from jsonb_array_elements(p_rows) with ordinality e(v, ord))
			when 'profile_affiliations' then (
				select jsonb_agg(jsonb_build_object(
					'icon', coalesce(e.v ->> 'icon', ''), 'icon_text', coalesce(e.v ->> 'icon_text', ''),
					'icon_url', coalesce(e.v ->> 'icon_url', ''), 'aff_code', coalesce(e.v ->> 'aff_code', ''),
					'aff_name', coalesce(e.v ->> 'aff_name', ''),
					'list_available_on_website', coalesce((e.v ->> 'list_available_on_website')::boolean, true)
				) order by e.ord)
				from jsonb_array_elements(p_rows) with ordinality e(v, ord))
			when 'web_content' then (
				select jsonb_agg(jsonb_build_object(
					'content_type', coalesce(e.v ->> 'content_type', ''),
					'content_title', coalesce(e.v ->> 'content_title', ''),
					'full_url', coalesce(e.v ->> 'full_url', ''), 'rel_url', coalesce(e.v ->> 'rel_url', '')
				) order by e.ord)
				from jsonb_array_elements(p_rows) with ordinality e(v, ord))
		end,
		'[]'::jsonb
	)
	where jsonb_typeof(p_rows) = 'array'
	union all
	select '[]'::jsonb where jsonb_typeof(p_rows) is distinct from 'array';
$$;

comment on function public.business_list_normalized is 'A list field''s rows (from a file or a change) in the shape business_list_value answers: the fields with their defaults, in order.';

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

comment on function public.business_list_value is 'A business''s list field as the tenant file writes it.';

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
declare
	v_rows jsonb := public.business_list_normalized(p_field, p_rows);
begin
	if p_field = 'listings' then
		delete from public.listings where profile_id = p_profile_id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(p_profile_id::text || ':listing:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			e.v ->> 'description', e.v ->> 'short_description',
			array(select jsonb_array_elements_text(e.v -> 'categories')),
			e.v ->> 'keywords', (e.v ->> 'active')::boolean, (e.v ->> 'primary_listing')::boolean
		from jsonb_array_elements(v_rows) with ordinality e(v, ord);
	elsif p_field = 'social_media' then
		delete from public.social_media where profile_id = p_profile_id;
		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select md5(p_profile_id::text || ':social:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from jsonb_array_elements(v_rows) with ordinality e(v, ord);
	elsif p_field = 'profile_affiliations' then
		delete from public.profile_affiliations where profile_id = p_profile_id;
		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select md5(p_profile_id::text || ':affiliation:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			e.v ->> 'icon', e.v ->> 'icon_text', e.v ->> 'icon_url', e.v ->> 'aff_code', e.v ->> 'aff_name',
			(e.v ->> 'list_available_on_website')::boolean
		from jsonb_array_elements(v_rows) with ordinality e(v, ord);
	elsif p_field = 'web_content' then
		delete from public.web_content where profile_id = p_profile_id;
		insert into public.web_content (id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url)
		select md5(p_profile_id::text || ':web:' || e.ord)::uuid, p_tenant_id, p_profile_id, e.ord,
			e.v ->> 'content_type', e.v ->> 'content_title', e.v ->> 'full_url', e.v ->> 'rel_url'
		from jsonb_array_elements(v_rows) with ordinality e(v, ord);
	else
		raise exception 'Not a list field of a business: %', p_field using errcode = '22023';
	end if;
end;
$$;

comment on function public.replace_business_list is 'Replaces one list field of a business with the given rows (normalised, ids derived as the import derives them).';

/**
  A business of a tenant file (or a staff change) as the import stores its
  scalar fields: the file's defaults filled in, values in the JSON form
  business_document answers.
 */
create or replace function public.business_from_file(p_business jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
	select jsonb_build_object(
		'report_name', p_business ->> 'report_name',
		'address1', coalesce(p_business ->> 'address1', ''),
		'address2', coalesce(p_business ->> 'address2', ''),
		'city', coalesce(p_business ->> 'city', ''),
		'county', coalesce(p_business ->> 'county', ''),
		'state', coalesce(p_business ->> 'state', ''),
		'zip', coalesce(p_business ->> 'zip', ''),
		'work_phone', coalesce(p_business ->> 'work_phone', ''),
		'website', coalesce(p_business ->> 'website', ''),
		'email', coalesce(p_business ->> 'email', ''),
		'featured', coalesce((p_business ->> 'featured')::boolean, false),
		'categories', to_jsonb(coalesce(array(select jsonb_array_elements_text(p_business -> 'categories')), '{}'::text[])),
		'membership_level_name', coalesce(nullif(p_business ->> 'membership_level_name', ''), 'Member'),
		'membership_rank', (p_business ->> 'membership_rank')::integer,
		'member_since_date', (p_business ->> 'member_since_date')::date,
		'main_related_profile_name', coalesce(p_business ->> 'main_related_profile_name', ''),
		'logo_url', coalesce(p_business ->> 'logo_url', ''),
		'listing_position', coalesce((p_business ->> 'listing_position')::integer, 1000),
		'is_member', coalesce((p_business ->> 'is_member')::boolean, true),
		'published', coalesce((p_business ->> 'published')::boolean, true)
	);
$$;

comment on function public.business_from_file is 'The scalar fields of a tenant file''s business as the import stores them (defaults filled in), in business_document''s form.';

/** A business in the tenant file's shape: its ids, every field, its lists included. */
create or replace function public.business_document(p_profile_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select jsonb_build_object(
			'id', p.id,
			'weblink_profile_id', p.weblink_profile_id,
			'report_name', p.report_name, 'address1', p.address1, 'address2', p.address2,
			'city', p.city, 'county', p.county, 'state', p.state, 'zip', p.zip,
			'work_phone', p.work_phone, 'website', p.website, 'email', p.email,
			'featured', p.featured, 'categories', to_jsonb(p.categories),
			'membership_level_name', p.membership_level_name, 'membership_rank', p.membership_rank,
			'member_since_date', p.member_since_date,
			'main_related_profile_name', p.main_related_profile_name, 'logo_url', p.logo_url,
			'listing_position', p.listing_position, 'is_member', p.is_member, 'published', p.published
		)
		|| jsonb_build_object(
			'listings', public.business_list_value(p.id, 'listings'),
			'social_media', public.business_list_value(p.id, 'social_media'),
			'profile_affiliations', public.business_list_value(p.id, 'profile_affiliations'),
			'web_content', public.business_list_value(p.id, 'web_content')
		)
	from public.profiles p
	where p.id = p_profile_id;
$$;

comment on function public.business_document is 'A business in the tenant file''s shape (id, weblink_profile_id, every field and list); service role only.';

/**
  ---------------------------------------------------------------------------
  Every change of a business: its version, field versions and audit rows
  ---------------------------------------------------------------------------
  A trigger, so the import, a sync and staff saves are all counted alike:
  fields whose value changed get the new version in field_versions and one
  audit_log row each (who from the token: a staff member, or the service
  role for imports and syncs). An update that changes no field (the search
  columns after a listings write, a relabel of updated_by) moves nothing.
  List fields live in child tables: whoever replaces one (save_business,
  import_tenant) bumps the version itself and writes its audit row.
 */
create or replace function public.profiles_version_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_old jsonb;
	v_new jsonb;
	v_changed text[];
	v_actor record;
begin
	-- The cheap test first: most updates of a profile change none of its fields.
	if (new.report_name, new.address1, new.address2, new.city, new.county, new.state, new.zip,
			new.work_phone, new.website, new.email, new.featured, new.categories,
			new.membership_level_name, new.membership_rank, new.member_since_date,
			new.main_related_profile_name, new.logo_url, new.listing_position, new.is_member,
			new.published, new.removed_at)
		is not distinct from
		(old.report_name, old.address1, old.address2, old.city, old.county, old.state, old.zip,
			old.work_phone, old.website, old.email, old.featured, old.categories,
			old.membership_level_name, old.membership_rank, old.member_since_date,
			old.main_related_profile_name, old.logo_url, old.listing_position, old.is_member,
			old.published, old.removed_at)
	then
		if new.version is distinct from old.version then
			-- A list field changed (the writer bumped the version).
			new.updated_at := now();
		end if;
		return new;
	end if;

	v_old := to_jsonb(old);
	v_new := to_jsonb(new);
	select array_agg(f) into v_changed
	from unnest(public.business_scalar_fields()) f
	where v_old -> f is distinct from v_new -> f;

	if new.version is not distinct from old.version then
		new.version := old.version + 1;
	end if;
	new.updated_at := now();
	select * into v_actor from public.audit_actor(new.tenant_id);
	if new.updated_by is not distinct from old.updated_by then
		new.updated_by := coalesce(v_actor.actor_email, 'import');
	end if;
	if v_changed is not null then
		new.field_versions := new.field_versions
			|| (select jsonb_object_agg(f, new.version) from unnest(v_changed) f);
		insert into public.audit_log (
			tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id
		)
		select new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business',
			f, v_old -> f, v_new -> f, new.id
		from unnest(v_changed) f
		-- Removing and restoring write their own row; the publish flag they flip is part of it.
		where not (f = 'published' and new.removed_at is distinct from old.removed_at);
	end if;
	return new;
end;
$$;

comment on function public.profiles_version_trigger is 'Trigger: a change of a business''s fields moves its version and field_versions and leaves one audit row per field.';

drop trigger if exists profiles_version_before_update on public.profiles;
create trigger profiles_version_before_update before update on public.profiles
	for each row execute function public.profiles_version_trigger();

/**
  ---------------------------------------------------------------------------
  Checking a staff change
  ---------------------------------------------------------------------------
 */

/** The first problem of a changed field's value ("field: problem"), or null. */
create or replace function public.business_value_problem(p_field text, p_value jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_rule jsonb := public.business_rules() -> p_field;
begin
	if v_rule is null then
		return format('%s: not a field of a business', p_field);
	end if;
	if p_value is null then
		return format('%s: expected a value', p_field);
	end if;
	if p_field = 'report_name' and btrim(p_value #>> '{}') = '' then
		return 'report_name: a business needs a name';
	end if;
	if p_field = 'membership_level_name' and btrim(p_value #>> '{}') = '' then
		return 'membership_level_name: a business needs a membership level';
	end if;
	if p_field = 'listing_position' and jsonb_typeof(p_value) = 'number' and (p_value #>> '{}')::numeric < 1 then
		return 'listing_position: 1 is the top; expected 1 or more';
	end if;
	if p_field = 'member_since_date' and jsonb_typeof(p_value) = 'string'
		and (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$' then
		return 'member_since_date: expected a date like 2027-03-15';
	end if;
	return public.config_value_problem(v_rule, p_value, p_field);
end;
$$;

comment on function public.business_value_problem is 'The first way a staff change''s value breaks business_rules() ("field: problem"), or null.';

/**
  Whether the signed-in user may change this field of this chamber's
  businesses: admins and super_admins every field, editors the descriptive
  ones. (Of listings an editor changes the descriptions only; save_business
  checks that against the stored listings.)
 */
create or replace function public.may_change_business_field(p_tenant_id uuid, p_field text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select case public.tenant_role(p_tenant_id)
		when 'super_admin' then true
		when 'admin' then true
		when 'editor' then p_field = any (public.business_editor_fields())
		else false
	end;
$$;

comment on function public.may_change_business_field is 'Whether the signed-in user may change a field of the chamber''s businesses (editors: the descriptive ones).';

/**
  ---------------------------------------------------------------------------
  save_business: a staff change of one business, as the user
  ---------------------------------------------------------------------------
  p_business_id null adds a business (admins): p_changes needs report_name,
  and may carry weblink_profile_id (digits: the membership system's id, so
  its later imports update this business; without one the business is the
  chamber's own, 'local-{id}'). Otherwise p_changes holds the changed fields
  in the tenant file's shape, p_version the version the change was made from.
  A field someone else changed since that version to another value than this
  change's refuses the whole save with PT409 (PostgREST answers 409): the
  detail names each such field's value now, who changed it and when. Other
  fields merge. Answers {id, version}.
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
	v_who text;
	v_id uuid := p_business_id;
	v_weblink text;
	v_old jsonb;
	v_row public.profiles;
	v_field text;
	v_problem text;
	v_conflicts jsonb;
	v_scalars jsonb := '{}'::jsonb;
	v_lists text[] := '{}';
	v_changed text[] := '{}';
	v_before jsonb;
	v_after jsonb;
	v_from_system boolean;
	v_version integer;
begin
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if jsonb_typeof(p_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	for v_field in select jsonb_object_keys(p_changes) loop
		continue when v_field = 'weblink_profile_id' and p_business_id is null;
		if not (v_field = any (public.business_scalar_fields() || public.business_list_fields())) then
			raise exception 'Not a field of a business: %', v_field using errcode = '22023';
		end if;
		if not public.may_change_business_field(p_tenant_id, v_field) then
			raise exception 'Editors can change a listing''s descriptions, web content, social links and logo only, not %', v_field
				using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
		end if;
		v_problem := public.business_value_problem(v_field, p_changes -> v_field);
		if v_problem is not null then
			raise exception '%', v_problem using errcode = '22023';
		end if;
		-- Stored as the import stores them, so equal values compare equal.
		if v_field = any (public.business_list_fields()) then
			p_changes := jsonb_set(p_changes, array[v_field], public.business_list_normalized(v_field, p_changes -> v_field));
		end if;
	end loop;
	select * into v_actor from public.audit_actor(p_tenant_id);
	v_who := coalesce(v_actor.actor_email, v_actor.actor_role);
	perform public.purge_removed_businesses(p_tenant_id);

	if v_id is null then
		if v_role = 'editor' then
			raise exception 'Editors cannot add businesses' using errcode = '42501';
		end if;
		if coalesce(btrim(p_changes ->> 'report_name'), '') = '' then
			raise exception 'report_name: a new business needs its name' using errcode = '22023';
		end if;
		v_weblink := nullif(btrim(p_changes ->> 'weblink_profile_id'), '');
		if v_weblink is not null then
			if v_weblink !~ '^\d{1,30}$' then
				raise exception 'weblink_profile_id: expected the membership system''s profile id (digits)' using errcode = '22023';
			end if;
			v_weblink := regexp_replace(v_weblink, '^0+(?=\d)', '');
			-- The id the import derives from it: the membership system's data lands on this business.
			v_id := md5(p_tenant_id::text || ':profile:' || v_weblink)::uuid;
			if exists (select 1 from public.profiles where tenant_id = p_tenant_id and weblink_profile_id = v_weblink) then
				raise exception 'weblink_profile_id: the chamber already has a business with the membership system''s id %', v_weblink
					using errcode = '23505';
			end if;
		else
			v_id := gen_random_uuid();
			v_weblink := 'local-' || v_id::text;
		end if;
		insert into public.profiles as p (
			id, tenant_id, weblink_profile_id, report_name, address1, address2, city, county, state, zip,
			work_phone, website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, main_related_profile_name, logo_url, listing_position, is_member,
			published, updated_by
		)
		select v_id, p_tenant_id, v_weblink, d ->> 'report_name', d ->> 'address1', d ->> 'address2',
			d ->> 'city', d ->> 'county', d ->> 'state', d ->> 'zip', d ->> 'work_phone', d ->> 'website',
			d ->> 'email', (d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(d -> 'categories')), d ->> 'membership_level_name',
			(d ->> 'membership_rank')::integer, (d ->> 'member_since_date')::date,
			d ->> 'main_related_profile_name', d ->> 'logo_url', (d ->> 'listing_position')::integer,
			(d ->> 'is_member')::boolean, (d ->> 'published')::boolean, v_who
		from (select public.business_from_file(p_changes) as d) x;
		for v_field in select unnest(public.business_list_fields()) loop
			if p_changes ? v_field then
				perform public.replace_business_list(p_tenant_id, v_id, v_field, p_changes -> v_field);
			end if;
		end loop;
		insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
		values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'added', null,
			public.business_document(v_id), v_id);
		return jsonb_build_object('id', v_id, 'version', (select version from public.profiles where id = v_id));
	end if;

	select * into v_row from public.profiles where id = v_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'P0002';
	end if;
	if v_row.removed_at is not null then
		raise exception 'This business was removed: restore it before changing it' using errcode = '55000';
	end if;
	v_old := public.business_document(v_id);

	-- An editor changes the descriptions of listings, never which listings there are or their
	-- categories, keywords and flags.
	if v_role = 'editor' and p_changes ? 'listings' then
		if (select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(p_changes -> 'listings') with ordinality x(e, ord))
			is distinct from
			(select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(v_old -> 'listings') with ordinality x(e, ord)) then
			raise exception 'Editors can change a listing''s descriptions only, not its categories, keywords or which listings there are'
				using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
		end if;
	end if;

	-- Someone else changed one of these fields after the version this change was made from.
	select coalesce(jsonb_agg(jsonb_build_object(
			'field', c.field,
			'value', v_old -> c.field,
			'changedBy', coalesce(a.actor_email, case when a.actor_role in ('service_role', 'database') or a.actor_role is null then 'the membership system' else a.actor_role end),
			'changedAt', coalesce(a.at, v_row.updated_at)
		) order by c.field), '[]'::jsonb)
	into v_conflicts
	from (
		select k as field from jsonb_object_keys(p_changes) k
		where coalesce((v_row.field_versions ->> k)::integer, 0) > p_version
			and (v_old -> k) is distinct from (p_changes -> k)
	) c
	left join lateral (
		select al.actor_email, al.actor_role, al.at from public.audit_log al
		where al.business_id = v_id and al.field = c.field
		order by al.at desc, al.id desc limit 1
	) a on true;
	if jsonb_array_length(v_conflicts) > 0 then
		raise exception 'Someone else changed this listing since you opened it'
			using errcode = 'PT409',
				detail = jsonb_build_object('version', v_row.version, 'conflicts', v_conflicts)::text;
	end if;

	for v_field in select jsonb_object_keys(p_changes) loop
		v_before := v_old -> v_field;
		v_after := p_changes -> v_field;
		continue when v_before is not distinct from v_after;
		v_changed := v_changed || v_field;
		if v_field = any (public.business_list_fields()) then
			perform public.replace_business_list(p_tenant_id, v_id, v_field, v_after);
			v_lists := v_lists || v_field;
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
			values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', v_field, v_before, v_after, v_id);
		else
			v_scalars := v_scalars || jsonb_build_object(v_field, v_after);
		end if;
	end loop;
	if cardinality(v_changed) = 0 then
		return jsonb_build_object('id', v_id, 'version', v_row.version);
	end if;

	-- One version for the whole save: set here when a list changed, else the trigger's.
	v_version := case when cardinality(v_lists) > 0 then v_row.version + 1 else v_row.version end;
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
		version = v_version,
		field_versions = p.field_versions
			|| coalesce((select jsonb_object_agg(f, v_version) from unnest(v_lists) f), '{}'::jsonb),
		updated_by = v_who
	where p.id = v_id
	returning p.version into v_version;

	-- Changed here: imports and syncs leave these fields be. A business of the membership system
	-- only (the chamber's own has no system value to differ from); a field set back to the
	-- system's value follows the system again.
	v_from_system := v_row.weblink_profile_id not like 'local-%';
	if v_from_system then
		insert into public.business_overrides as o (tenant_id, profile_id, field, changed_at, changed_by, system_value)
		select p_tenant_id, v_id, f, now(), v_who, v_old -> f
		from unnest(v_changed) f
		on conflict (profile_id, field) do update
			set changed_at = excluded.changed_at, changed_by = excluded.changed_by;
		delete from public.business_overrides o
		where o.profile_id = v_id and o.field = any (v_changed)
			and o.system_value is not null and o.system_value = p_changes -> o.field;
	end if;

	return jsonb_build_object('id', v_id, 'version', v_version);
end;
$$;

comment on function public.save_business is 'A staff change of a business (or a new one), as the user: role per field, the rules, the version check, overrides; the trigger audits it.';

/**
  ---------------------------------------------------------------------------
  Remove, restore, and taking the membership system's value back
  ---------------------------------------------------------------------------
 */

/**
  A removed business is gone for good 30 days on: the import and staff
  actions purge the rows whose time has passed.
 */
create or replace function public.purge_removed_businesses(p_tenant_id uuid)
returns integer
language sql
security definer
set search_path = ''
as $$
	with gone as (
		delete from public.profiles
		where tenant_id = p_tenant_id and removed_at is not null and removed_at <= now() - interval '30 days'
		returning 1
	)
	select count(*)::integer from gone;
$$;

comment on function public.purge_removed_businesses is 'Deletes the chamber''s businesses removed more than 30 days ago.';

create or replace function public.remove_business(p_tenant_id uuid, p_business_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
	v_version integer;
begin
	if not public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only the chamber''s admins can remove a business' using errcode = '42501';
	end if;
	perform public.purge_removed_businesses(p_tenant_id);
	select * into v_actor from public.audit_actor(p_tenant_id);
	update public.profiles
	set published_before_removal = published, published = false, removed_at = now(),
		updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where id = p_business_id and tenant_id = p_tenant_id and removed_at is null
	returning version into v_version;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'P0002';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'false', 'true', p_business_id);
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

comment on function public.remove_business is 'Removes a business (admins): unpublished and kept, restorable for 30 days.';

create or replace function public.restore_business(p_tenant_id uuid, p_business_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
	v_version integer;
begin
	if not public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only the chamber''s admins can restore a business' using errcode = '42501';
	end if;
	perform public.purge_removed_businesses(p_tenant_id);
	select * into v_actor from public.audit_actor(p_tenant_id);
	update public.profiles
	set published = coalesce(published_before_removal, true), published_before_removal = null,
		removed_at = null, updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where id = p_business_id and tenant_id = p_tenant_id and removed_at is not null
	returning version into v_version;
	if not found then
		raise exception 'No removed business to restore (a removal is kept for 30 days)' using errcode = 'P0002';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'true', 'false', p_business_id);
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

comment on function public.restore_business is 'Restores a removed business (admins) within 30 days, published again if it was.';

/**
  Staff take the membership system's value back: the field gets the value
  the system last sent (when known) and follows imports and syncs again.
 */
create or replace function public.clear_business_override(p_tenant_id uuid, p_business_id uuid, p_field text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_override public.business_overrides;
	v_actor record;
	v_old jsonb;
	v_version integer;
begin
	if not public.may_change_business_field(p_tenant_id, p_field) then
		raise exception 'You cannot change this field of the chamber''s businesses' using errcode = '42501';
	end if;
	select * into v_override from public.business_overrides
	where tenant_id = p_tenant_id and profile_id = p_business_id and field = p_field
	for update;
	if not found then
		raise exception 'This field follows the membership system already' using errcode = 'P0002';
	end if;
	if exists (select 1 from public.profiles where id = p_business_id and removed_at is not null) then
		raise exception 'This business was removed: restore it before changing it' using errcode = '55000';
	end if;
	delete from public.business_overrides
	where tenant_id = p_tenant_id and profile_id = p_business_id and field = p_field;
	select version into v_version from public.profiles where id = p_business_id;
	if v_override.system_value is null then
		return jsonb_build_object('id', p_business_id, 'version', v_version);
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	if p_field = any (public.business_list_fields()) then
		v_old := public.business_list_value(p_business_id, p_field);
		if v_old is distinct from v_override.system_value then
			perform public.replace_business_list(p_tenant_id, p_business_id, p_field, v_override.system_value);
			update public.profiles p
			set version = p.version + 1,
				field_versions = p.field_versions || jsonb_build_object(p_field, p.version + 1),
				updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
			where p.id = p_business_id
			returning p.version into v_version;
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
			values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', p_field, v_old, v_override.system_value, p_business_id);
		end if;
	else
		update public.profiles p
		set (report_name, address1, address2, city, county, state, zip, work_phone, website, email,
				featured, categories, membership_level_name, membership_rank, member_since_date,
				main_related_profile_name, logo_url, listing_position, is_member, published) = (
			select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
				r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
				r.member_since_date, r.main_related_profile_name, r.logo_url, r.listing_position,
				r.is_member, r.published
			from jsonb_populate_record(p, jsonb_build_object(p_field, v_override.system_value)) r
		),
			updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
		where p.id = p_business_id
		returning p.version into v_version;
	end if;
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

comment on function public.clear_business_override is 'Takes the membership system''s value of a field back (its last known value) and lets imports and syncs set it again.';

/**
  ---------------------------------------------------------------------------
  What the Members tab reads (staff of the chamber)
  ---------------------------------------------------------------------------
  Definer functions that check the role once: row-level security would ask
  has_tenant_role for each of 50,000 rows.
 */

/**
  A page of the chamber's businesses by name: every one, published or not,
  filtered by part of the name, status (published, unpublished, removed),
  membership level and category. Answers {total, businesses}.
 */
create or replace function public.admin_list_businesses(
	p_tenant_id uuid,
	p_query text default null,
	p_status text default null,
	p_level text default null,
	p_category text default null,
	p_limit integer default 25,
	p_offset integer default 0
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_where text := 'p.tenant_id = $1';
	v_total bigint;
	v_rows jsonb;
	v_pattern text;
begin
	if public.tenant_role(p_tenant_id) is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if p_status is not null and p_status not in ('published', 'unpublished', 'removed') then
		raise exception 'status: expected published, unpublished or removed' using errcode = '22023';
	end if;
	if nullif(btrim(p_query), '') is not null then
		v_pattern := '%' || replace(replace(replace(lower(btrim(p_query)), '\', '\\'), '%', '\%'), '_', '\_') || '%';
		v_where := v_where || ' and p.sort_name like $2';
	end if;
	v_where := v_where || case p_status
		when 'published' then ' and p.published'
		when 'unpublished' then ' and not p.published and p.removed_at is null'
		when 'removed' then ' and p.removed_at is not null'
		else ''
	end;
	if nullif(btrim(p_level), '') is not null then
		v_where := v_where || ' and p.membership_level_name = $3';
	end if;
	if nullif(btrim(p_category), '') is not null then
		v_where := v_where || ' and p.categories @> array[$4]';
	end if;
	-- Dynamic SQL: each filter combination gets its own plan (the name index for a plain page).
	execute format('select count(*) from public.profiles p where %s', v_where)
		into v_total
		using p_tenant_id, v_pattern, btrim(p_level), btrim(p_category);
	execute format($q$
		select coalesce(jsonb_agg(jsonb_build_object(
				'id', p.id, 'name', p.report_name, 'level', p.membership_level_name,
				'categories', to_jsonb(p.categories), 'city', p.city,
				'status', case when p.removed_at is not null then 'removed'
					when p.published then 'published' else 'unpublished' end,
				'updatedAt', p.updated_at, 'updatedBy', p.updated_by
			) order by p.sort_name, p.id), '[]'::jsonb)
		from (
			select * from public.profiles p where %s
			order by p.sort_name, p.id
			limit $5 offset $6
		) p
	$q$, v_where)
		into v_rows
		using p_tenant_id, v_pattern, btrim(p_level), btrim(p_category),
			least(greatest(coalesce(p_limit, 25), 1), 100), greatest(coalesce(p_offset, 0), 0);
	return jsonb_build_object('total', v_total, 'businesses', v_rows);
end;
$$;

comment on function public.admin_list_businesses is 'A page of the chamber''s businesses for its staff (every status), by name, with filters; {total, businesses}.';

/**
  One business for the chamber's staff: the tenant file's shape, its version
  and state, and the fields changed here with the membership system's value.
 */
create or replace function public.admin_business(p_tenant_id uuid, p_business_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_row public.profiles;
begin
	if public.tenant_role(p_tenant_id) is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	select * into v_row from public.profiles where id = p_business_id and tenant_id = p_tenant_id;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'P0002';
	end if;
	return jsonb_build_object(
		'business', public.business_document(v_row.id) || jsonb_build_object(
			'weblink_profile_id',
			case when v_row.weblink_profile_id like 'local-%' then null else v_row.weblink_profile_id end
		),
		'version', v_row.version,
		'status', case when v_row.removed_at is not null then 'removed'
			when v_row.published then 'published' else 'unpublished' end,
		'updatedAt', v_row.updated_at,
		'updatedBy', v_row.updated_by,
		'removedAt', v_row.removed_at,
		'overrides', coalesce((
			select jsonb_agg(jsonb_build_object(
				'field', o.field, 'changedAt', o.changed_at, 'changedBy', o.changed_by,
				'systemValue', o.system_value
			) order by o.field)
			from public.business_overrides o where o.profile_id = v_row.id
		), '[]'::jsonb)
	);
end;
$$;

comment on function public.admin_business is 'One business for the chamber''s staff: {business, version, status, updatedAt, updatedBy, removedAt, overrides}.';

/**
  ---------------------------------------------------------------------------
  Old addresses of listings that left the site
  ---------------------------------------------------------------------------
  Whether a /business/{id or weblink id}/… address names a business of the
  chamber that is not on the site (unpublished or removed): such addresses
  answer 410 Gone rather than 404. Visitors may ask; the answer says no more
  than the status does.
 */
create or replace function public.business_gone(p_tenant_id uuid, p_key text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select exists (
		select 1 from public.profiles p
		where p.tenant_id = p_tenant_id and not p.published
			and (
				(p_key ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' and p.id = p_key::uuid)
				or (p_key ~ '^\d{1,30}$' and p.weblink_profile_id = regexp_replace(p_key, '^0+(?=\d)', ''))
			)
	);
$$;

comment on function public.business_gone is 'Whether an id or membership-system id names a business of the chamber that left the site (its addresses answer 410).';

revoke all on function public.business_scalar_fields() from public, anon, authenticated;
revoke all on function public.business_list_fields() from public, anon, authenticated;
revoke all on function public.business_editor_fields() from public, anon, authenticated;
revoke all on function public.business_rules() from public, anon, authenticated;
revoke all on function public.business_list_normalized(text, jsonb) from public, anon, authenticated;
revoke all on function public.business_list_value(uuid, text) from public, anon, authenticated;
revoke all on function public.replace_business_list(uuid, uuid, text, jsonb) from public, anon, authenticated;
revoke all on function public.business_from_file(jsonb) from public, anon, authenticated;
revoke all on function public.business_document(uuid) from public, anon, authenticated;
revoke all on function public.profiles_version_trigger() from public, anon, authenticated;
revoke all on function public.business_value_problem(text, jsonb) from public, anon, authenticated;
revoke all on function public.may_change_business_field(uuid, text) from public, anon;
revoke all on function public.save_business(uuid, uuid, jsonb, integer) from public, anon;
revoke all on function public.purge_removed_businesses(uuid) from public, anon, authenticated;
revoke all on function public.remove_business(uuid, uuid) from public, anon;
revoke all on function public.restore_business(uuid, uuid) from public, anon;
revoke all on function public.clear_business_override(uuid, uuid, text) from public, anon;
revoke all on function public.admin_list_businesses(uuid, text, text, text, text, integer, integer) from public, anon;
revoke all on function public.admin_business(uuid, uuid) from public, anon;
revoke all on function public.business_gone(uuid, text) from public;

grant execute on function public.business_scalar_fields() to service_role;
grant execute on function public.business_list_fields() to service_role;
grant execute on function public.business_editor_fields() to service_role;
grant execute on function public.business_rules() to service_role;
grant execute on function public.business_list_normalized(text, jsonb) to service_role;
grant execute on function public.business_list_value(uuid, text) to service_role;
grant execute on function public.replace_business_list(uuid, uuid, text, jsonb) to service_role;
grant execute on function public.business_from_file(jsonb) to service_role;
grant execute on function public.business_document(uuid) to service_role;
grant execute on function public.business_value_problem(text, jsonb) to service_role;
grant execute on function public.may_change_business_field(uuid, text) to authenticated, service_role;
grant execute on function public.save_business(uuid, uuid, jsonb, integer) to authenticated, service_role;
grant execute on function public.purge_removed_businesses(uuid) to service_role;
grant execute on function public.remove_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.restore_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.clear_business_override(uuid, uuid, text) to authenticated, service_role;
grant execute on function public.admin_list_businesses(uuid, text, text, text, text, integer, integer) to authenticated, service_role;
grant execute on function public.admin_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.business_gone(uuid, text) to anon, authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  The import leaves what staff changed
  ---------------------------------------------------------------------------
  A re-import updates each business in place (its id is derived from the
  chamber and the membership-system id, so it is the same row) instead of
  replacing them all, and writes only what differs: a field in
  business_overrides keeps the value staff gave it (the file's value is kept
  as the override's system_value), a removed business stays removed, and
  businesses staff added (no membership-system id: weblink_profile_id
  'local-…') are kept. Changed fields are counted and audited like any other
  change (the trigger above; list fields here).
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

comment on function public.import_value is 'The value an import writes into a business''s field: the current one where staff changed it here (business_overrides), else the file''s.';

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
	v_actor record;
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
		-- Each business as it would be stored (d), with its id and whether it exists already.
		create temporary table pg_temp.import_businesses on commit drop as
		select x.id, x.b, public.business_from_file(x.b) as d, false as existed
		from (
			select
				coalesce(
					(b ->> 'id')::uuid,
					md5(v_tenant_id::text || ':profile:' || (b ->> 'weblink_profile_id'))::uuid
				) as id,
				b
			from jsonb_array_elements(payload -> 'businesses') b
		) x;
		create index on pg_temp.import_businesses (id);
		select count(*) into v_businesses from pg_temp.import_businesses;

		-- Businesses the file no longer has go, but those added by staff (no membership-system id).
		if replace_businesses then
			delete from public.profiles p
			where p.tenant_id = v_tenant_id
				and p.weblink_profile_id not like 'local-%'
				and not exists (select 1 from pg_temp.import_businesses i where i.id = p.id);
		end if;
		perform public.purge_removed_businesses(v_tenant_id);
		update pg_temp.import_businesses i set existed = true
		from public.profiles p where p.id = i.id;

		-- What the membership system says of the fields staff changed here, kept beside them …
		update public.business_overrides o
		set system_value = case
			when o.field = any (public.business_list_fields())
				then public.business_list_normalized(o.field, coalesce(i.b -> o.field, '[]'::jsonb))
			else i.d -> o.field
		end
		from pg_temp.import_businesses i
		where o.tenant_id = v_tenant_id and o.profile_id = i.id;

		-- … while those fields keep the value staff gave them.
		update pg_temp.import_businesses i
		set d = i.d || m.kept
		from (
			select o.profile_id, jsonb_object_agg(o.field, to_jsonb(p) -> o.field) as kept
			from public.business_overrides o
			join public.profiles p on p.id = o.profile_id
			where o.tenant_id = v_tenant_id and o.field = any (public.business_scalar_fields())
			group by o.profile_id
		) m
		where m.profile_id = i.id;

		insert into public.profiles as p (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published, updated_by
		)
		select
			i.id, v_tenant_id, i.d ->> 'report_name', i.d ->> 'address1', i.d ->> 'address2',
			i.d ->> 'city', i.d ->> 'county', i.d ->> 'state', i.d ->> 'zip', i.d ->> 'work_phone',
			i.d ->> 'website', i.d ->> 'email', (i.d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(i.d -> 'categories')),
			i.d ->> 'membership_level_name', (i.d ->> 'membership_rank')::integer,
			(i.d ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			i.d ->> 'main_related_profile_name', i.d ->> 'logo_url',
			(i.d ->> 'listing_position')::integer, (i.d ->> 'is_member')::boolean,
			(i.d ->> 'published')::boolean, 'import'
		from pg_temp.import_businesses i
		on conflict (id) do update set
			report_name = excluded.report_name, address1 = excluded.address1,
			address2 = excluded.address2, city = excluded.city, county = excluded.county,
			state = excluded.state, zip = excluded.zip, work_phone = excluded.work_phone,
			website = excluded.website, email = excluded.email, featured = excluded.featured,
			categories = excluded.categories, membership_level_name = excluded.membership_level_name,
			membership_rank = excluded.membership_rank, member_since_date = excluded.member_since_date,
			weblink_profile_id = excluded.weblink_profile_id,
			main_related_profile_name = excluded.main_related_profile_name,
			logo_url = excluded.logo_url, listing_position = excluded.listing_position,
			is_member = excluded.is_member,
			-- A removed business stays off the site until staff restore it.
			published = excluded.published and p.removed_at is null,
			published_before_removal = case
				when p.removed_at is null then null else excluded.published
			end,
			updated_by = 'import'
		-- Only a business whose values differ is written: an unchanged re-import changes nothing.
		where (p.report_name, p.address1, p.address2, p.city, p.county, p.state, p.zip, p.work_phone,
				p.website, p.email, p.featured, p.categories, p.membership_level_name, p.membership_rank,
				p.member_since_date, p.weblink_profile_id, p.main_related_profile_name, p.logo_url,
				p.listing_position, p.is_member, p.published,
				case when p.removed_at is null then null else p.published_before_removal end)
			is distinct from (excluded.report_name, excluded.address1, excluded.address2, excluded.city,
				excluded.county, excluded.state, excluded.zip, excluded.work_phone, excluded.website,
				excluded.email, excluded.featured, excluded.categories, excluded.membership_level_name,
				excluded.membership_rank, excluded.member_since_date, excluded.weblink_profile_id,
				excluded.main_related_profile_name, excluded.logo_url, excluded.listing_position,
				excluded.is_member, excluded.published and p.removed_at is null,
				case when p.removed_at is null then null else excluded.published end);

		-- The lists of each business as the file has them, but those staff changed; then only those
		-- that differ from what is stored are written.
		create temporary table pg_temp.import_lists on commit drop as
		select i.id, i.existed, f.field,
			public.business_list_normalized(f.field, coalesce(i.b -> f.field, '[]'::jsonb)) as rows,
			'[]'::jsonb as current
		from pg_temp.import_businesses i
		cross join unnest(public.business_list_fields()) f(field)
		where not exists (
			select 1 from public.business_overrides o where o.profile_id = i.id and o.field = f.field
		);
		create index on pg_temp.import_lists (id, field);

		update pg_temp.import_lists x set current = c.rows
		from (
			select l.profile_id, jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position) as rows
			from public.listings l
			join pg_temp.import_businesses i on i.id = l.profile_id and i.existed
			where l.tenant_id = v_tenant_id
			group by l.profile_id
		) c
		where x.field = 'listings' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select s.profile_id, jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url)
				order by s.position) as rows
			from public.social_media s
			join pg_temp.import_businesses i on i.id = s.profile_id and i.existed
			where s.tenant_id = v_tenant_id
			group by s.profile_id
		) c
		where x.field = 'social_media' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select a.profile_id, jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url,
					'aff_code', a.aff_code, 'aff_name', a.aff_name,
					'list_available_on_website', a.list_available_on_website
				) order by a.position) as rows
			from public.profile_affiliations a
			join pg_temp.import_businesses i on i.id = a.profile_id and i.existed
			where a.tenant_id = v_tenant_id
			group by a.profile_id
		) c
		where x.field = 'profile_affiliations' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select w.profile_id, jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position) as rows
			from public.web_content w
			join pg_temp.import_businesses i on i.id = w.profile_id and i.existed
			where w.tenant_id = v_tenant_id
			group by w.profile_id
		) c
		where x.field = 'web_content' and x.existed and x.id = c.profile_id;
		delete from pg_temp.import_lists where rows = current;

		delete from public.listings l using pg_temp.import_lists x
		where x.field = 'listings' and l.profile_id = x.id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(x.id::text || ':listing:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'description', e.v ->> 'short_description',
			array(select jsonb_array_elements_text(e.v -> 'categories')),
			e.v ->> 'keywords', (e.v ->> 'active')::boolean, (e.v ->> 'primary_listing')::boolean
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
			e.v ->> 'icon', e.v ->> 'icon_text', e.v ->> 'icon_url', e.v ->> 'aff_code',
			e.v ->> 'aff_name', (e.v ->> 'list_available_on_website')::boolean
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
			e.v ->> 'content_type', e.v ->> 'content_title', e.v ->> 'full_url', e.v ->> 'rel_url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'web_content';

		-- A list of a business that was there before changed: its version, and the audit.
		select * into v_actor from public.audit_actor(v_tenant_id);
		insert into public.audit_log (
			tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id
		)
		select v_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business',
			x.field, x.current, x.rows, x.id
		from pg_temp.import_lists x
		where x.existed;
		update public.profiles p
		set version = p.version + 1,
			field_versions = p.field_versions || c.fields,
			updated_by = 'import'
		from (
			select x.id, jsonb_object_agg(x.field, pp.version + 1) as fields
			from pg_temp.import_lists x
			join public.profiles pp on pp.id = x.id
			where x.existed
			group by x.id
		) c
		where p.id = c.id;
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

comment on function public.import_tenant is 'Upserts a whole tenant from a validated tenant file in one transaction (service role only); businesses are updated in place, keeping what staff changed here.';

revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;
