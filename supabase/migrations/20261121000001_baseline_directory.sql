/**
  ---------------------------------------------------------------------------
  Baseline: the business directory
  ---------------------------------------------------------------------------
  The businesses of each chamber (profiles) with their listings, social
  links, affiliations and web content, as the membership system delivers
  them and staff change them (20261121000005_baseline_members.sql); the home
  page's banners; the search (its document, vocabulary and kept counts); the
  card records visitors read; and the reads the directory calls.

  Visitors read published businesses; chamber staff also read their own
  unpublished ones. Only the service role and definer functions write.
 */

/**
  ---------------------------------------------------------------------------
  Opening hours of a business
  ---------------------------------------------------------------------------
  profiles.hours: for each weekday (mon … sun) its opening times, a list of
  {open, close} on a 24-hour clock ('HH:MM'; close may be '24:00', or earlier
  than open for a time past midnight), in order, at most three a day, none
  for a closed day; and a free note ("By appointment"). Null: the business
  gives no hours. The app writes it from the tenant file's schema (the
  object, or its text form "Mon-Fri 9:00-17:00; by appointment", read by
  src/features/tenants/hours.ts); the check on profiles holds every writer to
  the same shape. Hours are a field of a business like its phone:
  save_business, the audit, overrides, the imports and the member's page
  know them, and members may change them (live without review by default).

  The check calls business_hours_problem(): a later migration that narrows
  what it accepts must first fix the rows it would refuse.
 */

