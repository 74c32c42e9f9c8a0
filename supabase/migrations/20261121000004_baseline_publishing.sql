/**
  ---------------------------------------------------------------------------
  Baseline: publishing
  ---------------------------------------------------------------------------
  A chamber's pages are pre-rendered, so a configuration change shows on the
  public site only after a build. Every accepted change requests a publish;
  one row of `publishes` follows each build through

      queued -> building -> live
                         -> failed

  Coalescing lives here, where it holds across function instances: a tenant
  has at most one queued publish (saves made while it waits join it) and at
  most one building (saves made during a build queue exactly one more). So a
  burst of saves costs at most two builds.

  Writes go through the security-definer functions below only. Staff request
  publishes (request_publish, with their own token: the requester comes from
  the token, never from a request body); the build runner and Netlify's deploy
  notifications move a publish along with the service role (start_publish,
  finish_publish). A publish that reports nothing for 15 minutes is failed by
  expire_publishes, so the panel never shows a spinner that cannot end.

  A publish that went live keeps the configuration it built (config_snapshot),
  for the 20 newest live publishes of a chamber: the panel's history shows
  what changed between them and can restore one. A change may also be
  scheduled to go live later (scheduled_publishes, below).
 */
create table if not exists public.publishes (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	state text not null default 'queued' check (state in ('queued', 'building', 'live', 'failed')),
	reason text not null default '' check (length(reason) <= 200),
	requested_by uuid,
	requested_by_email text,
	requested_at timestamptz not null default now(),
	requests integer not null default 1 check (requests >= 1),
	last_requested_at timestamptz not null default now(),
	dispatched_at timestamptz,
	started_at timestamptz,
	finished_at timestamptz,
	last_report_at timestamptz not null default now(),
	error text check (length(error) <= 1000),
	deploy_id text check (length(deploy_id) <= 100),
	config_version integer,
	config_snapshot jsonb
);

comment on table public.publishes is 'One row per build of a chamber''s site: who asked, when, and how far it got (queued, building, live, failed). Written only by the publishing functions.';
comment on column public.publishes.reason is 'What caused it (e.g. "Content saved"); part of the build''s title on Netlify.';
comment on column public.publishes.requested_by is 'The user whose token requested it (auth.uid()), null for the server side.';
comment on column public.publishes.requested_by_email is 'That user''s e-mail, from auth.users, never from a request.';
comment on column public.publishes.requests is 'How many requests (saves) this build carries: saves made while it was queued joined it.';
comment on column public.publishes.dispatched_at is 'When the build service (Netlify''s build hook, or the local server''s) accepted the request.';
comment on column public.publishes.last_report_at is 'Last sign of life (request, dispatch, state change); 15 minutes without one fails the publish.';
comment on column public.publishes.deploy_id is 'Netlify''s deploy id (from its deploy notifications), or the local build''s id.';
comment on column public.publishes.config_version is 'The chamber''s config cache version when the build started.';
comment on column public.publishes.config_snapshot is 'The chamber_config row (without tenant_id and updated_at) the build started with; kept for the 20 newest live publishes.';

create index if not exists publishes_tenant_id_idx on public.publishes (tenant_id, id desc);
-- The coalescing rules, enforced even under concurrent requests.
create unique index if not exists publishes_one_queued_per_tenant on public.publishes (tenant_id)
	where state = 'queued';
create unique index if not exists publishes_one_building_per_tenant on public.publishes (tenant_id)
	where state = 'building';

alter table public.publishes enable row level security;

create policy "Chamber staff can read their chamber's publishes" on public.publishes
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.publishes to authenticated;
grant all on table public.publishes to service_role;

/**
  ---------------------------------------------------------------------------
  expire_publishes: nothing heard for 15 minutes means failed
  ---------------------------------------------------------------------------
  A build that is building, or a publish queued with no build ahead of it,
  fails once its last sign of life is 15 minutes old. p_now is the clock: the
  service role may pass one (tests inject it); anyone else gets now().
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
		error = 'The build never started (nothing heard for 15 minutes).'
	where tenant_id = p_tenant_id
		and state = 'queued'
		and last_report_at < v_now - interval '15 minutes'
		and not exists (
			select 1 from public.publishes b where b.tenant_id = p_tenant_id and b.state = 'building'
		);
	get diagnostics v_n = row_count;
	v_count := v_count + v_n;

	update public.publishes
	set state = 'failed',
		finished_at = v_now,
		error = 'The build reported nothing for 15 minutes.',
		config_snapshot = null
	where tenant_id = p_tenant_id
		and state = 'building'
		and last_report_at < v_now - interval '15 minutes';
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

comment on function public.expire_publishes is 'Fails a chamber''s publishes that reported nothing for 15 minutes; returns how many. p_now (service role only) injects the clock.';

/**
  ---------------------------------------------------------------------------
  request_publish: a save asks for a build (coalesced)
  ---------------------------------------------------------------------------
  Joins the chamber's queued publish if there is one (created = false: its
  build was requested already), else queues a new one (created = true: the
  caller asks the build service for it). Chamber staff with their own token,
  or the service role.
 */
