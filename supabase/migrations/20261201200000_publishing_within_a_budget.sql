/**
  ---------------------------------------------------------------------------
  Publishing within a budget
  ---------------------------------------------------------------------------
  Every publish is a production deploy, and on Netlify's credit-based plans
  each costs 15 credits; when a team's credits run out its sites are paused.
  So who changed what decides when a change is published:

  - Staff publish at once (request_publish), coalesced as before, and every
    change waiting for a publish goes with them.
  - Members' own saves, the membership system's sync and imports wait
    (collect_publish, one row of waiting_changes each) and are published
    together, at most once per window (the chamber's features.publishWindow,
    default one hour; marks counted from midnight on the chamber's clock).
    A window's publish starts ten minutes before its mark, so the change is
    live by the mark; the scheduled function asks every 5 minutes
    (fire_publish_window). A scheduled publish due before the mark takes the
    window's changes with it.
  - Each chamber has a monthly budget of publishes (publish_budgets, set by
    the deployment from PUBLISH_MONTHLY_BUDGET; 40 without one). A publish
    counts from its request, in the month of the chamber's clock, unless it
    failed (a cancelled build deploys nothing). At 80 % the admins are told
    once (publish_months, the e-mail claimed by claim_publish_budget_warning);
    at the budget, waiting changes go out once a day (at midnight on the
    chamber's clock) or with the next staff publish, and a staff publish must
    confirm the cost (request_publish refuses with PT402 otherwise). The daily
    publishes past the budget stop at a reserve of a quarter of it (50 for
    40): the product's own publishing never goes past budget + reserve, so it
    cannot use up a plan's credits; beyond, changes wait for a publish staff
    confirm.

  Everything that depends on time takes p_now, honoured for the service role
  only (tests and the month's benchmark inject the clock); anyone else gets
  now().
 */

/**
  ---------------------------------------------------------------------------
  The chamber's clock and window
  ---------------------------------------------------------------------------
 */

/**
  The chamber's time zone, as the site computes it (chamberTimeZone in
  src/features/config/time-zone.ts): the one its contact settings name, else
  the usual one of its contact address's state, then of its own state, else
  Eastern time. tests/db/publish-budget.test.ts keeps the two maps equal.
 */
create or replace function public.chamber_time_zone(p_tenant_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	with zones (state, zone) as (
		values
			('AL', 'America/Chicago'), ('AK', 'America/Anchorage'), ('AZ', 'America/Phoenix'),
			('AR', 'America/Chicago'), ('CA', 'America/Los_Angeles'), ('CO', 'America/Denver'),
			('CT', 'America/New_York'), ('DE', 'America/New_York'), ('DC', 'America/New_York'),
			('FL', 'America/New_York'), ('GA', 'America/New_York'), ('HI', 'Pacific/Honolulu'),
			('ID', 'America/Boise'), ('IL', 'America/Chicago'),
			('IN', 'America/Indiana/Indianapolis'), ('IA', 'America/Chicago'),
			('KS', 'America/Chicago'), ('KY', 'America/New_York'), ('LA', 'America/Chicago'),
			('ME', 'America/New_York'), ('MD', 'America/New_York'), ('MA', 'America/New_York'),
			('MI', 'America/Detroit'), ('MN', 'America/Chicago'), ('MS', 'America/Chicago'),
			('MO', 'America/Chicago'), ('MT', 'America/Denver'), ('NE', 'America/Chicago'),
			('NV', 'America/Los_Angeles'), ('NH', 'America/New_York'), ('NJ', 'America/New_York'),
			('NM', 'America/Denver'), ('NY', 'America/New_York'), ('NC', 'America/New_York'),
			('ND', 'America/Chicago'), ('OH', 'America/New_York'), ('OK', 'America/Chicago'),
			('OR', 'America/Los_Angeles'), ('PA', 'America/New_York'), ('RI', 'America/New_York'),
			('SC', 'America/New_York'), ('SD', 'America/Chicago'), ('TN', 'America/Chicago'),
			('TX', 'America/Chicago'), ('UT', 'America/Denver'), ('VT', 'America/New_York'),
			('VA', 'America/New_York'), ('WA', 'America/Los_Angeles'), ('WV', 'America/New_York'),
			('WI', 'America/Chicago'), ('WY', 'America/Denver'), ('PR', 'America/Puerto_Rico'),
			('VI', 'America/Puerto_Rico'), ('GU', 'Pacific/Guam')
	)
	select coalesce(
		(
			select coalesce(
				nullif(c.contact ->> 'timeZone', ''),
				(select z.zone from zones z where z.state = upper(trim(c.contact ->> 'state'))),
				(select z.zone from zones z where z.state = upper(trim(c.state)))
			)
			from public.chamber_config c
			where c.tenant_id = p_tenant_id
		),
		'America/New_York'
	);
$$;

comment on function public.chamber_time_zone is 'The chamber''s time zone: contact.timeZone, else its contact state''s usual zone, else its state''s, else America/New_York (as chamberTimeZone in the site''s code).';

/** How often waiting changes are published (features.publishWindow, checked by config_rules()). */
create or replace function public.publish_window(p_tenant_id uuid)
returns interval
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		(
			select (c.features ->> 'publishWindow')::interval
			from public.chamber_config c
			where c.tenant_id = p_tenant_id
				and c.features ->> 'publishWindow' in ('15min', '30min', '1h', '2h', '3h', '4h', '6h', '12h', '24h')
		),
		interval '1 hour'
	);
