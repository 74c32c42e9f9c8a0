/**
  ---------------------------------------------------------------------------
  A panel save writes one field, atomically, as the user
  ---------------------------------------------------------------------------
  POST /api/update-config saves one configuration field per call.
  A read-modify-write of a whole jsonb section from the function would lose
  another person's save of a different field of the same section made in
  between; jsonb_set inside one UPDATE does not. The function runs with the
  caller's rights (security invoker): row-level security decides whether the
  row may be updated at all, and chamber_config_check_role (migration 030)
  what an editor may change, exactly as for a direct PostgREST write.

  Columns are a fixed list, never taken from the request as SQL: p_column is
  checked against it before it is quoted into the statement.
 */

create or replace function public.update_chamber_config(
	p_tenant_id uuid,
	p_column text,
	p_field text,
	p_value jsonb
) returns timestamptz
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
	v_updated_at timestamptz;
begin
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
	elsif p_column = any (v_json_columns) then
		if p_field is null then
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
	else
		raise exception 'The panel cannot change %', p_column using errcode = '22023';
	end if;
	if v_updated_at is null then
		-- Row-level security hid the row: not this user's chamber (or no such chamber).
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;
	return v_updated_at;
end;
$$;

comment on function public.update_chamber_config is 'Saves one configuration field (or a whole section when p_field is null) as the caller: RLS and the role check trigger judge it. Returns the row''s new updated_at.';

revoke all on function public.update_chamber_config(uuid, text, text, jsonb) from public;
grant execute on function public.update_chamber_config(uuid, text, text, jsonb) to authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  The chamber's membership levels, for the Homepage tab
  ---------------------------------------------------------------------------
  The featured-businesses strategy 'membership' picks from the levels the
  chamber's listed businesses actually hold; the tab offers those, with how
  many businesses hold each.
 */

create or replace function public.get_membership_levels(p_tenant_id uuid)
returns table (name text, count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
	select trim(p.membership_level_name), count(*)
	from public.matching_profiles(p_tenant_id) m
	join public.profiles p on p.id = m.profile_id
	where trim(coalesce(p.membership_level_name, '')) <> ''
	group by trim(p.membership_level_name)
	order by 1;
$$;

comment on function public.get_membership_levels is 'Membership levels the chamber''s listed businesses hold, with counts (the admin Homepage tab).';

revoke all on function public.get_membership_levels(uuid) from public;
grant execute on function public.get_membership_levels(uuid) to anon, authenticated, service_role;
