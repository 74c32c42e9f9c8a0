/**
  ---------------------------------------------------------------------------
  Search words: from published businesses only
  ---------------------------------------------------------------------------
  search_tsquery widens each search word to its close spellings in the
  tenant's vocabulary, and anyone may call it. The vocabulary was filled
  from every profile and never pruned, so it suggested (and so revealed)
  words of unpublished and deleted businesses and old names.

  Each word now counts the published businesses that use it, kept by the
  same statement-level triggers (one pass per import batch, not one per
  row): +1 for a published row that appears, -1 for one that goes (deleted,
  unpublished, or its words changed), and a word no business uses any more is
  removed. Nothing is rebuilt per tenant, so an import costs one pass over
  the rows it writes, as before.
 */

alter table public.search_words add column if not exists businesses integer not null default 0;

comment on table public.search_words is 'Distinct words of the names, categories and keywords of a tenant''s published businesses, for typo-tolerant search.';
comment on column public.search_words.businesses is 'How many published businesses of the tenant use the word; the row goes when none does.';

-- The words left unused by a change are found by this, not by reading the whole vocabulary.
create index if not exists search_words_unused_idx on public.search_words (tenant_id)
	where businesses <= 0;

/**
  Applies +1/-1 per (business row, sign) to the counts of the row's words: a
  word counts once per business however often the business uses it.
 */
