/**
  ---------------------------------------------------------------------------
  Business card record views
  ---------------------------------------------------------------------------
  The fields of the business card record (spec 01 §3), plus tenant_id so
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

comment on view public.business_detail_view is 'One business card record per published profile (spec 01 §3).';

create or replace view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;

comment on view public.business_cards_view is 'The list view of business card records; same record as business_detail_view.';

/**
  ---------------------------------------------------------------------------
  Matching: the one definition of which businesses a search and filters hit
  ---------------------------------------------------------------------------
  Full text (English stemming, websearch syntax that never raises) or, for
  typos, trigram word similarity against name, categories and keywords.
  Every argument arrives as a parameter; null or blank means 'no filter'.
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
language sql
stable
security invoker
set search_path = public, extensions, pg_temp
set pg_trgm.word_similarity_threshold = 0.5
as $$
	with q as (
		select
			nullif(trim(coalesce(p_search_query, '')), '') as text,
			websearch_to_tsquery('english', coalesce(p_search_query, '')) as ts
	)
	select
		p.id,
		case
			when q.text is null then 0::real
			else ts_rank_cd(p.search_vector, q.ts) + word_similarity(lower(q.text), p.search_text)
		end
	from public.profiles p
	cross join q
	where p.tenant_id = p_tenant_id
		and p.published
		and (nullif(p_category, '') is null or p_category = any (p.categories))
		and (nullif(p_city, '') is null or p.city = p_city)
		and (nullif(p_county, '') is null or p.county = p_county)
		and (nullif(p_zip, '') is null or p.zip = p_zip)
		and (not coalesce(p_new_members_only, false) or p.member_since_date >= current_date - 90)
		and (
			nullif(p_affiliation, '') is null
			or exists (
				select 1 from public.profile_affiliations a
				where a.profile_id = p.id and a.aff_name = p_affiliation and a.list_available_on_website
			)
		)
		and (
			q.text is null
			or p.search_vector @@ q.ts
			or lower(q.text) <% p.search_text
		);
$$;

comment on function public.matching_profiles is 'Ids (and relevance) of the published businesses of a tenant that match a search and filters.';

/**
  ---------------------------------------------------------------------------
  The remote procedures of spec 01 §7
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
	select v.*
	from public.matching_profiles(
		p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only, p_affiliation
	) m
	join public.profiles p on p.id = m.profile_id
	join public.business_cards_view v on v.id = m.profile_id
	-- Position 1 is the top: 'asc' puts premium listings first.
	order by
		case when lower(p_sort_direction) = 'desc' then -p.listing_position else p.listing_position end,
		lower(p.report_name),
		p.id
	limit greatest(coalesce(p_limit, 24), 0)
	offset greatest(coalesce(p_offset, 0), 0);
$$;

comment on function public.get_businesses_with_listing_position is 'A page of matching businesses ordered by listing position, then name.';

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
	select v.*
	from public.matching_profiles(
		p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only, p_affiliation
	) m
	join public.profiles p on p.id = m.profile_id
	join public.business_cards_view v on v.id = m.profile_id
	-- Hashing id with the seed shuffles within each position, the same way for the same seed,
	-- so pages of one visitor's session never overlap.
	order by
		case when lower(p_sort_direction) = 'desc' then -p.listing_position else p.listing_position end,
		md5(p.id::text || ':' || coalesce(p_seed, 0.5)::text)
	limit greatest(coalesce(p_limit, 24), 0)
	offset greatest(coalesce(p_offset, 0), 0);
$$;

comment on function public.get_businesses_with_listing_position_randomized is 'A page of matching businesses by listing position, shuffled within a position by a seed.';

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