create or replace function public.request_publish(p_tenant_id uuid, p_reason text default '')
returns table (
	publish_id bigint,
	created boolean,
	tenant_slug text,
	tenant_name text,
	requested_by_email text
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_uid uuid := auth.uid();
	v_email text;
	v_id bigint;
	v_reason text := left(coalesce(trim(p_reason), ''), 200);
begin
	if not (
		coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
		or public.has_tenant_role(p_tenant_id)
	) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if not exists (select 1 from public.tenants t where t.id = p_tenant_id) then
		raise exception 'Unknown chamber' using errcode = '22023';
	end if;
	perform public.expire_publishes(p_tenant_id);
	select u.email into v_email from auth.users u where u.id = v_uid;

	loop
		update public.publishes p
		set requests = p.requests + 1, last_requested_at = now()
		where p.tenant_id = p_tenant_id and p.state = 'queued'
		returning p.id into v_id;
		if found then
			created := false;
			exit;
		end if;
		begin
			insert into public.publishes (tenant_id, reason, requested_by, requested_by_email)
			values (p_tenant_id, v_reason, v_uid, v_email)
			returning id into v_id;
			created := true;
			exit;
		exception when unique_violation then
			-- Another request queued one a moment ago: join it.
			null;
		end;
	end loop;

	publish_id := v_id;
	select t.slug, t.name into tenant_slug, tenant_name from public.tenants t where t.id = p_tenant_id;
	requested_by_email := v_email;
	return next;
end;
$$;

comment on function public.request_publish is 'Queues a build of the chamber''s site, or joins the one already queued; the requester comes from the token.';

/**
  ---------------------------------------------------------------------------
  The build's reports (service role: the build runner, deploy notifications)
  ---------------------------------------------------------------------------
 */

/** The build service accepted the request (Netlify's build hook answered). */
create or replace function public.mark_publish_dispatched(p_publish_id bigint)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	update public.publishes
	set dispatched_at = now(), last_report_at = now()
	where id = p_publish_id and state = 'queued';
$$;

comment on function public.mark_publish_dispatched is 'Records that the build service accepted a queued publish''s build request.';

/**
  A build started: the queued publish becomes building and keeps the
  configuration it builds. A notification for a publish already past
  queued changes nothing (notifications may repeat or come late). A build
  still marked building for the chamber never reported its end: a newer one
  has started, so it is failed.
 */
create or replace function public.start_publish(p_publish_id bigint, p_deploy_id text default null)
returns setof public.publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_row public.publishes;
begin
	select * into v_row from public.publishes where id = p_publish_id for update;
	if not found then
		return;
	end if;
	if v_row.state <> 'queued' then
		return next v_row;
		return;
	end if;
	update public.publishes
	set state = 'failed',
		finished_at = now(),
		error = 'This build never reported its end; a newer build has started.',
		config_snapshot = null
	where tenant_id = v_row.tenant_id and state = 'building';

	update public.publishes p
	set state = 'building',
		started_at = now(),
		last_report_at = now(),
		deploy_id = coalesce(left(p_deploy_id, 100), p.deploy_id),
		config_snapshot = (
			select to_jsonb(c) - array['tenant_id', 'updated_at']
			from public.chamber_config c where c.tenant_id = p.tenant_id
		),
		config_version = (
			select v.version from public.cache_versions v
			where v.tenant_id = p.tenant_id and v.type = 'config'
		)
	where p.id = p_publish_id
	returning p.* into v_row;
	return next v_row;
end;
$$;

comment on function public.start_publish is 'A queued publish''s build started: it becomes building and snapshots the configuration.';

/**
  A build ended: live or failed. Repeated or late notifications change
  nothing. A live publish keeps its snapshot; only the chamber's 20 newest
  live snapshots are kept. Whatever was queued behind it is first in line
  from now on (its 15 minutes start now).
 */
create or replace function public.finish_publish(
	p_publish_id bigint,
	p_state text,
	p_error text default null,
	p_deploy_id text default null
)
returns setof public.publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_row public.publishes;
begin
	if p_state is null or p_state not in ('live', 'failed') then
		raise exception 'A publish ends live or failed, not %', p_state using errcode = '22023';
	end if;
	select * into v_row from public.publishes where id = p_publish_id for update;
	if not found then
		return;
	end if;
	if v_row.state not in ('queued', 'building') then
		return next v_row;
		return;
	end if;

	update public.publishes p
	set state = p_state,
		finished_at = now(),
		last_report_at = now(),
		started_at = coalesce(p.started_at, now()),
		deploy_id = coalesce(left(p_deploy_id, 100), p.deploy_id),
		error = case when p_state = 'failed'
			then left(coalesce(nullif(trim(p_error), ''), 'The build failed.'), 1000)
			end,
		config_snapshot = case when p_state = 'live' then p.config_snapshot end
	where p.id = p_publish_id
	returning p.* into v_row;

	if p_state = 'live' then
		update public.publishes
		set config_snapshot = null
		where tenant_id = v_row.tenant_id
			and state = 'live'
			and config_snapshot is not null
			and id not in (
				select k.id from public.publishes k
				where k.tenant_id = v_row.tenant_id and k.state = 'live' and k.config_snapshot is not null
				order by k.finished_at desc, k.id desc
				limit 20
			);
	end if;

	update public.publishes
	set last_report_at = now()
	where tenant_id = v_row.tenant_id and state = 'queued';

	return next v_row;
end;
$$;

comment on function public.finish_publish is 'A publish''s build ended (live or failed); keeps the 20 newest live configuration snapshots.';

/**
  ---------------------------------------------------------------------------
  Scheduled publishing: a change that goes live at a chosen time
  ---------------------------------------------------------------------------
  'Publish at…' on a save or a restore stores the change instead of writing
  it, and the scheduled function (every 5 minutes) writes what is due and
  publishes it. The header and History list what is scheduled, by whom, with
  Cancel.

  A scheduled change is checked when it is scheduled exactly as a save made
  then would be: the insert trigger applies it as the inserting user (row-level
  security, the role trigger, the value rules, the version check of
  update_chamber_config) and undoes it. Whatever path the row comes in by
  (the function, a direct insert with a staff token), a change that user may
  not make cannot be scheduled. When it fires, it is applied again in the
  name of its author (the audit log says who) if their role for the chamber
  is still at least the one they scheduled it with; a field someone changed
  since fails it, as a save would be refused (never a silent overwrite).
  Staff enter the time in the chamber's time zone (contact.timeZone).
 */
create table if not exists public.scheduled_publishes (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	run_at timestamptz not null,
	kind text not null check (kind in ('save', 'restore')),
	changes jsonb not null default '[]'::jsonb
		check (jsonb_typeof(changes) = 'array' and jsonb_array_length(changes) <= 200),
	snapshot jsonb check (snapshot is null or jsonb_typeof(snapshot) = 'object'),
	restore_of bigint,
	summary text not null default '' check (length(summary) <= 300),
	state text not null default 'scheduled'
		check (state in ('scheduled', 'published', 'canceled', 'failed')),
	created_by uuid,
	created_by_email text,
	created_role text check (created_role in ('super_admin', 'admin', 'editor')),
	created_at timestamptz not null default now(),
	finished_at timestamptz,
	canceled_by_email text,
	error text check (length(error) <= 1000),
	publish_id bigint references public.publishes (id) on delete set null,
	constraint scheduled_publishes_kind_shape check (
		(kind = 'save' and snapshot is null and jsonb_array_length(changes) >= 1)
		or (kind = 'restore' and snapshot is not null)
	)
);

comment on table public.scheduled_publishes is 'Changes staff scheduled to go live at a time (''Publish at…''): stored, checked as their author, written and published by the scheduled function when due.';
comment on column public.scheduled_publishes.run_at is 'When it goes live (the scheduled function runs every 5 minutes; times are on a 5-minute mark).';
comment on column public.scheduled_publishes.changes is 'For a save: the writes, each {column, field, value, version, path} as update_chamber_config takes them.';
comment on column public.scheduled_publishes.snapshot is 'For a restore: the configuration row to write back (without slug), copied when it was scheduled.';
comment on column public.scheduled_publishes.restore_of is 'For a restore: the publish whose configuration it restores.';
comment on column public.scheduled_publishes.summary is 'What it changes, for people (the header, History, the build''s title).';
comment on column public.scheduled_publishes.created_role is 'The author''s role for the chamber when they scheduled it; it fires only while they still hold at least that.';
comment on column public.scheduled_publishes.error is 'Why it did not go live (failed).';
comment on column public.scheduled_publishes.publish_id is 'The publish (build) that took it live.';

create index if not exists scheduled_publishes_due_idx on public.scheduled_publishes (tenant_id, run_at)
	where state = 'scheduled';
create index if not exists scheduled_publishes_tenant_id_idx on public.scheduled_publishes (tenant_id, id desc);

alter table public.scheduled_publishes enable row level security;

create policy "Chamber staff can read their chamber's scheduled publishes" on public.scheduled_publishes
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

create policy "Chamber staff can schedule changes of their chamber" on public.scheduled_publishes
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id));

