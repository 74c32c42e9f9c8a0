/**
  ---------------------------------------------------------------------------
  Rate limits that hold across function instances
  ---------------------------------------------------------------------------
  Netlify runs many instances of a function, each with its own memory, so a
  limit kept in a process is a limit per instance. These hits live in the
  database instead: every instance sees the same count. A bucket is a text key
  the caller builds (e.g. 'login-ip:203.0.113.7', 'login-account:a@b.test');
  a limit is "at most N hits per bucket within a sliding window".

  Only the service role reaches these functions (the functions call them with
  the service key): a visitor holding the anon key must not be able to record
  hits against someone else's account, nor read who is being limited.
 */

create table if not exists public.rate_limit_hits (
	id bigint generated always as identity primary key,
	bucket text not null check (length(bucket) between 1 and 300),
	hit_at timestamptz not null default now()
);

comment on table public.rate_limit_hits is 'One row per counted request of a rate-limited action (failed sign-in, reset e-mail, contact message), keyed by bucket; pruned as windows pass.';
comment on column public.rate_limit_hits.bucket is 'What is limited, e.g. login-ip:203.0.113.7 or reset-email:a@b.test.';

create index if not exists rate_limit_hits_bucket_hit_at_idx on public.rate_limit_hits (bucket, hit_at);
create index if not exists rate_limit_hits_hit_at_idx on public.rate_limit_hits (hit_at);

-- No policies: nobody reads or writes the table through PostgREST; the functions below do.
alter table public.rate_limit_hits enable row level security;
revoke all on table public.rate_limit_hits from anon, authenticated;
grant all on table public.rate_limit_hits to service_role;

/**
  ---------------------------------------------------------------------------
  rate_limit_status: how long until a bucket may be hit again (0 = now)
  ---------------------------------------------------------------------------
 */
create or replace function public.rate_limit_status(
	p_bucket text,
	p_limit integer,
	p_window_seconds integer
) returns integer
language sql
stable
security definer
set search_path = ''
as $$
	-- With p_limit hits inside the window, the bucket frees up when the oldest of the newest
	-- p_limit hits leaves it.
	select coalesce(
		(
			select greatest(
				1,
				ceil(extract(epoch from (h.hit_at + make_interval(secs => p_window_seconds) - now())))::integer
			)
			from (
				select hit_at
				from public.rate_limit_hits
				where bucket = p_bucket and hit_at > now() - make_interval(secs => p_window_seconds)
				order by hit_at desc
				limit 1 offset greatest(p_limit - 1, 0)
			) h
		),
		0
	);
$$;

comment on function public.rate_limit_status is 'Seconds until p_bucket is below p_limit hits in the last p_window_seconds (0 when it is already).';

/**
  ---------------------------------------------------------------------------
  rate_limit_hit: count a hit if the bucket allows it (atomic per bucket)
  ---------------------------------------------------------------------------
  Returns 0 when the hit was counted, else the seconds to wait (nothing is
  counted then, so a client hammering a closed bucket does not extend its own
  wait). A transaction-scoped advisory lock per bucket makes check-and-count
  one step, so two instances cannot both take the last slot.
 */
create or replace function public.rate_limit_hit(
	p_bucket text,
	p_limit integer,
	p_window_seconds integer
) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_wait integer;
begin
	perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_bucket, 0));
	v_wait := public.rate_limit_status(p_bucket, p_limit, p_window_seconds);
	if v_wait > 0 then
		return v_wait;
	end if;
	insert into public.rate_limit_hits (bucket) values (p_bucket);
	perform public.rate_limit_prune();
	return 0;
end;
$$;

comment on function public.rate_limit_hit is 'Counts a hit on p_bucket if it has fewer than p_limit in the last p_window_seconds; returns 0, else the seconds to wait.';

/**
  rate_limit_record: count hits unconditionally (a failed sign-in counts even
  when its bucket is already closed, e.g. the account bucket while the IP
  bucket was the one checked).
 */
create or replace function public.rate_limit_record(p_buckets text[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
	insert into public.rate_limit_hits (bucket) select unnest(p_buckets);
	perform public.rate_limit_prune();
end;
$$;

comment on function public.rate_limit_record is 'Counts one hit on each bucket, whatever its state.';

/**
  rate_limit_prune: hits older than a day are past every window in use; they
  go, a little at a time, so the table stays the size of one day's traffic.
 */
create or replace function public.rate_limit_prune()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits
	where id in (
		select id from public.rate_limit_hits
		where hit_at < now() - interval '1 day'
		order by hit_at
		limit 500
	);
$$;

comment on function public.rate_limit_prune is 'Deletes up to 500 hits older than one day (called by every hit).';

revoke all on function public.rate_limit_status(text, integer, integer) from public, anon, authenticated;
revoke all on function public.rate_limit_hit(text, integer, integer) from public, anon, authenticated;
revoke all on function public.rate_limit_record(text[]) from public, anon, authenticated;
revoke all on function public.rate_limit_prune() from public, anon, authenticated;
grant execute on function public.rate_limit_status(text, integer, integer) to service_role;
grant execute on function public.rate_limit_hit(text, integer, integer) to service_role;
grant execute on function public.rate_limit_record(text[]) to service_role;
grant execute on function public.rate_limit_prune() to service_role;
