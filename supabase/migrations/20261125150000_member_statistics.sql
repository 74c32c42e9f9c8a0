/**
  ---------------------------------------------------------------------------
  Member statistics: what a listing is worth, without tracking anyone
  ---------------------------------------------------------------------------
  Per business and day, how often its card was shown, its profile viewed,
  and each of its actions used (website, phone, …), plus the search words
  that led to a view. Counters only: no row per visit, nothing about the
  visitor. The /api/stats function adds to them (service role, one call per
  batch of events); the chamber's admins read them in the panel's Reports tab.

  Days are UTC days. Businesses are referred to by id without a foreign key:
  the import replaces a chamber's profiles (same ids), and their statistics
  must outlive that.

  A member bound to its business (a future `member` role) reads its own rows
  with one more policy on business_stats, e.g.
    create policy "A member can read its own business's statistics"
      on public.business_stats for select to authenticated
      using (business_id = public.member_business_id(tenant_id));
  and the report functions below, which read as the caller, then answer it
  for its own business with no change.
 */

/** The kinds counted, in the order the reports list them (also src/features/reports/reports.ts). */
create or replace function public.business_stat_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'shown', 'view', 'search',
		'website', 'phone', 'email', 'message', 'directions', 'share',
		'social_facebook', 'social_twitter', 'social_linkedin', 'social_instagram', 'social_youtube'
	];
$$;

comment on function public.business_stat_kinds is 'Every kind business_stats counts: shown, view, search (words that led to a view) and the actions.';

revoke all on function public.business_stat_kinds() from public, anon, authenticated;
grant execute on function public.business_stat_kinds() to service_role;

create table if not exists public.business_stats (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	day date not null,
	kind text not null,
	words text not null default '',
	count integer not null check (count > 0),
	primary key (tenant_id, business_id, day, kind, words),
	-- The literal list, as business_stat_kinds() answers it (a check cannot call a function that
	-- a later migration may redefine without rechecking the rows).
	check (kind in (
		'shown', 'view', 'search',
		'website', 'phone', 'email', 'message', 'directions', 'share',
		'social_facebook', 'social_twitter', 'social_linkedin', 'social_instagram', 'social_youtube'
	)),
	check ((kind = 'search') = (words <> '')),
	check (char_length(words) <= 100 and words = lower(btrim(words)))
);

comment on table public.business_stats is 'Counters per business, UTC day and kind (card shown, profile view, each action; search words that led to a view). Added to by /api/stats only; read by the chamber''s admins.';
comment on column public.business_stats.business_id is 'profiles.id of the business (no foreign key: statistics outlive a re-import).';
comment on column public.business_stats.kind is 'shown: the card was on screen in a listing; view: the profile was opened; search: a view that came from a search (words); the rest are actions.';
comment on column public.business_stats.words is 'For kind search: the search text, lower case and trimmed, at most 100 characters; empty for every other kind.';
comment on column public.business_stats.count is 'How many times, after bots, repeats within 30 minutes and the chamber''s own staff were left out.';

create index if not exists business_stats_tenant_day_idx on public.business_stats (tenant_id, day);

alter table public.business_stats enable row level security;

create policy "Chamber admins can read their chamber's statistics" on public.business_stats
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on public.business_stats to authenticated;
grant all on public.business_stats to service_role;

/**
  ---------------------------------------------------------------------------
  Adding a batch: one call, one upsert per table row touched
  ---------------------------------------------------------------------------
  p_counts: [{business, kind, words?, count}], already summed per business,
  kind and words by the function. Ids that are not a published business of
  the chamber are dropped here, so nothing can be counted for another
  chamber or an unknown id. Rows are written in key order, so concurrent
  batches touching the same counters wait for each other instead of
  deadlocking. A business keeps at most 200 different search texts a month:
  beyond that only texts it already has are counted.
 */
create or replace function public.record_business_stats(p_tenant_id uuid, p_day date, p_counts jsonb)
returns integer
language plpgsql
set search_path = ''
as $$
declare
	v_rows integer;