/** The first problem of an hours value ('mon[1]: …'), or null when it is valid (or null). */
create or replace function public.business_hours_problem(p_hours jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_day text;
	v_times jsonb;
	v_time jsonb;
	v_i integer;
	v_open text;
	v_close text;
	-- The previous time's close on this day; 'overnight' when it ran past midnight.
	v_previous text;
	v_key text;
begin
	if p_hours is null or jsonb_typeof(p_hours) = 'null' then
		return null;
	end if;
	if jsonb_typeof(p_hours) <> 'object' then
		return 'expected each weekday''s opening times and a note';
	end if;
	select k into v_key from jsonb_object_keys(p_hours) k
	where k not in ('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'note')
	limit 1;
	if v_key is not null then
		return format('%s: not a weekday (mon … sun) or the note', v_key);
	end if;
	if p_hours ? 'note' and (
		jsonb_typeof(p_hours -> 'note') <> 'string' or char_length(p_hours ->> 'note') > 200
	) then
		return 'note: a text of at most 200 characters';
	end if;
	foreach v_day in array array['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] loop
		v_times := p_hours -> v_day;
		continue when v_times is null;
		if jsonb_typeof(v_times) <> 'array' then
			return format('%s: expected a list of opening times', v_day);
		end if;
		if jsonb_array_length(v_times) > 3 then
			return format('%s: at most 3 opening times a day', v_day);
		end if;
		v_previous := null;
		for v_i in 0 .. jsonb_array_length(v_times) - 1 loop
			v_time := v_times -> v_i;
			if jsonb_typeof(v_time) <> 'object'
				or exists (select 1 from jsonb_object_keys(v_time) k where k not in ('open', 'close'))
				or jsonb_typeof(v_time -> 'open') is distinct from 'string'
				or jsonb_typeof(v_time -> 'close') is distinct from 'string' then
				return format('%s[%s]: expected an opening and a closing time', v_day, v_i);
			end if;
			v_open := v_time ->> 'open';
			v_close := v_time ->> 'close';
			if v_open !~ '^([01]\d|2[0-3]):[0-5]\d$' or v_close !~ '^(([01]\d|2[0-3]):[0-5]\d|24:00)$' then
				return format('%s[%s]: expected times like 09:00 (closing 24:00 at the latest)', v_day, v_i);
			end if;
			if v_open = v_close then
				return format('%s[%s]: opening and closing times must differ', v_day, v_i);
			end if;
			if v_previous = 'overnight' or v_open < v_previous then
				return format('%s[%s]: times of a day must be in order and not overlap', v_day, v_i);
			end if;
			v_previous := case when v_close = '24:00' or v_close < v_open then 'overnight' else v_close end;
		end loop;
	end loop;
	return null;
end;
$$;

comment on function public.business_hours_problem is 'The first problem of a business''s opening hours (weekday lists of {open, close} HH:MM times, in order, at most 3 a day, and a note of at most 200 characters), or null when valid.';

revoke all on function public.business_hours_problem(jsonb) from public, anon, authenticated;
grant execute on function public.business_hours_problem(jsonb) to service_role;

/**
  ---------------------------------------------------------------------------
  Profiles: one business each
  ---------------------------------------------------------------------------
  search_vector and search_text are kept by triggers below from the name,
  categories and listings; sort_name and shuffle_key are the sort keys of
  the directory's pages (directory_page), stored so its indexes answer
  without visiting the table. version and the columns after it are the
  staff's bookkeeping (save_business): private to staff, like email.
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
	hours jsonb constraint profiles_hours_valid
		check (public.business_hours_problem(hours) is null),
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
	search_vector tsvector not null default ''::tsvector,
	search_text text not null default '',
	sort_name text generated always as (lower(report_name)) stored,
	shuffle_key integer
		generated always as ((('x' || substr(md5(id::text), 1, 8))::bit(32)::integer) & 2147483647) stored,
	accepts_messages boolean generated always as (btrim(email) <> '') stored,
	version integer not null default 1,
	field_versions jsonb not null default '{}'::jsonb,
	updated_at timestamptz not null default now(),
	updated_by text not null default 'import',
	removed_at timestamptz,
	published_before_removal boolean,
	unique (tenant_id, weblink_profile_id),
	-- Lets child tables reference (tenant_id, id) so a row can never cross tenants.
	unique (tenant_id, id),
	constraint profiles_removed_not_published check (removed_at is null or not published)
);

comment on table public.profiles is 'Member businesses of a chamber, one per membership-system profile (weblink_profile_id).';
comment on column public.profiles.hours is 'Opening hours: {mon … sun: [{open, close}] (HH:MM, none when closed), note}; null when the business gives none. Checked by business_hours_problem().';
comment on column public.profiles.sort_name is 'lower(report_name): the name key of every directory sort.';
comment on column public.profiles.shuffle_key is 'A fixed hash of the id in [0, 2^31): the random sorts shuffle by it (directory_page).';
comment on column public.profiles.accepts_messages is 'Whether the business has an e-mail address the contact form can send to (the address itself is not public).';
comment on column public.profiles.version is 'Goes up with every change of the business (its fields or lists); a staff save names the version it was made from.';
comment on column public.profiles.field_versions is 'For each field: the version its last change made (the conflict check of save_business).';
comment on column public.profiles.updated_at is 'When the business last changed.';
comment on column public.profiles.updated_by is 'Who changed the business last: a staff member''s e-mail, or import / sync for the membership system.';
comment on column public.profiles.removed_at is 'When staff removed the business (it is unpublished; restorable for 30 days), else null.';
comment on column public.profiles.published_before_removal is 'Whether a removed business was published: restoring it puts that back.';

create index if not exists profiles_tenant_search_idx on public.profiles using gin (tenant_id, search_vector);
create index if not exists profiles_search_text_trgm_idx on public.profiles using gin (search_text gin_trgm_ops);
create index if not exists profiles_tenant_categories_idx on public.profiles using gin (tenant_id, categories);
create index if not exists profiles_tenant_city_idx on public.profiles (tenant_id, city);
create index if not exists profiles_tenant_member_since_idx on public.profiles (tenant_id, member_since_date);

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
-- The build reads a whole chamber in batches of 1000 by report_name, then id, each batch
-- starting after the last row of the one before: in this order a batch reads its rows and stops.
create index if not exists profiles_directory_report_name_idx
	on public.profiles (tenant_id, report_name, id) where published;

comment on index public.profiles_directory_report_name_idx is 'The build reads every published business of a chamber by report_name, then id, batch after batch (listAllBusinesses).';

-- The Members tab's list: every business of a chamber by name (the directory's indexes hold
-- published ones only), names found by any part, removed ones for the Removed filter and purge.
create index if not exists profiles_admin_name_idx on public.profiles (tenant_id, sort_name, id);
create index if not exists profiles_admin_name_trgm_idx on public.profiles using gin (sort_name gin_trgm_ops);
create index if not exists profiles_removed_idx on public.profiles (tenant_id, removed_at)
	where removed_at is not null;

alter table public.profiles enable row level security;

create policy "Anyone can read published businesses" on public.profiles
	for select to anon, authenticated
	using (published);

create policy "Chamber staff can read their unpublished businesses" on public.profiles
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

/**
  Visitors read every column of a published business but its e-mail address
  (the contact function reads that with the service role) and the staff's
  bookkeeping; the functions that match and sort read the others as the
  caller. A column added later is readable by anon only once its migration
  grants it (tests/db/privileges.test.ts lists the private ones).
 */
grant select (
	id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone, hours,
	website, featured, categories, membership_level_name, membership_rank, member_since_date,
	weblink_profile_id, main_related_profile_name, logo_url, listing_position, is_member, published,
	search_vector, search_text, sort_name, shuffle_key, accepts_messages
) on table public.profiles to anon;
grant select on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

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

create policy "Anyone can read listings of visible businesses" on public.listings
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

grant select on table public.listings to anon, authenticated;
grant all on table public.listings to service_role;

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

create policy "Anyone can read social links of visible businesses" on public.social_media
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

grant select on table public.social_media to anon, authenticated;
grant all on table public.social_media to service_role;

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

create policy "Anyone can read affiliations of visible businesses" on public.profile_affiliations
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

grant select on table public.profile_affiliations to anon, authenticated;
grant all on table public.profile_affiliations to service_role;

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

create policy "Anyone can read web content of visible businesses" on public.web_content
	for select to anon, authenticated
	using (exists (select 1 from public.profiles p where p.id = profile_id));

grant select on table public.web_content to anon, authenticated;
grant all on table public.web_content to service_role;

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

create policy "Anyone can read active banners" on public.banners
	for select to anon, authenticated
	using (active);

create policy "Chamber staff can read their inactive banners" on public.banners
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

create policy "Chamber admins can add banners" on public.banners
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

create policy "Chamber admins can change banners" on public.banners
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

create policy "Chamber admins can remove banners" on public.banners
	for delete to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.banners to anon;
grant select, insert, update, delete on table public.banners to authenticated;
grant all on table public.banners to service_role;

/**
  ---------------------------------------------------------------------------
  Search document
  ---------------------------------------------------------------------------
  Name (A), categories and keywords (B), descriptions (C), stemmed in English
  for word forms; search_text feeds the trigram index for typos. The row
  trigger computes a business's search columns as it is written and the
  listings trigger again when its listings change; import_tenant computes
  them once for a whole batch, from the file's listings, and writes them with
  the businesses, while both triggers stand aside (import_writes_search).
 */

/**
  A business's search columns from its name, categories and listings (in the
  shape business_list_value answers): the one definition of what search
  reads. Inactive listings do not count; tags are dropped from descriptions.
 */
create or replace function public.profile_search_document_of(
	p_report_name text,
	p_categories text[],
	p_listings jsonb,
	out search_vector tsvector,
	out search_text text
)
language sql
immutable
set search_path = ''
as $$
	select
		setweight(to_tsvector('english', p_report_name), 'A')
			|| setweight(to_tsvector('english', array_to_string(p_categories, ' ') || ' ' || coalesce(l.keywords, '')), 'B')
			|| setweight(to_tsvector('english', coalesce(l.descriptions, '')), 'C'),
		lower(p_report_name || ' ' || array_to_string(p_categories, ' ') || ' ' || coalesce(l.keywords, ''))
	from (
		select
			string_agg(
				coalesce(e.v ->> 'keywords', '') || ' '
					|| array_to_string(array(select jsonb_array_elements_text(coalesce(e.v -> 'categories', '[]'))), ' '),
				' ' order by e.ord
			) as keywords,
			-- Tags would only add noise to the index.
			string_agg(
				regexp_replace(
					coalesce(e.v ->> 'short_description', '') || ' ' || coalesce(e.v ->> 'description', ''),
					'<[^>]*>', ' ', 'g'
				),
				' ' order by e.ord
			) as descriptions
		from jsonb_array_elements(coalesce(p_listings, '[]')) with ordinality e(v, ord)
		where coalesce((e.v ->> 'active')::boolean, true)
	) l;
$$;

comment on function public.profile_search_document_of is 'A business''s search_vector and search_text from its name, categories and listings (business_list_value''s shape); the one definition of what search reads.';

/**
  A business's list field as the tenant file writes it (children in their
  order). PL/pgSQL, so its queries' plans are kept for the session: a dry run
  reads four lists of every business it compares.
 */
create or replace function public.business_list_value(p_profile_id uuid, p_field text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	case p_field
		when 'listings' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position)
				from public.listings l where l.profile_id = p_profile_id), '[]'::jsonb);
		when 'social_media' then
			return coalesce((
				select jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url) order by s.position)
				from public.social_media s where s.profile_id = p_profile_id), '[]'::jsonb);
		when 'profile_affiliations' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url, 'aff_code', a.aff_code,
					'aff_name', a.aff_name, 'list_available_on_website', a.list_available_on_website
				) order by a.position)
				from public.profile_affiliations a where a.profile_id = p_profile_id), '[]'::jsonb);
		when 'web_content' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position)
				from public.web_content w where w.profile_id = p_profile_id), '[]'::jsonb);
		else
			return '[]'::jsonb;
	end case;
