/**
  ---------------------------------------------------------------------------
  Who may do what in the member features, enforced where it runs
  ---------------------------------------------------------------------------
  Member listings, imports and syncs, members updating their own listing and
  scheduled publishing give a sign-in to every member business with an
  address on file, and have the server do work later for a person. Both are
  kept to that person's rights: a signed-in user reads a business's address
  only through the functions of the chamber's staff; work done later is
  judged as the person who asked for it, when it runs; an import reads only a
  file in its own chamber's folder; and a refusal reaches a caller of the
  Data API as 403, 404 or 409, never as a server error.
 */

/**
  ---------------------------------------------------------------------------
  A business's address and the staff's bookkeeping: read through staff's functions only
  ---------------------------------------------------------------------------
  Every identity-service user holds the authenticated role: every chamber's
  staff, and every member signed in by an e-mailed link. Row-level security
  lets anyone read a published business, so a column granted to
  authenticated would be readable by all of them, in every chamber.
  Signed-in users therefore read the columns visitors read, and no more. The
  address and the bookkeeping of a chamber's businesses reach its staff (and
  super_admins) through admin_business and admin_list_businesses, definer
  functions that check the role first; the server reads the address with the
  service role (the contact form, sign-in links, the monthly e-mail). A
  member never reads its business's address: its sign-in link goes there,
  and its page leaves it out.
 */
revoke select on table public.profiles from authenticated;
grant select (
	id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone, hours,
	website, featured, categories, membership_level_name, membership_rank, member_since_date,
	weblink_profile_id, main_related_profile_name, logo_url, listing_position, is_member, published,
	search_vector, search_text, sort_name, shuffle_key, accepts_messages
) on table public.profiles to authenticated;

comment on column public.profiles.email is 'The business''s address on file: the contact form''s recipient and where a member''s sign-in link goes. Never public; staff read it through admin_business, the server with the service role.';

/**
  A member's binding shows only while it holds: the one check
  (is_business_member) ends it when the business's address on file changes
  or the business is removed, at the time of each access, so there is
  nothing to revoke and no token outlives it.
 */
drop policy if exists "Members can read their own bindings" on public.business_members;
create policy "Members can read their own bindings while they hold" on public.business_members
	for select to authenticated
	using (user_id = auth.uid() and public.is_business_member(profile_id));

/**
  The views visitors read cannot be written; no role, the service role
  included, holds a write on them (the privilege matrix holds every role to
  what it is declared to use).
 */
revoke insert, update, delete, truncate, references, trigger
	on table public.business_cards_view, public.business_detail_view from service_role;

/**
  ---------------------------------------------------------------------------
  Work done later, in the name of the person who asked for it
  ---------------------------------------------------------------------------
  A scheduled publish and a member import's background steps run with the
  service role, long after a person asked for them, and must not do more
  than that person may when they run. The function doing the work takes on
  the person's claims for the rest of its transaction (begin_acting_for):
  tenant_role, the policies' checks, the configuration's role trigger and the
  audit then judge and record that person as they are now. end_acting_for
  puts the previous claims back. For the same reason the role trigger below
  judges every write made with a user's claims, whichever function it passes
  through, not only a caller connected as anon or authenticated.
 */
create or replace function public.begin_acting_for(p_user_id uuid, p_email text)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
	v_saved jsonb := jsonb_build_object(
		'claims', current_setting('request.jwt.claims', true),
		'sub', current_setting('request.jwt.claim.sub', true),
		'role', current_setting('request.jwt.claim.role', true),
		'email', current_setting('request.jwt.claim.email', true)
	);
begin
	if p_user_id is null then
		raise exception 'Acting for nobody' using errcode = '22023';
	end if;
	perform set_config('request.jwt.claims', jsonb_build_object(
		'sub', p_user_id, 'role', 'authenticated', 'email', p_email
	)::text, true);
	perform set_config('request.jwt.claim.sub', '', true);
	perform set_config('request.jwt.claim.role', '', true);
	perform set_config('request.jwt.claim.email', '', true);
	return v_saved;
end;
$$;

