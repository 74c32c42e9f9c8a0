/**
  ---------------------------------------------------------------------------
  Baseline: member listings the chamber's staff maintain, and member imports
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

  Member data comes in through import_tenant: from a tenant file (npm run
  tenant:import), or from a file or the membership system, previewed first
  (member_imports, below).

  Further down: what a listing is worth to its member (statistics counted
  per day, the Reports tab, the monthly e-mail), and members who update
  their own listing (a sign-in link, requests staff approve or return).
 */

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

comment on table public.business_overrides is 'The fields of a business its chamber''s staff changed: imports and syncs leave them as staff set them.';
comment on column public.business_overrides.system_value is 'The membership system''s value of the field, as its last import or sync sent it (before that: the value staff replaced); null when not known.';

alter table public.business_overrides enable row level security;

create policy "Chamber staff can read their businesses' overrides" on public.business_overrides
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.business_overrides to authenticated;
grant all on table public.business_overrides to service_role;

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
		'report_name', 'address1', 'address2', 'city', 'county', 'state', 'zip', 'work_phone', 'hours',
		'website', 'email', 'featured', 'categories', 'membership_level_name', 'membership_rank',
		'member_since_date', 'main_related_profile_name', 'logo_url', 'listing_position',
		'is_member', 'published'
	];
$$;

comment on function public.business_scalar_fields is 'The fields of a business kept in profiles columns, as the tenant file names them.';

create or replace function public.business_list_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['listings', 'social_media', 'profile_affiliations', 'web_content'];
$$;

comment on function public.business_list_fields is 'The list fields of a business (child tables, replaced whole).';

create or replace function public.business_editor_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['listings', 'web_content', 'social_media', 'logo_url'];
$$;

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
	"hours": {"types":["null","object","string"],"properties":{"mon":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"tue":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"wed":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"thu":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"fri":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"sat":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"sun":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"note":{"types":["string"],"maxLength":200}},"maxLength":1000},
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
		'hours', case when jsonb_typeof(p_business -> 'hours') = 'object' then p_business -> 'hours' end,
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
			'work_phone', p.work_phone, 'hours', p.hours, 'website', p.website, 'email', p.email,
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
			new.work_phone, new.hours, new.website, new.email, new.featured, new.categories,
			new.membership_level_name, new.membership_rank, new.member_since_date,
			new.main_related_profile_name, new.logo_url, new.listing_position, new.is_member,
			new.published, new.removed_at)
		is not distinct from
		(old.report_name, old.address1, old.address2, old.city, old.county, old.state, old.zip,
			old.work_phone, old.hours, old.website, old.email, old.featured, old.categories,
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
	-- Hours arrive as the object the app's schema makes of any form; the check names the problem.
	if p_field = 'hours' then
		return 'hours: ' || public.business_hours_problem(p_value);
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

/** The fields the running member function lets its caller change ('{}' outside one). */
create or replace function public.member_change_fields()
returns text[]
language sql
stable
set search_path = ''
as $$
	select coalesce(string_to_array(nullif(current_setting('chamber.member_fields', true), ''), ','), '{}'::text[]);
$$;

comment on function public.member_change_fields is 'The business fields the running member function (submit or approve) lets its caller change; empty outside one.';

/**
  Whether the signed-in user may change this field of this chamber's
  businesses: admins and super_admins every field, editors the descriptive
  ones. (Of listings an editor changes the descriptions only; save_business
  checks that against the stored listings.) A member, or an editor approving
  a member's request, changes only the fields the member function names
  (member_change_fields, below with the members who update their own
  listing).
 */
create or replace function public.may_change_business_field(p_tenant_id uuid, p_field text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		case public.tenant_role(p_tenant_id)
			when 'super_admin' then true
			when 'admin' then true
			when 'editor' then p_field = any (public.business_editor_fields())
				or p_field = any (public.member_change_fields())
			when 'member' then p_field = any (public.member_change_fields())
			else false
		end,
		false
	);
$$;

comment on function public.may_change_business_field is 'Whether the signed-in user may change a field of the chamber''s businesses (editors: the descriptive ones; a member or an approving editor: the fields the member function names).';

/**
  ---------------------------------------------------------------------------
  Remove, restore, and taking the membership system's value back
  ---------------------------------------------------------------------------
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
			work_phone, hours, website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, main_related_profile_name, logo_url, listing_position, is_member,
			published, updated_by
		)
		select v_id, p_tenant_id, v_weblink, d ->> 'report_name', d ->> 'address1', d ->> 'address2',
			d ->> 'city', d ->> 'county', d ->> 'state', d ->> 'zip', d ->> 'work_phone',
			nullif(d -> 'hours', 'null'::jsonb), d ->> 'website',
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
	set (report_name, address1, address2, city, county, state, zip, work_phone, hours, website, email,
			featured, categories, membership_level_name, membership_rank, member_since_date,
			main_related_profile_name, logo_url, listing_position, is_member, published) = (
		select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
			-- A JSON null (hours cleared) is stored as no hours.
			nullif(r.hours, 'null'::jsonb), r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
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
  than the status does. The key is compared as an id only when it is one
  (a case inside the comparison): a plan the session keeps for any key may
  look it up by both indexes, and '777' must not fail as no uuid.
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
				p.id = case
					when p_key ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then p_key::uuid
				end
				or p.weblink_profile_id = case
					when p_key ~ '^\d{1,30}$' then regexp_replace(p_key, '^0+(?=\d)', '')
				end
			)
	);
$$;

comment on function public.business_gone is 'Whether an id or membership-system id names a business of the chamber that left the site (its addresses answer 410).';

/**
  ---------------------------------------------------------------------------
  Tenant import: one call, one transaction
  ---------------------------------------------------------------------------
  scripts/tenant-import.ts validates a tenant file with zod, creates its
  users through the Auth admin API, maps the configuration to its row and
  sends it here through supabase-js with the service role. A function body
  is one transaction, so a failure anywhere writes nothing. Ids are
  deterministic (given, or derived from the tenant and the source system's
  id), so importing the same file twice leaves every row as it was.

  A re-import updates each business in place (its id is derived from the
  chamber and the membership-system id, so it is the same row) and writes
  only what differs: a field in business_overrides keeps the value staff gave
  it (the file's value is kept as the override's system_value), a removed
  business stays removed, and businesses staff added (no membership-system
  id: weblink_profile_id 'local-…') are kept. Changed fields are counted and
  audited like any other change (the trigger above; list fields here).
  Banner ids may be the membership system's numbers as well as uuids.

  Each business's search columns are computed once, from its final name,
  categories and listings (profile_search_document_of), and written with
  it; the directory's search triggers stand aside meanwhile.
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

create or replace function public.import_tenant(payload jsonb, replace_businesses boolean default true)
returns jsonb
language plpgsql
-- Definer rights: it writes tables no API role may write (admin_users, business_overrides, the
-- counts). Only service_role may execute it (see the grants at the end of this file).
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
		select x.id, x.b, public.business_from_file(x.b) as d, false as existed,
			''::tsvector as search_vector, ''::text as search_text
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

		-- The lists of each business as the file has them, but those staff changed; then only those
		-- that differ from what is stored are written.
		create temporary table pg_temp.import_lists on commit drop as
		select i.id, i.existed, f.field,
			-- Most lists of most rows are empty: no need to normalize those.
			case when coalesce(i.b -> f.field, '[]'::jsonb) = '[]'::jsonb then '[]'::jsonb
				else public.business_list_normalized(f.field, i.b -> f.field)
			end as rows,
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
		-- The search columns as the directory's triggers would leave them once the lists are in
		-- (profile_search_document_of), computed here for the whole batch: the triggers that
		-- would compute them row by row, and again after the listings, stand aside meanwhile.
		update pg_temp.import_businesses i
		set search_vector = s.search_vector, search_text = s.search_text
		from pg_temp.import_businesses i2
		left join pg_temp.import_lists x on x.id = i2.id and x.field = 'listings'
		cross join lateral public.profile_search_document_of(
			i2.d ->> 'report_name',
			array(select jsonb_array_elements_text(i2.d -> 'categories')),
			coalesce(
				x.rows,
				case when i2.existed then public.business_list_value(i2.id, 'listings') end,
				'[]'::jsonb
			)
		) s
		where i.id = i2.id;
		perform set_config('chamber.import_writes_search', 'on', true);

		insert into public.profiles as p (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			hours, website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published, updated_by, search_vector, search_text
		)
		select
			i.id, v_tenant_id, i.d ->> 'report_name', i.d ->> 'address1', i.d ->> 'address2',
			i.d ->> 'city', i.d ->> 'county', i.d ->> 'state', i.d ->> 'zip', i.d ->> 'work_phone',
			nullif(i.d -> 'hours', 'null'::jsonb), i.d ->> 'website', i.d ->> 'email', (i.d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(i.d -> 'categories')),
			i.d ->> 'membership_level_name', (i.d ->> 'membership_rank')::integer,
			(i.d ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			i.d ->> 'main_related_profile_name', i.d ->> 'logo_url',
			(i.d ->> 'listing_position')::integer, (i.d ->> 'is_member')::boolean,
			(i.d ->> 'published')::boolean, 'import', i.search_vector, i.search_text
		from pg_temp.import_businesses i
		on conflict (id) do update set
			report_name = excluded.report_name, address1 = excluded.address1,
			address2 = excluded.address2, city = excluded.city, county = excluded.county,
			state = excluded.state, zip = excluded.zip, work_phone = excluded.work_phone,
			hours = excluded.hours,
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
			updated_by = 'import',
			search_vector = excluded.search_vector, search_text = excluded.search_text
		-- Only a business whose values differ is written: an unchanged re-import changes nothing.
		where (p.report_name, p.address1, p.address2, p.city, p.county, p.state, p.zip, p.work_phone, p.hours,
				p.website, p.email, p.featured, p.categories, p.membership_level_name, p.membership_rank,
				p.member_since_date, p.weblink_profile_id, p.main_related_profile_name, p.logo_url,
				p.listing_position, p.is_member, p.published,
				case when p.removed_at is null then null else p.published_before_removal end)
			is distinct from (excluded.report_name, excluded.address1, excluded.address2, excluded.city,
				excluded.county, excluded.state, excluded.zip, excluded.work_phone, excluded.hours, excluded.website,
				excluded.email, excluded.featured, excluded.categories, excluded.membership_level_name,
				excluded.membership_rank, excluded.member_since_date, excluded.weblink_profile_id,
				excluded.main_related_profile_name, excluded.logo_url, excluded.listing_position,
				excluded.is_member, excluded.published and p.removed_at is null,
				case when p.removed_at is null then null else excluded.published end);

		update public.profiles p
		set search_vector = i.search_vector, search_text = i.search_text
		from pg_temp.import_businesses i
		where p.id = i.id and i.existed
			and (p.search_text, p.search_vector) is distinct from (i.search_text, i.search_vector);

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

		perform set_config('chamber.import_writes_search', 'off', true);

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
	-- (PGlite runs no autovacuum). The directory's two large tables are analyzed when this
	-- import is a fifth or more of what their statistics count: a smaller batch moves no plan,
	-- and sampling 30,000 rows would cost more than the batch (apply_member_import, which
	-- imports in batches, analyzes them once after its last).
	if v_businesses * 5 >= (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.profiles'::regclass) then
		analyze public.profiles;
		analyze public.listings;
	end if;
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

/**
  ---------------------------------------------------------------------------
  Member imports and the sync from the membership system
  ---------------------------------------------------------------------------
  A chamber's admins bring member data in from a file (CSV, XLSX or the
  tenant file's JSON) or from the membership system (the scheduled sync).
  Either is a job (member_imports) that a background function works through:
  it reads the file, maps its columns to the business fields, validates every
  row with the tenant file's schema and compares it with the directory (the
  dry run, one member_import_rows row per business). Nothing is written to
  the directory until a person (or the scheduled sync) asks to apply the dry
  run; apply_member_import then writes exactly what the dry run showed, in one
  transaction, through import_tenant, which leaves fields staff changed here
  (business_overrides) as they are.

  Files are uploaded by the browser with the user's token to the private
  imports bucket, under a folder named by the chamber's id: Netlify functions
  take at most 6 MB per request, a 50,000-member export is more.
 */

/**
  The business fields of the tenant file that a table's column can hold, plus
  the parts of lists a spreadsheet has one column for: the primary listing's
  texts and one link per social network. The same list is MAPPING_TARGETS in
  src/features/members/import/fields.ts (a test compares them).
 */
create or replace function public.member_import_targets()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'weblink_profile_id', 'report_name', 'address1', 'address2', 'city', 'county', 'state', 'zip',
		'work_phone', 'hours', 'website', 'email', 'featured', 'categories', 'membership_level_name',
		'membership_rank', 'member_since_date', 'main_related_profile_name', 'logo_url',
		'listing_position', 'is_member', 'published', 'description', 'short_description', 'keywords',
		'facebook', 'twitter', 'linkedin', 'instagram', 'youtube'
	];