$$;

comment on function public.publish_window is 'The chamber''s publish window (features.publishWindow), one hour when unset.';

/** A window's publish starts this long before its mark: time for the build. */
create or replace function public.publish_window_lead()
returns interval
language sql
immutable
set search_path = ''
as $$
	select interval '10 minutes';
$$;

comment on function public.publish_window_lead is 'How long before its mark a window''s publish starts (10 minutes), so its build is live by the mark.';

/**
  When a change collected at p_at is live at the latest: the first mark of
  the chamber's window (or of the day, p_daily) at least the lead after p_at.
  Marks are counted from midnight on the chamber's clock; every window
  divides a day.
 */
create or replace function public.publish_live_by(p_tenant_id uuid, p_at timestamptz, p_daily boolean)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_zone constant text := public.chamber_time_zone(p_tenant_id);
	v_every constant interval := case when p_daily then interval '1 day' else public.publish_window(p_tenant_id) end;
	v_local timestamp := (p_at + public.publish_window_lead()) at time zone v_zone;
	v_day timestamp := date_trunc('day', v_local);
	v_step numeric := extract(epoch from v_every);
	v_marks numeric := ceil(extract(epoch from v_local - v_day) / v_step);
begin
	return (v_day + make_interval(secs => (v_marks * v_step)::double precision)) at time zone v_zone;
end;
$$;

comment on function public.publish_live_by is 'The mark by which a change collected at p_at is live: the first mark of the chamber''s window (p_daily: of the day) at least publish_window_lead() after p_at, on the chamber''s clock.';

/**
  ---------------------------------------------------------------------------
  The monthly budget
  ---------------------------------------------------------------------------
 */
create table if not exists public.publish_budgets (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	monthly_publishes integer not null check (monthly_publishes between 1 and 1000),
	updated_at timestamptz not null default now()
);

comment on table public.publish_budgets is 'The publishes a chamber may make in a month, as its deployment sets it (PUBLISH_MONTHLY_BUDGET, set_publish_budget); 40 without a row. Read by the chamber''s staff, written by the service role only.';
comment on column public.publish_budgets.monthly_publishes is 'Publishes (production deploys) a month: 1 to 1000.';

alter table public.publish_budgets enable row level security;

create policy "Chamber staff can read their chamber's publish budget" on public.publish_budgets
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.publish_budgets to authenticated;
grant all on table public.publish_budgets to service_role;

create table if not exists public.publish_months (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	month date not null check (extract(day from month) = 1),
	warned_at timestamptz not null default now(),
	warned_used integer not null check (warned_used >= 0),
	budget integer not null check (budget between 1 and 1000),
	mailed_at timestamptz,
	primary key (tenant_id, month)
);

comment on table public.publish_months is 'A month in which a chamber reached 80 % of its publish budget: when, at how many, and when its admins were e-mailed. One row per chamber and month, written by the publishing functions only.';
comment on column public.publish_months.month is 'The first day of the month, on the chamber''s clock.';
comment on column public.publish_months.warned_used is 'The month''s publishes when the warning was reached.';
comment on column public.publish_months.mailed_at is 'When the e-mail to the admins was claimed for sending (claim_publish_budget_warning): at most once a month.';

alter table public.publish_months enable row level security;

create policy "Chamber staff can read their chamber's publish months" on public.publish_months
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.publish_months to authenticated;
grant all on table public.publish_months to service_role;

