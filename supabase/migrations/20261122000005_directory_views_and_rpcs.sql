/**
  ---------------------------------------------------------------------------
  Business card record views
  ---------------------------------------------------------------------------
  The fields of the business card record, plus tenant_id so
  every read can be scoped to one chamber. security_invoker: the caller's
  row-level security applies, not the view owner's.
 */

create or replace view public.business_detail_view with (security_invoker = true) as
select
	p.tenant_id,
	p.id,
	p.report_name,
	p.city,
	p.county,
	p.zip,
	p.address1,
	p.address2,
	p.state,
	p.work_phone,
	p.website,
	p.email,
	p.featured,
	p.categories,
	p.membership_rank,
	p.membership_level_name,
	case
		when p.member_since_date is null then '[]'::jsonb
		else jsonb_build_array(jsonb_build_object(
			'member_since_date', p.member_since_date,
			'member_since_year', extract(year from p.member_since_date)::integer
		))
	end as member_since,
	extract(year from p.member_since_date)::integer as member_since_year,
	p.weblink_profile_id,
	p.main_related_profile_name,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'description', l.description,
			'short_description', l.short_description,
			'categories', to_jsonb(l.categories),
			'active', l.active,
			'primary_listing', l.primary_listing
		) order by l.position)
		from public.listings l where l.profile_id = p.id
	), '[]'::jsonb) as listings,
	coalesce((
		select jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url) order by s.position)
		from public.social_media s where s.profile_id = p.id
	), '[]'::jsonb) as social_media,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'icon', a.icon,
			'icon_text', a.icon_text,
			'icon_url', a.icon_url,
			'aff_code', a.aff_code,
			'aff_name', a.aff_name,
			'list_available_on_website', a.list_available_on_website,
			'profile_id', a.profile_id,
			'member_count', (
				select count(*) from public.profile_affiliations a2
				where a2.tenant_id = a.tenant_id and a2.aff_name = a.aff_name
			)
		) order by a.position)
		from public.profile_affiliations a where a.profile_id = p.id
	), '[]'::jsonb) as profile_affiliations,
	coalesce((
		select jsonb_agg(jsonb_build_object(
			'content_type', w.content_type,
			'content_title', w.content_title,
			'full_url', w.full_url,
			'rel_url', w.rel_url
		) order by w.position)
		from public.web_content w where w.profile_id = p.id
	), '[]'::jsonb) as web_content,
	p.logo_url
from public.profiles p
-- The service role bypasses row-level security; unpublished rows stay out of every public read anyway.
where p.published;

comment on view public.business_detail_view is 'One business card record per published profile.';

create or replace view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;

comment on view public.business_cards_view is 'The list view of business card records; same record as business_detail_view.';

/**
  ---------------------------------------------------------------------------
  Search words: the vocabulary that typos are corrected against
  ---------------------------------------------------------------------------
  Trigram similarity against every profile's text is too slow at 50,000
  businesses; against the tenant's distinct words (names, categories,
  keywords) it is cheap and index-backed, the pattern pg_trgm's manual
  recommends for spelling suggestions. Words are only ever added: a stale
  word merely suggests a spelling that matches nothing.
 */
create table if not exists public.search_words (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	word text not null check (word ~ '^[a-z0-9]+$'),
	primary key (tenant_id, word)
);

comment on table public.search_words is 'Distinct words of a tenant''s business names, categories and keywords, for typo-tolerant search.';

create index if not exists search_words_word_trgm_idx on public.search_words using gin (word gin_trgm_ops);

-- Read only by security-definer functions below: no policy means no direct access.
alter table public.search_words enable row level security;

create or replace function public.profiles_search_words_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	insert into public.search_words (tenant_id, word)
	select distinct n.tenant_id, w
	from changed_rows n
	cross join lateral regexp_split_to_table(n.search_text, '[^a-z0-9]+') w
	where length(w) between 3 and 40
	on conflict do nothing;
	return null;
end;
$$;

