/**
  ---------------------------------------------------------------------------
  No lost edits: every configuration section carries a version
  ---------------------------------------------------------------------------
  Two people editing the chamber's configuration at once must never overwrite
  each other without knowing. A save states the version of the section it was
  made from; where someone changed the same field since, the save is refused
  with 409 (PostgREST's PT409) and the detail names each such field with its
  value now, who changed it and when. Changes to other fields of the section
  still merge, as a one-field write always did.

  A section's version is the id of its newest audit_log row. The audit log
  already holds every changed field with who and when (migration 030), and
  writes to a chamber's row are serialised by the row's lock, so a later
  change of a chamber's configuration always has a higher id. Nothing else
  has to be kept in step with the configuration; a section never changed has
  version 0.

  The check lives in update_chamber_config, which a staff member's token may
  call directly: the version is required there, not only in the function.

  The conflict detail is JSON, the shape every versioned write of the project
  answers with (src/features/conflicts/conflicts.ts reads it):
    {"conflicts": [{"field": "content.heroTitle", "value": <theirs>,
                    "changedBy": "ann@chamber.test", "changedAt": "…"}],
     "version": <the section's version now>}
 */

create index if not exists audit_log_tenant_section_id_idx
	on public.audit_log (tenant_id, section, id desc);

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
  update_chamber_config: a save states the version it was made from
  ---------------------------------------------------------------------------
  As migration 090's, plus p_version: the version of the section (see
  config_versions) the change was made from. It answers the row's new
  updated_at, the section's version after the write and the one it found
  before it: a caller whose own version was that one may go on from the new
  version; otherwise someone else's change came in between and the caller
  has not seen it.
 */
drop function if exists public.update_chamber_config(uuid, text, text, jsonb);

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

revoke all on function public.config_section_names() from public;
revoke all on function public.config_section_version(uuid, text) from public;
revoke all on function public.config_versions(public.chamber_config) from public;
revoke all on function public.config_conflicts(uuid, text, text, jsonb, bigint) from public;
revoke all on function public.update_chamber_config(uuid, text, text, jsonb, bigint) from public;
grant execute on function public.config_section_names() to authenticated, service_role;
grant execute on function public.config_section_version(uuid, text) to authenticated, service_role;
grant execute on function public.config_versions(public.chamber_config) to authenticated, service_role;
grant execute on function public.config_conflicts(uuid, text, text, jsonb, bigint) to authenticated, service_role;
grant execute on function public.update_chamber_config(uuid, text, text, jsonb, bigint) to authenticated, service_role;
