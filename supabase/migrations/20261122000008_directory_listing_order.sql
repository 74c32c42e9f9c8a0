/**
  ---------------------------------------------------------------------------
  Directory pages read in index order
  ---------------------------------------------------------------------------
  At 50,000 businesses, matching every business, sorting all of them and
  counting them with a window made each search call cost 0.6–3 s on PGlite.
  Here a page without search text is read from an index already in the
  sort's order (LIMIT 24 OFFSET n on a btree), the total comes from a kept
  count, and the card records are built for the page's rows only, with the
  affiliation member counts kept too instead of counted per card.

  The order of every sort is defined once, as an ORDER BY over plain
  columns (directory_page's sort path); the index path reads the same order
  segment by segment. tests/db/listing-order.test.ts holds both to the rule.
 */

/**
  ---------------------------------------------------------------------------
  Sort keys on profiles
  ---------------------------------------------------------------------------
  sort_name: the name as every sort compares it (lower case), stored so the
  indexes below can answer without visiting the table (index-only scans).
  shuffle_key: a fixed 31-bit hash of the id (the first bits of its md5),
  the per-business half of the seeded random order; see directory_page.
 */
alter table public.profiles
	add column if not exists sort_name text generated always as (lower(report_name)) stored,
	add column if not exists shuffle_key integer
		generated always as ((('x' || substr(md5(id::text), 1, 8))::bit(32)::integer) & 2147483647) stored;

comment on column public.profiles.sort_name is 'lower(report_name): the name key of every directory sort.';
comment on column public.profiles.shuffle_key is 'A fixed hash of the id in [0, 2^31): the random sorts shuffle by it (directory_page).';

-- Only published businesses are ever listed, so every directory index is partial.
create index if not exists profiles_directory_name_idx
	on public.profiles (tenant_id, sort_name, id) where published;
create index if not exists profiles_directory_position_idx
	on public.profiles (tenant_id, listing_position, sort_name, id) where published;
create index if not exists profiles_directory_position_shuffle_idx
	on public.profiles (tenant_id, listing_position, shuffle_key, id) where published;
create index if not exists profiles_directory_shuffle_idx
	on public.profiles (tenant_id, shuffle_key, id) where published;
-- Membership sorts: a given rank wins, else the level's rank (membership_rank).
create index if not exists profiles_directory_level_idx
	on public.profiles (tenant_id, membership_level_name, sort_name, id)
	where published and membership_rank is null;
create index if not exists profiles_directory_rank_idx
	on public.profiles (tenant_id, membership_rank, sort_name, id)
	where published and membership_rank is not null;

-- Superseded by the name and position indexes above.
drop index if exists public.profiles_tenant_name_idx;
drop index if exists public.profiles_tenant_position_idx;

/**
  ---------------------------------------------------------------------------
  Kept counts
  ---------------------------------------------------------------------------
  business_counts: published businesses per tenant ('' row) and per category
  (a business counts once per category it lists), so '{n} businesses found'
  without filters or with a category costs one row read instead of counting
  up to 50,000 rows. Read only by definer functions: no policy.

  affiliation_counts: affiliation rows per tenant, group name and whether
  the business is published. The card record's member_count sums the rows the
  caller may see; the policies are those of profiles, so a visitor counts
  published members and the chamber's staff count them all, exactly as when
  member_count counted profile_affiliations under their policies.

  Both are recounted per tenant by statement triggers whenever a write
  changes what they count (imports write whole tenants; visitors never write).
 */
create table if not exists public.business_counts (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	category text not null,
	businesses bigint not null,
	primary key (tenant_id, category)
);

