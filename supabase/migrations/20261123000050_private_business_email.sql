/**
  ---------------------------------------------------------------------------
  Business e-mail addresses stay private
  ---------------------------------------------------------------------------
  The profile hides a business's address behind the contact form, but the
  card views carried it, so /api/businesses, /api/business and PostgREST's
  /rest/v1/business_cards_view handed it to anyone. The views now say only
  whether a business accepts messages; the contact function reads the address
  itself with the service role, by the business's id.

  A view cannot lose a column in place, so both views are made again, and
  with them the functions that return their rows (same bodies as before).
 */

-- What the views show instead of the address; anon may read this column, not email.
alter table public.profiles add column if not exists accepts_messages boolean
	generated always as (btrim(email) <> '') stored;

comment on column public.profiles.accepts_messages is 'Whether the business has an e-mail address the contact form can send to (the address itself is not public).';

drop view if exists public.business_cards_view cascade;
drop view if exists public.business_detail_view cascade;

create view public.business_detail_view with (security_invoker = true) as
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
	-- Whether the business can receive messages; the address itself is never public.
	p.accepts_messages,
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

comment on view public.business_detail_view is 'One business card record per published profile, without the e-mail address: accepts_messages says whether the contact form can reach it.';
comment on column public.business_detail_view.accepts_messages is 'Whether the business has an e-mail address the contact function can send to; the address itself is never public.';

create view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;

comment on view public.business_cards_view is 'The list view of business card records; same record as business_detail_view.';

-- Views answer through the caller's row-level security (security_invoker); they are read-only.
revoke all on public.business_detail_view, public.business_cards_view from public, anon, authenticated;
grant select on public.business_detail_view, public.business_cards_view to anon, authenticated, service_role;

-- Visitors read every column of a published profile but the address (column privileges: the
-- functions that match and sort read the others as the caller). A column added later is not
-- readable by anon until a migration grants it.
revoke select on public.profiles from anon;
do $$
declare
	readable text;
begin
	select string_agg(quote_ident(attname), ', ' order by attnum) into readable
	from pg_attribute
	where attrelid = 'public.profiles'::regclass and attnum > 0 and not attisdropped
		and attname <> 'email';
	execute format('grant select (%s) on public.profiles to anon', readable);
end
$$;

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


revoke all on function public.get_businesses_with_listing_position_randomized(uuid, text, text, text, text, text, boolean, text, integer, integer, double precision, text) from public;
revoke all on function public.get_businesses_with_listing_position(uuid, text, text, text, text, text, boolean, text, integer, integer, text) from public;
revoke all on function public.featured_business_candidates(uuid, text, text[], text, boolean, integer) from public;
grant execute on function public.get_businesses_with_listing_position_randomized(uuid, text, text, text, text, text, boolean, text, integer, integer, double precision, text) to anon, authenticated, service_role;
grant execute on function public.get_businesses_with_listing_position(uuid, text, text, text, text, text, boolean, text, integer, integer, text) to anon, authenticated, service_role;
grant execute on function public.featured_business_candidates(uuid, text, text[], text, boolean, integer) to anon, authenticated, service_role;

/**
  ---------------------------------------------------------------------------
  Contact messages: one per submission, however often it is retried
  ---------------------------------------------------------------------------
  The dialog sends a random key with each message; a retried submit (a lost
  answer, a double click) finds the stored message instead of storing and
  sending it again. attempts counts deliveries tried, so a stored-but-
  undelivered message is retried a bounded number of times.
 */
alter table public.contact_messages add column if not exists idempotency_key uuid;
alter table public.contact_messages add column if not exists attempts integer not null default 0;
alter table public.contact_messages add column if not exists last_attempt_at timestamptz;

comment on column public.contact_messages.idempotency_key is 'Random key the contact dialog sends with one message; the same key again is the same message.';
comment on column public.contact_messages.attempts is 'Delivery attempts so far (the function, a retried submit, the hourly retry).';
comment on column public.contact_messages.last_attempt_at is 'When delivery was last tried.';

create unique index if not exists contact_messages_idempotency_idx
	on public.contact_messages (tenant_id, idempotency_key);
create index if not exists contact_messages_undelivered_idx
	on public.contact_messages (created_at) where delivery_status <> 'sent';