end;
$$;

comment on function public.business_list_value is 'A business''s list field as the tenant file writes it.';

/** The search columns of a stored business (its listings as stored). */
create or replace function public.profile_search_document(profile_id uuid, report_name text, categories text[], out search_vector tsvector, out search_text text)
language sql
stable
security definer
set search_path = ''
as $$
	select d.search_vector, d.search_text
	from public.profile_search_document_of(
		report_name,
		categories,
		public.business_list_value(profile_search_document.profile_id, 'listings')
	) d;
$$;

comment on function public.profile_search_document(uuid, text, text[]) is 'A stored business''s search columns: profile_search_document_of with its listings as stored.';

/** Set by import_tenant while it writes the search columns itself (local to its transaction). */
create or replace function public.import_writes_search()
returns boolean
language sql
stable
set search_path = ''
as $$
	select coalesce(current_setting('chamber.import_writes_search', true), '') = 'on';
$$;

comment on function public.import_writes_search is 'Whether import_tenant is writing the search columns itself in this transaction (its setting chamber.import_writes_search), so the search triggers stand aside.';

create or replace function public.profiles_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	if public.import_writes_search() then
		return new;
	end if;
	select d.search_vector, d.search_text into new.search_vector, new.search_text
	from public.profile_search_document(new.id, new.report_name, new.categories) d;
	return new;
