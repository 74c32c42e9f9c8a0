/**
  ---------------------------------------------------------------------------
  Membership rank: the fallback rule, in SQL
  ---------------------------------------------------------------------------
  The rank given on the profile; else the configured hierarchy (a jsonb list
  of {name, rank}, as chamber_config.search_page.membershipHierarchy) by exact
  name, then by partial name (the level name contains the tier's name, the
  longest tier wins); else by keyword; else 0. Names compare case-insensitively
  and without edge spaces. membershipRank in src/features/directory/directory.ts
  is the same rule; tests/db/directory.test.ts runs both on one table of cases.
 */
create or replace function public.membership_rank(
	p_level_name text,
	p_given_rank integer default null,
	p_hierarchy jsonb default '[]'::jsonb
) returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
	with level as (
		select lower(trim(coalesce(p_level_name, ''))) as name
	),
	tiers as (
		select lower(trim(coalesce(t.value ->> 'name', ''))) as name, (t.value ->> 'rank')::integer as rank, t.position
		from jsonb_array_elements(
			case when jsonb_typeof(p_hierarchy) = 'array' then p_hierarchy else '[]'::jsonb end
		) with ordinality as t(value, position)
	)
	select coalesce(
		p_given_rank,
		(select 0 from level where level.name = ''),
		(select tiers.rank from tiers, level where tiers.name = level.name order by tiers.position limit 1),
		(
			select tiers.rank from tiers, level
			where tiers.name <> '' and strpos(level.name, tiers.name) > 0
			order by length(tiers.name) desc, tiers.position
			limit 1
		),
		(
			select k.rank
			from (values
				(1, 'board', 6),
				(2, 'untethered', 5),
				(3, 'trustee', 4),
				(4, 'chairman', 3),
				(5, 'executive', 2),
				(6, 'corporate', 2),
				(7, 'business', 1)
			) as k(position, keyword, rank), level
			where strpos(level.name, k.keyword) > 0
			order by k.position
			limit 1
		),
		0
	);
$$;

comment on function public.membership_rank is 'Sort rank of a membership level: given rank, else configured hierarchy (exact, then partial name), else keyword, else 0.';

/**
  ---------------------------------------------------------------------------
  The search page's one call: filters, all nine sorts and the page in SQL
  ---------------------------------------------------------------------------
  Matching is matching_profiles (the one definition of a hit). Sorting and
  paging happen on bare profile columns; only the page's rows are then built
  into card records, so a tenant of 50,000 businesses stays fast. Every row
  carries the total of matches (count(*) over ()).

  Sorts: nameAsc, nameDesc; membershipHighToLow/LowToHigh by
  rank, then name; listingPositionHighToLow ('asc': position 1 first) and
  LowToHigh ('desc'), then name; their Random variants shuffle within a
  position, and random shuffles everything, by a hash of id and seed: the same
  seed gives the same order, so one visitor's pages never overlap. Unknown
  sorts read as nameAsc.
 */
create or replace function public.search_businesses(
	p_tenant_id uuid,
	p_search_query text default null,
	p_category text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_affiliation text default null,
	p_new_members_only boolean default false,
	p_sort text default 'nameAsc',
	p_hierarchy jsonb default '[]'::jsonb,
	p_seed double precision default 0.5,
	p_limit integer default 24,
	p_offset integer default 0
) returns table (total bigint, card jsonb)
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	-- A tenant has a handful of levels: rank each once, not once per business.
	with levels as materialized (
		select l.name, public.membership_rank(l.name, null, p_hierarchy) as rank
		from (select distinct p.membership_level_name as name from public.profiles p where p.tenant_id = p_tenant_id) l
	),
	keyed as (
		select
			p.id,
			lower(p.report_name) as sort_name,
			count(*) over () as total,
			case p_sort
				when 'membershipHighToLow' then -coalesce(p.membership_rank, levels.rank)
				when 'membershipLowToHigh' then coalesce(p.membership_rank, levels.rank)
				when 'listingPositionHighToLow' then p.listing_position
				when 'listingPositionHighToLowRandom' then p.listing_position
				when 'listingPositionLowToHigh' then -p.listing_position
				when 'listingPositionLowToHighRandom' then -p.listing_position
				else 0
			end as k_order,
			case
				when p_sort in ('random', 'listingPositionHighToLowRandom', 'listingPositionLowToHighRandom')
				then md5(p.id::text || ':' || coalesce(p_seed, 0.5)::text)
			end as k_shuffle,
			case when p_sort = 'nameDesc' then lower(p.report_name) end as k_name_desc
		from public.matching_profiles(
			p_tenant_id, p_category, p_search_query, p_city, p_county, p_zip, p_new_members_only, p_affiliation
		) m
		join public.profiles p on p.id = m.profile_id
		join levels on levels.name = p.membership_level_name
	),
	page as (
		select * from keyed
		order by k_order, k_shuffle, k_name_desc desc, sort_name, id
		limit greatest(coalesce(p_limit, 24), 0)
		offset greatest(coalesce(p_offset, 0), 0)
	)
	select page.total, to_jsonb(v)
	from page
	join public.business_cards_view v on v.id = page.id
	order by page.k_order, page.k_shuffle, page.k_name_desc desc, page.sort_name, page.id;
$$;

comment on function public.search_businesses is 'One page of matching business card records in one of the nine directory sorts, each row with the total number of matches.';

/**
  ---------------------------------------------------------------------------
  Featured business candidates
  ---------------------------------------------------------------------------
  Up to 500 published businesses, picked at random, that qualify under the
  strategy: membership (level among p_levels, case-insensitive), affiliation
  (member of that group, shown on the website; no group set means anyone) or
  random (anyone). With p_require_complete only complete profiles: a phone or
  a website, plus a street address (completeProfile in directory.ts).
 */
create or replace function public.featured_business_candidates(
	p_tenant_id uuid,
	p_strategy text default 'membership',
	p_levels text[] default array['trustee', 'chairman'],
	p_affiliation text default null,
	p_require_complete boolean default true,
	p_limit integer default 500
) returns setof public.business_cards_view
language sql
volatile
security invoker
set search_path = public, pg_temp
as $$
	select v.*
	from (
		select p.id
		from public.profiles p
		where p.tenant_id = p_tenant_id
			and p.published
			and (
				p_strategy is distinct from 'membership'
				or lower(trim(p.membership_level_name)) in (
					select lower(trim(l)) from unnest(coalesce(p_levels, '{}')) l
				)
			)
			and (
				p_strategy is distinct from 'affiliation'
				or nullif(trim(coalesce(p_affiliation, '')), '') is null
				or exists (
					select 1 from public.profile_affiliations a
					where a.profile_id = p.id
						and a.list_available_on_website
						and lower(trim(a.aff_name)) = lower(trim(p_affiliation))
				)
			)
			and (
				not coalesce(p_require_complete, true)
				or ((trim(p.work_phone) <> '' or trim(p.website) <> '') and trim(p.address1) <> '')
			)
		order by random()
		limit least(greatest(coalesce(p_limit, 500), 0), 500)
	) c
	join public.business_cards_view v on v.id = c.id;
$$;

comment on function public.featured_business_candidates is 'Up to 500 random published businesses eligible to be featured on the home page under a strategy.';