/** The chamber's budget (40 without a row). */
create or replace function public.publish_budget(p_tenant_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		(select b.monthly_publishes from public.publish_budgets b where b.tenant_id = p_tenant_id),
		40
	);
$$;

comment on function public.publish_budget is 'The chamber''s monthly publish budget: its publish_budgets row, else 40.';

/**
  The month p_at falls in on the chamber's clock, and the publishes counted
  in it: every publish requested then that did not fail.
 */
create or replace function public.publish_month_used(p_tenant_id uuid, p_at timestamptz)
returns table (month date, used integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_zone constant text := public.chamber_time_zone(p_tenant_id);
	v_start timestamp := date_trunc('month', p_at at time zone v_zone);
begin
	month := v_start::date;
	select count(*)::integer into used
	from public.publishes p
	where p.tenant_id = p_tenant_id
		and p.state <> 'failed'
		and p.requested_at >= v_start at time zone v_zone
		and p.requested_at < (v_start + interval '1 month') at time zone v_zone;
	return next;
end;
$$;

comment on function public.publish_month_used is 'The month of p_at on the chamber''s clock and its publishes (requested then, not failed).';

/** The daily publishes allowed past the budget: a quarter of it (10 for 40). */
create or replace function public.publish_daily_reserve(p_budget integer)
returns integer
language sql
immutable
set search_path = ''
as $$
	select ceil(p_budget * 0.25)::integer;
$$;

comment on function public.publish_daily_reserve is 'How many daily publishes may go past the month''s budget: a quarter of it; beyond, waiting changes wait for a confirmed staff publish.';

/** After a new publish: records the month's warning the first time 80 % is reached; true then. */
create or replace function public.note_publish_budget(p_tenant_id uuid, p_at timestamptz)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_budget constant integer := public.publish_budget(p_tenant_id);
	v_month date;
	v_used integer;
begin
	select u.month, u.used into v_month, v_used from public.publish_month_used(p_tenant_id, p_at) u;
	if v_used < ceil(v_budget * 0.8) then
		return false;
	end if;
	insert into public.publish_months (tenant_id, month, warned_used, budget)
	values (p_tenant_id, v_month, v_used, v_budget)
	on conflict (tenant_id, month) do nothing;
	return found;
end;
$$;

comment on function public.note_publish_budget is 'Records that the chamber''s month reached 80 % of its budget (once a month); true when this call did.';

/** The deployment sets its chamber's budget (PUBLISH_MONTHLY_BUDGET). */
create or replace function public.set_publish_budget(p_tenant_id uuid, p_publishes integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
	if p_publishes is null or p_publishes not between 1 and 1000 then
		raise exception 'A monthly publish budget is 1 to 1000 publishes, not %', p_publishes
			using errcode = '22023';
	end if;
	insert into public.publish_budgets (tenant_id, monthly_publishes)
	values (p_tenant_id, p_publishes)
	on conflict (tenant_id) do update
		set monthly_publishes = excluded.monthly_publishes, updated_at = now()
		where public.publish_budgets.monthly_publishes <> excluded.monthly_publishes;
end;
$$;

comment on function public.set_publish_budget is 'Sets the chamber''s monthly publish budget (1 to 1000); service role (the deployment''s PUBLISH_MONTHLY_BUDGET).';

/**
  ---------------------------------------------------------------------------
  Changes waiting for a publish
  ---------------------------------------------------------------------------
  One row per change that waits: waiting until a build starts, which takes
  every waiting row of the chamber (its build reads them), building while it
  runs, live when it went live; a build that fails or is cancelled puts its
  rows back to waiting. A business's member, a sync and an import each keep
  one waiting row (a new save updates it and keeps its earlier mark), so the
  rows are bounded by the chamber's businesses. Rows live for more than 31
  days are removed.
 */
create table if not exists public.waiting_changes (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	source text not null check (source in ('member', 'sync', 'import', 'staff', 'scheduled')),
	summary text not null check (length(summary) between 1 and 200),
	business_id uuid references public.profiles (id) on delete cascade,
	requested_by uuid,
	requested_by_email text check (length(requested_by_email) <= 254),
	created_at timestamptz not null default now(),
	due_at timestamptz not null,
	daily boolean not null default false,
	state text not null default 'waiting' check (state in ('waiting', 'building', 'live')),
	publish_id bigint references public.publishes (id) on delete set null,
	live_at timestamptz,
	check ((state = 'live') = (live_at is not null))
);

comment on table public.waiting_changes is 'Changes waiting for a publish (members'' own saves, syncs, imports, and staff changes at the budget): when they are live at the latest, and the publish that took them. Written by the publishing functions only.';
comment on column public.waiting_changes.source is 'Who made it: member, sync, import, staff (a publish declined at the budget) or scheduled (a scheduled publish at the budget).';
comment on column public.waiting_changes.summary is 'What it changed, for people (the Requests tab, History).';
comment on column public.waiting_changes.business_id is 'The business a member changed; null for the others.';
comment on column public.waiting_changes.due_at is 'Live on the site by then at the latest: the mark of its window, or of the day at the budget.';
comment on column public.waiting_changes.daily is 'Waiting for the daily publish: the month''s budget was used.';
comment on column public.waiting_changes.state is 'waiting, building (a build that reads it runs), live.';
comment on column public.waiting_changes.publish_id is 'The publish (build) that took it.';

create index if not exists waiting_changes_tenant_state_idx on public.waiting_changes (tenant_id, state, due_at);
create index if not exists waiting_changes_publish_idx on public.waiting_changes (publish_id);
create unique index if not exists waiting_changes_one_waiting_each on public.waiting_changes
	(tenant_id, source, coalesce(business_id, '00000000-0000-0000-0000-000000000000'::uuid))
	where state = 'waiting';

alter table public.waiting_changes enable row level security;

create policy "Chamber staff can read their chamber's waiting changes" on public.waiting_changes
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

create policy "Members can read their own business's waiting changes" on public.waiting_changes
	for select to authenticated
	using (business_id is not null and public.is_business_member(business_id));

grant select on table public.waiting_changes to authenticated;
grant all on table public.waiting_changes to service_role;

/** The waiting rows follow the build that reads them (every path that moves a publish). */
create or replace function public.waiting_changes_follow_publish()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	if new.state = 'building' then
		update public.waiting_changes
		set state = 'building', publish_id = new.id
		where tenant_id = new.tenant_id and state = 'waiting';
	elsif new.state = 'live' then
		update public.waiting_changes
		set state = 'live', live_at = coalesce(new.finished_at, now())
		where publish_id = new.id and state = 'building';
		delete from public.waiting_changes
		where tenant_id = new.tenant_id and state = 'live' and live_at < coalesce(new.finished_at, now()) - interval '31 days';
	elsif new.state = 'failed' then
		-- A newer save of the same business (or sync, import) waits already: it keeps the earlier mark.
		update public.waiting_changes w
		set due_at = least(w.due_at, b.due_at), daily = w.daily and b.daily
		from public.waiting_changes b
		where b.publish_id = new.id and b.state = 'building'
			and w.state = 'waiting' and w.tenant_id = b.tenant_id and w.source = b.source
			and w.business_id is not distinct from b.business_id;
		delete from public.waiting_changes b
		where b.publish_id = new.id and b.state = 'building'
			and exists (
				select 1 from public.waiting_changes w
				where w.state = 'waiting' and w.tenant_id = b.tenant_id and w.source = b.source
					and w.business_id is not distinct from b.business_id
			);
		update public.waiting_changes
		set state = 'waiting', publish_id = null
		where publish_id = new.id and state = 'building';
	end if;
	return null;
end;
$$;

comment on function public.waiting_changes_follow_publish is 'Trigger: a build that starts takes the chamber''s waiting changes, one that goes live makes them live, one that fails puts them back.';

create trigger waiting_changes_follow_publish after update of state on public.publishes
	for each row when (old.state is distinct from new.state)
	execute function public.waiting_changes_follow_publish();

/**
  A change that waits for the window's publish. The service role collects
  any source (a sync, an import, a member's save made through the site's
  functions, a scheduled publish at the budget); a member collects its own
  business's save; a staff member a change of theirs that waits (a publish
  declined at the budget). Answers when it is live at the latest, and whether
  it is held: past the budget and its daily reserve, only a publish staff
  confirm takes it, so no time can be promised.
 */
create or replace function public.collect_publish(
	p_tenant_id uuid,
	p_source text,
	p_summary text,
	p_business_id uuid default null,
	p_now timestamptz default null
)
returns table (waiting_id bigint, due_at timestamptz, daily boolean, held boolean)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_server constant boolean := coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database');
	v_now constant timestamptz := case when v_server then coalesce(p_now, now()) else now() end;
	v_summary constant text := left(trim(coalesce(p_summary, '')), 200);
	v_budget integer;
	v_used integer;
	v_daily boolean;
	v_due timestamptz;
	v_uid uuid := auth.uid();
	v_email text;
begin
	if p_source is null or p_source not in ('member', 'sync', 'import', 'staff', 'scheduled') then
		raise exception 'A waiting change comes from a member, a sync, an import, staff or a schedule, not %', p_source
			using errcode = '22023';
	end if;
	if not v_server then
		if p_source = 'staff' and p_business_id is null and public.has_tenant_role(p_tenant_id) then
			null;
		elsif p_source = 'member' and p_business_id is not null
			and public.is_business_member(p_business_id)
			and exists (select 1 from public.profiles p where p.id = p_business_id and p.tenant_id = p_tenant_id) then
			null;
		else
			raise exception 'You cannot publish this chamber' using errcode = '42501';
		end if;
	end if;
	if not exists (select 1 from public.tenants t where t.id = p_tenant_id) then
		raise exception 'Unknown chamber' using errcode = '22023';
	end if;
	if p_business_id is not null
		and not exists (select 1 from public.profiles p where p.id = p_business_id and p.tenant_id = p_tenant_id) then
		raise exception 'No such business in this chamber' using errcode = '22023';
	end if;
	if v_summary = '' then
		raise exception 'A waiting change says what it changed' using errcode = '22023';
	end if;
	v_budget := public.publish_budget(p_tenant_id);
	select u.used into v_used from public.publish_month_used(p_tenant_id, v_now) u;
	v_daily := v_used >= v_budget;
	-- Past the budget and its daily reserve only a publish staff confirm takes it: no time to promise.
	held := v_used >= v_budget + public.publish_daily_reserve(v_budget);
	v_due := public.publish_live_by(p_tenant_id, v_now, v_daily);
	select u.email into v_email from auth.users u where u.id = v_uid;

	loop
		-- The business's (or the sync's, the import's) change that waits already takes this one in.
		update public.waiting_changes w
		set summary = v_summary, requested_by = v_uid, requested_by_email = v_email
		where w.tenant_id = p_tenant_id and w.source = p_source
			and w.business_id is not distinct from p_business_id and w.state = 'waiting'
		returning w.id, w.due_at, w.daily into waiting_id, due_at, daily;
		if found then
			return next;
			return;
		end if;
		begin
			insert into public.waiting_changes
				(tenant_id, source, summary, business_id, requested_by, requested_by_email, created_at, due_at, daily)
			values (p_tenant_id, p_source, v_summary, p_business_id, v_uid, v_email, v_now, v_due, v_daily)
			returning id, waiting_changes.due_at, waiting_changes.daily into waiting_id, due_at, daily;
			return next;
			return;
		exception when unique_violation then
			-- Collected a moment ago by a concurrent call: take that one.
			null;
		end;
	end loop;
end;
$$;

comment on function public.collect_publish is 'A change that waits for the window''s publish (or, at the budget, the daily one); answers when it is live at the latest. p_now (service role only) injects the clock.';

/** An applied import (or sync) waits for the window's publish: when it is live at the latest. */
alter table public.member_imports add column if not exists live_by timestamptz;

comment on column public.member_imports.live_by is 'When the applied changes are on the site at the latest: the mark of the publish window they wait for (collect_publish).';

/**
  ---------------------------------------------------------------------------
  request_publish: a staff publish, at once
  ---------------------------------------------------------------------------
  As before: joins the chamber's queued publish, else queues a new one. A new
  one counts against the month's budget: at the budget it is refused
  (PT402, with {used, budget} as detail) unless p_confirm_cost says the
  person saw what it costs. Answers the month's publishes with it and
  whether it reached the 80 % warning just now.
 */
drop function if exists public.request_publish(uuid, text);

create or replace function public.request_publish(
	p_tenant_id uuid,
	p_reason text default '',
	p_confirm_cost boolean default false,
	p_now timestamptz default null
)
returns table (
	publish_id bigint,
	created boolean,
	tenant_slug text,
	tenant_name text,
	requested_by_email text,
	used integer,
	budget integer,
	budget_warning boolean
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_server constant boolean := coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database');
	v_now constant timestamptz := case when v_server then coalesce(p_now, now()) else now() end;
	v_uid uuid := auth.uid();
	v_email text;
	v_id bigint;
	v_reason text := left(coalesce(trim(p_reason), ''), 200);
begin
	if not (v_server or public.has_tenant_role(p_tenant_id)) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if not exists (select 1 from public.tenants t where t.id = p_tenant_id) then
		raise exception 'Unknown chamber' using errcode = '22023';
	end if;
	perform public.expire_publishes(p_tenant_id);
	select u.email into v_email from auth.users u where u.id = v_uid;
	budget := public.publish_budget(p_tenant_id);
	budget_warning := false;

	loop
		update public.publishes p
		set requests = p.requests + 1, last_requested_at = v_now
		where p.tenant_id = p_tenant_id and p.state = 'queued'
		returning p.id into v_id;
		if found then
			created := false;
			exit;
		end if;
		select u.used into used from public.publish_month_used(p_tenant_id, v_now) u;
		if used >= budget and not coalesce(p_confirm_cost, false) then
			raise exception 'This month''s % publishes are used: confirm the cost to publish now', budget
				using errcode = 'PT402',
					detail = jsonb_build_object('used', used, 'budget', budget)::text;
		end if;
		begin
			insert into public.publishes
				(tenant_id, reason, requested_by, requested_by_email, requested_at, last_requested_at)
			values (p_tenant_id, v_reason, v_uid, v_email, v_now, v_now)
			returning id into v_id;
			created := true;
			budget_warning := public.note_publish_budget(p_tenant_id, v_now);
			exit;
		exception when unique_violation then
			-- Another request queued one a moment ago: join it.
			null;
		end;
	end loop;

	publish_id := v_id;
	select t.slug, t.name into tenant_slug, tenant_name from public.tenants t where t.id = p_tenant_id;
	requested_by_email := v_email;
	select u.used into used from public.publish_month_used(p_tenant_id, v_now) u;
	return next;
end;
$$;

comment on function public.request_publish is 'Queues a build of the chamber''s site, or joins the one already queued; the requester comes from the token. At the month''s budget a new build needs p_confirm_cost (PT402 otherwise). p_now (service role only) injects the clock.';

/**
  ---------------------------------------------------------------------------
  fire_publish_window: the window's publish (the scheduled function)
  ---------------------------------------------------------------------------
  When a waiting change's mark is within the lead, queues one publish for
  everything waiting (or joins one queued), unless a scheduled publish due
  before the mark will take them. At the budget, waiting changes move to the
  daily mark first, and only the daily mark publishes. Answers the publish,
  or nothing.
 */
create or replace function public.fire_publish_window(p_tenant_id uuid, p_now timestamptz default null)
returns table (
	publish_id bigint,
	created boolean,
	tenant_slug text,
	tenant_name text,
	changes integer,
	budget_warning boolean
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_now constant timestamptz := coalesce(p_now, now());
	v_mark timestamptz;
	v_used integer;
	v_budget integer;
	v_id bigint;
begin
	perform public.expire_publishes(p_tenant_id);
	select min(w.due_at) into v_mark
	from public.waiting_changes w
	where w.tenant_id = p_tenant_id and w.state = 'waiting'
		and w.due_at - public.publish_window_lead() <= v_now;
	if v_mark is null then
		return;
	end if;
	-- A publish queued already takes them when its build starts.
	if exists (select 1 from public.publishes p where p.tenant_id = p_tenant_id and p.state = 'queued') then
		return;
	end if;
	if exists (
		select 1 from public.scheduled_publishes s
		where s.tenant_id = p_tenant_id and s.state = 'scheduled'
			and s.run_at > v_now and s.run_at <= v_mark - interval '5 minutes'
	) then
		return;
	end if;
	select u.used into v_used from public.publish_month_used(p_tenant_id, v_now) u;
	v_budget := public.publish_budget(p_tenant_id);
	if v_used >= v_budget then
		if exists (
			select 1 from public.waiting_changes w
			where w.tenant_id = p_tenant_id and w.state = 'waiting' and not w.daily
		) then
			-- The budget is used: what waits goes out once a day.
			update public.waiting_changes w
			set due_at = public.publish_live_by(p_tenant_id, v_now, true), daily = true
			where w.tenant_id = p_tenant_id and w.state = 'waiting' and not w.daily;
			return;
		end if;
		if v_used >= v_budget + public.publish_daily_reserve(v_budget) then
			-- The daily publishes' reserve is used too: only a publish staff confirm takes them.
			return;
		end if;
	end if;
	select count(*)::integer into changes
	from public.waiting_changes w
	where w.tenant_id = p_tenant_id and w.state = 'waiting';
	budget_warning := false;

	loop
		update public.publishes p
		set requests = p.requests + 1, last_requested_at = v_now
		where p.tenant_id = p_tenant_id and p.state = 'queued'
		returning p.id into v_id;
		if found then
			created := false;
			exit;
		end if;
		begin
			insert into public.publishes (tenant_id, reason, requests, requested_at, last_requested_at)
			values (
				p_tenant_id,
				format('Waiting changes: %s (members, syncs, imports)', changes),
				greatest(changes, 1),
				v_now,
				v_now
			)
			returning id into v_id;
			created := true;
			budget_warning := public.note_publish_budget(p_tenant_id, v_now);
			exit;
		exception when unique_violation then
			null;
		end;
	end loop;
	publish_id := v_id;
	select t.slug, t.name into tenant_slug, tenant_name from public.tenants t where t.id = p_tenant_id;
	return next;
end;
$$;

comment on function public.fire_publish_window is 'The scheduled function''s window publish: queues one publish for the chamber''s waiting changes once the earliest mark is within the lead (at the budget, once a day). Service role; p_now injects the clock.';

/**
  ---------------------------------------------------------------------------
  What the panel reads, and the warning's e-mail
  ---------------------------------------------------------------------------
 */
create or replace function public.publish_usage(p_tenant_id uuid, p_now timestamptz default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_server constant boolean := coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database');
	v_now constant timestamptz := case when v_server then coalesce(p_now, now()) else now() end;
	v_budget integer;
	v_month date;
	v_used integer;
begin
	if not (v_server or public.has_tenant_role(p_tenant_id)) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	v_budget := public.publish_budget(p_tenant_id);
	select u.month, u.used into v_month, v_used from public.publish_month_used(p_tenant_id, v_now) u;
	return jsonb_build_object(
		'month', to_char(v_month, 'YYYY-MM'),
		'used', v_used,
		'budget', v_budget,
		'warnAt', ceil(v_budget * 0.8)::integer,
		'warned', exists (
			select 1 from public.publish_months m where m.tenant_id = p_tenant_id and m.month = v_month
		),
		'atBudget', v_used >= v_budget,
		'ceiling', v_budget + public.publish_daily_reserve(v_budget),
		'waiting', (
			select count(*) from public.waiting_changes w where w.tenant_id = p_tenant_id and w.state = 'waiting'
		),
		'liveBy', (
			select min(w.due_at) from public.waiting_changes w where w.tenant_id = p_tenant_id and w.state = 'waiting'
		),
		'daily', coalesce((
			select bool_and(w.daily) from public.waiting_changes w where w.tenant_id = p_tenant_id and w.state = 'waiting'
		), false)
	);
end;
$$;

comment on function public.publish_usage is 'The chamber''s month for its staff: {month, used, budget, warnAt, warned, atBudget, ceiling, waiting, liveBy, daily}. p_now (service role only) injects the clock.';

/** The scheduled function claims the month's warning e-mail (once) and sends it. */
create or replace function public.claim_publish_budget_warning(p_tenant_id uuid)
returns table (month date, used integer, budget integer)
language sql
volatile
security definer
set search_path = ''
as $$
	update public.publish_months m
	set mailed_at = now()
	where m.tenant_id = p_tenant_id and m.mailed_at is null
	returning m.month, m.warned_used, m.budget;
$$;

comment on function public.claim_publish_budget_warning is 'Claims the chamber''s budget warnings not yet e-mailed (at most once each); service role.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Staff read their month and request publishes; staff and members collect
  their own changes; the rest is the publishing functions' (service role).
 */
revoke all on function public.request_publish(uuid, text, boolean, timestamptz) from public, anon;
revoke all on function public.collect_publish(uuid, text, text, uuid, timestamptz) from public, anon;
revoke all on function public.publish_usage(uuid, timestamptz) from public, anon;
grant execute on function public.request_publish(uuid, text, boolean, timestamptz) to authenticated, service_role;
grant execute on function public.collect_publish(uuid, text, text, uuid, timestamptz) to authenticated, service_role;
grant execute on function public.publish_usage(uuid, timestamptz) to authenticated, service_role;

revoke all on function public.chamber_time_zone(uuid) from public, anon, authenticated;
revoke all on function public.publish_window(uuid) from public, anon, authenticated;
revoke all on function public.publish_window_lead() from public, anon, authenticated;
revoke all on function public.publish_live_by(uuid, timestamptz, boolean) from public, anon, authenticated;
revoke all on function public.publish_budget(uuid) from public, anon, authenticated;
revoke all on function public.publish_month_used(uuid, timestamptz) from public, anon, authenticated;
revoke all on function public.publish_daily_reserve(integer) from public, anon, authenticated;
revoke all on function public.note_publish_budget(uuid, timestamptz) from public, anon, authenticated;
revoke all on function public.set_publish_budget(uuid, integer) from public, anon, authenticated;
revoke all on function public.waiting_changes_follow_publish() from public, anon, authenticated;
revoke all on function public.fire_publish_window(uuid, timestamptz) from public, anon, authenticated;
revoke all on function public.claim_publish_budget_warning(uuid) from public, anon, authenticated;
grant execute on function public.chamber_time_zone(uuid) to service_role;
grant execute on function public.publish_window(uuid) to service_role;
grant execute on function public.publish_window_lead() to service_role;
grant execute on function public.publish_live_by(uuid, timestamptz, boolean) to service_role;
grant execute on function public.publish_budget(uuid) to service_role;
grant execute on function public.publish_month_used(uuid, timestamptz) to service_role;
grant execute on function public.publish_daily_reserve(integer) to service_role;
grant execute on function public.note_publish_budget(uuid, timestamptz) to service_role;
grant execute on function public.set_publish_budget(uuid, integer) to service_role;
grant execute on function public.waiting_changes_follow_publish() to service_role;
grant execute on function public.fire_publish_window(uuid, timestamptz) to service_role;
grant execute on function public.claim_publish_budget_warning(uuid) to service_role;

/**
  ---------------------------------------------------------------------------
  Configuration rules: features.publishWindow (npx node scripts/config-rules.ts)
  ---------------------------------------------------------------------------
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
	"features": {"types":["object"],"properties":{"showEvents":{"types":["boolean"]},"showCommunityEvents":{"types":["boolean"]},"showNewMembersFilter":{"types":["boolean"]},"showMembershipLevels":{"types":["boolean"]},"showBanners":{"types":["boolean"]},"showEventFilters":{"types":["boolean"]},"showFeaturedEvent":{"types":["boolean"]},"featuredEventId":{"types":["integer","null","string"],"maxLength":20},"showBusinessShortDescription":{"types":["boolean"]},"showEventAttendeeCountInHeader":{"types":["boolean"]},"memberBadgeDisplay":{"types":["string"],"enum":["level","year"]},"businessDetailLayout":{"types":["string"],"enum":["classic","modern"]},"showMainContact":{"types":["boolean"]},"memberUpdates":{"types":["boolean"]},"memberFields":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["listings","web_content","work_phone","hours","website","social_media","logo_url","categories"]}},"memberLiveFields":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["listings","web_content","work_phone","hours","website","social_media","logo_url","categories"]}},"memberEditorsApprove":{"types":["boolean"]},"memberMaxCategories":{"types":["null","number","string"],"maxLength":20},"publishWindow":{"types":["string"],"enum":["15min","30min","1h","2h","3h","4h","6h","12h","24h"]}}},
	"membership_levels": {"types":["object"],"properties":{"featured":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"canLinkWebsite":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}}}},
	"featured_businesses": {"types":["object"],"properties":{"strategy":{"types":["string"],"enum":["membership","affiliation","random"]},"count":{"types":["null","number","string"],"maxLength":20},"membershipLevels":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"affiliation":{"types":["string"],"maxLength":200},"requireCompleteProfile":{"types":["boolean"]},"showViewAllButton":{"types":["boolean"]}}},
	"category_display": {"types":["object"],"properties":{"count":{"types":["null","number","string"],"maxLength":20},"sortBy":{"types":["string"],"enum":["popularity","alphabetical"]}}},
	"search_page": {"types":["object"],"properties":{"defaultSort":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]},"availableSorts":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]}},"showSortDropdown":{"types":["boolean"]},"showFilters":{"types":["boolean"]},"availableFilters":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["city","county","zip","affiliation"]}},"membershipHierarchy":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"name":{"types":["string"],"maxLength":200},"rank":{"types":["integer"]}},"required":["name","rank"]}}}},
	"navigation": {"types":["object"],"properties":{"menuItems":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"id":{"types":["string"],"maxLength":200},"label":{"types":["string"],"maxLength":200},"type":{"types":["string"],"enum":["link","dropdown"]},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]},"items":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"label":{"types":["string"],"maxLength":200},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]}},"required":["label"]}}},"required":["id","label"]}}}}
}'::jsonb;
$rules$;
