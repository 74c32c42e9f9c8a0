/**
  ---------------------------------------------------------------------------
  The business directory, as the membership system delivers it
  ---------------------------------------------------------------------------
  Profiles with their listings, social links, affiliations and web content.
  The tenant import (service_role) writes these; visitors read published
  profiles; chamber staff also read their own unpublished ones.
 */

create table if not exists public.profiles (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	report_name text not null check (length(trim(report_name)) > 0),
	address1 text not null default '',
	address2 text not null default '',
	city text not null default '',
	county text not null default '',
	state text not null default '',
	zip text not null default '',
	work_phone text not null default '',
	website text not null default '',
	email text not null default '',
	featured boolean not null default false,
	categories text[] not null default '{}',
	membership_level_name text not null default 'Member',
	membership_rank integer,
	member_since_date date,
	weblink_profile_id text not null,
	main_related_profile_name text not null default '',
	logo_url text not null default '',
	listing_position integer not null default 1000 check (listing_position >= 1),
	is_member boolean not null default true,
	published boolean not null default true,
	-- Maintained by triggers below from the name, categories and listings.
	search_vector tsvector not null default ''::tsvector,
	search_text text not null default '',
	unique (tenant_id, weblink_profile_id),
	-- Lets child tables reference (tenant_id, id) so a row can never cross tenants.
	unique (tenant_id, id)
);

comment on table public.profiles is 'Member businesses of a chamber, one per membership-system profile (weblink_profile_id).';

create index if not exists profiles_tenant_search_idx on public.profiles using gin (tenant_id, search_vector);
create index if not exists profiles_search_text_trgm_idx on public.profiles using gin (search_text gin_trgm_ops);
create index if not exists profiles_tenant_categories_idx on public.profiles using gin (tenant_id, categories);
create index if not exists profiles_tenant_name_idx on public.profiles (tenant_id, lower(report_name));
create index if not exists profiles_tenant_position_idx on public.profiles (tenant_id, listing_position);
create index if not exists profiles_tenant_city_idx on public.profiles (tenant_id, city);
create index if not exists profiles_tenant_member_since_idx on public.profiles (tenant_id, member_since_date);

alter table public.profiles enable row level security;

drop policy if exists "Anyone can read published businesses" on public.profiles;
create policy "Anyone can read published businesses" on public.profiles
	for select to anon, authenticated
	using (published);

