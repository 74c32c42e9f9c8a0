/**
  ---------------------------------------------------------------------------
  update_chamber_config: a save made from no version, said so
  ---------------------------------------------------------------------------
  POST /api/update-config takes the bodies the original specification
  defines, which state no version: such a change is written whatever the
  section's version is now (last write wins). The function says so with its
  own argument, p_last_write_wins, never with a version value a client could
  send by mistake: a null version without it is still refused, and a version
  with it is a contradiction.

  Who may change the chamber is decided first: a caller whose row-level
  security hides the chamber's row is refused (42501) before the column, the
  version or the value is looked at, so another chamber's staff learn nothing
  from the refusal.

  The function gains an argument, so the five-argument one is replaced (a
  second overload would make PostgREST's choice depend on the arguments
  named); apply_scheduled_change keeps calling it with five.
 */
drop function if exists public.update_chamber_config(uuid, text, text, jsonb, bigint);

create function public.update_chamber_config(
	p_tenant_id uuid,
	p_column text,
	p_field text,
	p_value jsonb,
	p_version bigint,
	p_last_write_wins boolean default false
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
	-- Concurrent saves of this chamber wait here, so each one's check sees the one before it.
	perform 1 from public.chamber_config c where c.tenant_id = p_tenant_id for update;
	if not found then
		-- Row-level security hid the row: not this user's chamber (or no such chamber).
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;

	if not (p_column = any (v_text_columns || v_json_columns || array['founded_year'])) then
		raise exception 'The panel cannot change %', p_column using errcode = '22023';
	end if;
	v_section := public.config_section_name(p_column);
	if coalesce(p_last_write_wins, false) then
		if p_version is not null then
			raise exception 'A save states the version of % it was made from, or that the last write wins, not both', v_section
				using errcode = '22023';
		end if;
	elsif p_version is null or p_version < 0 then
		raise exception 'A save states the version of % it was made from', v_section
			using errcode = '22023', hint = 'Read config_versions with the configuration, or say p_last_write_wins.';
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

comment on function public.update_chamber_config(uuid, text, text, jsonb, bigint, boolean) is 'Saves one configuration field (or a whole section when p_field is null) as the caller, made from version p_version of its section: 409 (PT409) when it would take back someone else''s later change. With p_last_write_wins (and no version) it is written whatever the version now. RLS and the role check trigger judge it, the chamber first. Answers {updatedAt, version, previousVersion}.';

revoke all on function public.update_chamber_config(uuid, text, text, jsonb, bigint, boolean) from public, anon;
grant execute on function public.update_chamber_config(uuid, text, text, jsonb, bigint, boolean) to authenticated, service_role;