begin
	with batch as (
		select
			(e ->> 'business')::uuid as business_id,
			e ->> 'kind' as kind,
			coalesce(e ->> 'words', '') as words,
			(e ->> 'count')::integer as n
		from jsonb_array_elements(p_counts) e
	),
	valid as (
		select b.business_id, b.kind, b.words, sum(b.n)::integer as n
		from batch b
		join public.profiles p on p.id = b.business_id and p.tenant_id = p_tenant_id and p.published
		where b.n > 0
			and b.kind = any (public.business_stat_kinds())
			and (
				b.kind <> 'search'
				or exists (
					select 1 from public.business_stats s
					where s.tenant_id = p_tenant_id and s.business_id = b.business_id
						and s.day = p_day and s.kind = 'search' and s.words = b.words
				)
				or (
					select count(distinct s.words) from public.business_stats s
					where s.tenant_id = p_tenant_id and s.business_id = b.business_id and s.kind = 'search'
						and s.day >= date_trunc('month', p_day)::date and s.day <= p_day
				) < 200
			)
		group by b.business_id, b.kind, b.words
	)
	insert into public.business_stats as s (tenant_id, business_id, day, kind, words, count)
	select p_tenant_id, v.business_id, p_day, v.kind, v.words, v.n
	from valid v
	order by v.business_id, v.kind, v.words
	on conflict (tenant_id, business_id, day, kind, words)
		do update set count = s.count + excluded.count;
	get diagnostics v_rows = row_count;
	return v_rows;
end;
$$;

comment on function public.record_business_stats is 'Adds one batch of summed counts to business_stats for the chamber''s published businesses; answers how many counters it touched. Service role only (/api/stats).';

revoke all on function public.record_business_stats(uuid, date, jsonb) from public, anon, authenticated;
grant execute on function public.record_business_stats(uuid, date, jsonb) to service_role;

/**
  ---------------------------------------------------------------------------
  Reading: the Reports tab's calls, as the caller (row-level security)
  ---------------------------------------------------------------------------
  Invoker functions: a caller reads the counters its policies allow and
  zeros for the rest.
 */

/** Every published business with its totals over [p_from, p_to]: the Reports tab's table. */
create or replace function public.business_stats_totals(p_tenant_id uuid, p_from date, p_to date)
returns table (business_id uuid, name text, shown bigint, views bigint, actions bigint)
language sql
stable
set search_path = ''
as $$
	select
		p.id,
		p.report_name,
		coalesce(sum(s.count) filter (where s.kind = 'shown'), 0),
		coalesce(sum(s.count) filter (where s.kind = 'view'), 0),
		coalesce(sum(s.count) filter (where s.kind not in ('shown', 'view', 'search')), 0)
	from public.profiles p
	left join public.business_stats s
		on s.tenant_id = p.tenant_id and s.business_id = p.id and s.day between p_from and p_to
	where p.tenant_id = p_tenant_id and p.published
	group by p.id, p.report_name
	order by lower(p.report_name), p.id;
$$;

comment on function public.business_stats_totals is 'Each published business of the chamber with its shown, views and actions between two UTC days (inclusive), as the caller may read them.';

revoke all on function public.business_stats_totals(uuid, date, date) from public, anon, authenticated;
grant execute on function public.business_stats_totals(uuid, date, date) to authenticated, service_role;

/**
 * One business over [p_from, p_to]: each kind's count (actions by kind, and the search total),
 * its 20 most frequent search texts, and shown / views / actions for each of the 12 months
 * ending with p_to's month.
 */
create or replace function public.business_stats_report(
	p_tenant_id uuid,
	p_business_id uuid,
	p_from date,
	p_to date
)
returns jsonb
language sql
stable
set search_path = ''
as $$
	select jsonb_build_object(
		'kinds', coalesce((
			select jsonb_object_agg(k.kind, k.n)
			from (
				select s.kind, sum(s.count) as n
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.day between p_from and p_to
				group by s.kind
			) k
		), '{}'::jsonb),
		'searches', coalesce((
			select jsonb_agg(jsonb_build_object('words', w.words, 'count', w.n) order by w.n desc, w.words)
			from (
				select s.words, sum(s.count) as n
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.kind = 'search' and s.day between p_from and p_to
				group by s.words
				order by n desc, s.words
				limit 20
			) w
		), '[]'::jsonb),
		'months', (
			select jsonb_agg(jsonb_build_object(
				'month', to_char(m.month, 'YYYY-MM'),
				'shown', coalesce(t.shown, 0),
				'views', coalesce(t.views, 0),
				'actions', coalesce(t.actions, 0)
			) order by m.month)
			from generate_series(
				date_trunc('month', p_to) - interval '11 months',
				date_trunc('month', p_to),
				interval '1 month'
			) as m(month)
			left join (
				select
					date_trunc('month', s.day) as month,
					sum(s.count) filter (where s.kind = 'shown') as shown,
					sum(s.count) filter (where s.kind = 'view') as views,
					sum(s.count) filter (where s.kind not in ('shown', 'view', 'search')) as actions
				from public.business_stats s
				where s.tenant_id = p_tenant_id and s.business_id = p_business_id
					and s.day >= (date_trunc('month', p_to) - interval '11 months')::date
					and s.day < (date_trunc('month', p_to) + interval '1 month')::date
				group by 1
			) t on t.month = m.month
		)
	);