drop policy if exists "Chamber staff can read their unpublished businesses" on public.profiles;
create policy "Chamber staff can read their unpublished businesses" on public.profiles
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  Children of a profile
  ---------------------------------------------------------------------------
  Each is visible exactly when its profile is (the subquery runs under the
  caller's own policies on profiles).
 */
create table if not exists public.listings (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null,
	profile_id uuid not null,
	position integer not null default 0,
	description text not null default '',
	short_description text not null default '',
	categories text[] not null default '{}',
	keywords text not null default '',
	active boolean not null default true,
	primary_listing boolean not null default false,
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.listings is 'Directory listings of a profile: descriptions (HTML), categories and search keywords.';

create index if not exists listings_profile_idx on public.listings (profile_id, position);
create index if not exists listings_tenant_keywords_trgm_idx on public.listings using gin (keywords gin_trgm_ops);

alter table public.listings enable row level security;

drop policy if exists "Anyone can read listings of visible businesses" on public.listings;
create policy "Anyone can read listings of visible businesses" on public.listings
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

create table if not exists public.social_media (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null,
	profile_id uuid not null,
	position integer not null default 0,
	platform text not null,
	url text not null,
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.social_media is 'Social network links of a profile; the site shows the five known networks only.';

create index if not exists social_media_profile_idx on public.social_media (profile_id, position);

alter table public.social_media enable row level security;

drop policy if exists "Anyone can read social links of visible businesses" on public.social_media;
create policy "Anyone can read social links of visible businesses" on public.social_media
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

create table if not exists public.profile_affiliations (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null,
	profile_id uuid not null,
	position integer not null default 0,
	icon text not null default '',
	icon_text text not null default '',
	icon_url text not null default '',
	aff_code text not null default '',
	aff_name text not null default '',
	list_available_on_website boolean not null default true,
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.profile_affiliations is 'Member groups and badges of a profile (e.g. Women in Business).';

create index if not exists profile_affiliations_profile_idx on public.profile_affiliations (profile_id, position);
create index if not exists profile_affiliations_tenant_name_idx on public.profile_affiliations (tenant_id, aff_name);

alter table public.profile_affiliations enable row level security;

drop policy if exists "Anyone can read affiliations of visible businesses" on public.profile_affiliations;
create policy "Anyone can read affiliations of visible businesses" on public.profile_affiliations
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

create table if not exists public.web_content (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null,
	profile_id uuid not null,
	position integer not null default 0,
	content_type text not null default '',
	content_title text not null default '',
	full_url text not null default '',
	rel_url text not null default '',
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade
);

comment on table public.web_content is 'Web content items (images, documents, links) attached to a profile.';

create index if not exists web_content_profile_idx on public.web_content (profile_id, position);

alter table public.web_content enable row level security;

drop policy if exists "Anyone can read web content of visible businesses" on public.web_content;
create policy "Anyone can read web content of visible businesses" on public.web_content
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

/**
  ---------------------------------------------------------------------------
  Search document
  ---------------------------------------------------------------------------
  Name (A), categories and keywords (B), descriptions (C), stemmed in English
  for word forms; search_text feeds the trigram index for typos.
 */
create or replace function public.profile_search_document(
	profile_id uuid,
	report_name text,
	categories text[],
	out search_vector tsvector,
	out search_text text
)
language sql
stable
security definer
set search_path = ''
as $$
	select
		setweight(to_tsvector('english', report_name), 'A')
			|| setweight(to_tsvector('english', array_to_string(categories, ' ') || ' ' || coalesce(l.keywords, '')), 'B')
			|| setweight(to_tsvector('english', coalesce(l.descriptions, '')), 'C'),
		lower(report_name || ' ' || array_to_string(categories, ' ') || ' ' || coalesce(l.keywords, ''))
	from (
		select
			string_agg(li.keywords || ' ' || array_to_string(li.categories, ' '), ' ') as keywords,
			-- Tags would only add noise to the index.
			string_agg(regexp_replace(li.short_description || ' ' || li.description, '<[^>]*>', ' ', 'g'), ' ') as descriptions
		from public.listings li
		where li.profile_id = profile_search_document.profile_id and li.active
	) l;
$$;

revoke all on function public.profile_search_document(uuid, text, text[]) from public, anon, authenticated;

create or replace function public.profiles_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	select d.search_vector, d.search_text into new.search_vector, new.search_text
	from public.profile_search_document(new.id, new.report_name, new.categories) d;
	return new;
end;
$$;

create or replace function public.listings_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	-- Touching search columns only, so the profiles row trigger (name, categories) does not fire.
	update public.profiles p
	set search_vector = d.search_vector, search_text = d.search_text
	from (select distinct profile_id from changed_rows) c
	join public.profiles p2 on p2.id = c.profile_id
	cross join lateral public.profile_search_document(p2.id, p2.report_name, p2.categories) d
	where p.id = c.profile_id;
	return null;
end;
$$;

drop trigger if exists profiles_search_before_write on public.profiles;
create trigger profiles_search_before_write before insert or update of report_name, categories on public.profiles
	for each row execute function public.profiles_search_trigger();

-- Statement-level with transition tables: one refresh per import batch, not one per row.
drop trigger if exists listings_search_after_insert on public.listings;
create trigger listings_search_after_insert after insert on public.listings
	referencing new table as changed_rows
	for each statement execute function public.listings_search_trigger();

drop trigger if exists listings_search_after_update on public.listings;
create trigger listings_search_after_update after update on public.listings
	referencing new table as changed_rows
	for each statement execute function public.listings_search_trigger();

drop trigger if exists listings_search_after_delete on public.listings;
create trigger listings_search_after_delete after delete on public.listings
	referencing old table as changed_rows
	for each statement execute function public.listings_search_trigger();

/**
  ---------------------------------------------------------------------------
  Banners: the home page carousel
  ---------------------------------------------------------------------------
 */
create table if not exists public.banners (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	banner_name text not null,
	image_url text not null,
	navigate_url text not null default '',
	target text not null default '_blank',
	alternate_text text not null default '',
	active boolean not null default true,
	position integer not null default 0
);

comment on table public.banners is 'Sponsor banners (at most 970x90) rotated on the home page.';

create index if not exists banners_tenant_position_idx on public.banners (tenant_id, position);

alter table public.banners enable row level security;

drop policy if exists "Anyone can read active banners" on public.banners;
create policy "Anyone can read active banners" on public.banners
	for select to anon, authenticated
	using (active);

drop policy if exists "Chamber staff can read their inactive banners" on public.banners;
create policy "Chamber staff can read their inactive banners" on public.banners
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

drop policy if exists "Chamber admins can add banners" on public.banners;
create policy "Chamber admins can add banners" on public.banners
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

drop policy if exists "Chamber admins can change banners" on public.banners;
create policy "Chamber admins can change banners" on public.banners
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

drop policy if exists "Chamber admins can remove banners" on public.banners;
create policy "Chamber admins can remove banners" on public.banners
	for delete to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