comment on table public.business_counts is 'Published businesses per tenant ('''' = all) and per category, kept by triggers on profiles.';

alter table public.business_counts enable row level security;

create table if not exists public.affiliation_counts (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	aff_name text not null,
	published boolean not null,
	members bigint not null,
	primary key (tenant_id, aff_name, published)
);

comment on table public.affiliation_counts is 'Affiliation rows per tenant, group and published flag of the business, kept by triggers; member_count of the card record.';

alter table public.affiliation_counts enable row level security;

drop policy if exists "Anyone can read member counts of published businesses" on public.affiliation_counts;
create policy "Anyone can read member counts of published businesses" on public.affiliation_counts
	for select to anon, authenticated
	using (published);

drop policy if exists "Chamber staff can read member counts of their unpublished businesses" on public.affiliation_counts;
create policy "Chamber staff can read member counts of their unpublished businesses" on public.affiliation_counts
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

create or replace function public.refresh_business_counts(p_tenant_ids uuid[])
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.business_counts where tenant_id = any (p_tenant_ids);
	insert into public.business_counts (tenant_id, category, businesses)
	select p.tenant_id, k.category, count(*)
	from public.profiles p
	cross join lateral (
		select '' as category
		union
		select c from unnest(p.categories) c where c <> ''
	) k
	where p.tenant_id = any (p_tenant_ids) and p.published
	group by p.tenant_id, k.category
	-- A concurrent recount of the same tenant may have written first.
	on conflict (tenant_id, category) do update set businesses = excluded.businesses;
$$;

create or replace function public.refresh_affiliation_counts(p_tenant_ids uuid[])
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	delete from public.affiliation_counts where tenant_id = any (p_tenant_ids);
	insert into public.affiliation_counts (tenant_id, aff_name, published, members)
	select a.tenant_id, a.aff_name, p.published, count(*)
	from public.profile_affiliations a
	join public.profiles p on p.id = a.profile_id
	where a.tenant_id = any (p_tenant_ids)
	group by a.tenant_id, a.aff_name, p.published
	on conflict (tenant_id, aff_name, published) do update set members = excluded.members;
$$;

revoke all on function public.refresh_business_counts(uuid[]) from public, anon, authenticated;
revoke all on function public.refresh_affiliation_counts(uuid[]) from public, anon, authenticated;

create or replace function public.profiles_counts_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_tenants uuid[];
begin
	if tg_op = 'INSERT' then
		-- A new business has no affiliations yet.
		select array_agg(distinct n.tenant_id) into v_tenants from new_rows n;
		if v_tenants is not null then
			perform public.refresh_business_counts(v_tenants);
		end if;
	elsif tg_op = 'DELETE' then
		-- Its affiliations go by cascade, and their own trigger recounts them.
		select array_agg(distinct o.tenant_id) into v_tenants from old_rows o;
		if v_tenants is not null then
			perform public.refresh_business_counts(v_tenants);
		end if;
	else
		-- Most updates (the search columns after a listings write) change nothing counted.
		select array_agg(distinct c.tenant_id) into v_tenants
		from (
			(
				select o.id, o.tenant_id, o.published, o.categories from old_rows o
				except all
				select n.id, n.tenant_id, n.published, n.categories from new_rows n
			)
			union all
			(
				select n.id, n.tenant_id, n.published, n.categories from new_rows n
				except all
				select o.id, o.tenant_id, o.published, o.categories from old_rows o
			)
		) c;
		if v_tenants is not null then
			perform public.refresh_business_counts(v_tenants);
			perform public.refresh_affiliation_counts(v_tenants);
		end if;
	end if;
	return null;
end;
$$;

create or replace function public.profile_affiliations_counts_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_tenants uuid[];
begin
	if tg_op = 'INSERT' then
		select array_agg(distinct n.tenant_id) into v_tenants from new_rows n;
	elsif tg_op = 'DELETE' then
		select array_agg(distinct o.tenant_id) into v_tenants from old_rows o;
	else
		select array_agg(distinct c.tenant_id) into v_tenants
		from (
			(
				select o.tenant_id, o.profile_id, o.aff_name from old_rows o
				except all
				select n.tenant_id, n.profile_id, n.aff_name from new_rows n
			)
			union all
			(
				select n.tenant_id, n.profile_id, n.aff_name from new_rows n
				except all
				select o.tenant_id, o.profile_id, o.aff_name from old_rows o
			)
		) c;
	end if;
	if v_tenants is not null then
		perform public.refresh_affiliation_counts(v_tenants);
	end if;
	return null;
end;
$$;

drop trigger if exists profiles_counts_after_insert on public.profiles;
create trigger profiles_counts_after_insert after insert on public.profiles
	referencing new table as new_rows
	for each statement execute function public.profiles_counts_trigger();

drop trigger if exists profiles_counts_after_update on public.profiles;
create trigger profiles_counts_after_update after update on public.profiles
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profiles_counts_trigger();

drop trigger if exists profiles_counts_after_delete on public.profiles;
create trigger profiles_counts_after_delete after delete on public.profiles
	referencing old table as old_rows
	for each statement execute function public.profiles_counts_trigger();

drop trigger if exists profile_affiliations_counts_after_insert on public.profile_affiliations;
create trigger profile_affiliations_counts_after_insert after insert on public.profile_affiliations
	referencing new table as new_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

drop trigger if exists profile_affiliations_counts_after_update on public.profile_affiliations;
create trigger profile_affiliations_counts_after_update after update on public.profile_affiliations
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

drop trigger if exists profile_affiliations_counts_after_delete on public.profile_affiliations;
create trigger profile_affiliations_counts_after_delete after delete on public.profile_affiliations
	referencing old table as old_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

-- Count what is already there (and recount on a re-run).
select public.refresh_business_counts(array(select t.id from public.tenants t));
select public.refresh_affiliation_counts(array(select t.id from public.tenants t));

/**
  ---------------------------------------------------------------------------
  Business card record: member_count from the kept counts
  ---------------------------------------------------------------------------
  The same record as migration 20261122000005 defines; only member_count
  changes how it is found (it counted every member of the group, per
  affiliation of every card, under the policies of profile_affiliations).
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
				select coalesce(sum(c.members), 0)::bigint from public.affiliation_counts c
				where c.tenant_id = a.tenant_id and c.aff_name = a.aff_name
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

/**
  ---------------------------------------------------------------------------
  Matching: the one definition of which businesses a search and filters hit
  ---------------------------------------------------------------------------
  The WHERE clause of every directory read, as text over profiles p with the
  values as parameters: $1 tenant, $2 tsquery, $3 category, $4 city,
  $5 county, $6 zip, $7 affiliation. Only the filters given are included, so
  each query is planned for the indexes it can use.
 */
create or replace function public.directory_match_sql(
	p_search boolean,
	p_category text,
	p_city text,
	p_county text,
	p_zip text,
	p_new_members_only boolean,
	p_affiliation text
) returns text
language sql
immutable
set search_path = ''
as $$
	select 'p.tenant_id = $1 and p.published'
		|| case when p_search then ' and p.search_vector @@ $2' else '' end
		|| case when nullif(p_category, '') is not null then ' and p.categories @> array[$3]' else '' end
		|| case when nullif(p_city, '') is not null then ' and p.city = $4' else '' end
		|| case when nullif(p_county, '') is not null then ' and p.county = $5' else '' end
		|| case when nullif(p_zip, '') is not null then ' and p.zip = $6' else '' end
		|| case when coalesce(p_new_members_only, false) then ' and p.member_since_date >= current_date - 90' else '' end
		|| case
			when nullif(p_affiliation, '') is not null then
				' and exists (select 1 from public.profile_affiliations a'
				|| ' where a.profile_id = p.id and a.aff_name = $7 and a.list_available_on_website)'
			else ''
		end;
$$;

comment on function public.directory_match_sql is 'The WHERE clause (as SQL text over profiles p, values as $1–$7) of the businesses a search and filters hit.';

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
	v_search boolean := nullif(trim(coalesce(p_search_query, '')), '') is not null;
	v_query tsquery := public.search_tsquery(p_tenant_id, p_search_query);
begin
	-- Search text that yields no query at all (only punctuation) matches nothing.
	if v_search and v_query is null then
		return;
	end if;
	return query execute 'select p.id, '
		|| case when v_search then 'ts_rank_cd(p.search_vector, $2)' else '0::real' end
		|| ' from public.profiles p where '
		|| public.directory_match_sql(v_search, p_category, p_city, p_county, p_zip, p_new_members_only, p_affiliation)
		using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation;
end;
$$;

/**
  How many businesses match: the kept count when the only filter
  is a category, else a count over the matching rows.
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
language plpgsql
stable
-- Definer rights for business_counts; every count is of published businesses, as for anyone.
security definer
set search_path = public, extensions, pg_temp
as $$
declare
	v_search boolean := nullif(trim(coalesce(p_search_query, '')), '') is not null;
	v_query tsquery;
	v_total bigint;
begin
	if not v_search
		and nullif(p_city, '') is null
		and nullif(p_county, '') is null
		and nullif(p_zip, '') is null
		and not coalesce(p_new_members_only, false)
		and nullif(p_affiliation, '') is null
	then
		select c.businesses into v_total
		from public.business_counts c
		where c.tenant_id = p_tenant_id and c.category = coalesce(p_category, '');
		return coalesce(v_total, 0);
	end if;
	if v_search then
		v_query := public.search_tsquery(p_tenant_id, p_search_query);
		if v_query is null then
			return 0;
		end if;
	end if;
	execute 'select count(*) from public.profiles p where '
		|| public.directory_match_sql(v_search, p_category, p_city, p_county, p_zip, p_new_members_only, p_affiliation)
		into v_total
		using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation;
	return v_total;
end;
$$;

comment on function public.count_businesses_with_category is 'How many businesses match the search and filters.';

/**
  ---------------------------------------------------------------------------
  One page of the directory, in order
  ---------------------------------------------------------------------------
  The sorts, each a total order; ties always fall to the name,
  then the id:
    nameAsc (and any unknown sort)   sort_name, id
    nameDesc                         sort_name desc, id
    membershipHighToLow / LowToHigh  rank desc / asc, sort_name, id, where
                                     rank is the given membership_rank, else
                                     membership_rank(level, hierarchy)
    listingPositionHighToLow         listing_position, sort_name, id ('asc':
                                     position 1, premium, first)
    listingPositionLowToHigh         listing_position desc, sort_name, id
    listingPosition…Random           listing_position (asc / desc), then the
                                     seeded shuffle
    random                           the seeded shuffle
  The seeded shuffle: the top 8 bits of shuffle_key put each business in one
  of 256 buckets; the seed orders the buckets (by md5 of seed and bucket
  number) and a bucket lists its businesses by shuffle_key, then id. The same
  seed always gives the same order, so one visitor's pages never overlap;
  another seed visits the buckets in another order, and a small chamber's
  businesses, nearly one per bucket, come out fully shuffled.

  Two ways to the same rows:
  - sort path, for a search (its matches come from the text index), at
    most 500 matches, or a filtered page so deep that walking an index and
    testing each business there would read many more rows than the
    matches: the ORDER BY above, top-N over all matches.
  - index path, otherwise: the order is cut into segments that an index
    returns already sorted (one for the name sorts and position high to
    low; one per listing position for low to high; one per rank for the
    membership sorts, merging a given rank with the levels of that rank by
    name). Segments are read in turn with OFFSET/LIMIT until the page is
    full; a segment wholly before the page is only counted. The random
    sorts go by group (one per listing position, or one): a group of at
    most 500 is sorted whole, a larger one is read bucket by bucket, each
    bucket a range of shuffle_key; a page deep inside a large group counts
    its buckets in one query first. The total is the kept count with no
    filter or a category, else one count query.
  Definer rights: it reads published businesses only, which every caller may
  see; the caller's own rights apply to the card records built from the ids.
 */
create or replace function public.directory_page(
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
) returns table (profile_id uuid, ord integer, total bigint)
language plpgsql
stable
security definer
set search_path = public, extensions, pg_temp
rows 24
as $$
declare
	-- Up to this many matches (or businesses at one listing position) are simply sorted.
	c_small constant integer := 500;
	-- Buckets a page may step through one query at a time before they are counted in one go.
	c_bucket_steps constant integer := 8;
	v_search boolean := nullif(trim(coalesce(p_search_query, '')), '') is not null;
	v_filtered boolean := nullif(p_category, '') is not null
		or nullif(p_city, '') is not null
		or nullif(p_county, '') is not null
		or nullif(p_zip, '') is not null
		or coalesce(p_new_members_only, false)
		or nullif(p_affiliation, '') is not null;
	v_sort text := case
		when p_sort in (
			'nameDesc', 'membershipHighToLow', 'membershipLowToHigh', 'listingPositionHighToLow',
			'listingPositionLowToHigh', 'listingPositionHighToLowRandom',
			'listingPositionLowToHighRandom', 'random'
		) then p_sort
		else 'nameAsc'
	end;
	v_random boolean := p_sort in (
		'random', 'listingPositionHighToLowRandom', 'listingPositionLowToHighRandom'
	);
	v_by_position boolean := p_sort in (
		'listingPositionLowToHigh', 'listingPositionHighToLowRandom', 'listingPositionLowToHighRandom'
	);
	v_seed text := coalesce(p_seed, 0.5)::text;
	v_limit integer := greatest(coalesce(p_limit, 24), 0);
	v_offset bigint := greatest(coalesce(p_offset, 0), 0);
	v_query tsquery;
	v_where text;
	v_total bigint;
	v_all bigint;
	-- Membership sorts: rank of each level held without a given rank; the given ranks.
	v_ranks jsonb := '{}'::jsonb;
	v_given integer[] := '{}';
	-- Random sorts: bucket numbers in the seed's order, and each bucket's place in it.
	v_bucket_order integer[];
	v_bucket_place integer[];
	v_bucket_counts bigint[];
	v_bucket integer;
	v_steps integer;
	v_positions integer[];
	v_order text;
	v_segments text;
	v_segment record;
	v_sql text;
	v_id uuid;
	v_count bigint;
	v_got integer;
	v_skip bigint := greatest(coalesce(p_offset, 0), 0);
	v_need integer := greatest(coalesce(p_limit, 24), 0);
	v_n integer := 0;
begin
	if v_search then
		v_query := public.search_tsquery(p_tenant_id, p_search_query);
		-- Search text that yields no query at all (only punctuation) matches nothing.
		if v_query is null then
			return;
		end if;
	else
		v_total := public.count_businesses_with_category(
			p_tenant_id, p_category, null, p_city, p_county, p_zip, p_new_members_only, p_affiliation
		);
		if v_offset >= v_total or v_limit = 0 then
			return;
		end if;
		if v_filtered then
			select c.businesses into v_all
			from public.business_counts c
			where c.tenant_id = p_tenant_id and c.category = '';
		end if;
	end if;
	v_where := public.directory_match_sql(
		v_search, p_category, p_city, p_county, p_zip, p_new_members_only, p_affiliation
	);

	if v_sort in ('membershipHighToLow', 'membershipLowToHigh') then
		-- A tenant has a handful of levels: found by one index probe each, ranked once.
		with recursive levels (name) as (
			(
				select p.membership_level_name from public.profiles p
				where p.tenant_id = p_tenant_id and p.published and p.membership_rank is null
				order by p.membership_level_name limit 1
			)
			union all
			select (
				select p.membership_level_name from public.profiles p
				where p.tenant_id = p_tenant_id and p.published and p.membership_rank is null
					and p.membership_level_name > levels.name
				order by p.membership_level_name limit 1
			)
			from levels where levels.name is not null
		)
		select coalesce(jsonb_object_agg(l.name, public.membership_rank(l.name, null, p_hierarchy)), '{}')
		into v_ranks
		from levels l where l.name is not null;

		with recursive given (rank) as (
			(
				select p.membership_rank from public.profiles p
				where p.tenant_id = p_tenant_id and p.published and p.membership_rank is not null
				order by p.membership_rank limit 1
			)
			union all
			select (
				select p.membership_rank from public.profiles p
				where p.tenant_id = p_tenant_id and p.published and p.membership_rank > given.rank
				order by p.membership_rank limit 1
			)
			from given where given.rank is not null
		)
		select coalesce(array_agg(g.rank), '{}') into v_given from given g where g.rank is not null;
	end if;

	if v_random then
		select array_agg(b order by md5(v_seed || ':' || b), b) into v_bucket_order
		from generate_series(0, 255) b;
		select array_agg(o.place::integer order by o.bucket) into v_bucket_place
		from unnest(v_bucket_order) with ordinality o (bucket, place);
	end if;

	/*
	  Sort path: a search (its matches come from the text index), few matches, or a filtered
	  page so deep that walking an index in order and testing each business there would read
	  many more rows than the matches (a row walked costs about four sorted).
	 */
	if v_search
		or v_total <= c_small
		or (v_filtered and (v_offset + v_limit) * coalesce(v_all, v_total) * 4 > v_total * v_total)
	then
		v_order := case v_sort
			when 'nameDesc' then 'p.sort_name desc, p.id'
			when 'membershipHighToLow' then
				'coalesce(p.membership_rank, ($11 ->> p.membership_level_name)::integer) desc, p.sort_name, p.id'
			when 'membershipLowToHigh' then
				'coalesce(p.membership_rank, ($11 ->> p.membership_level_name)::integer), p.sort_name, p.id'
			when 'listingPositionHighToLow' then 'p.listing_position, p.sort_name, p.id'
			when 'listingPositionLowToHigh' then 'p.listing_position desc, p.sort_name, p.id'
			when 'listingPositionHighToLowRandom' then
				'p.listing_position, ($13)[(p.shuffle_key >> 23) + 1], p.shuffle_key, p.id'
			when 'listingPositionLowToHighRandom' then
				'p.listing_position desc, ($13)[(p.shuffle_key >> 23) + 1], p.shuffle_key, p.id'
			when 'random' then '($13)[(p.shuffle_key >> 23) + 1], p.shuffle_key, p.id'
			else 'p.sort_name, p.id'
		end;
		for v_id, v_count in execute
			'select p.id, count(*) over () from public.profiles p where ' || v_where
			|| ' order by ' || v_order || ' offset $14 limit $15'
			using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
				null::integer, null::bigint, null::bigint, v_ranks, null::text[], v_bucket_place,
				v_offset, v_limit
		loop
			v_n := v_n + 1;
			profile_id := v_id;
			ord := v_n;
			total := coalesce(v_total, v_count);
			return next;
		end loop;
		return;
	end if;

	-- Index path.
	if v_by_position then
		-- The distinct listing positions, one index probe each.
		with recursive positions (pos) as (
			(
				select p.listing_position from public.profiles p
				where p.tenant_id = p_tenant_id and p.published
				order by p.listing_position limit 1
			)
			union all
			select (
				select p.listing_position from public.profiles p
				where p.tenant_id = p_tenant_id and p.published and p.listing_position > positions.pos
				order by p.listing_position limit 1
			)
			from positions where positions.pos is not null
		)
		select array_agg(x.pos) into v_positions from positions x where x.pos is not null;
	end if;

	if v_random then
		/*
		  One group per listing position (or one group for random), in order. A group of at most
		  c_small businesses is sorted whole; a larger one is read bucket by bucket in the seed's
		  order, each bucket from the index by shuffle_key.
		 */
		<<groups>>
		for v_segment in execute case v_sort
			when 'listingPositionHighToLowRandom' then 'select x.a from unnest($1) x (a) order by x.a'
			when 'listingPositionLowToHighRandom' then 'select x.a from unnest($1) x (a) order by x.a desc'
			else 'select null::integer as a'
		end using v_positions
		loop
			v_sql := 'select p.id from public.profiles p where ' || v_where
				|| case when v_by_position then ' and p.listing_position = $8' else '' end;
			execute 'select count(*) from (' || v_sql || ' limit ' || (c_small + 1) || ') s' into v_count
				using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation, v_segment.a;
			if v_count <= c_small then
				if v_count <= v_skip then
					v_skip := v_skip - v_count;
					continue groups;
				end if;
				v_got := 0;
				for v_id in execute v_sql
					|| ' order by ($13)[(p.shuffle_key >> 23) + 1], p.shuffle_key, p.id offset $14 limit $15'
					using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
						v_segment.a, null::bigint, null::bigint, null::jsonb, null::text[], v_bucket_place,
						v_skip, v_need
				loop
					v_got := v_got + 1;
					v_n := v_n + 1;
					profile_id := v_id;
					ord := v_n;
					total := v_total;
					return next;
				end loop;
				v_need := v_need - v_got;
				v_skip := 0;
			else
				v_bucket_counts := null;
				v_steps := 0;
				foreach v_bucket in array v_bucket_order loop
					if v_bucket_counts is null and v_skip > 0 and v_steps >= c_bucket_steps then
						-- Deep into a large group: count every bucket at once rather than one by one.
						execute 'select array_agg(coalesce(c.n, 0) order by b.b)'
							|| ' from generate_series(0, 255) b (b) left join ('
							|| 'select p.shuffle_key >> 23 as b, count(*) as n from public.profiles p where ' || v_where
							|| case when v_by_position then ' and p.listing_position = $8' else '' end
							|| ' group by 1) c on c.b = b.b'
							into v_bucket_counts
							using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
								v_segment.a;
					end if;
					if v_bucket_counts is not null and v_bucket_counts[v_bucket + 1] <= v_skip then
						v_skip := v_skip - v_bucket_counts[v_bucket + 1];
						continue;
					end if;
					v_got := 0;
					for v_id in execute v_sql
						|| ' and p.shuffle_key >= $9 and p.shuffle_key < $10 order by p.shuffle_key, p.id'
						|| ' offset $14 limit $15'
						using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
							v_segment.a, v_bucket::bigint << 23, (v_bucket::bigint + 1) << 23, null::jsonb,
							null::text[], null::integer[], v_skip, v_need
					loop
						v_got := v_got + 1;
						v_n := v_n + 1;
						profile_id := v_id;
						ord := v_n;
						total := v_total;
						return next;
					end loop;
					v_steps := v_steps + 1;
					if v_got > 0 then
						v_need := v_need - v_got;
						v_skip := 0;
					elsif v_skip > 0 then
						execute 'select count(*) from (' || v_sql
							|| ' and p.shuffle_key >= $9 and p.shuffle_key < $10) s'
							into v_count
							using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
								v_segment.a, v_bucket::bigint << 23, (v_bucket::bigint + 1) << 23;
						v_skip := v_skip - v_count;
						v_steps := v_steps + 1;
					end if;
					exit when v_need = 0;
				end loop;
			end if;
			exit when v_need = 0;
		end loop;
		return;
	end if;

	/*
	  The other sorts: segments in order, each read from an index already sorted. Each segment
	  row: a (listing position or rank) and levels (of that rank).
	 */
	v_segments := case v_sort
		when 'listingPositionLowToHigh' then
			'select x.a, null::text[] as levels from unnest($1) x (a) order by x.a desc'
		when 'membershipHighToLow' then
			'select r.a, array(select l.key from jsonb_each_text($2) l where l.value::integer = r.a order by l.key) as levels'
			|| ' from (select l.value::integer as a from jsonb_each_text($2) l union select unnest($3)) r'
			|| ' order by r.a desc'
		when 'membershipLowToHigh' then
			'select r.a, array(select l.key from jsonb_each_text($2) l where l.value::integer = r.a order by l.key) as levels'
			|| ' from (select l.value::integer as a from jsonb_each_text($2) l union select unnest($3)) r'
			|| ' order by r.a'
		else 'select null::integer as a, null::text[] as levels'
	end;

	for v_segment in execute v_segments using v_positions, v_ranks, v_given loop
		v_sql := case v_sort
			when 'nameDesc' then
				'select p.id from public.profiles p where ' || v_where || ' order by p.sort_name desc, p.id'
			when 'listingPositionHighToLow' then
				'select p.id from public.profiles p where ' || v_where
				|| ' order by p.listing_position, p.sort_name, p.id'
			when 'listingPositionLowToHigh' then
				'select p.id from public.profiles p where ' || v_where
				|| ' and p.listing_position = $8 order by p.sort_name, p.id'
			when 'nameAsc' then
				'select p.id from public.profiles p where ' || v_where || ' order by p.sort_name, p.id'
			else ''
		end;
		if v_sort in ('membershipHighToLow', 'membershipLowToHigh') then
			-- One rank: the given rank and the levels of that rank, each in name order, merged by name.
			if v_segment.a = any (v_given) then
				v_sql := '(select p.id, p.sort_name from public.profiles p where ' || v_where
					|| ' and p.membership_rank = $8 order by p.sort_name, p.id)';
			end if;
			for i in 1 .. coalesce(array_length(v_segment.levels, 1), 0) loop
				v_sql := v_sql || case when v_sql = '' then '' else ' union all ' end
					|| '(select p.id, p.sort_name from public.profiles p where ' || v_where
					|| ' and p.membership_rank is null and p.membership_level_name = ($12)[' || i || ']'
					|| ' order by p.sort_name, p.id)';
			end loop;
			v_sql := 'select s.id from (' || v_sql || ') s order by s.sort_name, s.id';
		end if;

		v_got := 0;
		for v_id in execute v_sql || ' offset $14 limit $15'
			using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
				v_segment.a, null::bigint, null::bigint, null::jsonb, v_segment.levels, null::integer[],
				v_skip, v_need
		loop
			v_got := v_got + 1;
			v_n := v_n + 1;
			profile_id := v_id;
			ord := v_n;
			total := v_total;
			return next;
		end loop;
		if v_got > 0 then
			v_need := v_need - v_got;
			v_skip := 0;
		elsif v_skip > 0 then
			-- The page starts past this segment: skip all of it.
			execute 'select count(*) from (' || v_sql || ') s' into v_count
				using p_tenant_id, v_query, p_category, p_city, p_county, p_zip, p_affiliation,
					v_segment.a, null::bigint, null::bigint, null::jsonb, v_segment.levels;
			v_skip := v_skip - v_count;
		end if;
		exit when v_need = 0;
	end loop;
end;
$$;

comment on function public.directory_page is 'Ids of one page of matching businesses in one of the nine directory sorts, with their place and the total of matches.';

/**
  ---------------------------------------------------------------------------
  The search page's one call and the listing-position procedures
  ---------------------------------------------------------------------------
  Same signatures and answers as before; the page comes from directory_page
  and only its rows become card records.
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
	select page.total, to_jsonb(v)
	from public.directory_page(
		p_tenant_id, p_search_query, p_category, p_city, p_county, p_zip, p_affiliation,
		p_new_members_only, p_sort, p_hierarchy, coalesce(p_seed, 0.5), p_limit, p_offset
	) page
	join public.business_cards_view v on v.id = page.profile_id
	order by page.ord;
$$;

comment on function public.search_businesses is 'One page of matching business card records in one of the nine directory sorts, each row with the total number of matches.';

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
	-- Position 1 is the top: 'asc' puts premium listings first; no seed keeps name order.
	select v.*
	from public.directory_page(
		p_tenant_id, p_search_query, p_category, p_city, p_county, p_zip, p_affiliation,
		p_new_members_only,
		case
			when lower(p_sort_direction) = 'desc' and p_seed is null then 'listingPositionLowToHigh'
			when lower(p_sort_direction) = 'desc' then 'listingPositionLowToHighRandom'
			when p_seed is null then 'listingPositionHighToLow'
			else 'listingPositionHighToLowRandom'
		end,
		'[]'::jsonb, p_seed, p_limit, p_offset
	) page
	join public.business_cards_view v on v.id = page.profile_id
	order by page.ord;
$$;

comment on function public.get_businesses_with_listing_position_randomized is 'A page of matching businesses by listing position, shuffled within a position by a seed.';

-- New columns and indexes: fresh statistics for the planner (PGlite runs no autovacuum).
analyze public.profiles;
analyze public.business_counts;
analyze public.affiliation_counts;
