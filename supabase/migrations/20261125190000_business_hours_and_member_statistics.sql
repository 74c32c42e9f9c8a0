/**
  ---------------------------------------------------------------------------
  A member reads its own business's statistics
  ---------------------------------------------------------------------------
  The counters carry their business's id; a signed-in member (bound to its
  business, is_business_member) reads that business's rows and no other.
  The report functions read as the caller, so they answer the member for its
  own business with no change: zeros for every other business.
 */
drop policy if exists "Members can read their own business's statistics" on public.business_stats;
create policy "Members can read their own business's statistics" on public.business_stats
	for select to authenticated
	using (public.is_business_member(business_id));

comment on table public.business_stats is 'Counters per business, day in the chamber''s time zone, and kind (card shown, profile view, each action; search words that led to a view). Added to by /api/stats only; read by the chamber''s admins, and by a member for its own business.';
/**
  ---------------------------------------------------------------------------
  Opening hours of a business
  ---------------------------------------------------------------------------
  profiles.hours: for each weekday (mon … sun) its opening times, a list of
  {open, close} on a 24-hour clock ('HH:MM'; close may be '24:00', or earlier
  than open for a time past midnight), in order, at most three a day, none
  for a closed day; and a free note ("By appointment"). Null: the business
  gives no hours. The app writes it from the tenant file's schema (the
  object, or its text form "Mon-Fri 9:00-17:00; by appointment", read by
  src/features/tenants/hours.ts); the check below holds every writer to the
  same shape. Hours are a field of a business like its phone: save_business,
  the audit, overrides, the imports and the member's page know them, and
  members may change them (live without review by default).

  The check calls business_hours_problem(): a later migration that narrows
  what it accepts must first fix the rows it would refuse.
 */