$$;

comment on function public.member_import_targets is 'The business fields an imported column can be mapped to (the same list as MAPPING_TARGETS in the app).';

/** Column mappings a chamber saved. */
create table if not exists public.member_import_mappings (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	header text not null check (length(header) between 1 and 200),
	field text not null check (field = '' or field = any (public.member_import_targets())),
	updated_at timestamptz not null default now(),
	updated_by text,
	primary key (tenant_id, header)
);

comment on table public.member_import_mappings is 'How a chamber maps a column heading its files have and the built-in mappings do not know: the next file with that heading is mapped the same way.';
comment on column public.member_import_mappings.header is 'The heading, normalised: lower case, letters and digits only.';
comment on column public.member_import_mappings.field is 'The business field it fills (member_import_targets), or empty: the column is ignored.';

alter table public.member_import_mappings enable row level security;

create policy "Chamber admins can read their chamber's column mappings" on public.member_import_mappings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.member_import_mappings to authenticated;
grant all on table public.member_import_mappings to service_role;

/** Import jobs: one file or one sync, with its progress and dry run. */
create table if not exists public.member_imports (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	kind text not null check (kind in ('file', 'sync')),
	source text not null check (length(source) between 1 and 300),
	storage_path text check (length(storage_path) <= 500),
	state text not null default 'queued' check (state in (
		'queued', 'reading', 'needs_mapping', 'validating', 'previewed', 'apply_requested',
		'applying', 'applied', 'failed', 'discarded'
	)),
	auto_apply boolean not null default false,
	headers jsonb check (headers is null or jsonb_typeof(headers) = 'array'),
	mapping jsonb not null default '{}'::jsonb check (jsonb_typeof(mapping) = 'object'),
	rows_total integer check (rows_total >= 0),
	rows_read integer not null default 0 check (rows_read >= 0),
	rows_validated integer not null default 0 check (rows_validated >= 0),
	rows_applied integer not null default 0 check (rows_applied >= 0),
	counts jsonb not null default '{}'::jsonb check (jsonb_typeof(counts) = 'object'),
	missing_action text check (missing_action in ('keep', 'unpublish')),
	error text check (length(error) <= 2000),
	requested_by uuid,
	requested_by_email text,
	applied_by_email text,
	created_at timestamptz not null default now(),
	updated_at timestamptz not null default now(),
	previewed_at timestamptz,
	applied_at timestamptz,
	publish_id bigint
);

comment on table public.member_imports is 'One import of member data (a file, or a sync from the membership system): its state, progress and dry-run counts. Written by the import functions; the 20 newest of each kind are kept per chamber.';
comment on column public.member_imports.source is 'The file''s name, or the membership system a sync read.';
comment on column public.member_imports.storage_path is 'The uploaded file in the imports bucket ({tenant id}/…); removed once the import is applied or given up.';
comment on column public.member_imports.state is 'queued → reading → (needs_mapping) → validating → previewed → apply_requested → applying → applied; or failed, or discarded by a person.';
comment on column public.member_imports.auto_apply is 'The scheduled sync applies its own dry run when it found no invalid rows.';
comment on column public.member_imports.headers is 'For the mapping screen: the file''s headings the mappings do not know, with sample values.';
comment on column public.member_imports.mapping is 'Heading (as in the file) → business field, as this import used it.';
comment on column public.member_imports.counts is 'The dry run''s counts: added, changed, unchanged, missing, invalid, kept; after applying also unpublished.';
comment on column public.member_imports.missing_action is 'What the person chose for members missing from the file: keep them, or unpublish them.';

create index if not exists member_imports_tenant_created_idx on public.member_imports (tenant_id, kind, created_at desc);
-- One import at a time per chamber is working (a second one would race the first for the same rows).
create unique index if not exists member_imports_one_working_per_tenant on public.member_imports (tenant_id)
	where state in ('queued', 'reading', 'validating', 'apply_requested', 'applying');

alter table public.member_imports enable row level security;

create policy "Chamber admins can read their chamber's imports" on public.member_imports
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.member_imports to authenticated;
grant all on table public.member_imports to service_role;

/** The dry run: what applying would do to each business, one row per business. */
create table if not exists public.member_import_rows (
	id bigint generated always as identity primary key,
	import_id uuid not null references public.member_imports (id) on delete cascade,
	tenant_id uuid not null,
	row_number integer check (row_number >= 1),
	action text not null check (action in ('add', 'change', 'unchanged', 'missing', 'invalid')),
	profile_id uuid,
	weblink_profile_id text check (length(weblink_profile_id) <= 100),
	name text check (length(name) <= 500),
	base_version integer,
	record jsonb check (record is null or jsonb_typeof(record) = 'object'),
	changes jsonb check (changes is null or jsonb_typeof(changes) = 'array'),
	errors jsonb check (errors is null or jsonb_typeof(errors) = 'array')
);

comment on table public.member_import_rows is 'The dry run of an import, one row per business: added, changed (field by field), unchanged, missing from the file, or invalid (with row, column and message).';
comment on column public.member_import_rows.row_number is 'The row in the file as a spreadsheet numbers it (the headings are row 1); null for a business missing from the file.';
comment on column public.member_import_rows.base_version is 'The business''s version the dry run compared with: applying refuses when it moved since.';
comment on column public.member_import_rows.record is 'The business to write, in the tenant file''s shape (added and changed rows).';
comment on column public.member_import_rows.changes is '[{field, before, after, kept}]: kept is true where staff changed the field here and the import leaves it.';
comment on column public.member_import_rows.errors is '[{column, field, message}] of an invalid row.';

create index if not exists member_import_rows_import_action_idx on public.member_import_rows (import_id, action, row_number);

alter table public.member_import_rows enable row level security;

create policy "Chamber admins can read their chamber's import previews" on public.member_import_rows
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.member_import_rows to authenticated;
grant all on table public.member_import_rows to service_role;