drop trigger if exists profiles_search_words_after_insert on public.profiles;
create trigger profiles_search_words_after_insert after insert on public.profiles
	referencing new table as changed_rows
	for each statement execute function public.profiles_search_words_trigger();

drop trigger if exists profiles_search_words_after_update on public.profiles;
create trigger profiles_search_words_after_update after update on public.profiles
	referencing new table as changed_rows
	for each statement execute function public.profiles_search_words_trigger();

/**
  The tsquery for a visitor's search text: each word (websearch syntax, so no
  input ever raises) OR its close spellings from the tenant's vocabulary, the
  words ANDed. Null for blank input, meaning 'no search'.
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
		from regexp_split_to_table(lower(coalesce(p_search_query, '')), '[^a-z0-9]+')
			with ordinality t(term, ord)
		where t.term <> ''
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

comment on function public.search_tsquery is 'Full-text query for search text, each word widened to its close spellings in the tenant''s vocabulary.';

/**
  ---------------------------------------------------------------------------
  Matching: the one definition of which businesses a search and filters hit
  ---------------------------------------------------------------------------
  English stemming handles word forms, the vocabulary handles typos, and every
  predicate is index-friendly. Built as text with only the filters given,
  and planned with the values (EXECUTE … USING), so each search uses the
  right index; every value arrives as a parameter, never in the SQL text.
  Null or blank means 'no filter'.
 */
create or replace function public.matching_profiles(
	p_tenant_id uuid,
	p_category text default null,
	p_search_query text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_new_members_only boolean default false,
	p_affiliation text default null
) returns table (profile_id uuid, relevance real)
language plpgsql
stable
security invoker
set search_path = public, extensions, pg_temp
as $$
declare
	v_query tsquery := public.search_tsquery(p_tenant_id, p_search_query);
	v_sql text := 'select p.id, '
		|| case when v_query is null then '0::real' else 'ts_rank_cd(p.search_vector, $2)' end
		|| ' from public.profiles p where p.tenant_id = $1 and p.published';
begin
	if nullif(trim(coalesce(p_search_query, '')), '') is not null then
		-- Search text that yields no query at all (only punctuation) matches nothing.
		if v_query is null then
			return;
		end if;
		v_sql := v_sql || ' and p.search_vector @@ $2';
	end if;
	if nullif(p_category, '') is not null then
		v_sql := v_sql || ' and p.categories @> array[$3]';
	end if;
	if nullif(p_city, '') is not null then
		v_sql := v_sql || ' and p.city = $4';
	end if;
	if nullif(p_county, '') is not null then
		v_sql := v_sql || ' and p.county = $5';
	end if;
	if nullif(p_zip, '') is not null then
		v_sql := v_sql || ' and p.zip = $6';
	end if;
	if coalesce(p_new_members_only, false) then
		v_sql := v_sql || ' and p.member_since_date >= current_date - 90';
	end if;
	if nullif(p_affiliation, '') is not null then
		v_sql := v_sql || ' and exists (select 1 from public.profile_affiliations a'
			|| ' where a.profile_id = p.id and a.aff_name = $7 and a.list_available_on_website)';
	end if;
	return query execute v_sql
		using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation;
end;
$$;

comment on function public.matching_profiles is 'Ids (and relevance) of the published businesses of a tenant that match a search and filters.';

/**
  ---------------------------------------------------------------------------
  The remote procedures the directory calls
  ---------------------------------------------------------------------------
 */
create or replace function public.count_businesses_with_category(
	p_tenant_id uuid,
	p_category text default null,
	p_search_query text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_new_members_only boolean default false,
	p_affiliation text default null
) returns bigint
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	select count(*) from public.matching_profiles(
		p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only, p_affiliation
	);
$$;

comment on function public.count_businesses_with_category is 'How many businesses match the search and filters.';

