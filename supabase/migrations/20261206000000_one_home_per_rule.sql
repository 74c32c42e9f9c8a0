/**
  One home each: how long a silent publish lives, and which parts of a listing
  editors and members change

  The publish timeout was written twice in expire_publishes, and the listing
  keys an editor or a member may change twice each in save_business and
  submit_member_changes. Each is now one function the others call; the
  functions are redefined with nothing else changed, and keep their grants and
  security mode.
 */

/**
  ---------------------------------------------------------------------------
  publish_silence_limit: how long a publish may report nothing
  ---------------------------------------------------------------------------
  A build that is building, or a publish queued with no build ahead of it,
  fails once its last sign of life is this old (expire_publishes). The docs
  quote it; tests/db/one-home.test.ts holds them to it.
 */
create or replace function public.publish_silence_limit()
returns interval
language sql
immutable
set search_path = ''
as $$
	select interval '15 minutes';
$$;

comment on function public.publish_silence_limit is 'How long a publish may report nothing before expire_publishes fails it.';

/** The limit as the failed publish's error says it, e.g. '15 minutes'. */
create or replace function public.publish_silence_limit_text()
returns text
language sql
immutable
set search_path = ''
as $$
	select (extract(epoch from public.publish_silence_limit()) / 60)::integer || ' minutes';
$$;

comment on function public.publish_silence_limit_text is 'publish_silence_limit() in words for an error message, e.g. ''15 minutes''.';

/**
  A build that is building, or a publish queued with no build ahead of it,
  fails once its last sign of life is publish_silence_limit() old. p_now is the
  clock: the service role may pass one (tests inject it); anyone else gets
  now().
 */
create or replace function public.expire_publishes(p_tenant_id uuid, p_now timestamptz default null)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_now timestamptz := now();
	v_count integer := 0;
	v_n integer;
begin
	if coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database') then
		v_now := coalesce(p_now, now());
	elsif not public.has_tenant_role(p_tenant_id) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;

	-- A queued publish waits for the build ahead of it; alone, it should have started long ago.
	update public.publishes
	set state = 'failed',
		finished_at = v_now,
		error = format('The build never started (nothing heard for %s).', public.publish_silence_limit_text())
	where tenant_id = p_tenant_id
		and state = 'queued'
		and last_report_at < v_now - public.publish_silence_limit()
		and not exists (
			select 1 from public.publishes b where b.tenant_id = p_tenant_id and b.state = 'building'
		);
	get diagnostics v_n = row_count;
	v_count := v_count + v_n;

	update public.publishes
	set state = 'failed',
		finished_at = v_now,
		error = format('The build reported nothing for %s.', public.publish_silence_limit_text()),
		config_snapshot = null
	where tenant_id = p_tenant_id
		and state = 'building'
		and last_report_at < v_now - public.publish_silence_limit();
	get diagnostics v_n = row_count;
	v_count := v_count + v_n;

	if v_n > 0 then
		-- Whatever waited behind an expired build is first in line from now on.
		update public.publishes
		set last_report_at = v_now
		where tenant_id = p_tenant_id and state = 'queued' and last_report_at < v_now;
	end if;
	return v_count;
end;
$$;

comment on function public.expire_publishes is 'Fails a chamber''s publishes that reported nothing for publish_silence_limit(); returns how many. p_now (service role only) injects the clock.';

/**
  ---------------------------------------------------------------------------
  listing_text_keys: the parts of a listing editors and members change
  ---------------------------------------------------------------------------
  An editor (save_business) and a member (submit_member_changes) change a
  listing's descriptions, never which listings there are or their categories,
  keywords and flags: a change of listings passes when the listings without
  these keys are the same as before.
 */
create or replace function public.listing_text_keys()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['description', 'short_description'];
$$;

comment on function public.listing_text_keys is 'The keys of a listing an editor or a member may change (its descriptions); the rest of listings stays with admins.';

create or replace function public.listings_without_texts(p_listings jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
	select coalesce(jsonb_agg(e - public.listing_text_keys() order by ord), '[]')
	from jsonb_array_elements(p_listings) with ordinality x(e, ord);
$$;

comment on function public.listings_without_texts is 'A business''s listings without the keys of listing_text_keys(): what an editor''s or a member''s change must leave as it was.';

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
			published, updated_by, location
		)
		select v_id, p_tenant_id, v_weblink, d ->> 'report_name', d ->> 'address1', d ->> 'address2',
			d ->> 'city', d ->> 'county', d ->> 'state', d ->> 'zip', d ->> 'work_phone',
			nullif(d -> 'hours', 'null'::jsonb), d ->> 'website',
			d ->> 'email', (d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(d -> 'categories')), d ->> 'membership_level_name',
			(d ->> 'membership_rank')::integer, (d ->> 'member_since_date')::date,
			d ->> 'main_related_profile_name', d ->> 'logo_url', (d ->> 'listing_position')::integer,
			(d ->> 'is_member')::boolean, (d ->> 'published')::boolean, v_who,
			nullif(d -> 'location', 'null'::jsonb)
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
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	if v_row.removed_at is not null then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
	end if;
	v_old := public.business_document(v_id);

	-- An editor changes the descriptions of listings, never which listings there are or their
	-- categories, keywords and flags.
	if v_role = 'editor' and p_changes ? 'listings' then
		if public.listings_without_texts(p_changes -> 'listings')
			is distinct from public.listings_without_texts(v_old -> 'listings') then
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
			main_related_profile_name, logo_url, listing_position, is_member, published, location) = (
		select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
			-- A JSON null (hours cleared) is stored as no hours.
			nullif(r.hours, 'null'::jsonb), r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
			r.member_since_date, r.main_related_profile_name, r.logo_url, r.listing_position,
			r.is_member, r.published, nullif(r.location, 'null'::jsonb)
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
		if v_field = 'listings' and public.listings_without_texts(v_value)
			is distinct from public.listings_without_texts(v_current -> 'listings') then
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

/**
  ---------------------------------------------------------------------------
  Privileges: the new helpers run inside the functions above (security
  definer); nobody calls them directly
  ---------------------------------------------------------------------------
 */
revoke all on function public.publish_silence_limit() from public;
revoke all on function public.publish_silence_limit_text() from public;
revoke all on function public.listing_text_keys() from public;
revoke all on function public.listings_without_texts(jsonb) from public;

grant execute on function public.publish_silence_limit() to service_role;
grant execute on function public.publish_silence_limit_text() to service_role;
grant execute on function public.listing_text_keys() to service_role;
grant execute on function public.listings_without_texts(jsonb) to service_role;
