/**
  ---------------------------------------------------------------------------
  Where each business is: its location, the geocoder's queue, distance search
  ---------------------------------------------------------------------------
  A business's location is a field like its address: {latitude, longitude}
  in degrees (WGS 84), or null while nobody knows it. It comes from the
  tenant file (the demo's own coordinates), from the geocoder working
  through the queue below, or from staff moving the pin in the Members tab.
  A pin staff placed is a field changed here (business_overrides, for a
  business of the membership system): imports and syncs leave it, and the
  geocoder never moves it, until staff place it by the address again
  (reset_business_location).

  The geocoder works in the background: a change of a business's address (an
  import, a sync, a staff save, a new business) queues a request
  (geocode_requests) in the same transaction, and a scheduled function
  (netlify/functions/geocode-scheduled.ts) claims due requests, asks the
  geocoder and records what it found (record_geocodes). A save never waits
  for it. Its writes are not changes of the business: no version, no audit
  row, no 'last changed by'.

  Distance search: latitude and longitude, and the location as a point of
  the unit sphere, are stored columns (generated from the location) in one
  index per chamber; a search near a point reads the box around the circle
  from that index and keeps what lies within the circle's chord, which is the
  haversine distance's circle exactly (directory_near_page). No extension:
  the same SQL runs on PGlite and on Supabase's Postgres.
 */

/**
  ---------------------------------------------------------------------------
  The location of a business
  ---------------------------------------------------------------------------
 */