$$;

comment on function public.business_stats_report is 'One business''s report: counts by kind and top 20 search texts between two UTC days, and shown/views/actions for the 12 months ending with the last day''s month, as the caller may read them.';

revoke all on function public.business_stats_report(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.business_stats_report(uuid, uuid, date, date) to authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  The monthly e-mail to each member business
  ---------------------------------------------------------------------------
  A chamber switches it on (off by default). Each business gets an opt-out
  token the first time it is mailed; every mail links to it. A mailing row
  is claimed before its mail is sent (primary key: business and month), so
  a business is mailed at most once a month however often the scheduled
  function runs or stops midway; a run picks up whatever is still unclaimed.
 */
create table if not exists public.member_report_settings (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	monthly_email boolean not null default false,
	updated_at timestamptz not null default now()
);

comment on table public.member_report_settings is 'Per chamber: whether each member business gets its statistics by e-mail every month (off without a row).';
comment on column public.member_report_settings.monthly_email is 'The monthly statistics e-mail to every member business with an e-mail address; default off.';

alter table public.member_report_settings enable row level security;

create policy "Chamber admins can read their report settings" on public.member_report_settings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
create policy "Chamber admins can create their report settings" on public.member_report_settings
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
create policy "Chamber admins can change their report settings" on public.member_report_settings
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select, insert, update on public.member_report_settings to authenticated;
grant all on public.member_report_settings to service_role;

create or replace function public.member_report_settings_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	if tg_op = 'UPDATE' and old.monthly_email is not distinct from new.monthly_email then
		return null;
	end if;
	select * into v_actor from public.audit_actor(new.tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role,
		'reports', 'monthlyEmail',
		case when tg_op = 'UPDATE' then to_jsonb(old.monthly_email) end, to_jsonb(new.monthly_email));
	return null;
end;
$$;

comment on function public.member_report_settings_audit is 'Trigger: an audit_log row (section reports) when the monthly e-mail is switched.';

revoke all on function public.member_report_settings_audit() from public, anon, authenticated;

create trigger member_report_settings_audit after insert or update on public.member_report_settings
	for each row execute function public.member_report_settings_audit();

create table if not exists public.member_report_recipients (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	opt_out_token uuid not null unique default gen_random_uuid(),
	opted_out_at timestamptz,
	primary key (tenant_id, business_id)
);

comment on table public.member_report_recipients is 'Each mailed business''s opt-out token (the link in every monthly e-mail) and whether it opted out. Service role only.';
comment on column public.member_report_recipients.opt_out_token is 'Random; the only thing the opt-out link carries.';

alter table public.member_report_recipients enable row level security;

grant all on public.member_report_recipients to service_role;

create table if not exists public.member_report_mailings (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid not null,
	month date not null check (month = date_trunc('month', month)::date),
	claimed_at timestamptz not null default now(),
	sent_at timestamptz,
	error text check (char_length(error) <= 500),
	primary key (tenant_id, business_id, month)
);

comment on table public.member_report_mailings is 'One row per business and month, claimed before its monthly e-mail is sent: never a second mail for the same month.';
comment on column public.member_report_mailings.month is 'First day of the month the e-mail reports.';
comment on column public.member_report_mailings.sent_at is 'When the mail server took it; null while sending, or when it failed (error).';

alter table public.member_report_mailings enable row level security;

create policy "Chamber admins can read their monthly mailings" on public.member_report_mailings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on public.member_report_mailings to authenticated;
grant all on public.member_report_mailings to service_role;

/**
 * The opt-out link's work: the token's business stops getting the monthly e-mail. Answers the
 * business's name, or null for a token nobody holds. Visitors call it (the link needs no
 * sign-in); the random token is the only key.
 */
create or replace function public.member_report_opt_out(p_token uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_recipient public.member_report_recipients;
begin
	update public.member_report_recipients
	set opted_out_at = coalesce(opted_out_at, now())
	where opt_out_token = p_token
	returning * into v_recipient;
	if not found then
		return null;
	end if;
	return coalesce(
		(select p.report_name from public.profiles p
			where p.tenant_id = v_recipient.tenant_id and p.id = v_recipient.business_id),
		'Your business'
	);
end;
$$;

comment on function public.member_report_opt_out is 'The monthly e-mail''s opt-out link: marks the token''s business as opted out and answers its name (null for an unknown token).';

revoke all on function public.member_report_opt_out(uuid) from public, anon, authenticated;
grant execute on function public.member_report_opt_out(uuid) to anon, authenticated, service_role;