create or replace function public.search_words_apply(
	p_tenant_ids uuid[],
	p_texts text[],
	p_signs integer[]
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
	with deltas as (
		select c.tenant_id, w.word, sum(c.sign)::integer as delta
		from unnest(p_tenant_ids, p_texts, p_signs) c(tenant_id, search_text, sign)
		cross join lateral (
			select distinct t as word
			from regexp_split_to_table(c.search_text, '[^a-z0-9]+') t
			where length(t) between 3 and 40
		) w
		group by c.tenant_id, w.word
		having sum(c.sign) <> 0
	),
	updated as (
		update public.search_words s
		set businesses = s.businesses + d.delta
		from deltas d
		where s.tenant_id = d.tenant_id and s.word = d.word
		returning s.tenant_id, s.word
	)
	-- New words only; a negative count for a missing row means its tenant is being deleted.
	insert into public.search_words as s (tenant_id, word, businesses)
	select d.tenant_id, d.word, d.delta
	from deltas d
	where d.delta > 0
		and not exists (select 1 from updated u where u.tenant_id = d.tenant_id and u.word = d.word)
	on conflict (tenant_id, word) do update set businesses = s.businesses + excluded.businesses;

	delete from public.search_words s
	where s.tenant_id = any (p_tenant_ids) and s.businesses <= 0;
end;
$$;

comment on function public.search_words_apply(uuid[], text[], integer[]) is 'Adds (sign 1) or removes (sign -1) the words of business rows to or from their tenant''s vocabulary counts; drops words no business uses.';

revoke all on function public.search_words_apply(uuid[], text[], integer[]) from public, anon, authenticated;
grant execute on function public.search_words_apply(uuid[], text[], integer[]) to service_role;

-- Redefined here (first in migration 20261122000005): the words of rows that appear or go.
create or replace function public.profiles_search_words_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_tenant_ids uuid[];
	v_texts text[];
	v_signs integer[];
begin
	if tg_op = 'INSERT' then
		select array_agg(n.tenant_id), array_agg(n.search_text), array_agg(1)
		into v_tenant_ids, v_texts, v_signs
		from new_rows n
		where n.published;
	elsif tg_op = 'DELETE' then
		select array_agg(o.tenant_id), array_agg(o.search_text), array_agg(-1)
		into v_tenant_ids, v_texts, v_signs
		from old_rows o
		where o.published;
	else
		-- Only rows whose words or publication changed; other updates cost a join, no words.
		select array_agg(c.tenant_id), array_agg(c.search_text), array_agg(c.sign)
		into v_tenant_ids, v_texts, v_signs
		from (
			select o.tenant_id, o.search_text, -1 as sign
			from old_rows o
			join new_rows n on n.id = o.id
			where o.published
				and (not n.published or n.search_text <> o.search_text or n.tenant_id <> o.tenant_id)
			union all
			select n.tenant_id, n.search_text, 1
			from new_rows n
			join old_rows o on o.id = n.id
			where n.published
				and (not o.published or n.search_text <> o.search_text or n.tenant_id <> o.tenant_id)
		) c;
	end if;
	if v_tenant_ids is not null then
		perform public.search_words_apply(v_tenant_ids, v_texts, v_signs);
	end if;
	return null;
end;
$$;

comment on function public.profiles_search_words_trigger() is 'Keeps search_words equal to the words of the published businesses (statement-level, after insert, update and delete on profiles).';

revoke all on function public.profiles_search_words_trigger() from public, anon, authenticated;

drop trigger if exists profiles_search_words_after_insert on public.profiles;
create trigger profiles_search_words_after_insert after insert on public.profiles
	referencing new table as new_rows
	for each statement execute function public.profiles_search_words_trigger();

drop trigger if exists profiles_search_words_after_update on public.profiles;
create trigger profiles_search_words_after_update after update on public.profiles
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profiles_search_words_trigger();

drop trigger if exists profiles_search_words_after_delete on public.profiles;
create trigger profiles_search_words_after_delete after delete on public.profiles
	referencing old table as old_rows
	for each statement execute function public.profiles_search_words_trigger();

-- The vocabulary as it should be: the words of today's published businesses, counted.
delete from public.search_words;
select public.search_words_apply(
	coalesce(array_agg(p.tenant_id), '{}'),
	coalesce(array_agg(p.search_text), '{}'),
	coalesce(array_agg(1), '{}')
)
from public.profiles p
where p.published;

/**
  ---------------------------------------------------------------------------
  search_tsquery: bounded input
  ---------------------------------------------------------------------------
  Redefined here (first in migration 20261122000005; the body is unchanged
  but for the limits): anon may call it directly (migration
  20261123000052), so it reads at most the first 200 characters and the
  first 10 words itself, whatever its caller cut before.
 */
create or replace function public.search_tsquery(p_tenant_id uuid, p_search_query text)
returns tsquery
language sql
stable
security definer
set search_path = public, extensions, pg_temp
as $$
	with terms as (
		select t.term, t.ord
		from regexp_split_to_table(lower(left(coalesce(p_search_query, ''), 200)), '[^a-z0-9]+')
			with ordinality t(term, ord)
		where t.term <> ''
		order by t.ord
		limit 10
	),
	alternatives as (
		select
			terms.ord,
			websearch_to_tsquery('english', terms.term) as exact,
			(
				select to_tsquery('english', string_agg(quote_literal(sw.word), ' | '))
				from (
					select w.word
					from public.search_words w
					where length(terms.term) >= 3 and w.tenant_id = p_tenant_id
						-- % finds candidates through the trigram index at the session's threshold
						-- (pg_trgm's default, 0.3); the explicit test keeps 0.3 whatever a session set.
						and w.word % terms.term and similarity(w.word, terms.term) >= 0.3
					order by similarity(w.word, terms.term) desc
					limit 5
				) sw
			) as close
		from terms
	),
	per_term as (
		select
			ord,
			case
				when close is null or close = ''::tsquery then exact
				when exact = ''::tsquery then close
				else exact || close
			end as query
		from alternatives
	)
	-- Stop words with no close spelling drop out; a query left with no words is null.
	select string_agg('(' || query::text || ')', ' & ' order by ord)::tsquery
	from per_term
	where query <> ''::tsquery;
$$;

comment on function public.search_tsquery(uuid, text) is 'Full-text query for search text (its first 200 characters, first 10 words), each word widened to its close spellings among the words of the tenant''s published businesses.';