/** The 20 newest imports of each kind are kept per chamber (the panel's report of sync runs). */
create or replace function public.member_imports_keep_newest()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	delete from public.member_imports m
	where m.tenant_id = new.tenant_id and m.kind = new.kind
		and m.state not in ('queued', 'reading', 'validating', 'apply_requested', 'applying')
		and m.id not in (
			select k.id from public.member_imports k
			where k.tenant_id = new.tenant_id and k.kind = new.kind
			order by k.created_at desc
			limit 20
		);
	return null;
end;
$$;

comment on function public.member_imports_keep_newest is 'Trigger: keeps the 20 newest imports of each kind per chamber.';

create trigger member_imports_keep_newest_after_insert after insert on public.member_imports
	for each row execute function public.member_imports_keep_newest();

/**
  ---------------------------------------------------------------------------
  The imports bucket: private, written by the chamber's admins
  ---------------------------------------------------------------------------
  Objects are named {tenant id}/{random}-{file name}. Admins upload into their
  chamber's folder with their own token; the import functions read them with
  the service role. Nobody else may read them: a member export holds private
  e-mail addresses and phone numbers. Created only where missing.
 */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
	'imports',
	'imports',
	false,
	52428800,
	array[
		'text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel',
		'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json',
		'application/octet-stream'
	]
)
on conflict (id) do nothing;