comment on function public.begin_acting_for is 'Background work: the transaction''s claims become the user''s (sub, role authenticated, email) so every check judges them; answers the claims it replaced, for end_acting_for.';

create or replace function public.end_acting_for(p_saved jsonb)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
	perform set_config('request.jwt.claims', coalesce(p_saved ->> 'claims', ''), true);
	perform set_config('request.jwt.claim.sub', coalesce(p_saved ->> 'sub', ''), true);
	perform set_config('request.jwt.claim.role', coalesce(p_saved ->> 'role', ''), true);
	perform set_config('request.jwt.claim.email', coalesce(p_saved ->> 'email', ''), true);
end;
$$;

comment on function public.end_acting_for is 'Puts back the claims begin_acting_for replaced.';

revoke all on function public.begin_acting_for(uuid, text) from public, anon, authenticated;
revoke all on function public.end_acting_for(jsonb) from public, anon, authenticated;
grant execute on function public.begin_acting_for(uuid, text) to service_role;
grant execute on function public.end_acting_for(jsonb) to service_role;

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
	-- The server side (the tenant import, a service-role call) writes in its own name. A user's
	-- claims are judged whichever function the write passes through: a scheduled publish fires
	-- with its author's.
	if current_user not in ('anon', 'authenticated')
		and coalesce(auth.role(), '') not in ('anon', 'authenticated') then
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

/**
  ---------------------------------------------------------------------------
  Scheduled publishing: only what the author may do now, judged again when it fires
  ---------------------------------------------------------------------------
  A restore writes back every section of the configuration, so only the
  roles that may restore now (admins and super_admins, as 'Restore' in the
  panel) may schedule one; an editor schedules saves. When a scheduled
  change fires it is written with its author's claims: the role trigger and
  the rest judge the author as they are then. A restore also fails when a
  field it would take back was changed after it was scheduled
  (base_versions, the configuration's versions then), as a save does: it
  never silently overwrites a later change.
 */
drop policy if exists "Chamber staff can schedule changes of their chamber" on public.scheduled_publishes;
create policy "Chamber staff can schedule saves, and its admins restores, of their chamber" on public.scheduled_publishes
	for insert to authenticated
	with check (
		case kind
			when 'restore' then public.has_tenant_role(tenant_id, array['super_admin', 'admin'])
			else public.has_tenant_role(tenant_id)
		end
	);

alter table public.scheduled_publishes add column if not exists base_versions jsonb
	check (base_versions is null or jsonb_typeof(base_versions) = 'object');

comment on column public.scheduled_publishes.base_versions is 'The configuration''s versions ({section: version}, as config_versions) when it was scheduled: a restore fails when a field it would take back changed since. Set by the database.';

-- Scheduled before this column: the versions at the time they were scheduled.
update public.scheduled_publishes s
set base_versions = (
	select jsonb_object_agg(
		n.section,
		coalesce((
			select max(l.id) from public.audit_log l
			where l.tenant_id = s.tenant_id and l.section = n.section and l.at <= s.created_at
		), 0)
	)
	from unnest(public.config_section_names()) as n(section)
)
where s.base_versions is null;

create or replace function public.scheduled_publishes_check()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_role text;
begin
	new.state := 'scheduled';
	new.created_at := now();
	new.finished_at := null;
	new.canceled_by_email := null;
	new.error := null;
	new.publish_id := null;
	-- The versions this change was scheduled at (staff and the server side read them).
	new.base_versions := (
		select public.config_versions(c) from public.chamber_config c where c.tenant_id = new.tenant_id
	);
	if current_user not in ('anon', 'authenticated') then
		-- The server side (the import, tests) schedules in its own name.
		new.created_by := null;
		new.created_by_email := null;
		new.created_role := coalesce(new.created_role, 'super_admin');
		return new;
	end if;
	v_role := public.tenant_role(new.tenant_id);
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if new.run_at <= now() then
		raise exception 'A publish is scheduled for a time still to come' using errcode = '22023';
	end if;
	if new.run_at > now() + interval '1 year' then
		raise exception 'A publish is scheduled at most a year ahead' using errcode = '22023';
	end if;
	new.created_by := auth.uid();
	new.created_by_email := nullif(auth.jwt() ->> 'email', '');
	new.created_role := v_role;
	begin
		perform public.apply_scheduled_change(new.tenant_id, new.kind, new.changes, new.snapshot);
		raise exception 'scheduled change tried' using errcode = 'P0001';
	exception when raise_exception then
		if sqlerrm <> 'scheduled change tried' then
			raise;
		end if;
	end;
	return new;