end;
$$;

comment on function public.profiles_search_trigger is 'Trigger: a business''s search columns from its name and categories, before they are written.';

create or replace function public.listings_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	if public.import_writes_search() then
		return null;
	end if;
	-- Touching search columns only, so the profiles row trigger (name, categories) does not fire;
	-- a business whose search columns come out the same is not rewritten.
	update public.profiles p
	set search_vector = d.search_vector, search_text = d.search_text
	from (select distinct profile_id from changed_rows) c
	join public.profiles p2 on p2.id = c.profile_id
	cross join lateral public.profile_search_document(p2.id, p2.report_name, p2.categories) d
	where p.id = c.profile_id
		and (p.search_vector, p.search_text) is distinct from (d.search_vector, d.search_text);
	return null;
end;
$$;

comment on function public.listings_search_trigger is 'Trigger: the search columns of the businesses whose listings a statement wrote.';

create trigger profiles_search_before_write before insert or update of report_name, categories on public.profiles
	for each row execute function public.profiles_search_trigger();

-- Statement-level with transition tables: one refresh per import batch, not one per row.
create trigger listings_search_after_insert after insert on public.listings
	referencing new table as changed_rows
	for each statement execute function public.listings_search_trigger();

create trigger listings_search_after_update after update on public.listings
	referencing new table as changed_rows
	for each statement execute function public.listings_search_trigger();

