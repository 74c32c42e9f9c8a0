/**
  ---------------------------------------------------------------------------
  Configuration values are valid in the database, not only in a function
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
  get length checks of their own.
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
	"contact": {"types":["object"],"properties":{"address":{"types":["string"],"maxLength":200},"addressLine2":{"types":["string"],"maxLength":200},"city":{"types":["string"],"maxLength":200},"state":{"types":["string"],"maxLength":2},"zip":{"types":["string"],"maxLength":200},"phone":{"types":["string"],"maxLength":200},"email":{"types":["string"],"maxLength":254}}},
	"social": {"types":["object"],"properties":{"facebook":{"types":["string"],"maxLength":2000},"twitter":{"types":["string"],"maxLength":2000},"linkedin":{"types":["string"],"maxLength":2000},"instagram":{"types":["string"],"maxLength":2000},"youtube":{"types":["string"],"maxLength":2000}}},
	"urls": {"types":["object"],"properties":{"mainWebsite":{"types":["string"],"maxLength":2000},"joinUrl":{"types":["string"],"maxLength":2000},"aboutUrl":{"types":["string"],"maxLength":2000},"teamUrl":{"types":["string"],"maxLength":2000},"presidentUrl":{"types":["string"],"maxLength":2000},"boardUrl":{"types":["string"],"maxLength":2000},"eventsUrl":{"types":["string"],"maxLength":2000},"networkingUrl":{"types":["string"],"maxLength":2000},"newsUrl":{"types":["string"],"maxLength":2000},"advocacyUrl":{"types":["string"],"maxLength":2000},"privacyUrl":{"types":["string"],"maxLength":2000},"businessResourcesUrl":{"types":["string"],"maxLength":2000},"workforceUrl":{"types":["string"],"maxLength":2000},"communityGuideUrl":{"types":["string"],"maxLength":2000},"communityMapUrl":{"types":["string"],"maxLength":2000},"jobBoardUrl":{"types":["string"],"maxLength":2000},"committeesUrl":{"types":["string"],"maxLength":2000},"annualReportUrl":{"types":["string"],"maxLength":2000},"contactUrl":{"types":["string"],"maxLength":2000},"eventRegistrationBaseUrl":{"types":["string"],"maxLength":2000}}},
	"footer_labels": {"types":["object"],"properties":{"businessResourcesLabel":{"types":["string"],"maxLength":200},"workforceLabel":{"types":["string"],"maxLength":200},"communityGuideLabel":{"types":["string"],"maxLength":200},"jobBoardLabel":{"types":["string"],"maxLength":200}}},
	"content": {"types":["object"],"properties":{"heroTitle":{"types":["string"],"maxLength":200},"heroSubtitle":{"types":["string"],"maxLength":1000},"footerTagline":{"types":["string"],"maxLength":1000},"copyrightText":{"types":["string"],"maxLength":200},"featuredTitle":{"types":["string"],"maxLength":200},"categoriesTitle":{"types":["string"],"maxLength":200},"whyJoinTitle":{"types":["string"],"maxLength":200},"whyJoinText":{"types":["string"],"maxLength":1000},"whyJoinButtonText":{"types":["string"],"maxLength":200},"directoryTitle":{"types":["string"],"maxLength":200},"sidebarTitle":{"types":["string"],"maxLength":200},"sidebarTagline":{"types":["string"],"maxLength":1000},"sidebarButtonText":{"types":["string"],"maxLength":200},"eventsTabLabel":{"types":["string"],"maxLength":200},"communityEventsTabLabel":{"types":["string"],"maxLength":200},"defaultEventsCalendar":{"types":["string"],"enum":["events","community-events","events-list"]},"metaDescription":{"types":["string"],"maxLength":1000},"metaKeywords":{"types":["string"],"maxLength":1000}}},
	"services": {"types":["object"],"properties":{"googleAnalyticsId":{"types":["string"],"maxLength":30},"recaptchaSiteKey":{"types":["string"],"maxLength":100},"emailDomain":{"types":["string"],"maxLength":253}}},
	"features": {"types":["object"],"properties":{"showEvents":{"types":["boolean"]},"showCommunityEvents":{"types":["boolean"]},"showNewMembersFilter":{"types":["boolean"]},"showMembershipLevels":{"types":["boolean"]},"showBanners":{"types":["boolean"]},"showEventFilters":{"types":["boolean"]},"showFeaturedEvent":{"types":["boolean"]},"featuredEventId":{"types":["integer","null","string"],"maxLength":20},"showBusinessShortDescription":{"types":["boolean"]},"showEventAttendeeCountInHeader":{"types":["boolean"]},"memberBadgeDisplay":{"types":["string"],"enum":["level","year"]},"businessDetailLayout":{"types":["string"],"enum":["classic","modern"]},"showMainContact":{"types":["boolean"]}}},
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

revoke all on function public.chamber_config_validate() from public;
revoke all on function public.config_rules() from public, anon, authenticated;
revoke all on function public.config_value_problem(jsonb, jsonb, text) from public, anon, authenticated;
grant execute on function public.config_rules() to service_role;
grant execute on function public.config_value_problem(jsonb, jsonb, text) to service_role;

drop trigger if exists chamber_config_validate on public.chamber_config;
create trigger chamber_config_validate before insert or update on public.chamber_config
	for each row execute function public.chamber_config_validate();

alter table public.chamber_config
	add constraint chamber_config_name_length check (char_length(name) between 1 and 200),
	add constraint chamber_config_slug_length check (char_length(slug) between 1 and 100),
	add constraint chamber_config_city_length check (char_length(city) <= 200);

/**
  ---------------------------------------------------------------------------
  services: third-party ids that load code site-wide, super_admins only
  ---------------------------------------------------------------------------
  The analytics id loads Google's script on every public page, the origin
  where staff sessions live; the panel does not offer the section, and the
  database lets only a super_admin (or the import) change it.
 */
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