end;
$$;

create or replace function public.scheduled_publishes_keep()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
	if (new.tenant_id, new.run_at, new.kind, new.changes, new.snapshot, new.created_by, new.created_role,
			new.base_versions)
		is distinct from
		(old.tenant_id, old.run_at, old.kind, old.changes, old.snapshot, old.created_by, old.created_role,
			old.base_versions) then
		raise exception 'A scheduled change is cancelled and scheduled again, not edited' using errcode = '42501';
	end if;
	return new;
end;
$$;

/**
  The fields a restore would take back from someone: each field of the
  configuration that changed after p_versions and holds something else now
  than the snapshot, with its value now and who changed it when, in the
  shape of config_conflicts (a section replaced whole is named by its
  section).
 */
create or replace function public.restore_conflicts(p_tenant_id uuid, p_snapshot jsonb, p_versions jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_current jsonb;
	v_conflicts jsonb := '[]'::jsonb;
	v_column text;
	v_section text;
	v_change record;
	v_field text;
	v_theirs jsonb;
begin
	select to_jsonb(c) into v_current from public.chamber_config c where c.tenant_id = p_tenant_id;
	if v_current is null then
		return v_conflicts;
	end if;
	-- The columns a restore writes (apply_scheduled_change).
	foreach v_column in array array[
		'name', 'city', 'state', 'founded_year', 'colors', 'logo', 'fonts', 'text_colors', 'contact',
		'social', 'urls', 'footer_labels', 'content', 'services', 'features', 'membership_levels',
		'featured_businesses', 'category_display', 'search_page', 'navigation'
	] loop
		continue when (p_snapshot -> v_column) is not distinct from (v_current -> v_column);
		v_section := public.config_section_name(v_column);
		for v_change in
			select distinct on (coalesce(l.field, '')) l.field, l.at, coalesce(l.actor_email, l.actor_role) as actor
			from public.audit_log l
			where l.tenant_id = p_tenant_id and l.section = v_section
				and l.id > coalesce((p_versions ->> v_section)::bigint, 0)
			order by coalesce(l.field, ''), l.id desc
		loop
			if v_section = 'identity' then
				continue when v_change.field is distinct from
					case v_column when 'founded_year' then 'foundedYear' else v_column end;
				v_field := v_change.field;
				v_theirs := v_current -> v_column;
			elsif v_change.field is null or jsonb_typeof(v_current -> v_column) is distinct from 'object' then
				v_field := v_section;
				v_theirs := v_current -> v_column;
			else
				continue when (p_snapshot -> v_column -> v_change.field)
					is not distinct from (v_current -> v_column -> v_change.field);
				v_field := v_section || '.' || v_change.field;
				v_theirs := v_current -> v_column -> v_change.field;
			end if;
			v_conflicts := v_conflicts || jsonb_build_array(jsonb_build_object(
				'field', v_field,
				'value', coalesce(v_theirs, 'null'::jsonb),
				'changedBy', v_change.actor,
				'changedAt', v_change.at
			));
		end loop;
	end loop;
	return v_conflicts;
end;
$$;

comment on function public.restore_conflicts is 'The fields a restore of p_snapshot would take back from someone who changed them after p_versions: [{field, value, changedBy, changedAt}].';

revoke all on function public.restore_conflicts(uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.restore_conflicts(uuid, jsonb, jsonb) to service_role;

create or replace function public.fire_scheduled_publishes(p_tenant_id uuid, p_now timestamptz default null)
returns setof public.scheduled_publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_now constant timestamptz := coalesce(p_now, now());
	v_row public.scheduled_publishes;
	v_saved jsonb;
	v_conflicts jsonb;
	v_role text;
	v_detail text;
	v_error text;
	v_state text;
begin
	for v_row in
		select * from public.scheduled_publishes s
		where s.tenant_id = p_tenant_id and s.state = 'scheduled' and s.run_at <= v_now
		order by s.run_at, s.id
		for update skip locked
	loop
		v_saved := null;
		begin
			if v_row.created_by is not null then
				-- Judged as its author, now: the rank here, the role trigger and the rest as it writes.
				v_saved := public.begin_acting_for(v_row.created_by, v_row.created_by_email);
				v_role := public.tenant_role(p_tenant_id);
				if public.admin_role_rank(v_role) < public.admin_role_rank(v_row.created_role) then
					raise exception '% no longer has the rights to publish this',
						coalesce(v_row.created_by_email, 'Its author')
						using errcode = '42501';
				end if;
			end if;
			if v_row.kind = 'restore' then
				v_conflicts := public.restore_conflicts(p_tenant_id, v_row.snapshot, v_row.base_versions);
				if jsonb_array_length(v_conflicts) > 0 then
					raise exception 'Someone else changed % after it was scheduled', (
						select string_agg(c ->> 'field', ', ') from jsonb_array_elements(v_conflicts) c
					)
						using errcode = 'PT409', detail = jsonb_build_object('conflicts', v_conflicts)::text;
				end if;
			end if;
			perform public.apply_scheduled_change(p_tenant_id, v_row.kind, v_row.changes, v_row.snapshot);
			v_state := 'published';
			v_error := null;
		exception when others then
			v_state := 'failed';
			if sqlstate = 'PT409' then
				get stacked diagnostics v_detail = pg_exception_detail;
				v_error := format(
					'Not published: %s changed %s after it was scheduled. Schedule it again to publish it over their change.',
					coalesce((
						select string_agg(distinct c ->> 'changedBy', ', ')
						from jsonb_array_elements(v_detail::jsonb -> 'conflicts') c
					), 'someone'),
					coalesce((
						select string_agg(c ->> 'field', ', ')
						from jsonb_array_elements(v_detail::jsonb -> 'conflicts') c
					), 'it')
				);
			else
				v_error := 'Not published: ' || sqlerrm;
			end if;
		end;
		if v_saved is not null then
			perform public.end_acting_for(v_saved);
		end if;
		update public.scheduled_publishes
		set state = v_state, finished_at = v_now, error = left(v_error, 1000)
		where id = v_row.id
		returning * into v_row;
		return next v_row;
	end loop;
end;
$$;

create or replace function public.cancel_scheduled_publish(p_id bigint)
returns setof public.scheduled_publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_row public.scheduled_publishes;
begin
	select * into v_row from public.scheduled_publishes where id = p_id for update;
	if not found or not public.has_tenant_role(v_row.tenant_id) then
		raise exception 'No such scheduled publish' using errcode = 'PT404';
	end if;
	if v_row.created_by is distinct from auth.uid()
		and not public.has_tenant_role(v_row.tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only its author or an admin can cancel it' using errcode = '42501';
	end if;
	if v_row.state <> 'scheduled' then
		raise exception 'It is % already', v_row.state using errcode = '22023';
	end if;
	update public.scheduled_publishes
	set state = 'canceled',
		finished_at = now(),
		canceled_by_email = (select u.email from auth.users u where u.id = auth.uid())
	where id = p_id
	returning * into v_row;
	return next v_row;
end;
$$;

/**
  ---------------------------------------------------------------------------
  Member imports: the chamber's own folder, and done as the person who asked
  ---------------------------------------------------------------------------
  An import names its file in the imports bucket; the background function
  reads it with the service role. A path is accepted only as
  {tenant id}/{name}, the name of letters, digits, dots, dashes and
  underscores only and not starting with a dot (no folder, no '..'): the
  function that records an import, the table and the bucket's upload policy
  hold every path to it, so no path reaches another chamber's folder.

  The background steps (reading the file, applying the dry run) run in the
  name of whoever asked for them: a step whose person may no longer import
  the chamber's members (an admin who became an editor, or left) is not
  done, and the import says why. The scheduled sync asks as the server side.
 */
create or replace function public.member_import_path_ok(p_tenant_id uuid, p_path text)
returns boolean
language sql
immutable
set search_path = ''
as $$
	select p_path ~ ('^' || p_tenant_id::text || '/[A-Za-z0-9][A-Za-z0-9._-]{0,199}$');
$$;

comment on function public.member_import_path_ok is 'Whether an imports-bucket path is a file directly in the chamber''s folder: {tenant id}/{name}, the name [A-Za-z0-9][A-Za-z0-9._-]{0,199}.';

revoke all on function public.member_import_path_ok(uuid, text) from public, anon, authenticated;
grant execute on function public.member_import_path_ok(uuid, text) to service_role;

-- Recorded before this rule: a path outside it is forgotten, and an import not yet applied fails.
update public.member_imports
set storage_path = null,
	state = case when state in ('queued', 'reading', 'needs_mapping', 'validating', 'previewed', 'apply_requested')
		then 'failed' else state end,
	error = case when state in ('queued', 'reading', 'needs_mapping', 'validating', 'previewed', 'apply_requested')
		then 'The file was not in the chamber''s folder of the imports bucket: nothing was applied. Please upload it again.'
		else error end,
	updated_at = now()
where storage_path is not null and not public.member_import_path_ok(tenant_id, storage_path);

alter table public.member_imports drop constraint if exists member_imports_storage_path_in_folder;
alter table public.member_imports add constraint member_imports_storage_path_in_folder
	check (storage_path is null or public.member_import_path_ok(tenant_id, storage_path));

alter table public.member_imports add column if not exists applied_by uuid;

comment on column public.member_imports.applied_by is 'Who asked to apply the dry run (the identity-service user); the apply is done only while they may still import.';
comment on column public.member_imports.requested_by is 'Who started the import (null: the scheduled sync); it is read only while they may still import.';

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
			and public.member_import_path_ok(t.id, p_name)
			and public.has_tenant_role(t.id, array['super_admin', 'admin'])
	);
$$;

/**
  Why the person who asked for an import's next step may no longer have it
  done, or null. The next step of a queued import is reading it (asked by
  whoever started it), of an apply request applying it (asked by whoever
  asked to apply); the scheduled sync asks as the server side. Judged as that
  person now (begin_acting_for, may_import_members).
 */
create or replace function public.member_import_refusal(p_import public.member_imports)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
	v_applying constant boolean := p_import.state in ('apply_requested', 'applying');
	v_user uuid := case when v_applying then coalesce(p_import.applied_by, p_import.requested_by)
		else p_import.requested_by end;
	v_email text := case when v_applying and p_import.applied_by is not null then p_import.applied_by_email
		else p_import.requested_by_email end;
	v_saved jsonb;
	v_may boolean;
begin
	if v_user is null then
		return null;
	end if;
	v_saved := public.begin_acting_for(v_user, v_email);
	v_may := public.may_import_members(p_import.tenant_id);
	perform public.end_acting_for(v_saved);
	if v_may then
		return null;
	end if;
	return format(
		'%s may no longer import members of this chamber: nothing was %s.',
		coalesce(v_email, 'The person who asked for it'),
		case when v_applying then 'applied' else 'read' end
	);
end;
$$;

comment on function public.member_import_refusal is 'Why an import''s next step (read, or apply) is no longer done for the person who asked for it, judged as them now; null when it may go on.';

revoke all on function public.member_import_refusal(public.member_imports) from public, anon, authenticated;
grant execute on function public.member_import_refusal(public.member_imports) to service_role;

/** Takes a queued import (to read) or an apply request (to apply); nothing when another took it, or when the person who asked may no longer have it done (it fails, saying why). */
create or replace function public.claim_member_import(p_import_id uuid)
returns setof public.member_imports
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_refusal text;
begin
	select * into v_import from public.member_imports
	where id = p_import_id and state in ('queued', 'apply_requested')
	for update;
	if not found then
		return;
	end if;
	v_refusal := public.member_import_refusal(v_import);
	if v_refusal is not null then
		update public.member_imports
		set state = 'failed', error = v_refusal, updated_at = now()
		where id = p_import_id;
		return;
	end if;
	return query
		update public.member_imports
		set state = case state when 'queued' then 'reading' else 'applying' end, updated_at = now()
		where id = p_import_id
		returning *;
end;
$$;

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
	if p_kind = 'file' and not coalesce(public.member_import_path_ok(p_tenant_id, p_storage_path), false) then
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
			using errcode = 'PT409';
	end;
	return v_id;
end;
$$;

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
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if p_missing is null or p_missing not in ('keep', 'unpublish') then
		raise exception 'Choose keep or unpublish for members missing from the file' using errcode = '22023';
	end if;
	if v_import.state <> 'previewed' then
		raise exception 'This import has no preview to apply' using errcode = 'PT409';
	end if;
	if coalesce((v_import.counts ->> 'invalid')::integer, 0) > 0 then
		raise exception 'The file has invalid rows: correct them and import it again' using errcode = '22023';
	end if;
	begin
		update public.member_imports
		set state = 'apply_requested', missing_action = p_missing, updated_at = now(),
			applied_by = auth.uid(), applied_by_email = coalesce(auth.jwt() ->> 'email', auth.role())
		where id = p_import_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = 'PT409';
	end;
end;
$$;

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
		raise exception 'This import is not being applied' using errcode = 'PT409';
	end if;
	-- claim_member_import checked the person who asked; a change of role since is refused too.
	v_stale := public.member_import_refusal(v_import);
	if v_stale is not null then
		raise exception '%', v_stale using errcode = '42501';
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

/**
  ---------------------------------------------------------------------------
  Refusals answer 403, 404 or 409 through the Data API
  ---------------------------------------------------------------------------
  PostgREST answers a function's SQLSTATE with an HTTP status: 42501 is 403,
  22023 and most others 400, but P0002 (no data) and 55000 (not in the right
  state) are 500, which reads as a fault of the server. The functions staff
  and members call therefore refuse an unknown or another chamber's row with
  PT404 (answered 404) and a state that does not allow the call with PT409
  (answered 409). The functions' own callers map them the same way
  (src/features/members/refusal.server.ts).
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
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	if v_row.removed_at is not null then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
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
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'false', 'true', p_business_id);
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

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
		raise exception 'No removed business to restore (a removal is kept for 30 days)' using errcode = 'PT404';
	end if;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'removed', 'true', 'false', p_business_id);
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

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
		raise exception 'This field follows the membership system already' using errcode = 'PT404';
	end if;
	if exists (select 1 from public.profiles where id = p_business_id and removed_at is not null) then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
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
		raise exception 'No such business in this chamber' using errcode = 'PT404';
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
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if v_import.state <> 'needs_mapping' then
		raise exception 'This import is not waiting for its columns to be mapped' using errcode = 'PT409';
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
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if v_import.state not in ('needs_mapping', 'previewed', 'failed') then
		raise exception 'Only a preview, a mapping or a failed import can be discarded' using errcode = 'PT409';
	end if;
	update public.member_imports set state = 'discarded', updated_at = now() where id = p_import_id;
end;
$$;

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
		raise exception 'No such import' using errcode = 'PT404';
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
		raise exception 'No such request in this chamber' using errcode = 'PT404';
	end if;
	if not public.may_decide_member_requests(v_submission.tenant_id) then
		raise exception 'Your role does not decide members'' requests' using errcode = '42501';
	end if;
	if v_submission.status <> 'pending' then
		raise exception 'This request was % already', v_submission.status using errcode = 'PT409';
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
		raise exception 'No such request in this chamber' using errcode = 'PT404';
	end if;
	if not public.may_decide_member_requests(v_submission.tenant_id) then
		raise exception 'Your role does not decide members'' requests' using errcode = '42501';
	end if;
	if v_submission.status <> 'pending' then
		raise exception 'This request was % already', v_submission.status using errcode = 'PT409';
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