create trigger listings_search_after_delete after delete on public.listings
	referencing old table as changed_rows
	for each statement execute function public.listings_search_trigger();

/**
  ---------------------------------------------------------------------------
  Search words: the vocabulary that typos are corrected against
  ---------------------------------------------------------------------------
  Trigram similarity against every profile's text is too slow at 50,000
  businesses; against the tenant's distinct words (names, categories,
  keywords) it is cheap and index-backed, the pattern pg_trgm's manual
  recommends for spelling suggestions.

  Anyone may call search_tsquery, so the vocabulary holds the words of
  published businesses only: each word counts the published businesses that
  use it, kept by statement-level triggers (one pass per import batch, not
  one per row): +1 for a published row that appears, -1 for one that goes
  (deleted, unpublished, or its words changed), and a word no business uses
  any more is removed.
 */
create table if not exists public.search_words (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	word text not null check (word ~ '^[a-z0-9]+$'),
	businesses integer not null default 0,
	primary key (tenant_id, word)
);

comment on table public.search_words is 'Distinct words of the names, categories and keywords of a tenant''s published businesses, for typo-tolerant search.';
comment on column public.search_words.businesses is 'How many published businesses of the tenant use the word; the row goes when none does.';

create index if not exists search_words_word_trgm_idx on public.search_words using gin (word gin_trgm_ops);
-- The words left unused by a change are found by this, not by reading the whole vocabulary.
create index if not exists search_words_unused_idx on public.search_words (tenant_id)
	where businesses <= 0;

-- Read only by security-definer functions below: no policy means no direct access.
alter table public.search_words enable row level security;

revoke all on table public.search_words from anon, authenticated;
grant all on table public.search_words to service_role;

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
		-- Only rows whose words or publication changed, found as sets (except all hashes each side
		-- once; the transition tables have no statistics, so a join of them could be a nested loop).
		select array_agg(c.tenant_id), array_agg(c.search_text), array_agg(c.sign)
		into v_tenant_ids, v_texts, v_signs
		from (
			select g.tenant_id, g.search_text, -1 as sign
			from (
				select o.id, o.tenant_id, o.search_text from old_rows o where o.published
				except all
				select n.id, n.tenant_id, n.search_text from new_rows n where n.published
			) g
			union all
			select a.tenant_id, a.search_text, 1
			from (
				select n.id, n.tenant_id, n.search_text from new_rows n where n.published
				except all
				select o.id, o.tenant_id, o.search_text from old_rows o where o.published
			) a
		) c;
	end if;
	if v_tenant_ids is not null then
		perform public.search_words_apply(v_tenant_ids, v_texts, v_signs);
	end if;
	return null;
end;
$$;

comment on function public.profiles_search_words_trigger() is 'Keeps search_words equal to the words of the published businesses (statement-level, after insert, update and delete on profiles).';

create trigger profiles_search_words_after_insert after insert on public.profiles
	referencing new table as new_rows
	for each statement execute function public.profiles_search_words_trigger();

create trigger profiles_search_words_after_update after update on public.profiles
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profiles_search_words_trigger();

create trigger profiles_search_words_after_delete after delete on public.profiles
	referencing old table as old_rows
	for each statement execute function public.profiles_search_words_trigger();

