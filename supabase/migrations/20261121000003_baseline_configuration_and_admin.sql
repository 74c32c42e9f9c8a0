/**
  ---------------------------------------------------------------------------
  Baseline: the chamber configuration and its administration
  ---------------------------------------------------------------------------
  Everything tenant-specific a page reads (chamber_config), what each role
  may change of it and the values the database holds it to, the audit of
  every change, the versions a save states (no lost edits), the cache
  versions staff bump, and the logos bucket.
 */

/**
  ---------------------------------------------------------------------------
  Chamber configuration
  ---------------------------------------------------------------------------
  One row per tenant, one column per section of the configuration. The jsonb
  sections keep the app's camelCase keys; src/features/config/config.ts is
  their schema and fills in defaults, so a column holds only what was set.
  The chamber's staff update their chamber's row (RLS); the triggers below
  judge the columns and the values.
 */
create table if not exists public.chamber_config (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	name text not null,
	slug text not null,
	city text not null default '',
	state text not null default '' check (length(state) <= 2),
	founded_year integer,
	colors jsonb not null default '{}'::jsonb,
	logo jsonb not null default '{}'::jsonb,
	fonts jsonb not null default '{}'::jsonb,
	text_colors jsonb not null default '{}'::jsonb,
	contact jsonb not null default '{}'::jsonb,
	social jsonb not null default '{}'::jsonb,
	urls jsonb not null default '{}'::jsonb,
	footer_labels jsonb not null default '{}'::jsonb,
	content jsonb not null default '{}'::jsonb,
	services jsonb not null default '{}'::jsonb,
	features jsonb not null default '{}'::jsonb,
	membership_levels jsonb not null default '{}'::jsonb,
	featured_businesses jsonb not null default '{}'::jsonb,
	category_display jsonb not null default '{}'::jsonb,
	search_page jsonb not null default '{}'::jsonb,
	navigation jsonb not null default '{}'::jsonb,
	updated_at timestamptz not null default now(),
	constraint chamber_config_name_length check (char_length(name) between 1 and 200),
	constraint chamber_config_slug_length check (char_length(slug) between 1 and 100),
	constraint chamber_config_city_length check (char_length(city) <= 200)
);

comment on table public.chamber_config is 'The chamber configuration: one row per tenant, a column per section.';

alter table public.chamber_config enable row level security;

create policy "Anyone can read chamber configuration" on public.chamber_config
	for select to anon, authenticated
	using (true);

create policy "Chamber staff can update their chamber configuration" on public.chamber_config
	for update to authenticated
	using (public.has_tenant_role(tenant_id))
	with check (public.has_tenant_role(tenant_id));

grant select on table public.chamber_config to anon;
grant select, update on table public.chamber_config to authenticated;
grant all on table public.chamber_config to service_role;

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

/**
  ---------------------------------------------------------------------------
  Values are valid in the database, not only in a function
  ---------------------------------------------------------------------------
  A staff member's token reaches chamber_config directly through the Data API
  (row-level security lets them update their chamber's row), so a value the
  panel would refuse could be written past it: an object where a title
  belongs, or a three-megabyte tagline on every page. The trigger below holds
  every jsonb section to config_rules(): each field's JSON type, the length
  and allowed values of text, the size and items of lists, the known fields
  of objects. config_rules() is derived from the app's zod schema
  (src/features/config/database-rules.ts; scripts/config-rules.ts prints it)
  and a test compares the two, so they cannot drift. The one-line columns
  have length checks of their own (above).
 */
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

comment on function public.config_rules is 'The rules every configuration section is held to, derived from the app''s zod schema (scripts/config-rules.ts).';

