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
  inside the member functions of this file, which set the transaction-local
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
			'["listings", "web_content", "work_phone", "website", "social_media", "logo_url", "categories"]'::jsonb
		),
		'liveFields', coalesce(
			case when jsonb_typeof(c.features -> 'memberLiveFields') = 'array' then c.features -> 'memberLiveFields' end,
			'[]'::jsonb
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

drop policy if exists "Members can read their own bindings" on public.business_members;
create policy "Members can read their own bindings" on public.business_members
	for select to authenticated
	using (user_id = auth.uid());

drop policy if exists "Chamber admins can read their chamber's members" on public.business_members;
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
  The member inside save_business
  ---------------------------------------------------------------------------
  tenant_role and may_change_business_field, redefined: staff as before; a
  member, or an editor approving a member's request, only for the fields the
  member functions below name for their own transaction.
 */

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

revoke all on function public.member_change_fields() from public, anon, authenticated;
grant execute on function public.member_change_fields() to service_role;

create or replace function public.tenant_role(check_tenant_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		(
			select au.role
			from public.admin_users au
			where au.user_id = auth.uid()
				and check_tenant_id is not null
				and (au.tenant_id = check_tenant_id or au.role = 'super_admin')
		),
		-- A member, only while a member function of this chamber runs (it checked the binding).
		(
			select 'member'
			where check_tenant_id is not null
				and current_setting('chamber.acting_member', true) = check_tenant_id::text
				and auth.uid() is not null
		)
	);
$$;

comment on function public.tenant_role is 'The signed-in user''s staff role for a chamber (super_admin for every chamber if they are one), or null; member only inside the member functions.';

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

drop policy if exists "Members can read their business's requests" on public.member_submissions;
create policy "Members can read their business's requests" on public.member_submissions
	for select to authenticated
	using (public.is_business_member(profile_id));

drop policy if exists "Chamber staff can read their chamber's requests" on public.member_submissions;
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