/**
  The tsquery for a visitor's search text: each word (websearch syntax, so no
  input ever raises) OR its close spellings from the tenant's vocabulary, the
  words ANDed. Null for blank input, meaning 'no search'. Anyone may call it,
  so it reads at most the first 200 characters and the first 10 words itself,
  whatever its caller cut before.
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
  published members and the chamber's staff count them all.

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

revoke all on table public.business_counts from anon, authenticated;
grant all on table public.business_counts to service_role;

create table if not exists public.affiliation_counts (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	aff_name text not null,
	published boolean not null,
	members bigint not null,
	primary key (tenant_id, aff_name, published)
);

comment on table public.affiliation_counts is 'Affiliation rows per tenant, group and published flag of the business, kept by triggers; member_count of the card record.';

alter table public.affiliation_counts enable row level security;

create policy "Anyone can read member counts of published businesses" on public.affiliation_counts
	for select to anon, authenticated
	using (published);

create policy "Chamber staff can read member counts of their unpublished businesses" on public.affiliation_counts
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.affiliation_counts to anon, authenticated;
grant all on table public.affiliation_counts to service_role;

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

comment on function public.refresh_business_counts is 'Recounts the published businesses of the tenants given, in all and per category.';

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

comment on function public.refresh_affiliation_counts is 'Recounts the affiliation rows of the tenants given, per group and published flag.';

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

comment on function public.profiles_counts_trigger is 'Trigger: recounts the kept counts of the tenants whose businesses a statement changed in a way they count.';

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

comment on function public.profile_affiliations_counts_trigger is 'Trigger: recounts the affiliation counts of the tenants whose affiliations a statement changed.';

create trigger profiles_counts_after_insert after insert on public.profiles
	referencing new table as new_rows
	for each statement execute function public.profiles_counts_trigger();

create trigger profiles_counts_after_update after update on public.profiles
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profiles_counts_trigger();

create trigger profiles_counts_after_delete after delete on public.profiles
	referencing old table as old_rows
	for each statement execute function public.profiles_counts_trigger();

create trigger profile_affiliations_counts_after_insert after insert on public.profile_affiliations
	referencing new table as new_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

create trigger profile_affiliations_counts_after_update after update on public.profile_affiliations
	referencing old table as old_rows new table as new_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

create trigger profile_affiliations_counts_after_delete after delete on public.profile_affiliations
	referencing old table as old_rows
	for each statement execute function public.profile_affiliations_counts_trigger();

/**
  ---------------------------------------------------------------------------
  Business card records: what visitors read of a business
  ---------------------------------------------------------------------------
  The fields of the business card record, plus tenant_id so every read can
  be scoped to one chamber. security_invoker: the caller's row-level
  security applies, not the view owner's. The e-mail address is never
  public: accepts_messages says whether the contact form can reach the
  business, and the contact function reads the address itself with the
  service role, by the business's id.
 */
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
	p.hours,
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
			-- From the kept counts, not counted per affiliation of every card.
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
comment on column public.business_detail_view.hours is 'Opening hours (profiles.hours), or null when the business gives none.';
comment on column public.business_detail_view.accepts_messages is 'Whether the business has an e-mail address the contact function can send to; the address itself is never public.';

create view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;

comment on view public.business_cards_view is 'The list view of business card records; same record as business_detail_view.';

-- Views answer through the caller's row-level security (security_invoker); they are read-only.
grant select on table public.business_detail_view, public.business_cards_view to anon, authenticated;
grant all on table public.business_detail_view, public.business_cards_view to service_role;