create or replace function public.config_value_problem(p_rule jsonb, p_value jsonb, p_path text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_type text := jsonb_typeof(p_value);
	v_types text[] := array(select jsonb_array_elements_text(p_rule -> 'types'));
	v_problem text;
	v_key text;
	v_item jsonb;
	v_index integer := 0;
begin
	if v_type = 'number' and 'integer' = any (v_types) and not 'number' = any (v_types) then
		if (p_value #>> '{}')::numeric % 1 <> 0 then
			return format('%s: expected an integer, received %s', p_path, p_value #>> '{}');
		end if;
		v_type := 'integer';
	elsif v_type = 'number' and 'integer' = any (v_types) then
		v_type := 'integer';
	end if;
	if not (v_type = any (v_types)) then
		return format('%s: expected %s, received %s', p_path, array_to_string(v_types, ' or '), jsonb_typeof(p_value));
	end if;
	if v_type = 'string' then
		if p_rule ? 'maxLength' and char_length(p_value #>> '{}') > (p_rule ->> 'maxLength')::integer then
			return format('%s: at most %s characters, received %s', p_path, p_rule ->> 'maxLength', char_length(p_value #>> '{}'));
		end if;
		if p_rule ? 'enum' and not (p_rule -> 'enum') @> jsonb_build_array(p_value) then
			return format('%s: not one of the allowed values', p_path);
		end if;
	elsif v_type = 'array' then
		if p_rule ? 'maxItems' and jsonb_array_length(p_value) > (p_rule ->> 'maxItems')::integer then
			return format('%s: at most %s items, received %s', p_path, p_rule ->> 'maxItems', jsonb_array_length(p_value));
		end if;
		if p_rule ? 'items' then
			for v_item in select value from jsonb_array_elements(p_value) loop
				v_problem := public.config_value_problem(p_rule -> 'items', v_item, format('%s[%s]', p_path, v_index));
				if v_problem is not null then
					return v_problem;
				end if;
				v_index := v_index + 1;
			end loop;
		end if;
	elsif v_type = 'object' and p_rule ? 'properties' then
		for v_key in select jsonb_object_keys(p_value) loop
			if not (p_rule -> 'properties') ? v_key then
				return format('%s.%s: not a field of this section', p_path, v_key);
			end if;
			v_problem := public.config_value_problem(
				p_rule -> 'properties' -> v_key, p_value -> v_key, format('%s.%s', p_path, v_key)
			);
			if v_problem is not null then
				return v_problem;
			end if;
		end loop;
		for v_key in select jsonb_array_elements_text(coalesce(p_rule -> 'required', '[]'::jsonb)) loop
			if not p_value ? v_key then
				return format('%s.%s: required', p_path, v_key);
			end if;
		end loop;
	end if;
	return null;
end;
$$;

comment on function public.config_value_problem is 'The first way a configuration value breaks its rule (type, length, allowed values, list size, fields), as "path: problem", or null.';

create or replace function public.chamber_config_validate()
returns trigger
language plpgsql
-- Definer rights: the rules and the checker are not the API roles' to call.
security definer
set search_path = ''
as $$
declare
	v_rules constant jsonb := public.config_rules();
	v_row constant jsonb := to_jsonb(new);
	v_column text;
	v_problem text;
begin
	for v_column in select jsonb_object_keys(v_rules) loop
		if tg_op = 'UPDATE' and v_row -> v_column is not distinct from to_jsonb(old) -> v_column then
			continue;
		end if;
		v_problem := public.config_value_problem(
			v_rules -> v_column, v_row -> v_column, public.config_section_name(v_column)
		);
		if v_problem is not null then
			raise exception 'Invalid configuration value: %', v_problem
				using errcode = '22023', hint = 'The admin panel lists what each field takes.';
		end if;
	end loop;
	return new;
end;
$$;

comment on function public.chamber_config_validate is 'Trigger: refuses configuration values of the wrong type or size (config_rules), whoever writes them.';

create trigger chamber_config_validate before insert or update on public.chamber_config
	for each row execute function public.chamber_config_validate();

/**
  ---------------------------------------------------------------------------
  What each role may change
  ---------------------------------------------------------------------------
  RLS lets the chamber's staff update their chamber's row at all; this
  trigger judges the columns. It runs with the caller's rights (security
  invoker), so current_user is the role PostgREST switched to:
  anon/authenticated requests are judged, the service role (import, build)
  and migrations are not.
  - Nobody changes a chamber's slug through the API: it names the deployment.
  - An editor changes `content` and the content-related display toggles of
    `features` (editor_feature_keys), nothing else.
  - Only a super_admin changes `services`: the analytics id loads Google's
    script on every public page, the origin where staff sessions live (the
    panel does not offer the section).
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
	if v_role <> 'super_admin' and new.services is distinct from old.services then
		raise exception 'Only a super_admin can change the site''s services (analytics, e-mail, reCAPTCHA)'
			using errcode = '42501';
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

comment on function public.chamber_config_check_role is 'Trigger: refuses configuration changes the caller''s role may not make (editors: content only; admins: not services; nobody: the slug).';

create trigger chamber_config_check_role_before_update before update on public.chamber_config
	for each row execute function public.chamber_config_check_role();

/**
  ---------------------------------------------------------------------------
  Every change is audited, and bumps the `config` cache version
  ---------------------------------------------------------------------------
  The audit trigger writes one audit_log row per changed field, whoever makes
  the change. Functions keep the chamber configuration per instance for as
  long as the `config` version stays the same (getCachedChamberConfig), and
  CDN cache keys carry that version, so every real change of a row bumps it
  in the same transaction: the tenant import (whose upsert only updates a row
  that differs), a panel save, a scheduled change.
 */
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

create trigger chamber_config_audit_after_update after update on public.chamber_config
	for each row
	when (old.* is distinct from new.*)
	execute function public.chamber_config_audit();

create or replace function public.chamber_config_bump_version()
returns trigger
language plpgsql
-- Definer rights: an editor allowed to change the configuration may not write cache_versions
-- directly, but the bump belongs to the change.
security definer
set search_path = ''
as $$
begin
	update public.cache_versions
	set version = version + 1, updated_at = now()
	where tenant_id = new.tenant_id and type = 'config';
	return null;
end;
$$;

comment on function public.chamber_config_bump_version is 'Trigger: bumps the tenant''s config cache version after its chamber_config row changes.';

create trigger chamber_config_bump_version_after_update after update on public.chamber_config
	for each row
	when (old.* is distinct from new.*)
	execute function public.chamber_config_bump_version();

/**
  ---------------------------------------------------------------------------
  No lost edits: every configuration section carries a version
  ---------------------------------------------------------------------------
  Two people editing the chamber's configuration at once must never overwrite
  each other without knowing. A save states the version of the section it was
  made from; where someone changed the same field since, the save is refused
  with 409 (PostgREST's PT409) and the detail names each such field with its
  value now, who changed it and when. Changes to other fields of the section
  still merge, as a one-field write always does.

  A section's version is the id of its newest audit_log row. The audit log
  already holds every changed field with who and when, and writes to a
  chamber's row are serialised by the row's lock, so a later change of a
  chamber's configuration always has a higher id. Nothing else has to be kept
  in step with the configuration; a section never changed has version 0.

  The conflict detail is JSON, the shape every versioned write of the project
  answers with (src/features/conflicts/conflicts.ts reads it):
    {"conflicts": [{"field": "content.heroTitle", "value": <theirs>,
                    "changedBy": "ann@chamber.test", "changedAt": "…"}],
     "version": <the section's version now>}
 */

/** The sections a version is kept for: the configuration's, in audit_log's naming. */
create or replace function public.config_section_names()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'identity', 'colors', 'logo', 'fonts', 'textColors', 'contact', 'social', 'urls',
		'footerLabels', 'content', 'services', 'features', 'membershipLevels', 'featuredBusinesses',
		'categoryDisplay', 'searchPage', 'navigation'
	];
$$;

comment on function public.config_section_names is 'The configuration''s sections as audit_log names them (identity for the top-level fields).';

/**
  One section's version. Definer rights: editors may not read the audit log,
  but they save content and need its version. Staff of the chamber and the
  server side only.
 */
create or replace function public.config_section_version(p_tenant_id uuid, p_section text)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	if not (
		coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
		or public.has_tenant_role(p_tenant_id)
	) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	return coalesce(
		(select max(l.id) from public.audit_log l where l.tenant_id = p_tenant_id and l.section = p_section),
		0
	);
end;
$$;

comment on function public.config_section_version is 'A configuration section''s version: the id of its newest audit_log row (0: never changed).';

/**
  Every section's version, as a computed column of chamber_config: a read of
  `chamber_config?select=*,config_versions` answers the configuration and the
  versions it is at from the same snapshot, so a version never covers a change
  the reader did not get. Null for anyone but the chamber's staff and the
  server side.
 */
create or replace function public.config_versions(p_config public.chamber_config)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select case
		when coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
			or public.has_tenant_role(p_config.tenant_id)
		then (
			select jsonb_object_agg(
				s.section,
				coalesce(
					(
						select max(l.id) from public.audit_log l
						where l.tenant_id = p_config.tenant_id and l.section = s.section
					),
					0
				)
			)
			from unnest(public.config_section_names()) as s(section)
		)
	end;
$$;

comment on function public.config_versions(public.chamber_config) is 'Computed column: {section: version} of the chamber''s configuration, for its staff (null for anyone else).';

/**
  The fields a write would take back from someone else: each field it sets
  that was changed after p_version and holds something else now. For a whole
  section every key counts, so a key the writer did not mean to change but
  holds an older value of is reported, never silently put back. Call it with
  the chamber's row locked (update_chamber_config does).
 */
create or replace function public.config_conflicts(
	p_tenant_id uuid,
	p_column text,
	p_field text,
	p_value jsonb,
	p_version bigint
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_section constant text := public.config_section_name(p_column);
	v_row jsonb;
	v_current jsonb;
	v_conflicts jsonb := '[]'::jsonb;
	v_key text;
	v_mine jsonb;
	v_theirs jsonb;
	v_change record;
begin
	if not (
		coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
		or public.has_tenant_role(p_tenant_id)
	) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	select to_jsonb(c) into v_row from public.chamber_config c where c.tenant_id = p_tenant_id;
	if v_row is null then
		return v_conflicts;
	end if;
	v_current := v_row -> p_column;

	for v_key in
		select k from (
			-- Identity: the top-level field itself.
			select case p_column when 'founded_year' then 'foundedYear' else p_column end as k
			where v_section = 'identity'
			union
			select p_field where v_section <> 'identity' and p_field is not null
			union
			-- A whole section: every key either side has, and every key changed since.
			select jsonb_object_keys(case when jsonb_typeof(p_value) = 'object' then p_value else '{}' end)
			where v_section <> 'identity' and p_field is null
			union
			select jsonb_object_keys(case when jsonb_typeof(v_current) = 'object' then v_current else '{}' end)
			where v_section <> 'identity' and p_field is null
			union
			select l.field from public.audit_log l
			where v_section <> 'identity' and p_field is null
				and l.tenant_id = p_tenant_id and l.section = v_section and l.id > p_version
				and l.field is not null
		) keys
		where k is not null
	loop
		if v_section = 'identity' then
			v_mine := coalesce(p_value, 'null'::jsonb);
			v_theirs := coalesce(v_current, 'null'::jsonb);
		elsif p_field is not null then
			v_mine := coalesce(p_value, 'null'::jsonb);
			v_theirs := coalesce(v_current -> v_key, 'null'::jsonb);
		else
			v_mine := coalesce(p_value -> v_key, 'null'::jsonb);
			v_theirs := coalesce(v_current -> v_key, 'null'::jsonb);
		end if;
		continue when v_mine = v_theirs;

		select l.id, l.at, coalesce(l.actor_email, l.actor_role) as actor into v_change
		from public.audit_log l
		where l.tenant_id = p_tenant_id
			and l.section = v_section
			and l.id > p_version
			-- A row without a field replaced the whole value: every key of it changed.
			and (l.field = v_key or l.field is null)
		order by l.id desc
		limit 1;
		continue when not found;

		v_conflicts := v_conflicts || jsonb_build_array(jsonb_build_object(
			'field', case when v_section = 'identity' then v_key else v_section || '.' || v_key end,
			'value', v_theirs,
			'changedBy', v_change.actor,
			'changedAt', v_change.at
		));
	end loop;
	return v_conflicts;
end;
$$;

comment on function public.config_conflicts is 'The fields a configuration write would take back from someone who changed them after p_version: [{field, value, changedBy, changedAt}].';

/**
  ---------------------------------------------------------------------------
  update_chamber_config: a panel save writes one field, atomically, as the user
  ---------------------------------------------------------------------------
  POST /api/update-config saves one configuration field per call. A
  read-modify-write of a whole jsonb section from the function would lose
  another person's save of a different field of the same section made in
  between; jsonb_set inside one UPDATE does not. The function runs with the
  caller's rights (security invoker): row-level security decides whether the
  row may be updated at all, and chamber_config_check_role what an editor
  may change, exactly as for a direct PostgREST write. Columns are a fixed
  list, never taken from the request as SQL: p_column is checked against it
  before it is quoted into the statement.

  p_version is the version of the section (see config_versions) the change
  was made from, required here so a staff token calling the function
  directly states it too. It answers the row's new updated_at, the section's
  version after the write and the one it found before it: a caller whose own
  version was that one may go on from the new version; otherwise someone
  else's change came in between and the caller has not seen it.
 */
create or replace function public.update_chamber_config(
	p_tenant_id uuid,
	p_column text,
	p_field text,
	p_value jsonb,
	p_version bigint
) returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_text_columns constant text[] := array['name', 'city', 'state'];
	v_json_columns constant text[] := array[
		'colors', 'fonts', 'text_colors', 'contact', 'social', 'urls', 'footer_labels', 'content',
		'features', 'featured_businesses', 'category_display', 'search_page', 'navigation'
	];
	v_section text;
	v_before bigint;
	v_after bigint;
	v_conflicts jsonb;
	v_updated_at timestamptz;
begin
	if not (p_column = any (v_text_columns || v_json_columns || array['founded_year'])) then
		raise exception 'The panel cannot change %', p_column using errcode = '22023';
	end if;
	v_section := public.config_section_name(p_column);
	if p_version is null or p_version < 0 then
		raise exception 'A save states the version of % it was made from', v_section
			using errcode = '22023', hint = 'Read config_versions with the configuration.';
	end if;

	-- Concurrent saves of this chamber wait here, so each one's check sees the one before it.
	perform 1 from public.chamber_config c where c.tenant_id = p_tenant_id for update;
	if not found then
		-- Row-level security hid the row: not this user's chamber (or no such chamber).
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;

	v_before := public.config_section_version(p_tenant_id, v_section);
	if p_version > v_before then
		raise exception '% has no version % yet (it is at %)', v_section, p_version, v_before
			using errcode = '22023';
	end if;
	if p_version < v_before then
		v_conflicts := public.config_conflicts(p_tenant_id, p_column, p_field, p_value, p_version);
		if jsonb_array_length(v_conflicts) > 0 then
			raise exception 'Someone else changed % since you opened it', (
				select string_agg(c ->> 'field', ', ') from jsonb_array_elements(v_conflicts) c
			)
				using errcode = 'PT409',
				detail = jsonb_build_object('conflicts', v_conflicts, 'version', v_before)::text,
				hint = 'Keep your value by saving again with this version, or take theirs.';
		end if;
	end if;

	if p_column = any (v_text_columns) then
		if jsonb_typeof(p_value) is distinct from 'string' then
			raise exception '% must be text', p_column using errcode = '22023';
		end if;
		execute format(
			'update public.chamber_config set %I = $1 where tenant_id = $2 returning updated_at',
			p_column
		) into v_updated_at using p_value #>> '{}', p_tenant_id;
	elsif p_column = 'founded_year' then
		if jsonb_typeof(p_value) not in ('number', 'null') then
			raise exception 'founded_year must be a number or null' using errcode = '22023';
		end if;
		update public.chamber_config
		set founded_year = (p_value #>> '{}')::integer
		where tenant_id = p_tenant_id
		returning updated_at into v_updated_at;
	elsif p_field is null then
		execute format(
			'update public.chamber_config set %I = $1 where tenant_id = $2 returning updated_at',
			p_column
		) into v_updated_at using p_value, p_tenant_id;
	else
		execute format(
			'update public.chamber_config set %1$I = jsonb_set(coalesce(%1$I, ''{}''::jsonb), array[$3], $1, true) where tenant_id = $2 returning updated_at',
			p_column
		) into v_updated_at using p_value, p_tenant_id, p_field;
	end if;
	if v_updated_at is null then
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;
	v_after := public.config_section_version(p_tenant_id, v_section);
	return jsonb_build_object(
		'updatedAt', v_updated_at,
		'version', v_after,
		'previousVersion', v_before
	);
end;
$$;

comment on function public.update_chamber_config(uuid, text, text, jsonb, bigint) is 'Saves one configuration field (or a whole section when p_field is null) as the caller, made from version p_version of its section: 409 (PT409) when it would take back someone else''s later change. RLS and the role check trigger judge it. Answers {updatedAt, version, previousVersion}.';

/**
  ---------------------------------------------------------------------------
  Cache versions: bumping one invalidates every CDN entry keyed by it
  ---------------------------------------------------------------------------
  A version that went down would bring back CDN entries cached under it, so
  users have no direct writes: an admin (or super_admin) bumps a version with
  bump_cache_version, which also records the purge with the e-mail of the
  token's user. The config version is bumped by the configuration trigger
  above, not by hand.
 */
create table if not exists public.cache_versions (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	type text not null check (
		type in ('config', 'categories', 'events', 'community_events', 'event_details')
	),
	version integer not null default 1 check (version >= 1),
	updated_at timestamptz not null default now(),
	primary key (tenant_id, type)
);

comment on table public.cache_versions is 'Per tenant and resource type, the version that cache keys and ?v= parameters carry.';

alter table public.cache_versions enable row level security;

create policy "Anyone can read cache versions" on public.cache_versions
	for select to anon, authenticated
	using (true);

grant select on table public.cache_versions to anon, authenticated;
grant all on table public.cache_versions to service_role;

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

create trigger cache_versions_only_up before update on public.cache_versions
	for each row execute function public.cache_versions_only_up();

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

create trigger cache_versions_audit after update on public.cache_versions
	for each row execute function public.cache_versions_audit();

/** Cache purge log: who refreshed what, shown to super admins. */
create table if not exists public.cache_purge_log (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	user_email text not null,
	purge_type text not null,
	created_at timestamptz not null default now()
);

comment on table public.cache_purge_log is 'Every cache refresh from the admin portal; the Cache tab shows the newest 15 to super admins.';

create index if not exists cache_purge_log_tenant_created_idx
	on public.cache_purge_log (tenant_id, created_at desc);

alter table public.cache_purge_log enable row level security;

create policy "Super admins can read the cache purge log" on public.cache_purge_log
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));

grant select on table public.cache_purge_log to authenticated;
grant all on table public.cache_purge_log to service_role;

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

/**
  ---------------------------------------------------------------------------
  Logos: a public Storage bucket, written by the upload function alone
  ---------------------------------------------------------------------------
  A logo reaches the bucket through POST /api/upload-logo, which reads the
  file's type from its bytes and cleans SVGs of script; it writes with the
  service role (which passes row-level security) after asking the database,
  as the user, whether they may (may_manage_logo). An admin's token could
  otherwise put a file straight into the public bucket (an SVG with a
  script, served from the storage origin), so staff may only list their
  chamber's logos.

  Objects are named {tenant id}/{logo type}-{random}.{ext}: the first folder
  says whose logo it is, and every upload gets a new name, so no CDN or browser
  ever shows an old logo under a new configuration (and the live site keeps its
  old logo until the build with the new one is live).

  The bucket is created only where missing (a hosted project may have it).
  Public: the site's pages and the panel show logos by their public URL.
  5 MB and the logos' image types are also the bucket's own limits, so
  Storage refuses anything else even when called directly.
 */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
	'logos',
	'logos',
	true,
	5242880,
	array['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon']
)
on conflict (id) do nothing;

/** Whether an object of the logos bucket lies in a folder of a chamber the user administers. */
create or replace function public.may_manage_logo(p_bucket_id text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select p_bucket_id = 'logos' and exists (
		select 1
		from public.tenants t
		where t.id::text = (storage.foldername(p_name))[1]
			and public.has_tenant_role(t.id, array['super_admin', 'admin'])
	);
$$;

comment on function public.may_manage_logo is 'True for an object of the logos bucket in the folder ({tenant id}/…) of a chamber the signed-in user is an admin or super_admin of.';

create policy "Chamber admins can list their chamber's logos" on storage.objects
	for select to authenticated
	using (public.may_manage_logo(bucket_id, name));

/**
  set_chamber_logo sets logo.{standard|stacked|favicon} with jsonb_set in one
  UPDATE, so two uploads of different types never overwrite each other.
  Security invoker: row-level security and the role trigger (the logo
  section is for admins) judge it as they judge any write of the user.
 */
create or replace function public.set_chamber_logo(p_tenant_id uuid, p_type text, p_url text)
returns timestamptz
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_updated_at timestamptz;
begin
	if p_type is null or p_type not in ('standard', 'stacked', 'favicon') then
		raise exception 'Unknown logo type: %', p_type using errcode = '22023';
	end if;
	if p_url is null or p_url !~ '^https?://' then
		raise exception 'A logo is an http(s) URL' using errcode = '22023';
	end if;
	update public.chamber_config
	set logo = jsonb_set(coalesce(logo, '{}'::jsonb), array[p_type], to_jsonb(p_url), true)
	where tenant_id = p_tenant_id
	returning updated_at into v_updated_at;
	if v_updated_at is null then
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;
	return v_updated_at;
end;
$$;

comment on function public.set_chamber_logo is 'Sets one logo URL (standard, stacked or favicon) of a chamber''s configuration as the caller: RLS and the role trigger judge it.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Staff (authenticated): the panel's own calls, and what the invoker
  functions and trigger they reach call in turn (update_chamber_config →
  config_section_name, config_section_version, config_conflicts; the role
  check trigger → config_section_name, editor_feature_keys). Trigger
  functions need no EXECUTE to fire; the rest is the service role's.
 */
revoke all on function public.config_rules() from public, anon, authenticated;
revoke all on function public.config_value_problem(jsonb, jsonb, text) from public, anon, authenticated;
revoke all on function public.chamber_config_validate() from public, anon, authenticated;
revoke all on function public.chamber_config_check_role() from public, anon, authenticated;
revoke all on function public.chamber_config_audit() from public, anon, authenticated;
revoke all on function public.chamber_config_bump_version() from public, anon, authenticated;
revoke all on function public.cache_versions_only_up() from public, anon, authenticated;
revoke all on function public.cache_versions_audit() from public, anon, authenticated;
grant execute on function public.config_rules() to service_role;
grant execute on function public.config_value_problem(jsonb, jsonb, text) to service_role;
grant execute on function public.chamber_config_validate() to service_role;
grant execute on function public.chamber_config_check_role() to service_role;
grant execute on function public.chamber_config_audit() to service_role;
grant execute on function public.chamber_config_bump_version() to service_role;
grant execute on function public.cache_versions_only_up() to service_role;
grant execute on function public.cache_versions_audit() to service_role;

revoke all on function public.config_section_name(text) from public, anon;
revoke all on function public.editor_feature_keys() from public, anon;
revoke all on function public.config_section_names() from public, anon;
revoke all on function public.config_section_version(uuid, text) from public, anon;
revoke all on function public.config_versions(public.chamber_config) from public, anon;
revoke all on function public.config_conflicts(uuid, text, text, jsonb, bigint) from public, anon;
revoke all on function public.update_chamber_config(uuid, text, text, jsonb, bigint) from public, anon;
revoke all on function public.bump_cache_version(uuid, text) from public, anon;
revoke all on function public.may_manage_logo(text, text) from public, anon;
revoke all on function public.set_chamber_logo(uuid, text, text) from public, anon;
grant execute on function public.config_section_name(text) to authenticated, service_role;
grant execute on function public.editor_feature_keys() to authenticated, service_role;
grant execute on function public.config_section_names() to authenticated, service_role;
grant execute on function public.config_section_version(uuid, text) to authenticated, service_role;
grant execute on function public.config_versions(public.chamber_config) to authenticated, service_role;
grant execute on function public.config_conflicts(uuid, text, text, jsonb, bigint) to authenticated, service_role;
grant execute on function public.update_chamber_config(uuid, text, text, jsonb, bigint) to authenticated, service_role;
grant execute on function public.bump_cache_version(uuid, text) to authenticated, service_role;
grant execute on function public.may_manage_logo(text, text) to authenticated, service_role;
grant execute on function public.set_chamber_logo(uuid, text, text) to authenticated, service_role;