create or replace function public.get_businesses_with_listing_position_randomized(
	p_tenant_id uuid,
	p_category text default null,
	p_search_query text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_new_members_only boolean default false,
	p_sort_direction text default 'asc',
	p_limit integer default 24,
	p_offset integer default 0,
	p_seed double precision default 0.5,
	p_affiliation text default null
) returns setof public.business_cards_view
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	with page as (
		select
			p.id,
			row_number() over (
				order by
					case when lower(p_sort_direction) = 'desc' then -p.listing_position else p.listing_position end,
					-- Hashing id with the seed shuffles within each position, the same way for the same
					-- seed, so the pages of one visitor's session never overlap; no seed keeps name order.
					case when p_seed is not null then md5(p.id::text || ':' || p_seed::text) end,
					lower(p.report_name),
					p.id
			) as n
		from public.matching_profiles(
			p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only, p_affiliation
		) m
		join public.profiles p on p.id = m.profile_id
		order by n
		limit greatest(coalesce(p_limit, 24), 0)
		offset greatest(coalesce(p_offset, 0), 0)
	)
	select v.* from page join public.business_cards_view v on v.id = page.id order by page.n;
$$;

comment on function public.get_businesses_with_listing_position_randomized is 'A page of matching businesses by listing position, shuffled within a position by a seed.';

create or replace function public.get_businesses_with_listing_position(
	p_tenant_id uuid,
	p_category text default null,
	p_search_query text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_new_members_only boolean default false,
	p_sort_direction text default 'asc',
	p_limit integer default 24,
	p_offset integer default 0,
	p_affiliation text default null
) returns setof public.business_cards_view
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	-- Position 1 is the top: 'asc' puts premium listings first; no seed keeps name order.
	select * from public.get_businesses_with_listing_position_randomized(
		p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only,
		p_sort_direction, p_limit, p_offset, null, p_affiliation
	);
$$;

comment on function public.get_businesses_with_listing_position is 'A page of matching businesses ordered by listing position, then name.';

create or replace function public.get_affiliation_counts(
	p_tenant_id uuid,
	p_min_count integer default 1
) returns table (name text, count bigint)
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	select a.aff_name, count(distinct a.profile_id)
	from public.profile_affiliations a
	join public.profiles p on p.id = a.profile_id and p.published
	where a.tenant_id = p_tenant_id
		and a.list_available_on_website
		and trim(a.aff_name) <> ''
	group by a.aff_name
	having count(distinct a.profile_id) >= coalesce(p_min_count, 1)
	order by a.aff_name;
$$;

comment on function public.get_affiliation_counts is 'Member groups shown on the website with how many published businesses belong to each.';

create or replace function public.list_categories(p_tenant_id uuid)
returns table (name text, count bigint)
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	select trim(c.name), count(*)
	from public.profiles p
	cross join lateral unnest(p.categories) as c(name)
	where p.tenant_id = p_tenant_id and p.published and trim(c.name) <> ''
	group by trim(c.name)
	order by count(*) desc, trim(c.name);
$$;

comment on function public.list_categories is 'Categories of a tenant with the number of published businesses in each, most popular first.';

create or replace function public.get_filter_options(
	p_tenant_id uuid,
	p_type text,
	p_category text default null,
	p_search_query text default null
) returns table (name text, count bigint)
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	select o.name, count(*)
	from public.matching_profiles(p_tenant_id, p_category, p_search_query) m
	join public.profiles p on p.id = m.profile_id
	cross join lateral (
		select case p_type
			when 'cities' then p.city
			when 'counties' then p.county
			when 'zips' then p.zip
		end as name
	) o
	where p_type in ('cities', 'counties', 'zips') and trim(coalesce(o.name, '')) <> ''
	group by o.name
	union all
	select a.aff_name, count(distinct a.profile_id)
	from public.matching_profiles(p_tenant_id, p_category, p_search_query) m
	join public.profile_affiliations a on a.profile_id = m.profile_id
	where p_type = 'affiliations' and a.list_available_on_website and trim(a.aff_name) <> ''
	group by a.aff_name
	order by 1;
$$;

comment on function public.get_filter_options is 'Values of one search filter (cities, counties, zips or affiliations) with counts, within a category and search.';