/**
  ---------------------------------------------------------------------------
  Matching: the one definition of which businesses a search and filters hit
  ---------------------------------------------------------------------------
  English stemming handles word forms, the vocabulary handles typos, and every
  predicate is index-friendly. The WHERE clause of every directory read, as
  text over profiles p with the values as parameters: $1 tenant, $2 tsquery,
  $3 category, $4 city, $5 county, $6 zip, $7 affiliation. Only the filters
  given are included, and each query is planned with the values (EXECUTE …
  USING), so each uses the indexes it can; every value arrives as a
  parameter, never in the SQL text. Null or blank means 'no filter'.
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

comment on function public.matching_profiles is 'Ids (and relevance) of the published businesses of a tenant that match a search and filters.';

/**
  How many businesses match: the kept count when the only filter is a
  category, else a count over the matching rows.
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
  One page of the directory, in order
  ---------------------------------------------------------------------------
  At 50,000 businesses, matching every business, sorting all of them and
  counting them with a window costs 0.6–3 s a call on PGlite. So a page
  without search text is read from an index already in the sort's order
  (LIMIT 24 OFFSET n on a btree), the total comes from a kept count, and the
  card records are built for the page's rows only.

  The sorts, each a total order; ties always fall to the name, then the id:
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

  Two ways to the same rows (tests/db/listing-order.test.ts holds both to the
  rule):
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

  directory_page_unbounded serves any page size and query length, so only
  the service role and directory_page reach it; directory_page, which anyone
  may call, caps a page at 100 rows and a query at 200 characters.
 */