/** The first problem of an hours value ('mon[1]: …'), or null when it is valid (or null). */
create or replace function public.business_hours_problem(p_hours jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_day text;
	v_times jsonb;
	v_time jsonb;
	v_i integer;
	v_open text;
	v_close text;
	-- The previous time's close on this day; 'overnight' when it ran past midnight.
	v_previous text;
	v_key text;
begin
	if p_hours is null or jsonb_typeof(p_hours) = 'null' then
		return null;
	end if;
	if jsonb_typeof(p_hours) <> 'object' then
		return 'expected each weekday''s opening times and a note';
	end if;
	select k into v_key from jsonb_object_keys(p_hours) k
	where k not in ('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'note')
	limit 1;
	if v_key is not null then
		return format('%s: not a weekday (mon … sun) or the note', v_key);
	end if;
	if p_hours ? 'note' and (
		jsonb_typeof(p_hours -> 'note') <> 'string' or char_length(p_hours ->> 'note') > 200
	) then
		return 'note: a text of at most 200 characters';
	end if;
	foreach v_day in array array['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] loop
		v_times := p_hours -> v_day;
		continue when v_times is null;
		if jsonb_typeof(v_times) <> 'array' then
			return format('%s: expected a list of opening times', v_day);
		end if;
		if jsonb_array_length(v_times) > 3 then
			return format('%s: at most 3 opening times a day', v_day);
		end if;
		v_previous := null;
		for v_i in 0 .. jsonb_array_length(v_times) - 1 loop
			v_time := v_times -> v_i;
			if jsonb_typeof(v_time) <> 'object'
				or exists (select 1 from jsonb_object_keys(v_time) k where k not in ('open', 'close'))
				or jsonb_typeof(v_time -> 'open') is distinct from 'string'
				or jsonb_typeof(v_time -> 'close') is distinct from 'string' then
				return format('%s[%s]: expected an opening and a closing time', v_day, v_i);
			end if;
			v_open := v_time ->> 'open';
			v_close := v_time ->> 'close';
			if v_open !~ '^([01]\d|2[0-3]):[0-5]\d$' or v_close !~ '^(([01]\d|2[0-3]):[0-5]\d|24:00)$' then
				return format('%s[%s]: expected times like 09:00 (closing 24:00 at the latest)', v_day, v_i);
			end if;
			if v_open = v_close then
				return format('%s[%s]: opening and closing times must differ', v_day, v_i);
			end if;
			if v_previous = 'overnight' or v_open < v_previous then
				return format('%s[%s]: times of a day must be in order and not overlap', v_day, v_i);
			end if;
			v_previous := case when v_close = '24:00' or v_close < v_open then 'overnight' else v_close end;
		end loop;
	end loop;
	return null;
end;
$$;

comment on function public.business_hours_problem is 'The first problem of a business''s opening hours (weekday lists of {open, close} HH:MM times, in order, at most 3 a day, and a note of at most 200 characters), or null when valid.';

revoke all on function public.business_hours_problem(jsonb) from public, anon, authenticated;
grant execute on function public.business_hours_problem(jsonb) to service_role;

alter table public.profiles add column if not exists hours jsonb;

alter table public.profiles drop constraint if exists profiles_hours_valid;
alter table public.profiles add constraint profiles_hours_valid
	check (public.business_hours_problem(hours) is null);

comment on column public.profiles.hours is 'Opening hours: {mon … sun: [{open, close}] (HH:MM, none when closed), note}; null when the business gives none. Checked by business_hours_problem().';

-- Public like the phone number: visitors read it on the profile.
grant select (hours) on public.profiles to anon;


/**
  ---------------------------------------------------------------------------
  Hours among the fields of a business
  ---------------------------------------------------------------------------
  The functions of 20261124140000_member_listings.sql that name every scalar
  field, with hours beside the phone (src/features/members/members.ts keeps
  the same list; a test compares them).
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


/** The rules of every field, with hours (node scripts/business-rules.ts). */
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

/** The first problem of a changed field's value; hours are judged by business_hours_problem(). */
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


/**
  ---------------------------------------------------------------------------
  Imports and syncs write the hours
  ---------------------------------------------------------------------------
  import_tenant of 20261125170000_faster_member_import.sql with the hours
  column (a field staff changed keeps their value, as every field does);
  the member imports' columns may be mapped to it.
 */
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


/**
  ---------------------------------------------------------------------------
  Members may change their hours, live without review by default
  ---------------------------------------------------------------------------
  The defaults of features.memberFields and memberLiveFields, as
  src/features/config/config.ts has them (a test compares them).
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


/**
  ---------------------------------------------------------------------------
  The directory's views show the hours
  ---------------------------------------------------------------------------
 */
create or replace view public.business_detail_view with (security_invoker = true) as
select
	p.tenant_id,
	p.id,
	p.report_name,
	p.city,
	p.county,
	p.zip,
	p.address1,
	p.address2,
	p.state,
	p.work_phone,
	p.website,
	-- Whether the business can receive messages; the address itself is never public.
	p.accepts_messages,
	p.featured,
	p.categories,
	p.membership_rank,
	p.membership_level_name,
	case
		when p.member_since_date is null then '[]'::jsonb
		else jsonb_build_array(jsonb_build_object(
			'member_since_date', p.member_since_date,
			'member_since_year', extract(year from p.member_since_date)::integer
		))
	end as member_since,
	extract(year from p.member_since_date)::integer as member_since_year,
	p.weblink_profile_id,
	p.main_related_profile_name,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'description', l.description,
			'short_description', l.short_description,
			'categories', to_jsonb(l.categories),
			'active', l.active,
			'primary_listing', l.primary_listing
		) order by l.position)
		from public.listings l where l.profile_id = p.id
	), '[]'::jsonb) as listings,
	coalesce((
		select jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url) order by s.position)
		from public.social_media s where s.profile_id = p.id
	), '[]'::jsonb) as social_media,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'icon', a.icon,
			'icon_text', a.icon_text,
			'icon_url', a.icon_url,
			'aff_code', a.aff_code,
			'aff_name', a.aff_name,
			'list_available_on_website', a.list_available_on_website,
			'profile_id', a.profile_id,
			'member_count', (
				select coalesce(sum(c.members), 0)::bigint from public.affiliation_counts c
				where c.tenant_id = a.tenant_id and c.aff_name = a.aff_name
			)
		) order by a.position)
		from public.profile_affiliations a where a.profile_id = p.id
	), '[]'::jsonb) as profile_affiliations,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'content_type', w.content_type,
			'content_title', w.content_title,
			'full_url', w.full_url,
			'rel_url', w.rel_url
		) order by w.position)
		from public.web_content w where w.profile_id = p.id
	), '[]'::jsonb) as web_content,
	p.logo_url,
	-- Added last: a view keeps its columns' order.
	p.hours
from public.profiles p
-- The service role bypasses row-level security; unpublished rows stay out of every public read anyway.
where p.published;

