/**
  ---------------------------------------------------------------------------
  Publishing: a save goes live, and the panel says when
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
  what changed between them and can restore one.
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

revoke all on table public.publishes from anon, authenticated;
grant select on table public.publishes to authenticated;
grant all on table public.publishes to service_role;

drop policy if exists "Chamber staff can read their chamber's publishes" on public.publishes;
create policy "Chamber staff can read their chamber's publishes" on public.publishes
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

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

revoke all on function public.expire_publishes(uuid, timestamptz) from public, anon;
grant execute on function public.expire_publishes(uuid, timestamptz) to authenticated, service_role;

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

revoke all on function public.request_publish(uuid, text) from public, anon;
grant execute on function public.request_publish(uuid, text) to authenticated, service_role;

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

revoke all on function public.mark_publish_dispatched(bigint) from public, anon, authenticated;
revoke all on function public.start_publish(bigint, text) from public, anon, authenticated;
revoke all on function public.finish_publish(bigint, text, text, text) from public, anon, authenticated;
grant execute on function public.mark_publish_dispatched(bigint) to service_role;
grant execute on function public.start_publish(bigint, text) to service_role;
grant execute on function public.finish_publish(bigint, text, text, text) to service_role;