create or replace function public.directory_page_unbounded(
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

comment on function public.directory_page_unbounded is 'Ids of one page of matching businesses in one of the nine directory sorts, with their place and the total of matches.';

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
language sql
stable
security definer
set search_path = public, pg_temp
rows 24
as $$
	select * from public.directory_page_unbounded(
		p_tenant_id,
		left(p_search_query, 200),
		left(p_category, 200),
		left(p_city, 200),
		left(p_county, 200),
		left(p_zip, 200),
		left(p_affiliation, 200),
		p_new_members_only,
		p_sort,
		p_hierarchy,
		p_seed,
		least(greatest(coalesce(p_limit, 24), 0), 100),
		least(greatest(coalesce(p_offset, 0), 0), 1000000)
	);
$$;

comment on function public.directory_page is 'Ids of one page (at most 100) of matching businesses in one of the nine directory sorts, with their place and the total of matches; queries and filters cut at 200 characters.';

/**
  ---------------------------------------------------------------------------
  The reads the directory calls
  ---------------------------------------------------------------------------
  src/features/directory/directory.server.ts. The search page's one call
  (search_businesses) and the listing-position procedures: the page comes
  from directory_page and only its rows become card records.
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

/**
  The levels the chamber's listed businesses hold, with how many hold each:
  the admin Homepage tab offers them to the featured-businesses strategy
  'membership'.
 */
create or replace function public.get_membership_levels(p_tenant_id uuid)
returns table (name text, count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
	select trim(p.membership_level_name), count(*)
	from public.matching_profiles(p_tenant_id) m
	join public.profiles p on p.id = m.profile_id
	where trim(coalesce(p.membership_level_name, '')) <> ''
	group by trim(p.membership_level_name)
	order by 1;
$$;

comment on function public.get_membership_levels is 'Membership levels the chamber''s listed businesses hold, with counts (the admin Homepage tab).';

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

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Visitors (anon, and signed-in users on the same pages) call the directory's
  reads, plus what these reach as invoker functions: get_filter_options and
  get_membership_levels → matching_profiles → directory_match_sql and
  search_tsquery; search_businesses and the listing-position procedures →
  directory_page (the bounded one). Trigger functions need no EXECUTE to
  fire; the rest is the service role's.
 */
revoke all on function public.profile_search_document_of(text, text[], jsonb) from public, anon, authenticated;
revoke all on function public.business_list_value(uuid, text) from public, anon, authenticated;
revoke all on function public.profile_search_document(uuid, text, text[]) from public, anon, authenticated;
revoke all on function public.import_writes_search() from public, anon, authenticated;
revoke all on function public.profiles_search_trigger() from public, anon, authenticated;
revoke all on function public.listings_search_trigger() from public, anon, authenticated;
revoke all on function public.search_words_apply(uuid[], text[], integer[]) from public, anon, authenticated;
revoke all on function public.profiles_search_words_trigger() from public, anon, authenticated;
revoke all on function public.refresh_business_counts(uuid[]) from public, anon, authenticated;
revoke all on function public.refresh_affiliation_counts(uuid[]) from public, anon, authenticated;
revoke all on function public.profiles_counts_trigger() from public, anon, authenticated;
revoke all on function public.profile_affiliations_counts_trigger() from public, anon, authenticated;
revoke all on function public.membership_rank(text, integer, jsonb) from public, anon, authenticated;
revoke all on function public.directory_page_unbounded(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) from public, anon, authenticated;
grant execute on function public.profile_search_document_of(text, text[], jsonb) to service_role;
grant execute on function public.business_list_value(uuid, text) to service_role;
grant execute on function public.profile_search_document(uuid, text, text[]) to service_role;
grant execute on function public.import_writes_search() to service_role;
grant execute on function public.profiles_search_trigger() to service_role;
grant execute on function public.listings_search_trigger() to service_role;
grant execute on function public.search_words_apply(uuid[], text[], integer[]) to service_role;
grant execute on function public.profiles_search_words_trigger() to service_role;
grant execute on function public.refresh_business_counts(uuid[]) to service_role;
grant execute on function public.refresh_affiliation_counts(uuid[]) to service_role;
grant execute on function public.profiles_counts_trigger() to service_role;
grant execute on function public.profile_affiliations_counts_trigger() to service_role;
grant execute on function public.membership_rank(text, integer, jsonb) to service_role;
grant execute on function public.directory_page_unbounded(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to service_role;

revoke all on function public.search_tsquery(uuid, text) from public;
revoke all on function public.directory_match_sql(boolean, text, text, text, text, boolean, text) from public;
revoke all on function public.matching_profiles(uuid, text, text, text, text, text, boolean, text) from public;
revoke all on function public.count_businesses_with_category(
	uuid, text, text, text, text, text, boolean, text
) from public;
revoke all on function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) from public;
revoke all on function public.search_businesses(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) from public;
revoke all on function public.get_businesses_with_listing_position_randomized(
	uuid, text, text, text, text, text, boolean, text, integer, integer, double precision, text
) from public;
revoke all on function public.get_businesses_with_listing_position(
	uuid, text, text, text, text, text, boolean, text, integer, integer, text
) from public;
revoke all on function public.get_affiliation_counts(uuid, integer) from public;
revoke all on function public.list_categories(uuid) from public;
revoke all on function public.get_filter_options(uuid, text, text, text) from public;
revoke all on function public.get_membership_levels(uuid) from public;
revoke all on function public.featured_business_candidates(uuid, text, text[], text, boolean, integer) from public;
grant execute on function public.search_tsquery(uuid, text) to anon, authenticated, service_role;
grant execute on function public.directory_match_sql(boolean, text, text, text, text, boolean, text)
	to anon, authenticated, service_role;
grant execute on function public.matching_profiles(uuid, text, text, text, text, text, boolean, text)
	to anon, authenticated, service_role;
grant execute on function public.count_businesses_with_category(
	uuid, text, text, text, text, text, boolean, text
) to anon, authenticated, service_role;
grant execute on function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to anon, authenticated, service_role;
grant execute on function public.search_businesses(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to anon, authenticated, service_role;
grant execute on function public.get_businesses_with_listing_position_randomized(
	uuid, text, text, text, text, text, boolean, text, integer, integer, double precision, text
) to anon, authenticated, service_role;
grant execute on function public.get_businesses_with_listing_position(
	uuid, text, text, text, text, text, boolean, text, integer, integer, text
) to anon, authenticated, service_role;
grant execute on function public.get_affiliation_counts(uuid, integer) to anon, authenticated, service_role;
grant execute on function public.list_categories(uuid) to anon, authenticated, service_role;
grant execute on function public.get_filter_options(uuid, text, text, text) to anon, authenticated, service_role;
grant execute on function public.get_membership_levels(uuid) to anon, authenticated, service_role;
grant execute on function public.featured_business_candidates(uuid, text, text[], text, boolean, integer)
	to anon, authenticated, service_role;
