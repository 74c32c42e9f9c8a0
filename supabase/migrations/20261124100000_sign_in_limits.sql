/**
  ---------------------------------------------------------------------------
  Sign-in limits: counted before the password is checked
  ---------------------------------------------------------------------------
  A limit checked first and counted after a failed check lets a burst
  through: a hundred concurrent guesses all pass the check before the first
  failure is counted. rate_limit_take counts the attempt in every bucket it
  names in one step, under a lock per bucket, or counts nothing and answers
  how long to wait when any bucket is full; only a counted attempt goes on to
  the password check. A bucket may be named with several windows (5 in 5
  minutes, 10 in an hour, 20 in a day): the waits grow as failures go on.
  rate_limit_clear forgets a bucket (a sign-in that succeeded clears its
  address-and-account bucket) and rate_limit_refund takes back the newest hit
  of one (a sign-in that succeeded does not count against its address: an
  office where the whole staff signs in is not a burst). Nothing counts a hit unconditionally any more:
  rate_limit_record goes.
 */

drop function if exists public.rate_limit_record(text[]);

create or replace function public.rate_limit_take(p_limits jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_bucket text;
	v_wait integer;
begin
	-- One lock per bucket, taken in a fixed order so overlapping callers cannot deadlock.
	for v_bucket in
		select distinct l ->> 'bucket' from jsonb_array_elements(p_limits) l order by 1
	loop
		perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || v_bucket, 0));
	end loop;
	select coalesce(max(public.rate_limit_status(
		l ->> 'bucket', (l ->> 'limit')::integer, (l ->> 'window')::integer
	)), 0)
	into v_wait
	from jsonb_array_elements(p_limits) l;
	if v_wait > 0 then
		return v_wait;
	end if;
	insert into public.rate_limit_hits (bucket)
	select distinct l ->> 'bucket' from jsonb_array_elements(p_limits) l;
	perform public.rate_limit_prune();
	return 0;
end;
$$;

comment on function public.rate_limit_take is 'Counts one hit in each bucket of p_limits ([{bucket, limit, window}]) when all have room, atomically; returns 0, else the seconds to wait (and counts nothing).';

create or replace function public.rate_limit_clear(p_bucket text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits where bucket = p_bucket;
$$;

comment on function public.rate_limit_clear is 'Forgets every hit of a bucket.';

create or replace function public.rate_limit_refund(p_bucket text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.rate_limit_hits
	where id = (
		select id from public.rate_limit_hits where bucket = p_bucket order by hit_at desc, id desc limit 1
	);
$$;

comment on function public.rate_limit_refund is 'Takes back the newest hit of a bucket.';

revoke all on function public.rate_limit_take(jsonb) from public, anon, authenticated;
revoke all on function public.rate_limit_refund(text) from public, anon, authenticated;
grant execute on function public.rate_limit_refund(text) to service_role;
revoke all on function public.rate_limit_clear(text) from public, anon, authenticated;
grant execute on function public.rate_limit_take(jsonb) to service_role;
grant execute on function public.rate_limit_clear(text) to service_role;
