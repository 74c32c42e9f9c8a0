/**
  ---------------------------------------------------------------------------
  Member statistics: search words only where they find the business
  ---------------------------------------------------------------------------
  A page sends the search text a visitor came from with a profile view, and
  anyone can send a page's batch: left unchecked, any text would enter a
  business's top search words (and its CSV exports). A text is counted under
  a business only when it is a search that could have shown that business:
  the site's own search, search_tsquery against the business's
  search_vector, finds it. So the words a report lists are words of the
  chamber's search that match the business, never arbitrary text. A text
  must also be as the table keeps it (lower case, trimmed, at most 100
  characters): one that is not is dropped, not an error for the whole batch.
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
			and (b.kind = 'search') = (b.words <> '')
			and (
				b.kind <> 'search'
				or (
					char_length(b.words) <= 100
					and b.words = lower(btrim(b.words))
					-- The search the site runs finds this business with these words.
					and coalesce(p.search_vector @@ public.search_tsquery(p_tenant_id, b.words), false)
					and (
						exists (
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
				)
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

comment on function public.record_business_stats is 'Adds one batch of summed counts to business_stats for the chamber''s published businesses (search words only where the site''s search finds the business with them); answers how many counters it touched. Service role only (/api/stats).';

revoke all on function public.record_business_stats(uuid, date, jsonb) from public, anon, authenticated;
grant execute on function public.record_business_stats(uuid, date, jsonb) to service_role;