create or replace function public.may_upload_import(p_bucket_id text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select p_bucket_id = 'imports' and exists (
		select 1
		from public.tenants t
		where t.id::text = (storage.foldername(p_name))[1]
			and public.has_tenant_role(t.id, array['super_admin', 'admin'])
	);
$$;

comment on function public.may_upload_import is 'True for an object of the imports bucket in the folder ({tenant id}/…) of a chamber the signed-in user is an admin or super_admin of.';

create policy "Chamber admins can upload their chamber's imports" on storage.objects
	for insert to authenticated
	with check (public.may_upload_import(bucket_id, name));

/**
  ---------------------------------------------------------------------------
  Starting, mapping, applying and discarding: as the user
  ---------------------------------------------------------------------------
 */

/** The caller may run imports for the chamber: its admins, super_admins, or the server side. */
create or replace function public.may_import_members(p_tenant_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
		or public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']);
$$;

comment on function public.may_import_members is 'True for the chamber''s admins and super_admins (imports change every field of a business), and the server side.';

/**
  A new import (queued for the background function). A preview still open for
  the chamber is discarded: it was made against the directory as it was.
 */
create or replace function public.create_member_import(
	p_tenant_id uuid,
	p_kind text,
	p_source text,
	p_storage_path text default null,
	p_auto_apply boolean default false
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_id uuid;
	v_uid uuid := auth.uid();
begin
	if not public.may_import_members(p_tenant_id) then
		raise exception 'Only the chamber''s admins can import members' using errcode = '42501';
	end if;
	if p_kind = 'file' and (p_storage_path is null or (storage.foldername(p_storage_path))[1] is distinct from p_tenant_id::text) then
		raise exception 'The file must be uploaded to the chamber''s folder of the imports bucket' using errcode = '22023';
	end if;
	if p_auto_apply and auth.uid() is not null then
		raise exception 'Only the scheduled sync applies without a person' using errcode = '42501';
	end if;
	update public.member_imports
	set state = 'discarded', updated_at = now()
	where tenant_id = p_tenant_id and state in ('needs_mapping', 'previewed');
	-- A background run that died (a crash, a deploy) would hold the chamber's imports forever.
	update public.member_imports
	set state = 'failed', updated_at = now(),
		error = 'The import stopped without finishing (nothing was applied). Please start it again.'
	where tenant_id = p_tenant_id
		and state in ('queued', 'reading', 'validating', 'apply_requested', 'applying')
		and updated_at < now() - interval '15 minutes';
	begin
		insert into public.member_imports (
			tenant_id, kind, source, storage_path, auto_apply, requested_by, requested_by_email
		)
		values (
			p_tenant_id, p_kind, left(coalesce(nullif(trim(p_source), ''), p_kind), 300), p_storage_path,
			p_auto_apply, v_uid, (select u.email from auth.users u where u.id = v_uid)
		)
		returning id into v_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = '55006';
	end;
	return v_id;
end;
$$;

comment on function public.create_member_import is 'Queues an import of a file in the imports bucket (or a sync) for a chamber, as its admin (or the server side for the scheduled sync).';

/** The person's mapping of unknown headings: saved for the chamber, and the import goes on. */
create or replace function public.submit_member_import_mapping(p_import_id uuid, p_mapping jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_header text;
	v_field text;
	v_actor text := coalesce(auth.jwt() ->> 'email', auth.role());
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if v_import.state <> 'needs_mapping' then
		raise exception 'This import is not waiting for its columns to be mapped' using errcode = '55000';
	end if;
	if jsonb_typeof(p_mapping) is distinct from 'object' then
		raise exception 'Expected the headings and the fields they fill' using errcode = '22023';
	end if;
	for v_header, v_field in select key, value #>> '{}' from jsonb_each(p_mapping) loop
		if v_field is null or not (v_field = '' or v_field = any (public.member_import_targets())) then
			raise exception 'Not a field a column can fill: %', v_field using errcode = '22023';
		end if;
		if length(v_header) not between 1 and 200 then
			raise exception 'A heading must be 1 to 200 characters' using errcode = '22023';
		end if;
		insert into public.member_import_mappings (tenant_id, header, field, updated_at, updated_by)
		values (
			v_import.tenant_id, left(regexp_replace(lower(v_header), '[^a-z0-9]', '', 'g'), 200),
			v_field, now(), v_actor
		)
		on conflict (tenant_id, header) do update
			set field = excluded.field, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
	end loop;
	delete from public.member_import_mappings where tenant_id = v_import.tenant_id and header = '';
	update public.member_imports
	set mapping = mapping || p_mapping, state = 'queued', headers = null, error = null, updated_at = now()
	where id = p_import_id;
end;
$$;

comment on function public.submit_member_import_mapping is 'A person maps the headings the built-in mappings do not know; saved for the chamber, and the import is queued again.';

/** A person asks to apply a dry run, saying what happens to members missing from the file. */
create or replace function public.request_member_import_apply(p_import_id uuid, p_missing text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if p_missing is null or p_missing not in ('keep', 'unpublish') then
		raise exception 'Choose keep or unpublish for members missing from the file' using errcode = '22023';
	end if;
	if v_import.state <> 'previewed' then
		raise exception 'This import has no preview to apply' using errcode = '55000';
	end if;
	if coalesce((v_import.counts ->> 'invalid')::integer, 0) > 0 then
		raise exception 'The file has invalid rows: correct them and import it again' using errcode = '22023';
	end if;
	begin
		update public.member_imports
		set state = 'apply_requested', missing_action = p_missing, updated_at = now(),
			applied_by_email = coalesce(auth.jwt() ->> 'email', auth.role())
		where id = p_import_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = '55006';
	end;
end;
$$;

comment on function public.request_member_import_apply is 'Queues the apply of a previewed import, with the choice for members missing from the file (keep or unpublish).';

create or replace function public.discard_member_import(p_import_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if v_import.state not in ('needs_mapping', 'previewed', 'failed') then
		raise exception 'Only a preview, a mapping or a failed import can be discarded' using errcode = '55000';
	end if;
	update public.member_imports set state = 'discarded', updated_at = now() where id = p_import_id;
end;
$$;

comment on function public.discard_member_import is 'A person gives up a preview (nothing was written to the directory).';

/**
  The preview as the panel lists it: the first rows of one kind (add, change,
  missing, invalid, or kept: unchanged but with fields kept as changed here).
  The role is checked once for the import, not per row as the table's policy
  would (which made a 60,000-row preview take seconds per list).
 */
create or replace function public.member_import_preview(
	p_import_id uuid,
	p_kind text,
	p_limit integer default 100
) returns table (
	id bigint,
	row_number integer,
	action text,
	weblink_profile_id text,
	name text,
	changes jsonb,
	errors jsonb
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
begin
	select m.tenant_id into v_tenant_id from public.member_imports m where m.id = p_import_id;
	if v_tenant_id is null or not public.may_import_members(v_tenant_id) then
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if p_kind is null or p_kind not in ('add', 'change', 'missing', 'invalid', 'kept') then
		raise exception 'Expected add, change, missing, invalid or kept' using errcode = '22023';
	end if;
	return query
		select r.id, r.row_number, r.action, r.weblink_profile_id, r.name, r.changes, r.errors
		from public.member_import_rows r
		where r.import_id = p_import_id
			and r.action = case p_kind when 'kept' then 'unchanged' else p_kind end
			and (p_kind <> 'kept' or r.changes is not null)
		order by r.row_number, r.id
		limit least(greatest(coalesce(p_limit, 100), 1), 500);
end;
$$;

comment on function public.member_import_preview is 'The first rows of one kind of an import''s dry run, for the chamber''s admins (the panel''s preview lists).';

/**
  ---------------------------------------------------------------------------
  The background function's side (service role)
  ---------------------------------------------------------------------------
 */

/** Takes a queued import (to read) or an apply request (to apply); null when another took it. */
create or replace function public.claim_member_import(p_import_id uuid)
returns setof public.member_imports
language sql
security definer
set search_path = ''
as $$
	update public.member_imports
	set state = case state when 'queued' then 'reading' else 'applying' end, updated_at = now()
	where id = p_import_id and state in ('queued', 'apply_requested')
	returning *;
$$;

comment on function public.claim_member_import is 'Takes a queued import (to read it) or an apply request (to apply it) for the background function; nothing when another run took it.';

/** The businesses of a chamber with these membership-system ids, as the dry run compares them. */
create or replace function public.member_import_documents(p_tenant_id uuid, p_weblink_ids text[])
returns table (
	id uuid,
	weblink_profile_id text,
	version integer,
	removed boolean,
	document jsonb,
	overrides text[]
)
language sql
stable
security definer
set search_path = ''
as $$
	select p.id, p.weblink_profile_id, p.version, p.removed_at is not null,
		public.business_document(p.id),
		coalesce(
			(select array_agg(o.field order by o.field) from public.business_overrides o where o.profile_id = p.id),
			'{}'
		)
	from public.profiles p
	where p.tenant_id = p_tenant_id and p.weblink_profile_id = any (p_weblink_ids);
$$;

comment on function public.member_import_documents is 'The businesses a batch of imported rows names (by membership-system id), in the tenant file''s shape, with their version and the fields staff changed here.';

/**
  Writes a dry run: its added and changed businesses through import_tenant
  (fields staff changed here keep their value, removed businesses stay
  removed), and unpublishes the members missing from the file when that was
  chosen. All or nothing: a business that changed since the dry run refuses
  the whole apply. The directory's statistics are brought up to date once,
  after the last batch.
 */
create or replace function public.apply_member_import(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_tenant public.tenants;
	v_stale text;
	v_written integer := 0;
	v_done integer := 0;
	v_chunk integer := 250;
	v_unpublished integer := 0;
	v_counts jsonb;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or v_import.state <> 'applying' then
		raise exception 'This import is not being applied' using errcode = '55000';
	end if;
	select * into v_tenant from public.tenants where id = v_import.tenant_id;
	-- The dry run was just written: the queries below plan with its real size.
	analyze public.member_import_rows;

	select coalesce(r.name, r.weblink_profile_id) into v_stale
	from public.member_import_rows r
	left join public.profiles p on p.id = r.profile_id
	where r.import_id = p_import_id and (
		(r.action = 'change' and (p.id is null or p.version <> r.base_version))
		or (r.action = 'add' and exists (
			select 1 from public.profiles x
			where x.tenant_id = v_import.tenant_id and x.weblink_profile_id = r.weblink_profile_id
		))
	)
	limit 1;
	if v_stale is not null then
		raise exception 'The directory changed since the preview (% was changed meanwhile). Nothing was applied: import the file again to see the changes as they are now.', v_stale
			using errcode = 'PT409';
	end if;

	select count(*) into v_written
	from public.member_import_rows r
	where r.import_id = p_import_id and r.action in ('add', 'change');
	-- In chunks that double from 250 up to 2,500: import_tenant analyzes the directory's tables
	-- after each while they are still small next to the chunk, so the planner never joins
	-- thousands of new rows believing the tables empty, and no statement holds more than 2,500
	-- businesses' documents at once.
	while v_done < v_written loop
		drop table if exists pg_temp.import_businesses;
		drop table if exists pg_temp.import_lists;
		perform public.import_tenant(
			jsonb_build_object(
				'tenant', jsonb_build_object('slug', v_tenant.slug, 'name', v_tenant.name),
				'businesses', (
					select jsonb_agg(c.record order by c.row_number)
					from (
						select r.record, r.row_number
						from public.member_import_rows r
						where r.import_id = p_import_id and r.action in ('add', 'change')
						order by r.row_number, r.id
						offset v_done limit v_chunk
					) c
				)
			),
			false
		);
		v_done := v_done + v_chunk;
		v_chunk := least(v_chunk * 2, 2500);
	end loop;
	if v_written > 0 then
		analyze public.profiles;
		analyze public.listings;
	end if;
	if v_import.kind = 'sync' then
		update public.profiles p set updated_by = 'sync'
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action in ('add', 'change')
			and p.tenant_id = v_import.tenant_id and p.weblink_profile_id = r.weblink_profile_id;
	end if;

	if v_import.missing_action = 'unpublish' then
		update public.profiles p
		set published = false, updated_by = case v_import.kind when 'sync' then 'sync' else 'import' end
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action = 'missing' and p.id = r.profile_id and p.published
			and not exists (
				select 1 from public.business_overrides o where o.profile_id = p.id and o.field = 'published'
			);
		get diagnostics v_unpublished = row_count;
	end if;

	v_counts := v_import.counts || jsonb_build_object('unpublished', v_unpublished);
	update public.member_imports
	set state = 'applied', rows_applied = v_written, counts = v_counts, applied_at = now(),
		updated_at = now(), error = null
	where id = p_import_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		v_import.tenant_id, v_import.requested_by, coalesce(v_import.applied_by_email, v_import.requested_by_email),
		coalesce(nullif(auth.role(), ''), 'database'), 'members', v_import.kind, null,
		v_counts || jsonb_build_object('import', p_import_id, 'source', v_import.source)
	);
	return v_counts || jsonb_build_object('written', v_written);
end;
$$;

comment on function public.apply_member_import is 'Applies an import''s dry run in one transaction (service role): added and changed businesses through import_tenant in batches, members missing from the file unpublished if chosen; refused when a business changed since the dry run.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Staff (authenticated) call the Members tab's functions and the import's
  steps a person takes, which check the role themselves; visitors only ask
  whether an address is gone. Trigger functions need no EXECUTE to fire;
  the rest is the service role's.
 */
revoke all on function public.business_scalar_fields() from public, anon, authenticated;
revoke all on function public.business_list_fields() from public, anon, authenticated;
revoke all on function public.business_editor_fields() from public, anon, authenticated;
revoke all on function public.business_rules() from public, anon, authenticated;
revoke all on function public.business_list_normalized(text, jsonb) from public, anon, authenticated;
revoke all on function public.replace_business_list(uuid, uuid, text, jsonb) from public, anon, authenticated;
revoke all on function public.business_from_file(jsonb) from public, anon, authenticated;
revoke all on function public.business_document(uuid) from public, anon, authenticated;
revoke all on function public.profiles_version_trigger() from public, anon, authenticated;
revoke all on function public.business_value_problem(text, jsonb) from public, anon, authenticated;
revoke all on function public.member_change_fields() from public, anon, authenticated;
revoke all on function public.purge_removed_businesses(uuid) from public, anon, authenticated;
revoke all on function public.import_value(uuid, text, anyelement, anyelement) from public, anon, authenticated;
revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
revoke all on function public.member_imports_keep_newest() from public, anon, authenticated;
revoke all on function public.claim_member_import(uuid) from public, anon, authenticated;
revoke all on function public.member_import_documents(uuid, text[]) from public, anon, authenticated;
revoke all on function public.apply_member_import(uuid) from public, anon, authenticated;
grant execute on function public.business_scalar_fields() to service_role;
grant execute on function public.business_list_fields() to service_role;
grant execute on function public.business_editor_fields() to service_role;
grant execute on function public.business_rules() to service_role;
grant execute on function public.business_list_normalized(text, jsonb) to service_role;
grant execute on function public.replace_business_list(uuid, uuid, text, jsonb) to service_role;
grant execute on function public.business_from_file(jsonb) to service_role;
grant execute on function public.business_document(uuid) to service_role;
grant execute on function public.profiles_version_trigger() to service_role;
grant execute on function public.business_value_problem(text, jsonb) to service_role;
grant execute on function public.member_change_fields() to service_role;
grant execute on function public.purge_removed_businesses(uuid) to service_role;
grant execute on function public.import_value(uuid, text, anyelement, anyelement) to service_role;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;
grant execute on function public.member_imports_keep_newest() to service_role;
grant execute on function public.claim_member_import(uuid) to service_role;
grant execute on function public.member_import_documents(uuid, text[]) to service_role;
grant execute on function public.apply_member_import(uuid) to service_role;

revoke all on function public.may_change_business_field(uuid, text) from public, anon;
revoke all on function public.save_business(uuid, uuid, jsonb, integer) from public, anon;
revoke all on function public.remove_business(uuid, uuid) from public, anon;
revoke all on function public.restore_business(uuid, uuid) from public, anon;
revoke all on function public.clear_business_override(uuid, uuid, text) from public, anon;
revoke all on function public.admin_list_businesses(uuid, text, text, text, text, integer, integer) from public, anon;
revoke all on function public.admin_business(uuid, uuid) from public, anon;
revoke all on function public.member_import_targets() from public, anon;
revoke all on function public.may_upload_import(text, text) from public, anon;
revoke all on function public.may_import_members(uuid) from public, anon;
revoke all on function public.create_member_import(uuid, text, text, text, boolean) from public, anon;
revoke all on function public.submit_member_import_mapping(uuid, jsonb) from public, anon;
revoke all on function public.request_member_import_apply(uuid, text) from public, anon;
revoke all on function public.discard_member_import(uuid) from public, anon;
revoke all on function public.member_import_preview(uuid, text, integer) from public, anon;
grant execute on function public.may_change_business_field(uuid, text) to authenticated, service_role;
grant execute on function public.save_business(uuid, uuid, jsonb, integer) to authenticated, service_role;
grant execute on function public.remove_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.restore_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.clear_business_override(uuid, uuid, text) to authenticated, service_role;
grant execute on function public.admin_list_businesses(uuid, text, text, text, text, integer, integer) to authenticated, service_role;
grant execute on function public.admin_business(uuid, uuid) to authenticated, service_role;
grant execute on function public.member_import_targets() to authenticated, service_role;
grant execute on function public.may_upload_import(text, text) to authenticated, service_role;
grant execute on function public.may_import_members(uuid) to authenticated, service_role;
grant execute on function public.create_member_import(uuid, text, text, text, boolean) to authenticated, service_role;
grant execute on function public.submit_member_import_mapping(uuid, jsonb) to authenticated, service_role;
grant execute on function public.request_member_import_apply(uuid, text) to authenticated, service_role;
grant execute on function public.discard_member_import(uuid) to authenticated, service_role;
grant execute on function public.member_import_preview(uuid, text, integer) to authenticated, service_role;

revoke all on function public.business_gone(uuid, text) from public;
grant execute on function public.business_gone(uuid, text) to anon, authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  Member statistics: what a listing is worth, without tracking anyone
  ---------------------------------------------------------------------------
  Per business and day, how often its card was shown, its profile viewed,
  and each of its actions used (website, phone, …), plus the search words
  that led to a view. Counters only: no row per visit, nothing about the
  visitor. The /api/stats function adds to them (service role, one call per
  batch of events); the chamber's admins read them in the panel's Reports
  tab, and a member its own business's on its page.

  Days are days in the chamber's time zone (the function dates each event
  so). Businesses are referred to by id without a foreign key:
  the import replaces a chamber's profiles (same ids), and their statistics
  must outlive that.

  A member of a business (below) reads its own business's rows: its policy
  on business_stats follows is_business_member, which it calls. The report
  functions below read as the caller, so they answer a member for its own
  business with no change (zeros for every other business).
 */

/** The kinds counted, in the order the reports list them (also src/features/reports/reports.ts). */
create or replace function public.business_stat_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'shown', 'view', 'search',
		'website', 'phone', 'email', 'message', 'directions', 'share',
		'social_facebook', 'social_twitter', 'social_linkedin', 'social_instagram', 'social_youtube'
	];
$$;

comment on function public.business_stat_kinds is 'Every kind business_stats counts: shown, view, search (words that led to a view) and the actions.';

revoke all on function public.business_stat_kinds() from public, anon, authenticated;
grant execute on function public.business_stat_kinds() to service_role;

create table if not exists public.business_stats (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	day date not null,
	kind text not null,
	words text not null default '',
	count integer not null check (count > 0),
	primary key (tenant_id, business_id, day, kind, words),
	-- The literal list, as business_stat_kinds() answers it (a check cannot call a function that
	-- a later migration may redefine without rechecking the rows).
	check (kind in (
		'shown', 'view', 'search',
		'website', 'phone', 'email', 'message', 'directions', 'share',
		'social_facebook', 'social_twitter', 'social_linkedin', 'social_instagram', 'social_youtube'
	)),
	check ((kind = 'search') = (words <> '')),
	check (char_length(words) <= 100 and words = lower(btrim(words)))
);

comment on table public.business_stats is 'Counters per business, day in the chamber''s time zone, and kind (card shown, profile view, each action; search words that led to a view). Added to by /api/stats only; read by the chamber''s admins, and by a member for its own business.';
comment on column public.business_stats.business_id is 'profiles.id of the business (no foreign key: statistics outlive a re-import).';
comment on column public.business_stats.kind is 'shown: the card was on screen in a listing; view: the profile was opened; search: a view that came from a search (words); the rest are actions.';
comment on column public.business_stats.words is 'For kind search: the search text, lower case and trimmed, at most 100 characters; empty for every other kind.';
comment on column public.business_stats.count is 'How many times, after bots, repeats within 30 minutes and the chamber''s own staff were left out.';

create index if not exists business_stats_tenant_day_idx on public.business_stats (tenant_id, day);

alter table public.business_stats enable row level security;

create policy "Chamber admins can read their chamber's statistics" on public.business_stats
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on public.business_stats to authenticated;
grant all on public.business_stats to service_role;

/**
  ---------------------------------------------------------------------------
  Adding a batch: one call, one upsert per table row touched
  ---------------------------------------------------------------------------
  p_counts: [{business, kind, words?, count}], already summed per business,
  kind and words by the function. Ids that are not a published business of
  the chamber are dropped here, so nothing can be counted for another
  chamber or an unknown id. Rows are written in key order, so concurrent
  batches touching the same counters wait for each other instead of
  deadlocking. A business keeps at most 200 different search texts a month:
  beyond that only texts it already has are counted.
 */
create or replace function public.record_business_stats(p_tenant_id uuid, p_day date, p_counts jsonb)
returns integer
language plpgsql
set search_path = ''
as $$
declare
	v_rows integer;
begin
	with batch as (
		select
			(e ->> 'business')::uuid as business_id,
			e ->> 'kind' as kind,
			coalesce(e ->> 'words', '') as words,
			(e ->> 'count')::integer as n
		from jsonb_array_elements(p_counts) e
	),
	valid as (
		select b.business_id, b.kind, b.words, sum(b.n)::integer as n
		from batch b
		join public.profiles p on p.id = b.business_id and p.tenant_id = p_tenant_id and p.published
		where b.n > 0
			and b.kind = any (public.business_stat_kinds())
			and (
				b.kind <> 'search'
				or exists (
					select 1 from public.business_stats s
					where s.tenant_id = p_tenant_id and s.business_id = b.business_id
						and s.day = p_day and s.kind = 'search' and s.words = b.words
				)
				or (
					select count(distinct s.words) from public.business_stats s
					where s.tenant_id = p_tenant_id and s.business_id = b.business_id and s.kind = 'search'
						and s.day >= date_trunc('month', p_day)::date and s.day <= p_day
				) < 200
			)
		group by b.business_id, b.kind, b.words
	)
	insert into public.business_stats as s (tenant_id, business_id, day, kind, words, count)
	select p_tenant_id, v.business_id, p_day, v.kind, v.words, v.n
	from valid v
	order by v.business_id, v.kind, v.words
	on conflict (tenant_id, business_id, day, kind, words)
		do update set count = s.count + excluded.count;
	get diagnostics v_rows = row_count;
	return v_rows;
end;
$$;

comment on function public.record_business_stats is 'Adds one batch of summed counts to business_stats for the chamber''s published businesses; answers how many counters it touched. Service role only (/api/stats).';

revoke all on function public.record_business_stats(uuid, date, jsonb) from public, anon, authenticated;
grant execute on function public.record_business_stats(uuid, date, jsonb) to service_role;

/**
  ---------------------------------------------------------------------------
  Reading: the Reports tab's calls, as the caller (row-level security)
  ---------------------------------------------------------------------------
  Invoker functions: a caller reads the counters its policies allow and
  zeros for the rest.
 */

/** Every published business with its totals over [p_from, p_to]: the Reports tab's table. */
create or replace function public.business_stats_totals(p_tenant_id uuid, p_from date, p_to date)
returns table (business_id uuid, name text, shown bigint, views bigint, actions bigint)
language sql
stable
set search_path = ''
as $$
	select
		p.id,
		p.report_name,
		coalesce(sum(s.count) filter (where s.kind = 'shown'), 0),
		coalesce(sum(s.count) filter (where s.kind = 'view'), 0),
		coalesce(sum(s.count) filter (where s.kind not in ('shown', 'view', 'search')), 0)
	from public.profiles p
	left join public.business_stats s
		on s.tenant_id = p.tenant_id and s.business_id = p.id and s.day between p_from and p_to
	where p.tenant_id = p_tenant_id and p.published
	group by p.id, p.report_name
	order by lower(p.report_name), p.id;
$$;

comment on function public.business_stats_totals is 'Each published business of the chamber with its shown, views and actions between two days (inclusive; the chamber''s own days, as the counters are kept), as the caller may read them.';

revoke all on function public.business_stats_totals(uuid, date, date) from public, anon, authenticated;
grant execute on function public.business_stats_totals(uuid, date, date) to authenticated, service_role;

/**
 * One business over [p_from, p_to]: each kind's count (actions by kind, and the search total),
 * its 20 most frequent search texts, and shown / views / actions for each of the 12 months
 * ending with p_to's month.
 */
create or replace function public.business_stats_report(
	p_tenant_id uuid,
	p_business_id uuid,
	p_from date,
	p_to date
)
returns jsonb
language sql
stable
set search_path = ''
as $$
	select jsonb_build_object(
		'kinds', coalesce((
			select jsonb_object_agg(k.kind, k.n)
			from (
				select s.kind, sum(s.count) as n
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.day between p_from and p_to
				group by s.kind
			) k
		), '{}'::jsonb),
		'searches', coalesce((
			select jsonb_agg(jsonb_build_object('words', w.words, 'count', w.n) order by w.n desc, w.words)
			from (
				select s.words, sum(s.count) as n
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.kind = 'search' and s.day between p_from and p_to
				group by s.words
				order by n desc, s.words
				limit 20
			) w
		), '[]'::jsonb),
		'months', (
			select jsonb_agg(jsonb_build_object(
				'month', to_char(m.month, 'YYYY-MM'),
				'shown', coalesce(t.shown, 0),
				'views', coalesce(t.views, 0),
				'actions', coalesce(t.actions, 0)
			) order by m.month)
			from generate_series(
				date_trunc('month', p_to) - interval '11 months',
				date_trunc('month', p_to),
				interval '1 month'
			) as m(month)
			left join (
				select
					date_trunc('month', s.day) as month,
					sum(s.count) filter (where s.kind = 'shown') as shown,
					sum(s.count) filter (where s.kind = 'view') as views,
					sum(s.count) filter (where s.kind not in ('shown', 'view', 'search')) as actions
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.day >= (date_trunc('month', p_to) - interval '11 months')::date
					and s.day < (date_trunc('month', p_to) + interval '1 month')::date
				group by 1
			) t on t.month = m.month
		)
	);
$$;

comment on function public.business_stats_report is 'One business''s report: counts by kind and top 20 search texts between two days (the chamber''s own), and shown/views/actions for the 12 months ending with the last day''s month, as the caller may read them.';

revoke all on function public.business_stats_report(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.business_stats_report(uuid, uuid, date, date) to authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  The monthly e-mail to each member business
  ---------------------------------------------------------------------------
  A chamber switches it on (off by default). Each business gets an opt-out
  token the first time it is mailed; every mail links to it. A mailing row
  is claimed before its mail is sent (primary key: business and month), so
  a business is mailed at most once a month however often the scheduled
  function runs or stops midway; a run picks up whatever is still unclaimed.
 */
create table if not exists public.member_report_settings (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	monthly_email boolean not null default false,
	updated_at timestamptz not null default now()
);

comment on table public.member_report_settings is 'Per chamber: whether each member business gets its statistics by e-mail every month (off without a row).';
comment on column public.member_report_settings.monthly_email is 'The monthly statistics e-mail to every member business with an e-mail address; default off.';

alter table public.member_report_settings enable row level security;

create policy "Chamber admins can read their report settings" on public.member_report_settings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
create policy "Chamber admins can create their report settings" on public.member_report_settings
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
create policy "Chamber admins can change their report settings" on public.member_report_settings
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select, insert, update on public.member_report_settings to authenticated;
grant all on public.member_report_settings to service_role;

create or replace function public.member_report_settings_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	if tg_op = 'UPDATE' and old.monthly_email is not distinct from new.monthly_email then
		return null;
	end if;
	select * into v_actor from public.audit_actor(new.tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role,
		'reports', 'monthlyEmail',
		case when tg_op = 'UPDATE' then to_jsonb(old.monthly_email) end, to_jsonb(new.monthly_email));
	return null;
end;
$$;

comment on function public.member_report_settings_audit is 'Trigger: an audit_log row (section reports) when the monthly e-mail is switched.';

revoke all on function public.member_report_settings_audit() from public, anon, authenticated;

create trigger member_report_settings_audit after insert or update on public.member_report_settings
	for each row execute function public.member_report_settings_audit();

create table if not exists public.member_report_recipients (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	opt_out_token uuid not null unique default gen_random_uuid(),
	opted_out_at timestamptz,
	primary key (tenant_id, business_id)
);

comment on table public.member_report_recipients is 'Each mailed business''s opt-out token (the link in every monthly e-mail) and whether it opted out. Service role only.';
comment on column public.member_report_recipients.opt_out_token is 'Random; the only thing the opt-out link carries.';

alter table public.member_report_recipients enable row level security;

grant all on public.member_report_recipients to service_role;

create table if not exists public.member_report_mailings (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	month date not null check (month = date_trunc('month', month)::date),
	claimed_at timestamptz not null default now(),
	sent_at timestamptz,
	error text check (char_length(error) <= 500),
	primary key (tenant_id, business_id, month)
);

comment on table public.member_report_mailings is 'One row per business and month, claimed before its monthly e-mail is sent: never a second mail for the same month.';
comment on column public.member_report_mailings.month is 'First day of the month the e-mail reports.';
comment on column public.member_report_mailings.sent_at is 'When the mail server took it; null while sending, or when it failed (error).';

alter table public.member_report_mailings enable row level security;

create policy "Chamber admins can read their monthly mailings" on public.member_report_mailings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on public.member_report_mailings to authenticated;
grant all on public.member_report_mailings to service_role;

/**
 * The opt-out link's work: the token's business stops getting the monthly e-mail. Answers the
 * business's name, or null for a token nobody holds. Visitors call it (the link needs no
 * sign-in); the random token is the only key.
 */
create or replace function public.member_report_opt_out(p_token uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_recipient public.member_report_recipients;
begin
	update public.member_report_recipients
	set opted_out_at = coalesce(opted_out_at, now())
	where opt_out_token = p_token
	returning * into v_recipient;
	if not found then
		return null;
	end if;
	return coalesce(
		(select p.report_name from public.profiles p
			where p.tenant_id = v_recipient.tenant_id and p.id = v_recipient.business_id),
		'Your business'
	);
end;
$$;

comment on function public.member_report_opt_out is 'The monthly e-mail''s opt-out link: marks the token''s business as opted out and answers its name (null for an unknown token).';

revoke all on function public.member_report_opt_out(uuid) from public, anon, authenticated;
grant execute on function public.member_report_opt_out(uuid) to anon, authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  Members who update their own listing
  ---------------------------------------------------------------------------
  A member business signs in by a link e-mailed to the address the chamber
  has on file for it (the listing's e-mail) and becomes that business's
  member: a binding of its identity-service user to the one business
  (business_members), never a staff role. A member reads its own listing and
  submissions through the functions below and changes nothing directly: it
  submits changes of the fields its chamber lets members change
  (member_submissions, one pending request per business, a later one
  replaces it); staff approve a request, which applies it through
  save_business as their own edit (the role check, the rules, the version
  check, overrides and the audit), or return it with a note. Fields the
  chamber lets go live without review are applied at once, through
  save_business too, audited as the member.

  The member is not a staff role: has_tenant_role and every staff policy
  keep to super_admin, admin and editor. tenant_role answers 'member' only
  inside the member functions below, which set the transaction-local
  setting chamber.acting_member after checking the binding, so
  save_business's checks and audit_actor judge and record the member as
  such; may_change_business_field lets a member, or an editor approving a
  request when the chamber allows it, change only the fields those
  functions name in chamber.member_fields.
 */

/**
  ---------------------------------------------------------------------------
  The address on file and the settings
  ---------------------------------------------------------------------------
 */

/** The address a business's sign-in link goes to: its listing's e-mail, lowercase, or null. */
create or replace function public.business_address_on_file(p_profile_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	select nullif(lower(btrim(p.email)), '')
	from public.profiles p
	where p.id = p_profile_id;
$$;

comment on function public.business_address_on_file is 'The address a business''s member sign-in link goes to (its listing''s e-mail, lowercase), or null.';

revoke all on function public.business_address_on_file(uuid) from public, anon, authenticated;
grant execute on function public.business_address_on_file(uuid) to service_role;

/**
  A chamber's member-update settings (features.member*), with the
  configuration's defaults for a stored configuration that predates them
  (MEMBER_FIELD_CHOICES and the defaults in src/features/config/config.ts;
  a test compares them).
 */
create or replace function public.member_update_settings(p_tenant_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select jsonb_build_object(
		'enabled', coalesce((c.features ->> 'memberUpdates')::boolean, false),
		'fields', coalesce(
			case when jsonb_typeof(c.features -> 'memberFields') = 'array' then c.features -> 'memberFields' end,
			'["listings", "web_content", "work_phone", "hours", "website", "social_media", "logo_url", "categories"]'::jsonb
		),
		'liveFields', coalesce(
			case when jsonb_typeof(c.features -> 'memberLiveFields') = 'array' then c.features -> 'memberLiveFields' end,
			'["hours"]'::jsonb
		),
		'editorsApprove', coalesce((c.features ->> 'memberEditorsApprove')::boolean, false),
		'maxCategories', case
			when (c.features ->> 'memberMaxCategories') ~ '^\d{1,2}$'
				and (c.features ->> 'memberMaxCategories')::integer between 1 and 50
				then (c.features ->> 'memberMaxCategories')::integer
			else 3
		end
	)
	from (select coalesce((select features from public.chamber_config where tenant_id = p_tenant_id), '{}'::jsonb) as features) c;
$$;

comment on function public.member_update_settings is 'A chamber''s member-update settings: enabled, fields, liveFields, editorsApprove, maxCategories (defaults filled in).';

revoke all on function public.member_update_settings(uuid) from public, anon, authenticated;
grant execute on function public.member_update_settings(uuid) to service_role;

/**
  ---------------------------------------------------------------------------
  Members: an identity bound to one business
  ---------------------------------------------------------------------------
 */
create table if not exists public.business_members (
	user_id uuid not null references auth.users (id) on delete cascade,
	tenant_id uuid not null,
	profile_id uuid not null,
	email text not null check (email = lower(email) and char_length(email) between 3 and 254),
	created_at timestamptz not null default now(),
	primary key (user_id, profile_id),
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.business_members is 'Which identity-service user is the member of which business: bound when a sign-in link is sent to the business''s address on file. A member is no staff role.';
comment on column public.business_members.email is 'The address on file the binding was made for: the binding holds only while the business still has that address.';

create index if not exists business_members_profile_idx on public.business_members (profile_id);
create index if not exists business_members_tenant_idx on public.business_members (tenant_id);

alter table public.business_members enable row level security;
revoke all on table public.business_members from anon, authenticated;
grant select on table public.business_members to authenticated;
grant all on table public.business_members to service_role;

create policy "Members can read their own bindings" on public.business_members
	for select to authenticated
	using (user_id = auth.uid());

create policy "Chamber admins can read their chamber's members" on public.business_members
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

/**
  Whether the signed-in user is the member of this business: bound to it,
  the business still has the address the binding was made for, and it was
  not removed. The one check every member rule uses (a policy on a table of
  a business's own rows: using (public.is_business_member(profile_id))).
 */
create or replace function public.is_business_member(check_profile_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select exists (
		select 1
		from public.business_members m
		join public.profiles p on p.id = m.profile_id
		where m.user_id = auth.uid()
			and m.profile_id = check_profile_id
			and p.removed_at is null
			and nullif(lower(btrim(p.email)), '') = m.email
	);
$$;

comment on function public.is_business_member is 'True when the signed-in user is the member of this business (bound to it, its address on file unchanged, not removed).';

revoke all on function public.is_business_member(uuid) from public;
grant execute on function public.is_business_member(uuid) to authenticated, service_role;

-- The statistics' member policy (business_stats, above) needs is_business_member, so it is here.
create policy "Members can read their own business's statistics" on public.business_stats
	for select to authenticated
	using (public.is_business_member(business_id));

/**
  Binds the identity-service user of an address to a business, when that
  address is the business's address on file (the sign-in function, service
  role, right before it asks for the link). Answers the user's id, or null.
 */
create or replace function public.bind_business_member(p_tenant_id uuid, p_business_id uuid, p_email text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_email text := lower(btrim(p_email));
	v_user uuid;
begin
	if not exists (
		select 1 from public.profiles p
		where p.id = p_business_id and p.tenant_id = p_tenant_id and p.removed_at is null
			and nullif(lower(btrim(p.email)), '') = v_email
	) then
		return null;
	end if;
	select u.id into v_user
	from auth.users u
	where lower(u.email) = v_email and u.aud = 'authenticated'
	order by u.created_at
	limit 1;
	if v_user is null then
		return null;
	end if;
	insert into public.business_members (user_id, tenant_id, profile_id, email)
	values (v_user, p_tenant_id, p_business_id, v_email)
	on conflict (user_id, profile_id) do update set email = excluded.email;
	return v_user;
end;
$$;

comment on function public.bind_business_member is 'Binds the user of the business''s address on file to the business (service role, when a sign-in link is sent); their id, or null.';

revoke all on function public.bind_business_member(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.bind_business_member(uuid, uuid, text) to service_role;

/**
  ---------------------------------------------------------------------------
  Members' requests
  ---------------------------------------------------------------------------
 */
create table if not exists public.member_submissions (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null,
	profile_id uuid not null,
	user_id uuid references auth.users (id) on delete set null,
	member_email text not null check (char_length(member_email) between 3 and 254),
	changes jsonb not null check (jsonb_typeof(changes) = 'object'),
	base_version integer not null,
	status text not null default 'pending' check (status in ('pending', 'approved', 'returned')),
	note text not null default '' check (char_length(note) <= 2000),
	submitted_at timestamptz not null default now(),
	decided_at timestamptz,
	decided_by text,
	applied jsonb,
	check ((status = 'pending') = (decided_at is null)),
	check (status <> 'returned' or btrim(note) <> ''),
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.member_submissions is 'A member''s request to change its listing: pending (one per business), approved (applied by staff) or returned with a note.';
comment on column public.member_submissions.changes is 'The fields the member changed, in the tenant file''s shape, as it submitted them.';
comment on column public.member_submissions.base_version is 'The listing''s version the member edited from.';
comment on column public.member_submissions.applied is 'What staff applied on approval (the request, or their edit of it).';
comment on column public.member_submissions.decided_by is 'The staff member who approved or returned it (e-mail).';

create unique index if not exists member_submissions_one_pending_idx on public.member_submissions (profile_id)
	where status = 'pending';
create index if not exists member_submissions_pending_idx on public.member_submissions (tenant_id, submitted_at)
	where status = 'pending';
create index if not exists member_submissions_profile_idx on public.member_submissions (profile_id, submitted_at desc);

alter table public.member_submissions enable row level security;
revoke all on table public.member_submissions from anon, authenticated;
grant select on table public.member_submissions to authenticated;
grant all on table public.member_submissions to service_role;

create policy "Members can read their business's requests" on public.member_submissions
	for select to authenticated
	using (public.is_business_member(profile_id));

create policy "Chamber staff can read their chamber's requests" on public.member_submissions
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  What a member reads and submits
  ---------------------------------------------------------------------------
 */

/** A request as the member page and the Requests tab read it. */
create or replace function public.member_submission_json(s public.member_submissions)
returns jsonb
language sql
stable
set search_path = ''
as $$
	select jsonb_build_object(
		'id', s.id, 'status', s.status, 'changes', s.changes, 'baseVersion', s.base_version,
		'note', s.note, 'submittedAt', s.submitted_at, 'decidedAt', s.decided_at,
		'memberEmail', s.member_email
	);
$$;

comment on function public.member_submission_json is 'A member request as the member page and the Requests tab read it.';

revoke all on function public.member_submission_json(public.member_submissions) from public, anon, authenticated;
grant execute on function public.member_submission_json(public.member_submissions) to service_role;

/** The chamber's categories a member chooses from: those of its published businesses. */
create or replace function public.member_category_choices(p_tenant_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(jsonb_agg(c.category order by c.category), '[]'::jsonb)
	from public.business_counts c
	where c.tenant_id = p_tenant_id and c.category <> '';
$$;

comment on function public.member_category_choices is 'The categories a member may choose from: those of the chamber''s published businesses.';

revoke all on function public.member_category_choices(uuid) from public, anon, authenticated;
grant execute on function public.member_category_choices(uuid) to service_role;

/**
  The member's own listing for /members/listing: its name and the fields the
  chamber lets it change (never its address on file), the version, the
  settings, the categories to choose from and its latest request.
 */
create or replace function public.member_listing(p_business_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_tenant uuid;
	v_settings jsonb;
	v_doc jsonb;
	v_latest public.member_submissions;
begin
	if not public.is_business_member(p_business_id) then
		raise exception 'You are not signed in for this business' using errcode = '42501';
	end if;
	select tenant_id into v_tenant from public.profiles where id = p_business_id;
	v_settings := public.member_update_settings(v_tenant);
	if not (v_settings ->> 'enabled')::boolean then
		raise exception 'This chamber does not take updates from members' using errcode = '42501';
	end if;
	v_doc := public.business_document(p_business_id);
	select * into v_latest from public.member_submissions
	where profile_id = p_business_id
	order by (status = 'pending') desc, submitted_at desc
	limit 1;
	return jsonb_build_object(
		'business', jsonb_build_object(
			'id', v_doc -> 'id', 'report_name', v_doc -> 'report_name', 'city', v_doc -> 'city',
			'published', v_doc -> 'published'
		) || (
			select coalesce(jsonb_object_agg(f, v_doc -> f), '{}'::jsonb)
			from jsonb_array_elements_text(v_settings -> 'fields') f
		),
		'version', (select version from public.profiles where id = p_business_id),
		'settings', v_settings - 'editorsApprove',
		'categoryChoices', public.member_category_choices(v_tenant),
		'submission', case when v_latest.id is null then null else public.member_submission_json(v_latest) end
	);
end;
$$;

comment on function public.member_listing is 'The signed-in member''s listing: the fields it may change, version, settings, categories to choose from, its latest request.';

revoke all on function public.member_listing(uuid) from public, anon;
grant execute on function public.member_listing(uuid) to authenticated;

/**
  A member's changes: each field one the chamber lets members change, held
  to business_rules(); of listings the descriptions only; categories from
  the chamber's list, at most its limit. Fields the chamber lets go live
  without review are saved at once through save_business (as the member,
  from p_version: someone else's change of the same field since refuses it
  with PT409); the rest become the business's one pending request (replacing
  an earlier one; none when nothing is left to review). Answers
  {live: [fields], version, submission}.
 */
create or replace function public.submit_member_changes(
	p_business_id uuid,
	p_changes jsonb,
	p_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_profile public.profiles;
	v_settings jsonb;
	v_current jsonb;
	v_field text;
	v_problem text;
	v_value jsonb;
	v_live jsonb := '{}'::jsonb;
	v_review jsonb := '{}'::jsonb;
	v_choices jsonb;
	v_saved jsonb;
	v_version integer;
	v_submission public.member_submissions;
	v_email text := nullif(lower(auth.jwt() ->> 'email'), '');
begin
	if not public.is_business_member(p_business_id) then
		raise exception 'You are not signed in for this business' using errcode = '42501';
	end if;
	select * into v_profile from public.profiles where id = p_business_id for update;
	v_settings := public.member_update_settings(v_profile.tenant_id);
	if not (v_settings ->> 'enabled')::boolean then
		raise exception 'This chamber does not take updates from members' using errcode = '42501';
	end if;
	if jsonb_typeof(p_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	v_current := public.business_document(p_business_id);
	for v_field in select jsonb_object_keys(p_changes) loop
		if not (v_settings -> 'fields') ? v_field then
			raise exception 'Members of this chamber cannot change %', v_field
				using errcode = '42501', hint = 'Ask the chamber to make this change.';
		end if;
		v_value := p_changes -> v_field;
		v_problem := public.business_value_problem(v_field, v_value);
		if v_problem is not null then
			raise exception '%', v_problem using errcode = '22023';
		end if;
		if v_field = any (public.business_list_fields()) then
			v_value := public.business_list_normalized(v_field, v_value);
		end if;
		if v_field = 'listings' and
			(select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(v_value) with ordinality x(e, ord))
			is distinct from
			(select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(v_current -> 'listings') with ordinality x(e, ord)) then
			raise exception 'listings: a member changes the descriptions only, not the listings'' categories, keywords or which there are'
				using errcode = '42501';
		end if;
		if v_field = 'categories' then
			select coalesce(jsonb_agg(distinct btrim(c)), '[]'::jsonb) into v_value
			from jsonb_array_elements_text(v_value) c where btrim(c) <> '';
			v_choices := public.member_category_choices(v_profile.tenant_id) || (v_current -> 'categories');
			if exists (select 1 from jsonb_array_elements(v_value) c where not v_choices @> jsonb_build_array(c)) then
				raise exception 'categories: choose from the chamber''s categories' using errcode = '22023';
			end if;
			if jsonb_array_length(v_value) > (v_settings ->> 'maxCategories')::integer
				and v_value is distinct from v_current -> 'categories' then
				raise exception 'categories: at most % categories', v_settings ->> 'maxCategories' using errcode = '22023';
			end if;
			-- Compared as the listing keeps them (its order), so the same set is no change.
			if (select coalesce(jsonb_agg(c order by c), '[]') from jsonb_array_elements_text(v_value) c)
				= (select coalesce(jsonb_agg(c order by c), '[]') from jsonb_array_elements_text(v_current -> 'categories') c) then
				v_value := v_current -> 'categories';
			end if;
		end if;
		continue when v_value is not distinct from v_current -> v_field;
		if (v_settings -> 'liveFields') ? v_field then
			v_live := v_live || jsonb_build_object(v_field, v_value);
		else
			v_review := v_review || jsonb_build_object(v_field, v_value);
		end if;
	end loop;

	v_version := v_profile.version;
	if v_live <> '{}'::jsonb then
		perform set_config('chamber.acting_member', v_profile.tenant_id::text, true);
		perform set_config('chamber.member_fields', (select string_agg(k, ',') from jsonb_object_keys(v_live) k), true);
		v_saved := public.save_business(v_profile.tenant_id, p_business_id, v_live, p_version);
		perform set_config('chamber.acting_member', '', true);
		perform set_config('chamber.member_fields', '', true);
		v_version := (v_saved ->> 'version')::integer;
	end if;

	select * into v_submission from public.member_submissions
	where profile_id = p_business_id and status = 'pending' for update;
	if v_review = '{}'::jsonb then
		-- Nothing left to review: an earlier request the member has now taken back goes.
		if v_submission.id is not null and v_live = '{}'::jsonb then
			delete from public.member_submissions where id = v_submission.id;
			v_submission := null;
		end if;
	elsif v_submission.id is not null then
		update public.member_submissions
		set changes = v_review, base_version = p_version, submitted_at = now(), user_id = auth.uid(),
			member_email = coalesce(v_email, member_email)
		where id = v_submission.id
		returning * into v_submission;
	else
		insert into public.member_submissions (tenant_id, profile_id, user_id, member_email, changes, base_version)
		values (v_profile.tenant_id, p_business_id, auth.uid(), coalesce(v_email, 'unknown'), v_review, p_version)
		returning * into v_submission;
	end if;

	return jsonb_build_object(
		'live', coalesce((select jsonb_agg(k) from jsonb_object_keys(v_live) k), '[]'::jsonb),
		'version', v_version,
		'tenantId', v_profile.tenant_id,
		'submission', case when v_submission.id is null then null else public.member_submission_json(v_submission) end
	);
end;
$$;

comment on function public.submit_member_changes is 'A member''s changes of its listing: live fields saved at once (save_business, as the member), the rest its one pending request.';

revoke all on function public.submit_member_changes(uuid, jsonb, integer) from public, anon;
grant execute on function public.submit_member_changes(uuid, jsonb, integer) to authenticated;

/**
  ---------------------------------------------------------------------------
  The Requests tab: staff approve or return
  ---------------------------------------------------------------------------
  Admins and super_admins; editors too when the chamber lets them.
 */

/** Whether the signed-in user may decide the chamber's member requests. */
create or replace function public.may_decide_member_requests(p_tenant_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		case public.tenant_role(p_tenant_id)
			when 'super_admin' then true
			when 'admin' then true
			when 'editor' then (public.member_update_settings(p_tenant_id) ->> 'editorsApprove')::boolean
			else false
		end,
		false
	);
$$;

comment on function public.may_decide_member_requests is 'Whether the signed-in user may approve and return the chamber''s member requests (admins; editors when the chamber allows).';

revoke all on function public.may_decide_member_requests(uuid) from public, anon;
grant execute on function public.may_decide_member_requests(uuid) to authenticated, service_role;

/**
  The chamber's pending requests, oldest first, each with the business's
  name, its version and the live value of every field the request changes
  (the diff's left side). Answers {requests: [...], count}.
 */
create or replace function public.member_requests(p_tenant_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	if not public.may_decide_member_requests(p_tenant_id) then
		raise exception 'Your role does not decide members'' requests' using errcode = '42501';
	end if;
	return (
		select jsonb_build_object(
			'count', count(*),
			'requests', coalesce(jsonb_agg(jsonb_build_object(
				'submission', public.member_submission_json(s),
				'business', jsonb_build_object('id', p.id, 'name', p.report_name, 'version', p.version),
				'live', (
					select coalesce(jsonb_object_agg(k, doc.d -> k), '{}'::jsonb)
					from jsonb_object_keys(s.changes) k
				)
			) order by s.submitted_at), '[]'::jsonb)
		)
		from public.member_submissions s
		join public.profiles p on p.id = s.profile_id
		cross join lateral (select public.business_document(p.id) as d) doc
		where s.tenant_id = p_tenant_id and s.status = 'pending'
	);
end;
$$;

comment on function public.member_requests is 'The chamber''s pending member requests with the live values they would change (staff who decide them).';

revoke all on function public.member_requests(uuid) from public, anon;
grant execute on function public.member_requests(uuid) to authenticated;

/** How many requests wait (the Requests tab's badge); 0 for a role that does not decide them. */
create or replace function public.member_request_count(p_tenant_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
	select case when public.may_decide_member_requests(p_tenant_id) then (
		select count(*)::integer from public.member_submissions
		where tenant_id = p_tenant_id and status = 'pending'
	) else 0 end;
$$;

comment on function public.member_request_count is 'The number of the chamber''s pending member requests (0 for a role that does not decide them).';

revoke all on function public.member_request_count(uuid) from public, anon;
grant execute on function public.member_request_count(uuid) to authenticated;

/**
  Approves a pending request: its changes (or the staff member's edit of
  them, for the same fields) saved through save_business as the staff
  member's own edit, from the version of the listing the diff was shown at
  (PT409 when someone changed one of those fields since). Answers {id,
  business, version, memberEmail}.
 */
create or replace function public.approve_member_submission(
	p_submission_id uuid,
	p_changes jsonb,
	p_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_submission public.member_submissions;
	v_changes jsonb;
	v_saved jsonb;
	v_actor record;
begin
	select * into v_submission from public.member_submissions where id = p_submission_id for update;
	if not found or not public.has_tenant_role(v_submission.tenant_id) then
		raise exception 'No such request in this chamber' using errcode = 'P0002';
	end if;
	if not public.may_decide_member_requests(v_submission.tenant_id) then
		raise exception 'Your role does not decide members'' requests' using errcode = '42501';
	end if;
	if v_submission.status <> 'pending' then
		raise exception 'This request was % already', v_submission.status using errcode = '55000';
	end if;
	v_changes := coalesce(p_changes, v_submission.changes);
	if jsonb_typeof(v_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	if exists (select 1 from jsonb_object_keys(v_changes) k where not v_submission.changes ? k) then
		raise exception 'An approval changes the fields of the request only' using errcode = '22023';
	end if;
	-- An editor the chamber lets approve applies the member's fields, as the member could.
	if public.tenant_role(v_submission.tenant_id) = 'editor' then
		perform set_config('chamber.member_fields', (select string_agg(k, ',') from jsonb_object_keys(v_changes) k), true);
	end if;
	v_saved := public.save_business(v_submission.tenant_id, v_submission.profile_id, v_changes, p_version);
	perform set_config('chamber.member_fields', '', true);
	select * into v_actor from public.audit_actor(v_submission.tenant_id);
	update public.member_submissions
	set status = 'approved', decided_at = now(), decided_by = coalesce(v_actor.actor_email, v_actor.actor_role),
		applied = v_changes
	where id = p_submission_id;
	return jsonb_build_object(
		'id', p_submission_id, 'business', v_submission.profile_id,
		'version', v_saved -> 'version', 'memberEmail', v_submission.member_email
	);
end;
$$;

comment on function public.approve_member_submission is 'Approves a member request: applied through save_business as the staff member''s edit (overrides, audit, version check).';

revoke all on function public.approve_member_submission(uuid, jsonb, integer) from public, anon;
grant execute on function public.approve_member_submission(uuid, jsonb, integer) to authenticated;

/** Returns a pending request to the member with the staff member's note (required). */
create or replace function public.return_member_submission(p_submission_id uuid, p_note text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_submission public.member_submissions;
	v_actor record;
	v_note text := btrim(coalesce(p_note, ''));
begin
	select * into v_submission from public.member_submissions where id = p_submission_id for update;
	if not found or not public.has_tenant_role(v_submission.tenant_id) then
		raise exception 'No such request in this chamber' using errcode = 'P0002';
	end if;
	if not public.may_decide_member_requests(v_submission.tenant_id) then
		raise exception 'Your role does not decide members'' requests' using errcode = '42501';
	end if;
	if v_submission.status <> 'pending' then
		raise exception 'This request was % already', v_submission.status using errcode = '55000';
	end if;
	if v_note = '' or char_length(v_note) > 2000 then
		raise exception 'note: say what the member should change (at most 2000 characters)' using errcode = '22023';
	end if;
	select * into v_actor from public.audit_actor(v_submission.tenant_id);
	update public.member_submissions
	set status = 'returned', note = v_note, decided_at = now(),
		decided_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where id = p_submission_id;
	return jsonb_build_object(
		'id', p_submission_id, 'business', v_submission.profile_id, 'memberEmail', v_submission.member_email
	);
end;
$$;

comment on function public.return_member_submission is 'Returns a pending member request with the staff member''s note.';

revoke all on function public.return_member_submission(uuid, text) from public, anon;
grant execute on function public.return_member_submission(uuid, text) to authenticated;