grant select on table public.scheduled_publishes to authenticated;
-- Who, when and the outcome are the database's to fill in; a client states only the change.
grant insert (tenant_id, run_at, kind, changes, snapshot, restore_of, summary)
	on table public.scheduled_publishes to authenticated;
grant all on table public.scheduled_publishes to service_role;

/**
  apply_scheduled_change: the writes of a scheduled change. With the caller's
  rights (security invoker): as a staff member when the insert trigger tries
  it, as the owner when the scheduled function fires it.
 */
create or replace function public.apply_scheduled_change(
	p_tenant_id uuid,
	p_kind text,
	p_changes jsonb,
	p_snapshot jsonb
) returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_change jsonb;
begin
	if p_kind = 'save' then
		for v_change in select value from jsonb_array_elements(p_changes) loop
			if jsonb_typeof(v_change) <> 'object' or jsonb_typeof(v_change -> 'version') <> 'number' then
				raise exception 'A scheduled change names its column, value and version' using errcode = '22023';
			end if;
			perform public.update_chamber_config(
				p_tenant_id,
				v_change ->> 'column',
				v_change ->> 'field',
				coalesce(v_change -> 'value', 'null'::jsonb),
				(v_change ->> 'version')::bigint
			);
		end loop;
	elsif p_kind = 'restore' then
		update public.chamber_config c
		set name = r.name,
			city = r.city,
			state = r.state,
			founded_year = r.founded_year,
			colors = r.colors,
			logo = r.logo,
			fonts = r.fonts,
			text_colors = r.text_colors,
			contact = r.contact,
			social = r.social,
			urls = r.urls,
			footer_labels = r.footer_labels,
			content = r.content,
			services = r.services,
			features = r.features,
			membership_levels = r.membership_levels,
			featured_businesses = r.featured_businesses,
			category_display = r.category_display,
			search_page = r.search_page,
			navigation = r.navigation
		from jsonb_populate_record(null::public.chamber_config, p_snapshot) r
		where c.tenant_id = p_tenant_id;
		if not found then
			raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
		end if;
	else
		raise exception 'A scheduled change is a save or a restore, not %', p_kind using errcode = '22023';
	end if;