/** The first problem of a location value, or null when it is valid (or null). */
create or replace function public.business_location_problem(p_location jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
	select case
		when p_location is null then null
		when jsonb_typeof(p_location) <> 'object' then 'expected a latitude and a longitude'
		when exists (
			select 1 from jsonb_object_keys(p_location) k where k not in ('latitude', 'longitude')
		) then 'expected a latitude and a longitude, nothing else'
		when jsonb_typeof(p_location -> 'latitude') is distinct from 'number'
			or jsonb_typeof(p_location -> 'longitude') is distinct from 'number'
			then 'expected a latitude and a longitude in degrees'
		when (p_location ->> 'latitude')::numeric not between -90 and 90
			then 'latitude: between -90 and 90 degrees'
		when (p_location ->> 'longitude')::numeric not between -180 and 180
			then 'longitude: between -180 and 180 degrees'
	end;
$$;

comment on function public.business_location_problem is 'The first problem of a business''s location ({latitude -90..90, longitude -180..180} in degrees, nothing else), or null when valid.';

/**
  The columns are written as expressions of built-in operators only, no
  function of ours: Postgres computes a stored generated column at every
  write of the row (an import writes each business several times) and runs a
  check at every insert and update. A coordinate is a number only once the
  check's ranges hold, so no cast can fail. latitude and longitude feed the
  index's box; geo_x, geo_y and geo_z are the location as a point of the unit
  sphere (x towards 0° N 0° E, z towards the North Pole): the straight line
  between two such points (the chord) grows with their great-circle distance,
  so a search compares chords, arithmetic per business with no trigonometry,
  in the same order and within the same circle as the haversine formula.
 */
alter table public.profiles
	add column if not exists location jsonb
		constraint profiles_location_valid check (
			location is null
			or case
				when jsonb_typeof(location) <> 'object' then false
				when location - 'latitude' - 'longitude' <> '{}'::jsonb then false
				when jsonb_typeof(location -> 'latitude') <> 'number'
					or jsonb_typeof(location -> 'longitude') <> 'number' then false
				else (location ->> 'latitude')::numeric between -90 and 90
					and (location ->> 'longitude')::numeric between -180 and 180
			end
		),
	add column if not exists latitude double precision generated always as (
		case when jsonb_typeof(location -> 'latitude') = 'number'
			and (location ->> 'latitude')::numeric between -90 and 90
			then (location ->> 'latitude')::double precision end
	) stored,
	add column if not exists longitude double precision generated always as (
		case when jsonb_typeof(location -> 'longitude') = 'number'
			and (location ->> 'longitude')::numeric between -180 and 180
			then (location ->> 'longitude')::double precision end
	) stored,
	add column if not exists geo_x double precision generated always as (
		case when jsonb_typeof(location -> 'latitude') = 'number'
			and jsonb_typeof(location -> 'longitude') = 'number'
			and (location ->> 'latitude')::numeric between -90 and 90
			and (location ->> 'longitude')::numeric between -180 and 180
			then cos(radians((location ->> 'latitude')::double precision))
				* cos(radians((location ->> 'longitude')::double precision)) end
	) stored,
	add column if not exists geo_y double precision generated always as (
		case when jsonb_typeof(location -> 'latitude') = 'number'
			and jsonb_typeof(location -> 'longitude') = 'number'
			and (location ->> 'latitude')::numeric between -90 and 90
			and (location ->> 'longitude')::numeric between -180 and 180
			then cos(radians((location ->> 'latitude')::double precision))
				* sin(radians((location ->> 'longitude')::double precision)) end
	) stored,
	add column if not exists geo_z double precision generated always as (
		case when jsonb_typeof(location -> 'latitude') = 'number'
			and (location ->> 'latitude')::numeric between -90 and 90
			then sin(radians((location ->> 'latitude')::double precision)) end
	) stored,
	add column if not exists location_source text
		constraint profiles_location_source_valid
			check (location_source in ('file', 'census', 'nominatim', 'staff')),
	add column if not exists location_quality text
		constraint profiles_location_quality_valid
			check (location_quality in ('exact', 'approximate', 'street', 'area', 'manual', 'supplied')),
	add column if not exists located_at timestamptz,
	add constraint profiles_location_source_given
		check ((location is null) = (location_source is null) and (location is null) = (location_quality is null));

comment on column public.profiles.location is 'Where the business is: {latitude, longitude} in degrees (WGS 84); null while it is not known. A field of the business like its address (business_scalar_fields).';
comment on column public.profiles.latitude is 'location''s latitude, stored for the distance index.';
comment on column public.profiles.longitude is 'location''s longitude, stored for the distance index.';
comment on column public.profiles.geo_x is 'location as a point of the unit sphere: what the distance search measures with (chords).';
comment on column public.profiles.geo_y is 'location as a point of the unit sphere (see geo_x).';
comment on column public.profiles.geo_z is 'location as a point of the unit sphere (see geo_x).';
comment on column public.profiles.location_source is 'Who placed the location: file (a tenant file), census or nominatim (the geocoder), staff (a pin moved in the Members tab, which the geocoder never moves).';
comment on column public.profiles.location_quality is 'How exact the location is: exact (the address itself), approximate (interpolated along the street), street, area (a town or postcode), manual (staff placed it), supplied (from a file).';
comment on column public.profiles.located_at is 'When the location was last placed.';

-- The distance search of each chamber: a range of latitudes, then of longitudes, of published
-- businesses with a location, each with what its distance is measured with, so the search reads
-- the index alone (directory_near_page).
create index if not exists profiles_directory_location_idx
	on public.profiles (tenant_id, latitude, longitude) include (id, geo_x, geo_y, geo_z)
	where published and latitude is not null;

comment on index public.profiles_directory_location_idx is 'The box around a distance search''s circle: latitudes, then longitudes, of a chamber''s published businesses with a location, and their points of the unit sphere (directory_near_page reads only the index).';

-- Visitors read where a published business is (the map, the distance, the profile's geo), as
-- every signed-in user does (20261128000100_member_features_access.sql); who placed it and how
-- is staff's bookkeeping, read through admin_business.
grant select (location, latitude, longitude, geo_x, geo_y, geo_z) on table public.profiles
	to anon, authenticated;

/**
  Who placed a location, kept by the database whoever writes: a writer that
  is not staff names itself for its transaction (chamber.location_source:
  'file' for import_tenant, 'census' or 'nominatim' for record_geocodes,
  which also writes the quality); any other change of the location is a pin
  staff placed.
 */
create or replace function public.profiles_location_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_source text := nullif(current_setting('chamber.location_source', true), '');
begin
	-- Placed otherwise than by the geocoder: nothing is left for it to look up (a new address
	-- queues a request again, after this write).
	if tg_op = 'UPDATE' and coalesce(v_source, 'staff') not in ('census', 'nominatim') then
		delete from public.geocode_requests where profile_id = new.id;
	end if;
	if new.location is null then
		new.location_source := null;
		new.location_quality := null;
		new.located_at := null;
		return new;
	end if;
	new.location_source := coalesce(v_source, 'staff');
	new.location_quality := case new.location_source
		when 'staff' then 'manual'
		when 'file' then 'supplied'
		else coalesce(new.location_quality, 'approximate')
	end;
	new.located_at := now();
	return new;
end;
$$;

comment on function public.profiles_location_trigger is 'Trigger: a changed location gets its source (the writer''s chamber.location_source, else staff), its quality and its time.';

-- Only writes that bring a location, or change it, run it: most writes of a profile do neither.
create trigger profiles_location_before_insert before insert on public.profiles
	for each row when (new.location is not null)
	execute function public.profiles_location_trigger();
create trigger profiles_location_before_update before update of location on public.profiles
	for each row when (new.location is distinct from old.location)
	execute function public.profiles_location_trigger();

/**
  ---------------------------------------------------------------------------
  The geocoder's queue
  ---------------------------------------------------------------------------
  One request per business whose address the geocoder should look up: queued
  when a business with an address is added without a location, its address
  changes or its location is cleared, unless staff placed its pin or the same
  write brought its coordinates. The scheduled function claims due requests for a while
  (claimed_until), so two runs never ask for the same address; a request
  whose address changed meanwhile is queued again (requested_at moves), and
  an answer for the old one is dropped. An address the geocoder does not
  find stays as 'unmatched' (the Members tab says so); a failing geocoder is
  asked again later, less and less often, and given up after 8 tries.
 */
create table if not exists public.geocode_requests (
	profile_id uuid primary key,
	tenant_id uuid not null,
	status text not null default 'pending' check (status in ('pending', 'unmatched', 'failed')),
	requested_at timestamptz not null default now(),
	attempts integer not null default 0 check (attempts between 0 and 8),
	next_attempt_at timestamptz default now(),
	claimed_until timestamptz,
	last_error text check (char_length(last_error) <= 500),
	foreign key (tenant_id, profile_id) references public.profiles (tenant_id, id) on delete cascade,
	constraint geocode_requests_due_when_pending check ((status = 'pending') = (next_attempt_at is not null))
);

comment on table public.geocode_requests is 'Addresses the geocoder is to look up, one per business: queued by the address''s change, worked by the scheduled geocode function (claim_geocode_requests, record_geocodes).';
comment on column public.geocode_requests.status is 'pending (to be looked up), unmatched (the geocoder found no such address), failed (the geocoder failed 8 times).';
comment on column public.geocode_requests.requested_at is 'When the address last changed; an answer for an earlier request is dropped.';
comment on column public.geocode_requests.attempts is 'Failed attempts so far (a geocoder that did not answer, or answered an error).';
comment on column public.geocode_requests.next_attempt_at is 'When a pending request is due; null once it is unmatched or failed.';
comment on column public.geocode_requests.claimed_until is 'A run of the scheduled function is looking it up until then.';
comment on column public.geocode_requests.last_error is 'Why the last attempt did not place the business (for staff).';

create index if not exists geocode_requests_due_idx
	on public.geocode_requests (tenant_id, next_attempt_at) where status = 'pending';

alter table public.geocode_requests enable row level security;

create policy "Chamber staff can read their businesses' geocoding" on public.geocode_requests
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.geocode_requests to authenticated;
grant all on table public.geocode_requests to service_role;

/** Queues (or queues again) the geocoding of one business's address. */
create or replace function public.queue_geocode_request(p_tenant_id uuid, p_profile_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
	insert into public.geocode_requests as r (profile_id, tenant_id)
	values (p_profile_id, p_tenant_id)
	on conflict (profile_id) do update set
		status = 'pending', requested_at = now(), attempts = 0, next_attempt_at = now(),
		claimed_until = null, last_error = null;
$$;

comment on function public.queue_geocode_request is 'Queues the geocoding of a business''s address, or queues it again (a new address).';

/** Whether a business has an address the geocoder can look up: a street, a town or a ZIP code. */
create or replace function public.has_geocodable_address(p_address1 text, p_city text, p_zip text)
returns boolean
language sql
immutable
set search_path = ''
as $$
	select btrim(coalesce(p_address1, '')) <> ''
		and (btrim(coalesce(p_city, '')) <> '' or btrim(coalesce(p_zip, '')) <> '');
$$;

comment on function public.has_geocodable_address is 'Whether an address names a street and a town or ZIP code: what the geocoder needs to place a business.';

create or replace function public.profiles_geocode_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	-- A pin staff placed stays where it is.
	if new.location_source = 'staff' then
		return null;
	end if;
	-- This very write brought the business's coordinates (a tenant file's).
	if new.location is not null and (tg_op = 'INSERT' or new.location is distinct from old.location) then
		delete from public.geocode_requests where profile_id = new.id;
		return null;
	end if;
	if not public.has_geocodable_address(new.address1, new.city, new.zip) then
		delete from public.geocode_requests where profile_id = new.id;
		return null;
	end if;
	perform public.queue_geocode_request(new.tenant_id, new.id);
	return null;
end;
$$;

comment on function public.profiles_geocode_trigger is 'Trigger: a business added without a location, whose address changed or whose location was cleared, is queued for the geocoder (not one whose pin staff placed).';

create trigger profiles_geocode_after_insert after insert on public.profiles
	for each row when (new.location is null)
	execute function public.profiles_geocode_trigger();

create trigger profiles_geocode_after_update after update of address1, address2, city, state, zip, location
	on public.profiles
	for each row when (
		(new.address1, new.address2, new.city, new.state, new.zip)
			is distinct from (old.address1, old.address2, old.city, old.state, old.zip)
		or (new.location is null and old.location is not null)
	)
	execute function public.profiles_geocode_trigger();

/**
  The scheduled function's side (service role). A claim takes at most 1,000
  due requests of one chamber for p_lease_seconds (at most 10 minutes) and
  answers each with the address as it is now.
 */
create or replace function public.claim_geocode_requests(
	p_tenant_id uuid,
	p_limit integer default 100,
	p_lease_seconds integer default 120
) returns table (
	profile_id uuid,
	requested_at timestamptz,
	address1 text,
	address2 text,
	city text,
	state text,
	zip text
)
language sql
security definer
set search_path = ''
as $$
	with due as (
		select r.profile_id from public.geocode_requests r
		where r.tenant_id = p_tenant_id and r.status = 'pending' and r.next_attempt_at <= now()
			and (r.claimed_until is null or r.claimed_until < now())
		order by r.next_attempt_at, r.requested_at, r.profile_id
		limit least(greatest(coalesce(p_limit, 100), 1), 1000)
		for update skip locked
	),
	claimed as (
		update public.geocode_requests r
		set claimed_until = now() + make_interval(secs => least(greatest(coalesce(p_lease_seconds, 120), 10), 600))
		from due where r.profile_id = due.profile_id
		returning r.profile_id, r.requested_at
	)
	select c.profile_id, c.requested_at, p.address1, p.address2, p.city, p.state, p.zip
	from claimed c join public.profiles p on p.id = c.profile_id
	order by c.requested_at, c.profile_id;
$$;

comment on function public.claim_geocode_requests is 'Claims up to p_limit (at most 1000) due geocoding requests of a chamber for a while and answers their addresses; service role only.';

/**
  What the geocoder answered, for requests claim_geocode_requests gave out:
  [{profile_id, requested_at, outcome: located | unmatched | failed,
  latitude, longitude, quality, source, error}], at most 1,000. An answer
  for a request that was queued again since (its address changed) is dropped;
  a located business whose pin staff placed meanwhile keeps the pin.
 */
create or replace function public.record_geocodes(p_tenant_id uuid, p_results jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_result jsonb;
	v_request public.geocode_requests;
	v_outcome text;
	v_counts jsonb := '{"located": 0, "unmatched": 0, "failed": 0, "dropped": 0}'::jsonb;
	v_location jsonb;
begin
	if jsonb_typeof(p_results) is distinct from 'array' or jsonb_array_length(p_results) > 1000 then
		raise exception 'Expected at most 1000 results' using errcode = '22023';
	end if;
	for v_result in select e from jsonb_array_elements(p_results) e loop
		v_outcome := v_result ->> 'outcome';
		select * into v_request from public.geocode_requests r
		where r.tenant_id = p_tenant_id and r.profile_id = (v_result ->> 'profile_id')::uuid
			and r.requested_at = (v_result ->> 'requested_at')::timestamptz
		for update;
		if not found then
			v_counts := jsonb_set(v_counts, '{dropped}', to_jsonb((v_counts ->> 'dropped')::integer + 1));
			continue;
		end if;
		if v_outcome = 'located' then
			if v_result ->> 'source' not in ('census', 'nominatim') then
				raise exception 'source: census or nominatim' using errcode = '22023';
			end if;
			v_location := jsonb_build_object(
				'latitude', (v_result -> 'latitude'), 'longitude', (v_result -> 'longitude')
			);
			if public.business_location_problem(v_location) is not null then
				raise exception 'location: %', public.business_location_problem(v_location) using errcode = '22023';
			end if;
			perform set_config('chamber.location_source', v_result ->> 'source', true);
			update public.profiles p
			set location = v_location, location_quality = v_result ->> 'quality'
			where p.id = v_request.profile_id and p.location_source is distinct from 'staff';
			perform set_config('chamber.location_source', '', true);
			delete from public.geocode_requests where profile_id = v_request.profile_id;
		elsif v_outcome = 'unmatched' then
			update public.geocode_requests
			set status = 'unmatched', next_attempt_at = null, claimed_until = null,
				last_error = left(coalesce(v_result ->> 'error', 'The geocoder found no such address'), 500)
			where profile_id = v_request.profile_id;
		elsif v_outcome = 'failed' then
			update public.geocode_requests
			set attempts = v_request.attempts + 1,
				status = case when v_request.attempts + 1 >= 8 then 'failed' else 'pending' end,
				next_attempt_at = case when v_request.attempts + 1 >= 8 then null
					else now() + least(interval '1 minute' * power(4, v_request.attempts), interval '1 day') end,
				claimed_until = null,
				last_error = left(coalesce(v_result ->> 'error', 'The geocoder did not answer'), 500)
			where profile_id = v_request.profile_id;
		else
			raise exception 'outcome: located, unmatched or failed' using errcode = '22023';
		end if;
		v_counts := jsonb_set(v_counts, array[v_outcome], to_jsonb((v_counts ->> v_outcome)::integer + 1));
	end loop;
	return v_counts;
end;
$$;

comment on function public.record_geocodes is 'Records the geocoder''s answers for claimed requests: places located businesses (never over a pin staff placed), marks the addresses it did not find, and asks again later after a failure; service role only.';

/**
  Staff place a business by its address again (admins, as the user): the pin
  they placed goes, and the geocoder is asked. The business has no location
  until it answers.
 */
create or replace function public.reset_business_location(p_tenant_id uuid, p_business_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_row public.profiles;
	v_actor record;
	v_version integer;
begin
	if not public.may_change_business_field(p_tenant_id, 'location') then
		raise exception 'You cannot change this field of the chamber''s businesses' using errcode = '42501';
	end if;
	select * into v_row from public.profiles where id = p_business_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	if v_row.removed_at is not null then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
	end if;
	delete from public.business_overrides where profile_id = p_business_id and field = 'location';
	select * into v_actor from public.audit_actor(p_tenant_id);
	update public.profiles p
	set location = null, updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
	where p.id = p_business_id and p.location is not null
	returning p.version into v_version;
	if public.has_geocodable_address(v_row.address1, v_row.city, v_row.zip) then
		perform public.queue_geocode_request(p_tenant_id, p_business_id);
	end if;
	return jsonb_build_object('id', p_business_id, 'version', coalesce(v_version, v_row.version));
end;
$$;

comment on function public.reset_business_location is 'Staff place a business by its address again: the pin placed by hand goes and the geocoder is asked (admins, as the user).';

-- Addresses the directory already holds, without a location, are looked up once.
insert into public.geocode_requests (profile_id, tenant_id)
select p.id, p.tenant_id from public.profiles p
where p.location is null and public.has_geocodable_address(p.address1, p.city, p.zip)
on conflict (profile_id) do nothing;

/**
  ---------------------------------------------------------------------------
  The location as a field of a business
  ---------------------------------------------------------------------------
  In the tenant file's shape, `location` is {latitude, longitude} or null:
  save_business writes it (admins; editors do not move pins), the audit and
  the version count its changes, a pin staff placed on a business of the
  membership system is an override, and import_tenant writes a file's
  coordinates unless staff placed the pin. A file that leaves a business's
  location out leaves it as it is.
 */
create or replace function public.business_scalar_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'report_name', 'address1', 'address2', 'city', 'county', 'state', 'zip', 'work_phone', 'hours',
		'website', 'email', 'featured', 'categories', 'membership_level_name', 'membership_rank',
		'member_since_date', 'main_related_profile_name', 'logo_url', 'listing_position',
		'is_member', 'published', 'location'
	];
$$;

create or replace function public.business_from_file(p_business jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
	select jsonb_build_object(
		'report_name', p_business ->> 'report_name',
		'address1', coalesce(p_business ->> 'address1', ''),
		'address2', coalesce(p_business ->> 'address2', ''),
		'city', coalesce(p_business ->> 'city', ''),
		'county', coalesce(p_business ->> 'county', ''),
		'state', coalesce(p_business ->> 'state', ''),
		'zip', coalesce(p_business ->> 'zip', ''),
		'work_phone', coalesce(p_business ->> 'work_phone', ''),
		'hours', case when jsonb_typeof(p_business -> 'hours') = 'object' then p_business -> 'hours' end,
		'website', coalesce(p_business ->> 'website', ''),
		'email', coalesce(p_business ->> 'email', ''),
		'featured', coalesce((p_business ->> 'featured')::boolean, false),
		'categories', to_jsonb(coalesce(array(select jsonb_array_elements_text(p_business -> 'categories')), '{}'::text[])),
		'membership_level_name', coalesce(nullif(p_business ->> 'membership_level_name', ''), 'Member'),
		'membership_rank', (p_business ->> 'membership_rank')::integer,
		'member_since_date', (p_business ->> 'member_since_date')::date,
		'main_related_profile_name', coalesce(p_business ->> 'main_related_profile_name', ''),
		'logo_url', coalesce(p_business ->> 'logo_url', ''),
		'listing_position', coalesce((p_business ->> 'listing_position')::integer, 1000),
		'is_member', coalesce((p_business ->> 'is_member')::boolean, true),
		'published', coalesce((p_business ->> 'published')::boolean, true),
		'location', case when jsonb_typeof(p_business -> 'location') = 'object' then p_business -> 'location' end
	);
$$;

create or replace function public.business_document(p_profile_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select jsonb_build_object(
			'id', p.id,
			'weblink_profile_id', p.weblink_profile_id,
			'report_name', p.report_name, 'address1', p.address1, 'address2', p.address2,
			'city', p.city, 'county', p.county, 'state', p.state, 'zip', p.zip,
			'work_phone', p.work_phone, 'hours', p.hours, 'website', p.website, 'email', p.email,
			'featured', p.featured, 'categories', to_jsonb(p.categories),
			'membership_level_name', p.membership_level_name, 'membership_rank', p.membership_rank,
			'member_since_date', p.member_since_date,
			'main_related_profile_name', p.main_related_profile_name, 'logo_url', p.logo_url,
			'listing_position', p.listing_position, 'is_member', p.is_member, 'published', p.published,
			'location', p.location
		)
		|| jsonb_build_object(
			'listings', public.business_list_value(p.id, 'listings'),
			'social_media', public.business_list_value(p.id, 'social_media'),
			'profile_affiliations', public.business_list_value(p.id, 'profile_affiliations'),
			'web_content', public.business_list_value(p.id, 'web_content')
		)
	from public.profiles p
	where p.id = p_profile_id;
$$;

/** The rules of a staff change, the location's included (node scripts/business-rules.ts). */
create or replace function public.business_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '{
	"report_name": {"types":["string"],"maxLength":200},
	"address1": {"types":["string"],"maxLength":200},
	"address2": {"types":["string"],"maxLength":200},
	"city": {"types":["string"],"maxLength":200},
	"county": {"types":["string"],"maxLength":200},
	"state": {"types":["string"],"maxLength":200},
	"zip": {"types":["string"],"maxLength":200},
	"work_phone": {"types":["string"],"maxLength":200},
	"hours": {"types":["null","object","string"],"properties":{"mon":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"tue":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"wed":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"thu":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"fri":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"sat":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"sun":{"types":["array"],"items":{"types":["object"],"properties":{"open":{"types":["string"]},"close":{"types":["string"]}},"required":["open","close"]}},"note":{"types":["string"],"maxLength":200}},"maxLength":1000},
	"website": {"types":["string"],"maxLength":2000},
	"email": {"types":["string"],"maxLength":254},
	"featured": {"types":["boolean"]},
	"categories": {"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},
	"membership_level_name": {"types":["string"],"maxLength":200},
	"membership_rank": {"types":["integer","null"]},
	"member_since_date": {"types":["null","string"]},
	"main_related_profile_name": {"types":["string"],"maxLength":200},
	"logo_url": {"types":["string"],"maxLength":2000},
	"listing_position": {"types":["integer"]},
	"is_member": {"types":["boolean"]},
	"published": {"types":["boolean"]},
	"location": {"types":["null","object"],"properties":{"latitude":{"types":["number"]},"longitude":{"types":["number"]}},"required":["latitude","longitude"]},
	"listings": {"types":["array"],"maxItems":20,"items":{"types":["object"],"properties":{"description":{"types":["string"],"maxLength":50000},"short_description":{"types":["string"],"maxLength":1000},"categories":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"keywords":{"types":["string"],"maxLength":2000},"active":{"types":["boolean"]},"primary_listing":{"types":["boolean"]}}}},
	"social_media": {"types":["array"],"maxItems":20,"items":{"types":["object"],"properties":{"platform":{"types":["string"],"maxLength":50},"url":{"types":["string"],"maxLength":2000}},"required":["platform","url"]}},
	"profile_affiliations": {"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"icon":{"types":["string"],"maxLength":2000},"icon_text":{"types":["string"],"maxLength":200},"icon_url":{"types":["string"],"maxLength":2000},"aff_code":{"types":["string"],"maxLength":200},"aff_name":{"types":["string"],"maxLength":200},"list_available_on_website":{"types":["boolean"]}},"required":["aff_name"]}},
	"web_content": {"types":["array"],"maxItems":100,"items":{"types":["object"],"properties":{"content_type":{"types":["string"],"maxLength":200},"content_title":{"types":["string"],"maxLength":500},"full_url":{"types":["string"],"maxLength":2000},"rel_url":{"types":["string"],"maxLength":2000}},"required":["content_type","content_title"]}}
}'::jsonb;
$rules$;

/** The location's own check, before the rules' types (its ranges). */
create or replace function public.business_value_problem(p_field text, p_value jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_rule jsonb := public.business_rules() -> p_field;
begin
	if v_rule is null then
		return format('%s: not a field of a business', p_field);
	end if;
	if p_value is null then
		return format('%s: expected a value', p_field);
	end if;
	-- Hours arrive as the object the app's schema makes of any form; the check names the problem.
	if p_field = 'hours' then
		return 'hours: ' || public.business_hours_problem(p_value);
	end if;
	-- A location is {latitude, longitude} in degrees, or null: the table's check names the problem.
	if p_field = 'location' then
		return 'location: ' || public.business_location_problem(nullif(p_value, 'null'::jsonb));
	end if;
	if p_field = 'report_name' and btrim(p_value #>> '{}') = '' then
		return 'report_name: a business needs a name';
	end if;
	if p_field = 'membership_level_name' and btrim(p_value #>> '{}') = '' then
		return 'membership_level_name: a business needs a membership level';
	end if;
	if p_field = 'listing_position' and jsonb_typeof(p_value) = 'number' and (p_value #>> '{}')::numeric < 1 then
		return 'listing_position: 1 is the top; expected 1 or more';
	end if;
	if p_field = 'member_since_date' and jsonb_typeof(p_value) = 'string'
		and (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$' then
		return 'member_since_date: expected a date like 2027-03-15';
	end if;
	return public.config_value_problem(v_rule, p_value, p_field);
end;
$$;

/** A change of the location counts like any field's; the geocoder placing a business does not. */
create or replace function public.profiles_version_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_old jsonb;
	v_new jsonb;
	v_changed text[];
	v_actor record;
begin
	-- The cheap test first: most updates of a profile change none of its fields.
	if (new.report_name, new.address1, new.address2, new.city, new.county, new.state, new.zip,
			new.work_phone, new.hours, new.website, new.email, new.featured, new.categories,
			new.membership_level_name, new.membership_rank, new.member_since_date,
			new.main_related_profile_name, new.logo_url, new.listing_position, new.is_member,
			new.published, new.removed_at, new.location)
		is not distinct from
		(old.report_name, old.address1, old.address2, old.city, old.county, old.state, old.zip,
			old.work_phone, old.hours, old.website, old.email, old.featured, old.categories,
			old.membership_level_name, old.membership_rank, old.member_since_date,
			old.main_related_profile_name, old.logo_url, old.listing_position, old.is_member,
			old.published, old.removed_at, old.location)
	then
		if new.version is distinct from old.version then
			-- A list field changed (the writer bumped the version).
			new.updated_at := now();
		end if;
		return new;
	end if;

	v_old := to_jsonb(old);
	v_new := to_jsonb(new);
	select array_agg(f) into v_changed
	from unnest(public.business_scalar_fields()) f
	where v_old -> f is distinct from v_new -> f;

	-- The geocoder placing a business is no change of it: no version, no audit row, and who
	-- changed it last stays who it was.
	if v_changed = array['location']
		and current_setting('chamber.location_source', true) in ('census', 'nominatim') then
		return new;
	end if;

	if new.version is not distinct from old.version then
		new.version := old.version + 1;
	end if;
	new.updated_at := now();
	select * into v_actor from public.audit_actor(new.tenant_id);
	if new.updated_by is not distinct from old.updated_by then
		new.updated_by := coalesce(v_actor.actor_email, 'import');
	end if;
	if v_changed is not null then
		new.field_versions := new.field_versions
			|| (select jsonb_object_agg(f, new.version) from unnest(v_changed) f);
		insert into public.audit_log (
			tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id
		)
		select new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business',
			f, v_old -> f, v_new -> f, new.id
		from unnest(v_changed) f
		-- Removing and restoring write their own row; the publish flag they flip is part of it.
		where not (f = 'published' and new.removed_at is distinct from old.removed_at);
	end if;
	return new;
end;
$$;

/** save_business writes the location too; a pin staff place marks it changed here. */
create or replace function public.save_business(
	p_tenant_id uuid,
	p_business_id uuid,
	p_changes jsonb,
	p_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_role text := public.tenant_role(p_tenant_id);
	v_actor record;
	v_who text;
	v_id uuid := p_business_id;
	v_weblink text;
	v_old jsonb;
	v_row public.profiles;
	v_field text;
	v_problem text;
	v_conflicts jsonb;
	v_scalars jsonb := '{}'::jsonb;
	v_lists text[] := '{}';
	v_changed text[] := '{}';
	v_before jsonb;
	v_after jsonb;
	v_from_system boolean;
	v_version integer;
begin
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if jsonb_typeof(p_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	for v_field in select jsonb_object_keys(p_changes) loop
		continue when v_field = 'weblink_profile_id' and p_business_id is null;
		if not (v_field = any (public.business_scalar_fields() || public.business_list_fields())) then
			raise exception 'Not a field of a business: %', v_field using errcode = '22023';
		end if;
		if not public.may_change_business_field(p_tenant_id, v_field) then
			raise exception 'Editors can change a listing''s descriptions, web content, social links and logo only, not %', v_field
				using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
		end if;
		v_problem := public.business_value_problem(v_field, p_changes -> v_field);
		if v_problem is not null then
			raise exception '%', v_problem using errcode = '22023';
		end if;
		-- Stored as the import stores them, so equal values compare equal.
		if v_field = any (public.business_list_fields()) then
			p_changes := jsonb_set(p_changes, array[v_field], public.business_list_normalized(v_field, p_changes -> v_field));
		end if;
	end loop;
	select * into v_actor from public.audit_actor(p_tenant_id);
	v_who := coalesce(v_actor.actor_email, v_actor.actor_role);
	perform public.purge_removed_businesses(p_tenant_id);

	if v_id is null then
		if v_role = 'editor' then
			raise exception 'Editors cannot add businesses' using errcode = '42501';
		end if;
		if coalesce(btrim(p_changes ->> 'report_name'), '') = '' then
			raise exception 'report_name: a new business needs its name' using errcode = '22023';
		end if;
		v_weblink := nullif(btrim(p_changes ->> 'weblink_profile_id'), '');
		if v_weblink is not null then
			if v_weblink !~ '^\d{1,30}$' then
				raise exception 'weblink_profile_id: expected the membership system''s profile id (digits)' using errcode = '22023';
			end if;
			v_weblink := regexp_replace(v_weblink, '^0+(?=\d)', '');
			-- The id the import derives from it: the membership system's data lands on this business.
			v_id := md5(p_tenant_id::text || ':profile:' || v_weblink)::uuid;
			if exists (select 1 from public.profiles where tenant_id = p_tenant_id and weblink_profile_id = v_weblink) then
				raise exception 'weblink_profile_id: the chamber already has a business with the membership system''s id %', v_weblink
					using errcode = '23505';
			end if;
		else
			v_id := gen_random_uuid();
			v_weblink := 'local-' || v_id::text;
		end if;
		insert into public.profiles as p (
			id, tenant_id, weblink_profile_id, report_name, address1, address2, city, county, state, zip,
			work_phone, hours, website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, main_related_profile_name, logo_url, listing_position, is_member,
			published, updated_by, location
		)
		select v_id, p_tenant_id, v_weblink, d ->> 'report_name', d ->> 'address1', d ->> 'address2',
			d ->> 'city', d ->> 'county', d ->> 'state', d ->> 'zip', d ->> 'work_phone',
			nullif(d -> 'hours', 'null'::jsonb), d ->> 'website',
			d ->> 'email', (d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(d -> 'categories')), d ->> 'membership_level_name',
			(d ->> 'membership_rank')::integer, (d ->> 'member_since_date')::date,
			d ->> 'main_related_profile_name', d ->> 'logo_url', (d ->> 'listing_position')::integer,
			(d ->> 'is_member')::boolean, (d ->> 'published')::boolean, v_who,
			nullif(d -> 'location', 'null'::jsonb)
		from (select public.business_from_file(p_changes) as d) x;
		for v_field in select unnest(public.business_list_fields()) loop
			if p_changes ? v_field then
				perform public.replace_business_list(p_tenant_id, v_id, v_field, p_changes -> v_field);
			end if;
		end loop;
		insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
		values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', 'added', null,
			public.business_document(v_id), v_id);
		return jsonb_build_object('id', v_id, 'version', (select version from public.profiles where id = v_id));
	end if;

	select * into v_row from public.profiles where id = v_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	if v_row.removed_at is not null then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
	end if;
	v_old := public.business_document(v_id);

	-- An editor changes the descriptions of listings, never which listings there are or their
	-- categories, keywords and flags.
	if v_role = 'editor' and p_changes ? 'listings' then
		if (select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(p_changes -> 'listings') with ordinality x(e, ord))
			is distinct from
			(select coalesce(jsonb_agg(e - array['description', 'short_description'] order by ord), '[]')
				from jsonb_array_elements(v_old -> 'listings') with ordinality x(e, ord)) then
			raise exception 'Editors can change a listing''s descriptions only, not its categories, keywords or which listings there are'
				using errcode = '42501', hint = 'Ask an admin of the chamber to make this change.';
		end if;
	end if;

	-- Someone else changed one of these fields after the version this change was made from.
	select coalesce(jsonb_agg(jsonb_build_object(
			'field', c.field,
			'value', v_old -> c.field,
			'changedBy', coalesce(a.actor_email, case when a.actor_role in ('service_role', 'database') or a.actor_role is null then 'the membership system' else a.actor_role end),
			'changedAt', coalesce(a.at, v_row.updated_at)
		) order by c.field), '[]'::jsonb)
	into v_conflicts
	from (
		select k as field from jsonb_object_keys(p_changes) k
		where coalesce((v_row.field_versions ->> k)::integer, 0) > p_version
			and (v_old -> k) is distinct from (p_changes -> k)
	) c
	left join lateral (
		select al.actor_email, al.actor_role, al.at from public.audit_log al
		where al.business_id = v_id and al.field = c.field
		order by al.at desc, al.id desc limit 1
	) a on true;
	if jsonb_array_length(v_conflicts) > 0 then
		raise exception 'Someone else changed this listing since you opened it'
			using errcode = 'PT409',
				detail = jsonb_build_object('version', v_row.version, 'conflicts', v_conflicts)::text;
	end if;

	for v_field in select jsonb_object_keys(p_changes) loop
		v_before := v_old -> v_field;
		v_after := p_changes -> v_field;
		continue when v_before is not distinct from v_after;
		v_changed := v_changed || v_field;
		if v_field = any (public.business_list_fields()) then
			perform public.replace_business_list(p_tenant_id, v_id, v_field, v_after);
			v_lists := v_lists || v_field;
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
			values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', v_field, v_before, v_after, v_id);
		else
			v_scalars := v_scalars || jsonb_build_object(v_field, v_after);
		end if;
	end loop;
	if cardinality(v_changed) = 0 then
		return jsonb_build_object('id', v_id, 'version', v_row.version);
	end if;

	-- One version for the whole save: set here when a list changed, else the trigger's.
	v_version := case when cardinality(v_lists) > 0 then v_row.version + 1 else v_row.version end;
	update public.profiles p
	set (report_name, address1, address2, city, county, state, zip, work_phone, hours, website, email,
			featured, categories, membership_level_name, membership_rank, member_since_date,
			main_related_profile_name, logo_url, listing_position, is_member, published, location) = (
		select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
			-- A JSON null (hours cleared) is stored as no hours.
			nullif(r.hours, 'null'::jsonb), r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
			r.member_since_date, r.main_related_profile_name, r.logo_url, r.listing_position,
			r.is_member, r.published, nullif(r.location, 'null'::jsonb)
		from jsonb_populate_record(p, v_scalars) r
	),
		version = v_version,
		field_versions = p.field_versions
			|| coalesce((select jsonb_object_agg(f, v_version) from unnest(v_lists) f), '{}'::jsonb),
		updated_by = v_who
	where p.id = v_id
	returning p.version into v_version;

	-- Changed here: imports and syncs leave these fields be. A business of the membership system
	-- only (the chamber's own has no system value to differ from); a field set back to the
	-- system's value follows the system again.
	v_from_system := v_row.weblink_profile_id not like 'local-%';
	if v_from_system then
		insert into public.business_overrides as o (tenant_id, profile_id, field, changed_at, changed_by, system_value)
		select p_tenant_id, v_id, f, now(), v_who, v_old -> f
		from unnest(v_changed) f
		on conflict (profile_id, field) do update
			set changed_at = excluded.changed_at, changed_by = excluded.changed_by;
		delete from public.business_overrides o
		where o.profile_id = v_id and o.field = any (v_changed)
			and o.system_value is not null and o.system_value = p_changes -> o.field;
	end if;

	return jsonb_build_object('id', v_id, 'version', v_version);
end;
$$;

/** import_tenant writes a file's coordinates, and leaves a location the file does not give. */
create or replace function public.import_tenant(payload jsonb, replace_businesses boolean default true)
returns jsonb
language plpgsql
-- Definer rights: it writes tables no API role may write (admin_users, business_overrides, the
-- counts). Only service_role may execute it (see the grants at the end of this file).
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
	v_slug text := payload -> 'tenant' ->> 'slug';
	v_businesses integer := 0;
	v_events integer := 0;
	v_users integer := 0;
	v_actor record;
begin
	if v_slug is null then
		raise exception 'payload.tenant.slug is required';
	end if;

	insert into public.tenants (slug, name)
	values (v_slug, payload -> 'tenant' ->> 'name')
	on conflict (slug) do update set name = excluded.name
		where public.tenants.name is distinct from excluded.name;
	select id into v_tenant_id from public.tenants where slug = v_slug;

	if payload ? 'config' then
		insert into public.chamber_config as c
		select * from jsonb_populate_record(
			null::public.chamber_config,
			payload -> 'config' || jsonb_build_object('tenant_id', v_tenant_id, 'updated_at', now())
		)
		on conflict (tenant_id) do update set
			name = excluded.name, slug = excluded.slug, city = excluded.city, state = excluded.state,
			founded_year = excluded.founded_year, colors = excluded.colors, logo = excluded.logo,
			fonts = excluded.fonts, text_colors = excluded.text_colors, contact = excluded.contact,
			social = excluded.social, urls = excluded.urls, footer_labels = excluded.footer_labels,
			content = excluded.content, services = excluded.services, features = excluded.features,
			membership_levels = excluded.membership_levels,
			featured_businesses = excluded.featured_businesses,
			category_display = excluded.category_display, search_page = excluded.search_page,
			navigation = excluded.navigation, updated_at = excluded.updated_at
		-- Only a real change moves updated_at.
		where to_jsonb(c) - 'updated_at' is distinct from to_jsonb(excluded) - 'updated_at';
	end if;

	insert into public.cache_versions (tenant_id, type)
	select v_tenant_id, t
	from unnest(array['config', 'categories', 'events', 'community_events', 'event_details']) t
	on conflict do nothing;

	if payload ? 'businesses' then
		-- Each business as it would be stored (d), with its id and whether it exists already.
		create temporary table pg_temp.import_businesses on commit drop as
		select x.id, x.b, public.business_from_file(x.b) as d, false as existed,
			''::tsvector as search_vector, ''::text as search_text
		from (
			select
				coalesce(
					(b ->> 'id')::uuid,
					md5(v_tenant_id::text || ':profile:' || (b ->> 'weblink_profile_id'))::uuid
				) as id,
				b
			from jsonb_array_elements(payload -> 'businesses') b
		) x;
		create index on pg_temp.import_businesses (id);
		select count(*) into v_businesses from pg_temp.import_businesses;

		-- Businesses the file no longer has go, but those added by staff (no membership-system id).
		if replace_businesses then
			delete from public.profiles p
			where p.tenant_id = v_tenant_id
				and p.weblink_profile_id not like 'local-%'
				and not exists (select 1 from pg_temp.import_businesses i where i.id = p.id);
		end if;
		perform public.purge_removed_businesses(v_tenant_id);
		update pg_temp.import_businesses i set existed = true
		from public.profiles p where p.id = i.id;
		-- A file without a business's location leaves it where it is (the geocoder's, a pin staff
		-- placed); the file's own coordinates, where it has them, are the membership system's.
		update pg_temp.import_businesses i
		set d = jsonb_set(i.d, '{location}', coalesce(p.location, 'null'::jsonb))
		from public.profiles p
		where p.id = i.id and not (i.b ? 'location');

		-- What the membership system says of the fields staff changed here, kept beside them …
		update public.business_overrides o
		set system_value = case
			when o.field = any (public.business_list_fields())
				then public.business_list_normalized(o.field, coalesce(i.b -> o.field, '[]'::jsonb))
			else i.d -> o.field
		end
		from pg_temp.import_businesses i
		where o.tenant_id = v_tenant_id and o.profile_id = i.id
			and not (o.field = 'location' and not (i.b ? 'location'));

		-- … while those fields keep the value staff gave them.
		update pg_temp.import_businesses i
		set d = i.d || m.kept
		from (
			select o.profile_id, jsonb_object_agg(o.field, to_jsonb(p) -> o.field) as kept
			from public.business_overrides o
			join public.profiles p on p.id = o.profile_id
			where o.tenant_id = v_tenant_id and o.field = any (public.business_scalar_fields())
			group by o.profile_id
		) m
		where m.profile_id = i.id;

		-- The lists of each business as the file has them, but those staff changed; then only those
		-- that differ from what is stored are written.
		create temporary table pg_temp.import_lists on commit drop as
		select i.id, i.existed, f.field,
			-- Most lists of most rows are empty: no need to normalize those.
			case when coalesce(i.b -> f.field, '[]'::jsonb) = '[]'::jsonb then '[]'::jsonb
				else public.business_list_normalized(f.field, i.b -> f.field)
			end as rows,
			'[]'::jsonb as current
		from pg_temp.import_businesses i
		cross join unnest(public.business_list_fields()) f(field)
		where not exists (
			select 1 from public.business_overrides o where o.profile_id = i.id and o.field = f.field
		);
		create index on pg_temp.import_lists (id, field);

		update pg_temp.import_lists x set current = c.rows
		from (
			select l.profile_id, jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position) as rows
			from public.listings l
			join pg_temp.import_businesses i on i.id = l.profile_id and i.existed
			where l.tenant_id = v_tenant_id
			group by l.profile_id
		) c
		where x.field = 'listings' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select s.profile_id, jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url)
				order by s.position) as rows
			from public.social_media s
			join pg_temp.import_businesses i on i.id = s.profile_id and i.existed
			where s.tenant_id = v_tenant_id
			group by s.profile_id
		) c
		where x.field = 'social_media' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select a.profile_id, jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url,
					'aff_code', a.aff_code, 'aff_name', a.aff_name,
					'list_available_on_website', a.list_available_on_website
				) order by a.position) as rows
			from public.profile_affiliations a
			join pg_temp.import_businesses i on i.id = a.profile_id and i.existed
			where a.tenant_id = v_tenant_id
			group by a.profile_id
		) c
		where x.field = 'profile_affiliations' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select w.profile_id, jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position) as rows
			from public.web_content w
			join pg_temp.import_businesses i on i.id = w.profile_id and i.existed
			where w.tenant_id = v_tenant_id
			group by w.profile_id
		) c
		where x.field = 'web_content' and x.existed and x.id = c.profile_id;
		-- The search columns as the directory's triggers would leave them once the lists are in
		-- (profile_search_document_of), computed here for the whole batch: the triggers that
		-- would compute them row by row, and again after the listings, stand aside meanwhile.
		update pg_temp.import_businesses i
		set search_vector = s.search_vector, search_text = s.search_text
		from pg_temp.import_businesses i2
		left join pg_temp.import_lists x on x.id = i2.id and x.field = 'listings'
		cross join lateral public.profile_search_document_of(
			i2.d ->> 'report_name',
			array(select jsonb_array_elements_text(i2.d -> 'categories')),
			coalesce(
				x.rows,
				case when i2.existed then public.business_list_value(i2.id, 'listings') end,
				'[]'::jsonb
			)
		) s
		where i.id = i2.id;
		perform set_config('chamber.import_writes_search', 'on', true);
		-- Coordinates this import writes came with the file.
		perform set_config('chamber.location_source', 'file', true);

		insert into public.profiles as p (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			hours, website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published, updated_by, search_vector, search_text, location
		)
		select
			i.id, v_tenant_id, i.d ->> 'report_name', i.d ->> 'address1', i.d ->> 'address2',
			i.d ->> 'city', i.d ->> 'county', i.d ->> 'state', i.d ->> 'zip', i.d ->> 'work_phone',
			nullif(i.d -> 'hours', 'null'::jsonb), i.d ->> 'website', i.d ->> 'email', (i.d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(i.d -> 'categories')),
			i.d ->> 'membership_level_name', (i.d ->> 'membership_rank')::integer,
			(i.d ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			i.d ->> 'main_related_profile_name', i.d ->> 'logo_url',
			(i.d ->> 'listing_position')::integer, (i.d ->> 'is_member')::boolean,
			(i.d ->> 'published')::boolean, 'import', i.search_vector, i.search_text,
			nullif(i.d -> 'location', 'null'::jsonb)
		from pg_temp.import_businesses i
		on conflict (id) do update set
			report_name = excluded.report_name, address1 = excluded.address1,
			address2 = excluded.address2, city = excluded.city, county = excluded.county,
			state = excluded.state, zip = excluded.zip, work_phone = excluded.work_phone,
			hours = excluded.hours,
			website = excluded.website, email = excluded.email, featured = excluded.featured,
			categories = excluded.categories, membership_level_name = excluded.membership_level_name,
			membership_rank = excluded.membership_rank, member_since_date = excluded.member_since_date,
			weblink_profile_id = excluded.weblink_profile_id,
			main_related_profile_name = excluded.main_related_profile_name,
			logo_url = excluded.logo_url, listing_position = excluded.listing_position,
			is_member = excluded.is_member,
			-- A removed business stays off the site until staff restore it.
			published = excluded.published and p.removed_at is null,
			published_before_removal = case
				when p.removed_at is null then null else excluded.published
			end,
			updated_by = 'import',
			search_vector = excluded.search_vector, search_text = excluded.search_text,
			location = excluded.location
		-- Only a business whose values differ is written: an unchanged re-import changes nothing.
		where (p.report_name, p.address1, p.address2, p.city, p.county, p.state, p.zip, p.work_phone, p.hours,
				p.website, p.email, p.featured, p.categories, p.membership_level_name, p.membership_rank,
				p.member_since_date, p.weblink_profile_id, p.main_related_profile_name, p.logo_url,
				p.listing_position, p.is_member, p.published,
				case when p.removed_at is null then null else p.published_before_removal end, p.location)
			is distinct from (excluded.report_name, excluded.address1, excluded.address2, excluded.city,
				excluded.county, excluded.state, excluded.zip, excluded.work_phone, excluded.hours, excluded.website,
				excluded.email, excluded.featured, excluded.categories, excluded.membership_level_name,
				excluded.membership_rank, excluded.member_since_date, excluded.weblink_profile_id,
				excluded.main_related_profile_name, excluded.logo_url, excluded.listing_position,
				excluded.is_member, excluded.published and p.removed_at is null,
				case when p.removed_at is null then null else excluded.published end, excluded.location);

		update public.profiles p
		set search_vector = i.search_vector, search_text = i.search_text
		from pg_temp.import_businesses i
		where p.id = i.id and i.existed
			and (p.search_text, p.search_vector) is distinct from (i.search_text, i.search_vector);

		delete from pg_temp.import_lists where rows = current;

		delete from public.listings l using pg_temp.import_lists x
		where x.field = 'listings' and l.profile_id = x.id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(x.id::text || ':listing:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'description', e.v ->> 'short_description',
			array(select jsonb_array_elements_text(e.v -> 'categories')),
			e.v ->> 'keywords', (e.v ->> 'active')::boolean, (e.v ->> 'primary_listing')::boolean
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'listings';

		delete from public.social_media s using pg_temp.import_lists x
		where x.field = 'social_media' and s.profile_id = x.id;
		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select
			md5(x.id::text || ':social:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'social_media';

		delete from public.profile_affiliations a using pg_temp.import_lists x
		where x.field = 'profile_affiliations' and a.profile_id = x.id;
		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select
			md5(x.id::text || ':affiliation:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'icon', e.v ->> 'icon_text', e.v ->> 'icon_url', e.v ->> 'aff_code',
			e.v ->> 'aff_name', (e.v ->> 'list_available_on_website')::boolean
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'profile_affiliations';

		delete from public.web_content w using pg_temp.import_lists x
		where x.field = 'web_content' and w.profile_id = x.id;
		insert into public.web_content (
			id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url
		)
		select
			md5(x.id::text || ':web:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'content_type', e.v ->> 'content_title', e.v ->> 'full_url', e.v ->> 'rel_url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'web_content';

		perform set_config('chamber.import_writes_search', 'off', true);
		perform set_config('chamber.location_source', '', true);

		-- A list of a business that was there before changed: its version, and the audit.
		select * into v_actor from public.audit_actor(v_tenant_id);
		insert into public.audit_log (
			tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id
		)
		select v_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business',
			x.field, x.current, x.rows, x.id
		from pg_temp.import_lists x
		where x.existed;
		update public.profiles p
		set version = p.version + 1,
			field_versions = p.field_versions || c.fields,
			updated_by = 'import'
		from (
			select x.id, jsonb_object_agg(x.field, pp.version + 1) as fields
			from pg_temp.import_lists x
			join public.profiles pp on pp.id = x.id
			where x.existed
			group by x.id
		) c
		where p.id = c.id;
	end if;

	if payload ? 'banners' then
		delete from public.banners where tenant_id = v_tenant_id;
		insert into public.banners (
			id, tenant_id, banner_name, image_url, navigate_url, target, alternate_text, active, position
		)
		select
			case
				when e.v ->> 'id' is null then md5(v_tenant_id::text || ':banner:' || e.ord)::uuid
				when e.v ->> 'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (e.v ->> 'id')::uuid
				-- The membership system's numeric banner id: a stable id per chamber and banner.
				else md5(v_tenant_id::text || ':banner-id:' || (e.v ->> 'id'))::uuid
			end,
			v_tenant_id, e.v ->> 'banner_name', e.v ->> 'image_url',
			coalesce(e.v ->> 'navigate_url', ''), coalesce(e.v ->> 'target', '_blank'),
			coalesce(e.v ->> 'alternate_text', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'position')::integer, e.ord::integer)
		from jsonb_array_elements(payload -> 'banners') with ordinality e(v, ord);
	end if;

	if payload ? 'events' or payload ? 'communityEvents' then
		delete from public.events where tenant_id = v_tenant_id;
		insert into public.events (tenant_id, source, event_id, start_utc, end_utc, closed, data)
		select
			v_tenant_id, s.source, (e ->> 'EventId')::integer, (e ->> 'StartDateTimeUtc')::timestamptz,
			(e ->> 'EndDateTimeUtc')::timestamptz, coalesce((e ->> 'Closed')::boolean, false), e
		from (
			select 'chamber' as source, e from jsonb_array_elements(coalesce(payload -> 'events', '[]')) e
			union all
			select 'community', e from jsonb_array_elements(coalesce(payload -> 'communityEvents', '[]')) e
		) s;
		get diagnostics v_events = row_count;
	end if;

	if payload ? 'users' then
		v_users := public.import_tenant_users(
			v_tenant_id,
			payload -> 'users',
			coalesce((payload ->> 'allow_super_admin')::boolean, false)
		);
	end if;

	-- Fresh statistics keep search plans on their indexes right after a large import
	-- (PGlite runs no autovacuum). The directory's two large tables are analyzed when this
	-- import is a fifth or more of what their statistics count: a smaller batch moves no plan,
	-- and sampling 30,000 rows would cost more than the batch (apply_member_import, which
	-- imports in batches, analyzes them once after its last).
	if v_businesses * 5 >= (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.profiles'::regclass) then
		analyze public.profiles;
		analyze public.listings;
	end if;
	analyze public.profile_affiliations;
	analyze public.search_words;
	analyze public.events;

	return jsonb_build_object(
		'tenant_id', v_tenant_id,
		'businesses', v_businesses,
		'events', v_events,
		'users', v_users
	);
end;
$$;

/** Taking the system's location back places the business by its address again. */
create or replace function public.clear_business_override(p_tenant_id uuid, p_business_id uuid, p_field text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_override public.business_overrides;
	v_actor record;
	v_old jsonb;
	v_version integer;
begin
	if not public.may_change_business_field(p_tenant_id, p_field) then
		raise exception 'You cannot change this field of the chamber''s businesses' using errcode = '42501';
	end if;
	-- A pin placed by hand gives way to the address: the geocoder places the business again.
	if p_field = 'location' then
		return public.reset_business_location(p_tenant_id, p_business_id);
	end if;
	select * into v_override from public.business_overrides
	where tenant_id = p_tenant_id and profile_id = p_business_id and field = p_field
	for update;
	if not found then
		raise exception 'This field follows the membership system already' using errcode = 'PT404';
	end if;
	if exists (select 1 from public.profiles where id = p_business_id and removed_at is not null) then
		raise exception 'This business was removed: restore it before changing it' using errcode = 'PT409';
	end if;
	delete from public.business_overrides
	where tenant_id = p_tenant_id and profile_id = p_business_id and field = p_field;
	select version into v_version from public.profiles where id = p_business_id;
	if v_override.system_value is null then
		return jsonb_build_object('id', p_business_id, 'version', v_version);
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	if p_field = any (public.business_list_fields()) then
		v_old := public.business_list_value(p_business_id, p_field);
		if v_old is distinct from v_override.system_value then
			perform public.replace_business_list(p_tenant_id, p_business_id, p_field, v_override.system_value);
			update public.profiles p
			set version = p.version + 1,
				field_versions = p.field_versions || jsonb_build_object(p_field, p.version + 1),
				updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
			where p.id = p_business_id
			returning p.version into v_version;
			insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id)
			values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business', p_field, v_old, v_override.system_value, p_business_id);
		end if;
	else
		update public.profiles p
		set (report_name, address1, address2, city, county, state, zip, work_phone, website, email,
				featured, categories, membership_level_name, membership_rank, member_since_date,
				main_related_profile_name, logo_url, listing_position, is_member, published) = (
			select r.report_name, r.address1, r.address2, r.city, r.county, r.state, r.zip, r.work_phone,
				r.website, r.email, r.featured, r.categories, r.membership_level_name, r.membership_rank,
				r.member_since_date, r.main_related_profile_name, r.logo_url, r.listing_position,
				r.is_member, r.published
			from jsonb_populate_record(p, jsonb_build_object(p_field, v_override.system_value)) r
		),
			updated_by = coalesce(v_actor.actor_email, v_actor.actor_role)
		where p.id = p_business_id
		returning p.version into v_version;
	end if;
	return jsonb_build_object('id', p_business_id, 'version', v_version);
end;
$$;

/** The Members tab reads who placed the location and the geocoder's request. */
create or replace function public.admin_business(p_tenant_id uuid, p_business_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_row public.profiles;
begin
	if public.tenant_role(p_tenant_id) is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	select * into v_row from public.profiles where id = p_business_id and tenant_id = p_tenant_id;
	if not found then
		raise exception 'No such business in this chamber' using errcode = 'PT404';
	end if;
	return jsonb_build_object(
		'business', public.business_document(v_row.id) || jsonb_build_object(
			'weblink_profile_id',
			case when v_row.weblink_profile_id like 'local-%' then null else v_row.weblink_profile_id end
		),
		'version', v_row.version,
		'status', case when v_row.removed_at is not null then 'removed'
			when v_row.published then 'published' else 'unpublished' end,
		'updatedAt', v_row.updated_at,
		'updatedBy', v_row.updated_by,
		'removedAt', v_row.removed_at,
		-- Who placed the location, and where the geocoder is with its address.
		'location', jsonb_build_object(
			'source', v_row.location_source,
			'quality', v_row.location_quality,
			'locatedAt', v_row.located_at,
			'request', (
				select jsonb_build_object(
					'status', r.status, 'requestedAt', r.requested_at, 'attempts', r.attempts,
					'nextAttemptAt', r.next_attempt_at, 'lastError', r.last_error
				)
				from public.geocode_requests r where r.profile_id = v_row.id
			)
		),
		'overrides', coalesce((
			select jsonb_agg(jsonb_build_object(
				'field', o.field, 'changedAt', o.changed_at, 'changedBy', o.changed_by,
				'systemValue', o.system_value
			) order by o.field)
			from public.business_overrides o where o.profile_id = v_row.id
		), '[]'::jsonb)
	);
end;
$$;

/**
  Card records carry the location (the map, the distance, the profile's geo);
  business_cards_view is read again so it has the new columns.
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
	p.logo_url,
	p.latitude,
	p.longitude
from public.profiles p
-- The service role bypasses row-level security; unpublished rows stay out of every public read anyway.
where p.published;

create or replace view public.business_cards_view with (security_invoker = true) as
select * from public.business_detail_view;

comment on column public.business_detail_view.latitude is 'Where the business is (profiles.location), or null.';
comment on column public.business_detail_view.longitude is 'Where the business is (profiles.location), or null.';

/**
  ---------------------------------------------------------------------------
  Distance search: near a point, or in a map's area
  ---------------------------------------------------------------------------
  A search near a point (a visitor's position, rounded by the browser's page
  before it is sent) within a radius, or in the box a map shows (south, west,
  north, east; 'Search this area'), or both. Businesses come nearest first:
  to the point, or to the middle of the box. The area is a box of latitudes
  and longitudes the index answers (profiles_directory_location_idx), which
  also holds each business's point of the unit sphere: within a radius, the
  chord to the centre decides (the straight line through the Earth, on a
  sphere of its mean radius, 6371.0088 km), which orders and bounds exactly
  as the haversine distance does, so a business exactly on the circle is in.
  The distance answered is the great-circle one. The box's longitudes are not
  wrapped at the antimeridian: no chamber's directory spans it. Businesses
  without a location are in no such search.
 */

/**
  The area of a distance search: where distances are measured from (and that
  point on the unit sphere), the box to read from the index, the radius (at
  most 1000 km) and the square of its chord. No point and no box, or a box
  the wrong way round: no area (nothing matches).
 */
create or replace function public.directory_area(
	p_latitude double precision,
	p_longitude double precision,
	p_radius_km double precision,
	p_bounds double precision[],
	out latitude double precision,
	out longitude double precision,
	out x double precision,
	out y double precision,
	out z double precision,
	out south double precision,
	out west double precision,
	out north double precision,
	out east double precision,
	out radius_km double precision,
	out chord2 double precision
)
language plpgsql
immutable
set search_path = ''
as $$
declare
	-- The Earth's mean radius, km (IUGG).
	c_earth constant double precision := 6371.0088;
	v_dlat double precision;
	v_dlng double precision;
begin
	south := -90; north := 90; west := -180; east := 180;
	-- greatest() and least() skip nulls: no radius stays none.
	radius_km := case when p_radius_km is not null then least(greatest(p_radius_km, 0), 1000) end;
	if p_bounds is not null then
		if cardinality(p_bounds) <> 4 or p_bounds[1] > p_bounds[3] or p_bounds[2] > p_bounds[4] then
			return;
		end if;
		south := greatest(p_bounds[1], -90);
		west := greatest(p_bounds[2], -180);
		north := least(p_bounds[3], 90);
		east := least(p_bounds[4], 180);
	end if;
	if p_latitude is not null and p_longitude is not null
		and p_latitude between -90 and 90 and p_longitude between -180 and 180 then
		latitude := p_latitude;
		longitude := p_longitude;
	elsif p_bounds is not null then
		latitude := (south + north) / 2;
		longitude := (west + east) / 2;
	else
		return;
	end if;
	x := cos(radians(latitude)) * cos(radians(longitude));
	y := cos(radians(latitude)) * sin(radians(longitude));
	z := sin(radians(latitude));
	if radius_km is not null then
		chord2 := power(2 * sin(radius_km / (2 * c_earth)), 2);
		v_dlat := degrees(radius_km / c_earth);
		south := greatest(south, latitude - v_dlat);
		north := least(north, latitude + v_dlat);
		-- The circle's widest longitudes (Matuschek's bounding coordinates); none near a pole.
		if abs(latitude) + v_dlat < 90 then
			v_dlng := degrees(asin(least(1, sin(radius_km / c_earth) / cos(radians(latitude)))));
			west := greatest(west, longitude - v_dlng);
			east := least(east, longitude + v_dlng);
		end if;
	end if;
end;
$$;

comment on function public.directory_area is 'A distance search''s area: the point distances are measured from (the given one, else the box''s middle) and its point of the unit sphere, the box of latitudes and longitudes to read, the radius in km (at most 1000) and the square of its chord; all null when there is no area.';

/**
  The square of the chord between a business p and the search's point ($8,
  $9, $10 on the unit sphere), as SQL text: plain arithmetic on the columns
  the index holds.
 */
create or replace function public.directory_chord_sql()
returns text
language sql
immutable
set search_path = ''
as $$
	select '((p.geo_x - $8) * (p.geo_x - $8) + (p.geo_y - $9) * (p.geo_y - $9)'
		|| ' + (p.geo_z - $10) * (p.geo_z - $10))';
$$;

comment on function public.directory_chord_sql is 'The square of the chord from the search''s point ($8, $9, $10 on the unit sphere) to a business p, as SQL text.';

/**
  The distance search's part of the WHERE clause over profiles p, after
  directory_match_sql's ($1–$7): $11–$14 the box (south, north, west, east),
  and, with a radius, $15 the square of its chord.
 */
create or replace function public.directory_area_sql(p_radius boolean)
returns text
language sql
immutable
set search_path = ''
as $$
	select ' and p.latitude is not null and p.latitude between $11 and $12 and p.longitude between $13 and $14'
		|| case when p_radius then ' and ' || public.directory_chord_sql() || ' <= $15' else '' end;
$$;

comment on function public.directory_area_sql is 'The distance search''s part of the WHERE clause (the box, and the circle when there is a radius), as SQL text over profiles p.';

/**
  One page (at most 100) of the businesses matching a search and filters in
  an area, nearest first, with the total of matches and each one's distance
  in km. A page past the end answers one row without a business, carrying
  the total. As the caller (visitors read published businesses). The total
  comes with the page from one read of the matches (a filter's matches are
  spread over the table: reading them twice cost more than counting them in
  the sort).
 */
create or replace function public.directory_near_page(
	p_tenant_id uuid,
	p_latitude double precision default null,
	p_longitude double precision default null,
	p_radius_km double precision default null,
	p_bounds double precision[] default null,
	p_search_query text default null,
	p_category text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_affiliation text default null,
	p_new_members_only boolean default false,
	p_limit integer default 24,
	p_offset integer default 0
) returns table (profile_id uuid, ord integer, total bigint, distance_km double precision)
language plpgsql
stable
security invoker
set search_path = public, extensions, pg_temp
rows 24
as $$
declare
	c_earth constant double precision := 6371.0088;
	v_search_text text := left(p_search_query, 200);
	v_search boolean := nullif(trim(coalesce(v_search_text, '')), '') is not null;
	v_query tsquery;
	v_area record;
	v_where text;
	v_limit integer := least(greatest(coalesce(p_limit, 24), 0), 100);
	v_offset integer := least(greatest(coalesce(p_offset, 0), 0), 1000000);
	v_n integer := 0;
	v_id uuid;
	v_chord2 double precision;
	v_total bigint;
begin
	select * into v_area from public.directory_area(p_latitude, p_longitude, p_radius_km, p_bounds);
	if v_area.latitude is null then
		return;
	end if;
	if v_search then
		v_query := public.search_tsquery(p_tenant_id, v_search_text);
		if v_query is null then
			return;
		end if;
	end if;
	v_where := public.directory_match_sql(
		v_search, left(p_category, 200), left(p_city, 200), left(p_county, 200), left(p_zip, 200),
		p_new_members_only, left(p_affiliation, 200)
	) || public.directory_area_sql(v_area.radius_km is not null);
	for v_id, v_chord2, v_total in execute
		'select p.id, ' || public.directory_chord_sql() || ' as c, count(*) over ()'
		|| ' from public.profiles p where ' || v_where
		|| ' order by c, p.id offset $16 limit $17'
		using p_tenant_id, v_query, left(p_category, 200), left(p_city, 200), left(p_county, 200),
			left(p_zip, 200), left(p_affiliation, 200), v_area.x, v_area.y, v_area.z,
			v_area.south, v_area.north, v_area.west, v_area.east, v_area.chord2, v_offset, v_limit
	loop
		v_n := v_n + 1;
		profile_id := v_id;
		ord := v_n;
		total := v_total;
		-- The chord back to the great-circle distance.
		distance_km := 2 * c_earth * asin(least(1, sqrt(v_chord2) / 2));
		return next;
	end loop;
	if v_n = 0 and v_offset > 0 then
		execute 'select count(*) from public.profiles p where ' || v_where
			into v_total
			using p_tenant_id, v_query, left(p_category, 200), left(p_city, 200), left(p_county, 200),
				left(p_zip, 200), left(p_affiliation, 200), v_area.x, v_area.y, v_area.z,
				v_area.south, v_area.north, v_area.west, v_area.east, v_area.chord2;
		profile_id := null;
		ord := 0;
		total := v_total;
		distance_km := null;
		return next;
	end if;
end;
$$;

comment on function public.directory_near_page is 'Ids of one page (at most 100) of matching businesses in an area (near a point within a radius, in a box, or both), nearest first, with the total and each distance in km.';

/** The search page's call for a distance search: one page of card records, nearest first. */
create or replace function public.search_businesses_near(
	p_tenant_id uuid,
	p_latitude double precision default null,
	p_longitude double precision default null,
	p_radius_km double precision default null,
	p_bounds double precision[] default null,
	p_search_query text default null,
	p_category text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_affiliation text default null,
	p_new_members_only boolean default false,
	p_limit integer default 24,
	p_offset integer default 0
) returns table (total bigint, distance_km double precision, card jsonb)
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
	select page.total, page.distance_km, to_jsonb(v)
	from public.directory_near_page(
		p_tenant_id, p_latitude, p_longitude, p_radius_km, p_bounds, p_search_query, p_category,
		p_city, p_county, p_zip, p_affiliation, p_new_members_only, p_limit, p_offset
	) page
	left join public.business_cards_view v on v.id = page.profile_id
	order by page.ord;
$$;

comment on function public.search_businesses_near is 'One page of matching business card records in an area, nearest first, each row with its distance in km and the total; a page past the end answers the total alone (card null).';

/**
  Every matching business's place, for the map: the matches' total, how many
  of them have a location, and those as four lists (ids, names, latitudes and
  longitudes to five decimals, about a metre), at most 100,000. One JSON value,
  not rows: PostgREST answers at most 1000 rows.
 */
create or replace function public.directory_locations(
	p_tenant_id uuid,
	p_latitude double precision default null,
	p_longitude double precision default null,
	p_radius_km double precision default null,
	p_bounds double precision[] default null,
	p_search_query text default null,
	p_category text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_affiliation text default null,
	p_new_members_only boolean default false
) returns json
language plpgsql
stable
security invoker
set search_path = public, extensions, pg_temp
as $$
declare
	v_search_text text := left(p_search_query, 200);
	v_search boolean := nullif(trim(coalesce(v_search_text, '')), '') is not null;
	v_query tsquery;
	v_area record;
	v_in_area boolean := p_bounds is not null or (p_latitude is not null and p_longitude is not null);
	v_where text;
	v_total bigint;
	v_points json;
	v_empty constant json := '{"total": 0, "located": 0, "ids": [], "names": [], "latitudes": [], "longitudes": []}';
begin
	select * into v_area from public.directory_area(p_latitude, p_longitude, p_radius_km, p_bounds);
	if v_in_area and v_area.latitude is null then
		return v_empty;
	end if;
	if v_search then
		v_query := public.search_tsquery(p_tenant_id, v_search_text);
		if v_query is null then
			return v_empty;
		end if;
	end if;
	v_where := public.directory_match_sql(
		v_search, left(p_category, 200), left(p_city, 200), left(p_county, 200), left(p_zip, 200),
		p_new_members_only, left(p_affiliation, 200)
	);
	if not v_in_area then
		v_total := public.count_businesses_with_category(
			p_tenant_id, left(p_category, 200), v_search_text, left(p_city, 200), left(p_county, 200),
			left(p_zip, 200), p_new_members_only, left(p_affiliation, 200)
		);
	end if;
	execute 'select json_build_object('
		|| '''located'', count(*), ''ids'', coalesce(json_agg(s.id), ''[]''), ''names'', coalesce(json_agg(s.report_name), ''[]''),'
		|| ' ''latitudes'', coalesce(json_agg(round(s.latitude * 100000) / 100000), ''[]''),'
		|| ' ''longitudes'', coalesce(json_agg(round(s.longitude * 100000) / 100000), ''[]''))'
		|| ' from (select p.id, p.report_name, p.latitude, p.longitude from public.profiles p where ' || v_where
		|| case when v_in_area then public.directory_area_sql(v_area.radius_km is not null)
			else ' and p.latitude is not null' end
		|| ' limit 100000) s'
		into v_points
		using p_tenant_id, v_query, left(p_category, 200), left(p_city, 200), left(p_county, 200),
			left(p_zip, 200), left(p_affiliation, 200), v_area.x, v_area.y, v_area.z,
			v_area.south, v_area.north, v_area.west, v_area.east, v_area.chord2;
	return json_build_object(
		'total', coalesce(v_total, (v_points ->> 'located')::bigint),
		'located', (v_points ->> 'located')::bigint,
		'ids', v_points -> 'ids',
		'names', v_points -> 'names',
		'latitudes', v_points -> 'latitudes',
		'longitudes', v_points -> 'longitudes'
	);
end;
$$;

comment on function public.directory_locations is 'The map''s points of a search: {total, located, ids, names, latitudes, longitudes} of the matching published businesses with a location (at most 100,000), in an area or not.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
  Visitors: the distance search and the map's points (as themselves, under
  row-level security). Staff: placing a business by its address again
  (reset_business_location checks the role). The geocoder's queue: the
  service role only (the scheduled function). Triggers and helpers: nobody
  directly.
 */
revoke all on function public.business_location_problem(jsonb) from public;

revoke all on function public.profiles_location_trigger() from public;
revoke all on function public.queue_geocode_request(uuid, uuid) from public;
revoke all on function public.has_geocodable_address(text, text, text) from public;
revoke all on function public.profiles_geocode_trigger() from public;
revoke all on function public.claim_geocode_requests(uuid, integer, integer) from public;
revoke all on function public.record_geocodes(uuid, jsonb) from public;
revoke all on function public.reset_business_location(uuid, uuid) from public;
revoke all on function public.directory_area(
	double precision, double precision, double precision, double precision[]
) from public;
revoke all on function public.directory_chord_sql() from public;
revoke all on function public.directory_area_sql(boolean) from public;
revoke all on function public.directory_near_page(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean, integer, integer
) from public;
revoke all on function public.search_businesses_near(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean, integer, integer
) from public;
revoke all on function public.directory_locations(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean
) from public;

-- The distance search runs as the caller: its helpers are the caller's too, as
-- directory_match_sql is.
grant execute on function public.business_location_problem(jsonb) to service_role;

grant execute on function public.profiles_location_trigger() to service_role;
grant execute on function public.queue_geocode_request(uuid, uuid) to service_role;
grant execute on function public.has_geocodable_address(text, text, text) to service_role;
grant execute on function public.profiles_geocode_trigger() to service_role;
grant execute on function public.claim_geocode_requests(uuid, integer, integer) to service_role;
grant execute on function public.record_geocodes(uuid, jsonb) to service_role;
grant execute on function public.reset_business_location(uuid, uuid) to authenticated, service_role;
grant execute on function public.directory_area(
	double precision, double precision, double precision, double precision[]
) to anon, authenticated, service_role;
grant execute on function public.directory_chord_sql() to anon, authenticated, service_role;
grant execute on function public.directory_area_sql(boolean) to anon, authenticated, service_role;
grant execute on function public.directory_near_page(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean, integer, integer
) to anon, authenticated, service_role;
grant execute on function public.search_businesses_near(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean, integer, integer
) to anon, authenticated, service_role;
grant execute on function public.directory_locations(
	uuid, double precision, double precision, double precision, double precision[], text, text,
	text, text, text, text, boolean
) to anon, authenticated, service_role;