comment on column public.business_detail_view.hours is 'Opening hours (profiles.hours), or null when the business gives none.';

create or replace view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;


/** Configuration rules: members may be let change the hours (node scripts/config-rules.ts). */
create or replace function public.config_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '{
	"colors": {"types":["object"],"properties":{"primary":{"types":["string"],"maxLength":7},"primaryLight":{"types":["string"],"maxLength":7},"primaryDark":{"types":["string"],"maxLength":7},"secondary":{"types":["string"],"maxLength":7},"secondaryLight":{"types":["string"],"maxLength":7},"secondaryDark":{"types":["string"],"maxLength":7}}},
	"logo": {"types":["object"],"properties":{"standard":{"types":["string"],"maxLength":2000},"stacked":{"types":["string"],"maxLength":2000},"favicon":{"types":["string"],"maxLength":2000}}},
	"fonts": {"types":["object"],"properties":{"heading":{"types":["string"],"enum":["Inter","Roboto","Open Sans","Lato","Montserrat","Poppins","Raleway","Nunito","Playfair Display","Merriweather","Source Sans Pro","Oswald","PT Sans","Rubik","Work Sans","Quicksand","Ubuntu","Barlow","DM Sans","Manrope"]},"body":{"types":["string"],"enum":["Inter","Roboto","Open Sans","Lato","Montserrat","Poppins","Raleway","Nunito","Playfair Display","Merriweather","Source Sans Pro","Oswald","PT Sans","Rubik","Work Sans","Quicksand","Ubuntu","Barlow","DM Sans","Manrope"]}}},
	"text_colors": {"types":["object"],"properties":{"heading":{"types":["string"],"maxLength":7},"body":{"types":["string"],"maxLength":7},"link":{"types":["string"],"maxLength":7},"linkHover":{"types":["string"],"maxLength":7},"onDarkHeading":{"types":["string"],"maxLength":7},"onDarkBody":{"types":["string"],"maxLength":7}}},
	"contact": {"types":["object"],"properties":{"address":{"types":["string"],"maxLength":200},"addressLine2":{"types":["string"],"maxLength":200},"city":{"types":["string"],"maxLength":200},"state":{"types":["string"],"maxLength":2},"zip":{"types":["string"],"maxLength":200},"phone":{"types":["string"],"maxLength":200},"timeZone":{"types":["string"],"enum":["","America/New_York","America/Detroit","America/Indiana/Indianapolis","America/Chicago","America/Denver","America/Boise","America/Phoenix","America/Los_Angeles","America/Anchorage","Pacific/Honolulu","America/Puerto_Rico","Pacific/Guam"]},"email":{"types":["string"],"maxLength":254}}},
	"social": {"types":["object"],"properties":{"facebook":{"types":["string"],"maxLength":2000},"twitter":{"types":["string"],"maxLength":2000},"linkedin":{"types":["string"],"maxLength":2000},"instagram":{"types":["string"],"maxLength":2000},"youtube":{"types":["string"],"maxLength":2000}}},
	"urls": {"types":["object"],"properties":{"mainWebsite":{"types":["string"],"maxLength":2000},"joinUrl":{"types":["string"],"maxLength":2000},"aboutUrl":{"types":["string"],"maxLength":2000},"teamUrl":{"types":["string"],"maxLength":2000},"presidentUrl":{"types":["string"],"maxLength":2000},"boardUrl":{"types":["string"],"maxLength":2000},"eventsUrl":{"types":["string"],"maxLength":2000},"networkingUrl":{"types":["string"],"maxLength":2000},"newsUrl":{"types":["string"],"maxLength":2000},"advocacyUrl":{"types":["string"],"maxLength":2000},"privacyUrl":{"types":["string"],"maxLength":2000},"businessResourcesUrl":{"types":["string"],"maxLength":2000},"workforceUrl":{"types":["string"],"maxLength":2000},"communityGuideUrl":{"types":["string"],"maxLength":2000},"communityMapUrl":{"types":["string"],"maxLength":2000},"jobBoardUrl":{"types":["string"],"maxLength":2000},"committeesUrl":{"types":["string"],"maxLength":2000},"annualReportUrl":{"types":["string"],"maxLength":2000},"contactUrl":{"types":["string"],"maxLength":2000},"eventRegistrationBaseUrl":{"types":["string"],"maxLength":2000}}},
	"footer_labels": {"types":["object"],"properties":{"businessResourcesLabel":{"types":["string"],"maxLength":200},"workforceLabel":{"types":["string"],"maxLength":200},"communityGuideLabel":{"types":["string"],"maxLength":200},"jobBoardLabel":{"types":["string"],"maxLength":200}}},
	"content": {"types":["object"],"properties":{"heroTitle":{"types":["string"],"maxLength":200},"heroSubtitle":{"types":["string"],"maxLength":1000},"footerTagline":{"types":["string"],"maxLength":1000},"copyrightText":{"types":["string"],"maxLength":200},"featuredTitle":{"types":["string"],"maxLength":200},"categoriesTitle":{"types":["string"],"maxLength":200},"whyJoinTitle":{"types":["string"],"maxLength":200},"whyJoinText":{"types":["string"],"maxLength":1000},"whyJoinButtonText":{"types":["string"],"maxLength":200},"directoryTitle":{"types":["string"],"maxLength":200},"sidebarTitle":{"types":["string"],"maxLength":200},"sidebarTagline":{"types":["string"],"maxLength":1000},"sidebarButtonText":{"types":["string"],"maxLength":200},"eventsTabLabel":{"types":["string"],"maxLength":200},"communityEventsTabLabel":{"types":["string"],"maxLength":200},"defaultEventsCalendar":{"types":["string"],"enum":["events","community-events","events-list"]},"metaDescription":{"types":["string"],"maxLength":1000},"metaKeywords":{"types":["string"],"maxLength":1000}}},
	"services": {"types":["object"],"properties":{"googleAnalyticsId":{"types":["string"],"maxLength":30},"recaptchaSiteKey":{"types":["string"],"maxLength":100},"emailDomain":{"types":["string"],"maxLength":253}}},
	"features": {"types":["object"],"properties":{"showEvents":{"types":["boolean"]},"showCommunityEvents":{"types":["boolean"]},"showNewMembersFilter":{"types":["boolean"]},"showMembershipLevels":{"types":["boolean"]},"showBanners":{"types":["boolean"]},"showEventFilters":{"types":["boolean"]},"showFeaturedEvent":{"types":["boolean"]},"featuredEventId":{"types":["integer","null","string"],"maxLength":20},"showBusinessShortDescription":{"types":["boolean"]},"showEventAttendeeCountInHeader":{"types":["boolean"]},"memberBadgeDisplay":{"types":["string"],"enum":["level","year"]},"businessDetailLayout":{"types":["string"],"enum":["classic","modern"]},"showMainContact":{"types":["boolean"]},"memberUpdates":{"types":["boolean"]},"memberFields":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["listings","web_content","work_phone","hours","website","social_media","logo_url","categories"]}},"memberLiveFields":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["listings","web_content","work_phone","hours","website","social_media","logo_url","categories"]}},"memberEditorsApprove":{"types":["boolean"]},"memberMaxCategories":{"types":["null","number","string"],"maxLength":20}}},
	"membership_levels": {"types":["object"],"properties":{"featured":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"canLinkWebsite":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}}}},
	"featured_businesses": {"types":["object"],"properties":{"strategy":{"types":["string"],"enum":["membership","affiliation","random"]},"count":{"types":["null","number","string"],"maxLength":20},"membershipLevels":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"affiliation":{"types":["string"],"maxLength":200},"requireCompleteProfile":{"types":["boolean"]},"showViewAllButton":{"types":["boolean"]}}},
	"category_display": {"types":["object"],"properties":{"count":{"types":["null","number","string"],"maxLength":20},"sortBy":{"types":["string"],"enum":["popularity","alphabetical"]}}},
	"search_page": {"types":["object"],"properties":{"defaultSort":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]},"availableSorts":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]}},"showSortDropdown":{"types":["boolean"]},"showFilters":{"types":["boolean"]},"availableFilters":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["city","county","zip","affiliation"]}},"membershipHierarchy":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"name":{"types":["string"],"maxLength":200},"rank":{"types":["integer"]}},"required":["name","rank"]}}}},
	"navigation": {"types":["object"],"properties":{"menuItems":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"id":{"types":["string"],"maxLength":200},"label":{"types":["string"],"maxLength":200},"type":{"types":["string"],"enum":["link","dropdown"]},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]},"items":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"label":{"types":["string"],"maxLength":200},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]}},"required":["label"]}}},"required":["id","label"]}}}}
}'::jsonb;
$rules$;