end;
$$;

comment on function public.apply_scheduled_change is 'Writes a scheduled change (a save''s writes through update_chamber_config, or a restore''s whole configuration) with the caller''s rights.';

/**
  The insert trigger: fills in who and when from the token, never from the
  request, and tries the change as the inserting user, then undoes it.
  Security invoker, so the try is judged as that user.
 */
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

comment on function public.scheduled_publishes_check is 'Trigger: a scheduled change gets its author from the token and is tried as that user (then undone), so only changes they may make now are scheduled.';

create trigger scheduled_publishes_check before insert on public.scheduled_publishes
	for each row execute function public.scheduled_publishes_check();

-- Nothing but the functions below changes a scheduled publish once it is stored.
create or replace function public.scheduled_publishes_keep()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
	if (new.tenant_id, new.run_at, new.kind, new.changes, new.snapshot, new.created_by, new.created_role)
		is distinct from
		(old.tenant_id, old.run_at, old.kind, old.changes, old.snapshot, old.created_by, old.created_role) then
		raise exception 'A scheduled change is cancelled and scheduled again, not edited' using errcode = '42501';
	end if;
	return new;
end;
$$;

comment on function public.scheduled_publishes_keep is 'Trigger: what a scheduled publish changes, when and by whom never changes after it was checked.';

create trigger scheduled_publishes_keep before update on public.scheduled_publishes
	for each row execute function public.scheduled_publishes_keep();

/** Cancel, in the header and History: its author, or an admin (super_admin) of the chamber; only while it waits. */
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
		raise exception 'No such scheduled publish' using errcode = '22023';
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

comment on function public.cancel_scheduled_publish is 'Cancels a scheduled publish that has not gone live: its author, or an admin of the chamber.';

/**
  What is due goes live (the scheduled function, with the service role).
  Each due change is applied in the name of its author (the request's claims
  are theirs while it is written, so the audit log and the version check see
  them), in a transaction of its own: one that fails is marked failed with
  the reason and the others still go. p_now is the clock (tests inject it);
  rows taken by a concurrent run are skipped.
 */
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
	v_claims text := current_setting('request.jwt.claims', true);
	v_claim_sub text := current_setting('request.jwt.claim.sub', true);
	v_claim_role text := current_setting('request.jwt.claim.role', true);
	v_claim_email text := current_setting('request.jwt.claim.email', true);
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
		begin
			if v_row.created_by is not null then
				perform set_config('request.jwt.claims', jsonb_build_object(
					'sub', v_row.created_by, 'role', 'authenticated', 'email', v_row.created_by_email
				)::text, true);
				perform set_config('request.jwt.claim.sub', '', true);
				perform set_config('request.jwt.claim.role', '', true);
				perform set_config('request.jwt.claim.email', '', true);
				v_role := public.tenant_role(p_tenant_id);
				if public.admin_role_rank(v_role) < public.admin_role_rank(v_row.created_role) then
					raise exception '% no longer has the rights to publish this',
						coalesce(v_row.created_by_email, 'Its author')
						using errcode = '42501';
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
		perform set_config('request.jwt.claims', coalesce(v_claims, ''), true);
		perform set_config('request.jwt.claim.sub', coalesce(v_claim_sub, ''), true);
		perform set_config('request.jwt.claim.role', coalesce(v_claim_role, ''), true);
		perform set_config('request.jwt.claim.email', coalesce(v_claim_email, ''), true);
		update public.scheduled_publishes
		set state = v_state, finished_at = v_now, error = left(v_error, 1000)
		where id = v_row.id
		returning * into v_row;
		return next v_row;
	end loop;
end;
$$;

comment on function public.fire_scheduled_publishes is 'Applies a chamber''s scheduled changes that are due (in their authors'' names) and answers them, published or failed. Service role; p_now injects the clock.';

/** The scheduled function records the publish that takes them live. */
create or replace function public.link_scheduled_publishes(p_ids bigint[], p_publish_id bigint)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	update public.scheduled_publishes set publish_id = p_publish_id where id = any (p_ids);
$$;

comment on function public.link_scheduled_publishes is 'Records the publish that took scheduled changes live.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Staff (authenticated) request and expire publishes and cancel scheduled
  ones; the insert trigger tries a scheduled change as the inserting user,
  so they run apply_scheduled_change too. The build's reports and the
  scheduled function's calls are the service role's.
 */
revoke all on function public.expire_publishes(uuid, timestamptz) from public, anon;
revoke all on function public.request_publish(uuid, text) from public, anon;
revoke all on function public.apply_scheduled_change(uuid, text, jsonb, jsonb) from public, anon;
revoke all on function public.cancel_scheduled_publish(bigint) from public, anon;
grant execute on function public.expire_publishes(uuid, timestamptz) to authenticated, service_role;
grant execute on function public.request_publish(uuid, text) to authenticated, service_role;
grant execute on function public.apply_scheduled_change(uuid, text, jsonb, jsonb) to authenticated, service_role;
grant execute on function public.cancel_scheduled_publish(bigint) to authenticated, service_role;

revoke all on function public.mark_publish_dispatched(bigint) from public, anon, authenticated;
revoke all on function public.start_publish(bigint, text) from public, anon, authenticated;
revoke all on function public.finish_publish(bigint, text, text, text) from public, anon, authenticated;
revoke all on function public.scheduled_publishes_check() from public, anon, authenticated;
revoke all on function public.scheduled_publishes_keep() from public, anon, authenticated;
revoke all on function public.fire_scheduled_publishes(uuid, timestamptz) from public, anon, authenticated;
revoke all on function public.link_scheduled_publishes(bigint[], bigint) from public, anon, authenticated;
grant execute on function public.mark_publish_dispatched(bigint) to service_role;
grant execute on function public.start_publish(bigint, text) to service_role;
grant execute on function public.finish_publish(bigint, text, text, text) to service_role;
grant execute on function public.scheduled_publishes_check() to service_role;
grant execute on function public.scheduled_publishes_keep() to service_role;
grant execute on function public.fire_scheduled_publishes(uuid, timestamptz) to service_role;
grant execute on function public.link_scheduled_publishes(bigint[], bigint) to service_role;
