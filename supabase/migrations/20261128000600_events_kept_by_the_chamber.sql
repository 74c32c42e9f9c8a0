/**
  ---------------------------------------------------------------------------
  Events the chamber keeps itself
  ---------------------------------------------------------------------------
  Beside the events of the tenant file (public.events) and of the membership
  system (read from its API), a chamber keeps events of its own: added and
  changed by its staff in the panel's Events tab, read from calendar feeds
  (iCalendar addresses of Google Calendar, Outlook or any webcal://), or
  submitted by the community and approved by staff.

  - chamber_events: one row per event or recurring series, every field the
    event pages show, its version (field_versions per field, as listings
    have), where it came from (staff, a feed, a submission) and, for a feed's
    event, the fields staff changed here, which the feed's next read leaves
    as staff set them.
  - chamber_event_occurrences: the dates an event happens on, each with the
    public EventId its page, its calendar entry and its .ics file carry. A
    one-off event has one; a series one per date of its rule (expanded by the
    app with ical.js, never here), each keyed by its original local date so
    it keeps its EventId when the series changes. One occurrence can be
    moved, changed or cancelled on its own (iCalendar's RECURRENCE-ID and
    EXDATE).
  - event_feeds: the chamber's calendar feeds, their last read and error.
  - event_submissions: what visitors submitted, waiting for review; nothing
    of it is public before staff approve it.

  Staff change them through the definer functions below, the only way in for
  a user's token (the tables grant no writes): they check the role (admins
  and editors; editors may not feature an event, delete one or manage feeds),
  the version, and leave one audit_log row per changed field. Values are held
  to the table's checks whoever writes. Visitors read published and
  cancelled events through public_chamber_events and public_chamber_event
  only: the tables hold staff e-mails and feed addresses.

  Every write bumps the chamber's events cache versions (events,
  community_events, event_details), which the calendars send as ?v=: a change
  is on the calendars, the event's page and the .ics files at once, no build
  needed (calendars and event pages read events at request time).
 */

/**
  ---------------------------------------------------------------------------
  Values: time zones, ticket items, an occurrence's own changes
  ---------------------------------------------------------------------------
 */

/** Whether Postgres knows the zone name (IANA, as the app's Intl does). */
create or replace function public.is_time_zone(p_name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
	if p_name is null or btrim(p_name) = '' or char_length(p_name) > 64 then
		return false;
	end if;
	perform now() at time zone p_name;
	return true;
exception when others then
	return false;
end;
$$;

comment on function public.is_time_zone is 'Whether a time zone name is one Postgres knows (IANA names such as America/Chicago).';

/**
  The first problem of an event's ticket items (the Atlas shape: ItemName,
  UnitPrice in USD, IsPublic, Descr, MaxQuantity), or null. At most 50.
 */
create or replace function public.event_tickets_problem(p_items jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_item jsonb;
	v_index integer := 0;
begin
	if jsonb_typeof(p_items) is distinct from 'array' then
		return 'tickets: expected a list of ticket items';
	end if;
	if jsonb_array_length(p_items) > 50 then
		return 'tickets: at most 50 ticket items';
	end if;
	for v_item in select e from jsonb_array_elements(p_items) e loop
		if jsonb_typeof(v_item) is distinct from 'object' then
			return format('tickets[%s]: expected a ticket item', v_index);
		end if;
		if exists (select 1 from jsonb_object_keys(v_item) k
				where k not in ('ItemId', 'ItemName', 'UnitPrice', 'IsPublic', 'Descr', 'MaxQuantity')) then
			return format('tickets[%s]: unknown field', v_index);
		end if;
		if jsonb_typeof(v_item -> 'ItemName') is distinct from 'string'
				or btrim(v_item ->> 'ItemName') = '' or char_length(v_item ->> 'ItemName') > 200 then
			return format('tickets[%s].ItemName: a ticket needs a name of at most 200 characters', v_index);
		end if;
		if jsonb_typeof(v_item -> 'UnitPrice') is distinct from 'number'
				or (v_item ->> 'UnitPrice')::numeric < 0 or (v_item ->> 'UnitPrice')::numeric > 100000 then
			return format('tickets[%s].UnitPrice: expected a price from 0 to 100000', v_index);
		end if;
		if jsonb_typeof(v_item -> 'IsPublic') is distinct from 'boolean' then
			return format('tickets[%s].IsPublic: expected true or false', v_index);
		end if;
		if v_item ? 'Descr' and (jsonb_typeof(v_item -> 'Descr') is distinct from 'string'
				or char_length(v_item ->> 'Descr') > 2000) then
			return format('tickets[%s].Descr: expected a text of at most 2000 characters', v_index);
		end if;
		if v_item ? 'MaxQuantity' and jsonb_typeof(v_item -> 'MaxQuantity') <> 'null'
				and (jsonb_typeof(v_item -> 'MaxQuantity') <> 'number'
					or (v_item ->> 'MaxQuantity')::numeric < 0
					or (v_item ->> 'MaxQuantity')::numeric <> trunc((v_item ->> 'MaxQuantity')::numeric)) then
			return format('tickets[%s].MaxQuantity: expected a whole number or nothing', v_index);
		end if;
		if v_item ? 'ItemId' and (jsonb_typeof(v_item -> 'ItemId') <> 'number'
				or (v_item ->> 'ItemId')::numeric < 0) then
			return format('tickets[%s].ItemId: expected a number', v_index);
		end if;
		v_index := v_index + 1;
	end loop;
	return null;
end;
$$;

comment on function public.event_tickets_problem is 'The first way a list of ticket items is not valid ("tickets[0].UnitPrice: …"), or null.';

/** The fields one occurrence of a series may change on its own (iCalendar's RECURRENCE-ID). */
create or replace function public.event_occurrence_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['name', 'summary', 'description', 'starts_local', 'ends_local', 'venue', 'address1',
		'address2', 'city', 'state', 'zip'];
$$;

comment on function public.event_occurrence_fields is 'The fields one occurrence of a recurring event may change without touching the series.';

/** The first problem of an occurrence's own changes, or null. */
create or replace function public.event_occurrence_changes_problem(p_changes jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
	v_key text;
	v_value jsonb;
	v_limit integer;
begin
	if jsonb_typeof(p_changes) is distinct from 'object' then
		return 'changes: expected the changed fields';
	end if;
	for v_key, v_value in select * from jsonb_each(p_changes) loop
		if not (v_key = any (public.event_occurrence_fields())) then
			return format('%s: one occurrence cannot change this field', v_key);
		end if;
		if jsonb_typeof(v_value) is distinct from 'string' then
			return format('%s: expected a text', v_key);
		end if;
		if v_key in ('starts_local', 'ends_local') then
			if (v_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$' then
				return format('%s: expected a local date and time like 2027-03-02T18:00', v_key);
			end if;
			continue;
		end if;
		v_limit := case v_key when 'description' then 20000 when 'summary' then 300 when 'zip' then 20 else 200 end;
		if char_length(v_value #>> '{}') > v_limit then
			return format('%s: at most %s characters', v_key, v_limit);
		end if;
		if v_key = 'name' and btrim(v_value #>> '{}') = '' then
			return 'name: an event needs a name';
		end if;
	end loop;
	if p_changes ? 'starts_local' and p_changes ? 'ends_local'
			and (p_changes ->> 'ends_local')::timestamp < (p_changes ->> 'starts_local')::timestamp then
		return 'ends_local: ends before it starts';
	end if;
	return null;
end;
$$;

comment on function public.event_occurrence_changes_problem is 'The first way an occurrence''s own changes are not valid, or null.';

/**
  ---------------------------------------------------------------------------
  Calendar feeds the chamber reads
  ---------------------------------------------------------------------------
  An address the chamber's admins add (a Google Calendar or Outlook .ics
  address, webcal:// stored as https://). It is previewed first (state
  preview: read, nothing written), then read on a schedule and on demand
  (state active). A read that fails keeps the feed's events as they were and
  records the error; the admins are told once a day while it lasts. Feed
  addresses may be secret (Google's private address): admins only.
 */
create table if not exists public.event_feeds (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	url text not null constraint event_feeds_url_check
		check (url ~* '^https?://[^\s/?#]+' and char_length(url) <= 2000),
	calendar text not null default 'chamber' constraint event_feeds_calendar_check
		check (calendar in ('chamber', 'community')),
	name text not null default '' constraint event_feeds_name_check check (char_length(name) <= 200),
	state text not null default 'preview' constraint event_feeds_state_check
		check (state in ('preview', 'active')),
	created_at timestamptz not null default now(),
	created_by text not null default '',
	last_read_at timestamptz,
	last_ok_at timestamptz,
	last_error text constraint event_feeds_last_error_check check (char_length(last_error) <= 500),
	error_since timestamptz,
	error_notified_at timestamptz,
	event_count integer not null default 0 check (event_count >= 0),
	unique (tenant_id, id),
	unique (tenant_id, url)
);

comment on table public.event_feeds is 'iCalendar feeds a chamber reads its events from (Google Calendar, Outlook, any webcal://): the address, which calendar they go to, the last read and its error.';
comment on column public.event_feeds.state is 'preview: added, its first read shows what it would add and writes nothing; active: read on the schedule and on demand.';
comment on column public.event_feeds.last_error is 'Why the last read failed (null after a good read); the feed''s events stay as the last good read left them.';
comment on column public.event_feeds.error_since is 'When the reads began failing (null while they work).';
comment on column public.event_feeds.error_notified_at is 'When the chamber''s admins were last e-mailed about the failing feed.';

alter table public.event_feeds enable row level security;

create policy "Chamber admins can read their chamber's calendar feeds" on public.event_feeds
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.event_feeds to authenticated;
grant all on table public.event_feeds to service_role;

/**
  ---------------------------------------------------------------------------
  chamber_events: an event or a series
  ---------------------------------------------------------------------------
  Times are the chamber's wall clock (starts_local, ends_local in
  time_zone), which is what a series repeats: 18:00 every Tuesday stays
  18:00 across daylight-saving changes. An all-day event runs from 00:00 of
  its first day to 23:59 of its last (the Atlas convention the pages read).
 */
create table if not exists public.chamber_events (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	calendar text not null default 'chamber' constraint chamber_events_calendar_check
		check (calendar in ('chamber', 'community')),
	origin text not null default 'staff' constraint chamber_events_origin_check
		check (origin in ('staff', 'feed', 'submission')),
	feed_id uuid,
	feed_uid text constraint chamber_events_feed_uid_check check (char_length(feed_uid) <= 500),
	status text not null default 'published' constraint chamber_events_status_check
		check (status in ('draft', 'published', 'cancelled')),
	name text not null constraint chamber_events_name_check
		check (btrim(name) <> '' and char_length(name) <= 200),
	summary text not null default '' constraint chamber_events_summary_check
		check (char_length(summary) <= 300),
	description text not null default '' constraint chamber_events_description_check
		check (char_length(description) <= 20000),
	time_zone text not null constraint chamber_events_time_zone_check check (public.is_time_zone(time_zone)),
	all_day boolean not null default false,
	starts_local timestamp(0) not null,
	ends_local timestamp(0) not null,
	rrule text constraint chamber_events_rrule_check check (
		char_length(rrule) <= 500
		and rrule ~ '^FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)(;[A-Z]+=[A-Za-z0-9,:+-]+)*$'
	),
	venue text not null default '' constraint chamber_events_venue_check check (char_length(venue) <= 200),
	address1 text not null default '' constraint chamber_events_address1_check check (char_length(address1) <= 200),
	address2 text not null default '' constraint chamber_events_address2_check check (char_length(address2) <= 200),
	city text not null default '' constraint chamber_events_city_check check (char_length(city) <= 200),
	state text not null default '' constraint chamber_events_state_check check (char_length(state) <= 200),
	zip text not null default '' constraint chamber_events_zip_check check (char_length(zip) <= 20),
	event_type text not null default '' constraint chamber_events_event_type_check
		check (char_length(event_type) <= 60),
	event_type_color text not null default '#0d3e63' constraint chamber_events_event_type_color_check
		check (event_type_color ~ '^#([0-9a-fA-F]{3}){1,2}$'),
	featured boolean not null default false,
	image_url text not null default '' constraint chamber_events_image_url_check
		check (image_url = '' or (image_url ~* '^https?://[^\s]+$' and char_length(image_url) <= 2000)),
	registration_url text not null default '' constraint chamber_events_registration_url_check
		check (registration_url = '' or (registration_url ~* '^https?://[^\s]+$' and char_length(registration_url) <= 2000)),
	registration_disabled boolean not null default true,
	registration_opens date,
	registration_closes date,
	tickets jsonb not null default '[]' constraint chamber_events_tickets_check
		check (public.event_tickets_problem(tickets) is null),
	contact_email text not null default '' constraint chamber_events_contact_email_check
		check (contact_email = '' or (contact_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(contact_email) <= 254)),
	show_attendees boolean not null default false,
	staff_fields text[] not null default '{}',
	feed_values jsonb not null default '{}',
	version integer not null default 1 check (version >= 1),
	field_versions jsonb not null default '{}',
	created_at timestamptz not null default now(),
	created_by text not null default '',
	updated_at timestamptz not null default now(),
	updated_by text not null default '',
	unique (tenant_id, id),
	constraint chamber_events_ends_check check (ends_local >= starts_local),
	constraint chamber_events_all_day_check
		check (not all_day or (starts_local::time = '00:00' and ends_local::time = '23:59')),
	constraint chamber_events_registration_period_check
		check (registration_opens is null or registration_closes is null or registration_opens <= registration_closes),
	constraint chamber_events_feed_check
		check ((origin = 'feed') = (feed_id is not null and feed_uid is not null)),
	foreign key (tenant_id, feed_id) references public.event_feeds (tenant_id, id) on delete cascade,
	unique (feed_id, feed_uid)
);

comment on table public.chamber_events is 'Events a chamber keeps itself (added in the Events tab, read from a calendar feed, or submitted and approved), one row per event or recurring series.';
comment on column public.chamber_events.calendar is 'Which calendar shows it: chamber (/events) or community (/community-events).';
comment on column public.chamber_events.origin is 'Where it came from: staff (the Events tab), feed (a calendar feed, feed_id and feed_uid) or submission (a visitor''s, approved).';
comment on column public.chamber_events.feed_uid is 'The event''s UID in its feed: the next read updates this row in place.';
comment on column public.chamber_events.status is 'draft (not public), published, or cancelled (still listed, its page says so).';
comment on column public.chamber_events.summary is 'One plain line for lists and the page''s description; empty: the description''s start.';
comment on column public.chamber_events.description is 'HTML, sanitised when shown, as every event description.';
comment on column public.chamber_events.starts_local is 'Start on the wall clock of time_zone (of the first occurrence of a series).';
comment on column public.chamber_events.rrule is 'iCalendar RRULE value (FREQ=WEEKLY;BYDAY=TU;COUNT=10), null for a one-off event; the app expands it with ical.js.';
comment on column public.chamber_events.registration_disabled is 'No registration (DisableRegistration): true unless a registration link or period is given.';
comment on column public.chamber_events.tickets is 'Ticket items in the Atlas shape ({ItemName, UnitPrice, IsPublic, Descr, MaxQuantity}); private ones are never shown.';
comment on column public.chamber_events.staff_fields is 'Fields of a feed''s event staff changed here: the feed''s reads leave them as staff set them.';
comment on column public.chamber_events.feed_values is 'For each field in staff_fields, the feed''s own value as its last read sent it.';
comment on column public.chamber_events.field_versions is '{field: version of its last change}: a save made from an older version that changes such a field is a conflict.';
comment on column public.chamber_events.updated_by is 'Who changed it last: a staff e-mail, or feed / submission.';

create index if not exists chamber_events_tenant_idx on public.chamber_events (tenant_id, calendar, status);
create index if not exists chamber_events_feed_idx on public.chamber_events (feed_id) where feed_id is not null;

alter table public.chamber_events enable row level security;

create policy "Chamber staff can read their chamber's own events" on public.chamber_events
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.chamber_events to authenticated;
grant all on table public.chamber_events to service_role;

/**
  ---------------------------------------------------------------------------
  Occurrences: the public EventIds
  ---------------------------------------------------------------------------
  EventIds of the chamber's own events come from 900,000,000 up (the
  membership system's and the tenant file's are smaller), so an event's
  page knows which source to ask by its id alone.
 */
create sequence if not exists public.chamber_event_ids
	as integer start with 900000000 minvalue 900000000 maxvalue 999999999 no cycle;

comment on sequence public.chamber_event_ids is 'Public EventIds of the chamber''s own events (900,000,000 to 999,999,999).';

create table if not exists public.chamber_event_occurrences (
	event_id integer primary key default nextval('public.chamber_event_ids')
		constraint chamber_event_occurrences_event_id_check check (event_id between 900000000 and 999999999),
	tenant_id uuid not null,
	series_id uuid not null,
	recurrence_key text not null constraint chamber_event_occurrences_recurrence_key_check
		check (recurrence_key = 'once' or recurrence_key ~ '^\d{4}-\d{2}-\d{2}$'),
	starts_local timestamp(0) not null,
	ends_local timestamp(0) not null,
	start_utc timestamptz not null,
	end_utc timestamptz not null,
	cancelled boolean not null default false,
	changes jsonb not null default '{}' constraint chamber_event_occurrences_changes_check
		check (public.event_occurrence_changes_problem(changes) is null),
	changed_here boolean not null default false,
	unique (series_id, recurrence_key),
	constraint chamber_event_occurrences_ends_check check (ends_local >= starts_local and end_utc >= start_utc),
	foreign key (tenant_id, series_id) references public.chamber_events (tenant_id, id) on delete cascade
);

alter sequence public.chamber_event_ids owned by public.chamber_event_occurrences.event_id;
grant usage on sequence public.chamber_event_ids to service_role;

comment on table public.chamber_event_occurrences is 'The dates a chamber''s own event happens on, each with its public EventId; a one-off event has one (recurrence_key once).';
comment on column public.chamber_event_occurrences.recurrence_key is 'The occurrence''s original local date (yyyy-mm-dd) in its series, or once: it keeps its EventId while the series changes (iCalendar''s RECURRENCE-ID).';
comment on column public.chamber_event_occurrences.starts_local is 'When it happens on the event''s wall clock (changes.starts_local when moved on its own).';
comment on column public.chamber_event_occurrences.start_utc is 'starts_local in the event''s time zone, for the calendars'' ranges.';
comment on column public.chamber_event_occurrences.cancelled is 'This date is cancelled, the series goes on (iCalendar''s EXDATE); its page says so.';
comment on column public.chamber_event_occurrences.changes is 'Fields this occurrence changes on its own (event_occurrence_fields), over the series'' values.';
comment on column public.chamber_event_occurrences.changed_here is 'Staff changed or cancelled this occurrence of a feed''s event: the feed''s reads leave it.';

create index if not exists chamber_event_occurrences_series_idx on public.chamber_event_occurrences (series_id, start_utc);
create index if not exists chamber_event_occurrences_range_idx on public.chamber_event_occurrences (tenant_id, start_utc);

alter table public.chamber_event_occurrences enable row level security;

create policy "Chamber staff can read their chamber's event dates" on public.chamber_event_occurrences
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.chamber_event_occurrences to authenticated;
grant all on table public.chamber_event_occurrences to service_role;

/**
  ---------------------------------------------------------------------------
  Submissions from the community
  ---------------------------------------------------------------------------
  Stored by the submit function (service role) after its reCAPTCHA and rate
  limit; staff approve (as submitted, or edited) or decline with a note. An
  approved submission becomes a community event; nothing of a submission is
  public before that.
 */
create table if not exists public.event_submissions (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	status text not null default 'pending' constraint event_submissions_status_check
		check (status in ('pending', 'approved', 'declined')),
	submitter_name text not null constraint event_submissions_submitter_name_check
		check (btrim(submitter_name) <> '' and char_length(submitter_name) <= 200),
	submitter_email text not null constraint event_submissions_submitter_email_check
		check (submitter_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(submitter_email) <= 254),
	event jsonb not null,
	note text not null default '' constraint event_submissions_note_check check (char_length(note) <= 1000),
	created_at timestamptz not null default now(),
	reviewed_at timestamptz,
	reviewed_by text,
	event_series_id uuid,
	unique (tenant_id, id),
	constraint event_submissions_reviewed_check check ((status = 'pending') = (reviewed_at is null)),
	foreign key (tenant_id, event_series_id) references public.chamber_events (tenant_id, id) on delete set null (event_series_id)
);

comment on table public.event_submissions is 'Events visitors submitted to the community calendar, waiting for review or decided; never public themselves.';
comment on column public.event_submissions.event is 'The submitted fields, named as chamber_events'' columns (name, description, starts_local, ends_local, all_day, venue, …).';
comment on column public.event_submissions.note is 'Staff''s note to the submitter (why it was declined, or what was changed).';
comment on column public.event_submissions.event_series_id is 'The community event an approval made.';

create index if not exists event_submissions_queue_idx on public.event_submissions (tenant_id, status, created_at);

alter table public.event_submissions enable row level security;

create policy "Chamber staff can read their chamber's event submissions" on public.event_submissions
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.event_submissions to authenticated;
grant all on table public.event_submissions to service_role;

/** The fields a submission may carry, and the first problem of one (or null). */
create or replace function public.event_submission_problem(p_event jsonb)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
	v_row public.chamber_events;
	v_key text;
begin
	if jsonb_typeof(p_event) is distinct from 'object' then
		return 'event: expected the event''s fields';
	end if;
	for v_key in select jsonb_object_keys(p_event) loop
		if not (v_key = any (array['name', 'summary', 'description', 'time_zone', 'all_day',
				'starts_local', 'ends_local', 'venue', 'address1', 'address2', 'city', 'state', 'zip',
				'event_type', 'registration_url', 'contact_email'])) then
			return format('%s: not a field of a submitted event', v_key);
		end if;
	end loop;
	begin
		v_row := jsonb_populate_record(null::public.chamber_events, p_event);
	exception when others then
		return 'event: ' || sqlerrm;
	end;
	if coalesce(btrim(v_row.name), '') = '' or char_length(v_row.name) > 200 then
		return 'name: an event needs a name of at most 200 characters';
	end if;
	if v_row.starts_local is null or v_row.ends_local is null or v_row.ends_local < v_row.starts_local then
		return 'ends_local: expected a start and an end after it';
	end if;
	if not public.is_time_zone(v_row.time_zone) then
		return 'time_zone: not a time zone';
	end if;
	if char_length(coalesce(v_row.description, '')) > 20000 or char_length(coalesce(v_row.summary, '')) > 300 then
		return 'description: too long';
	end if;
	if greatest(char_length(v_row.venue), char_length(v_row.address1), char_length(v_row.address2),
			char_length(v_row.city), char_length(v_row.state), char_length(v_row.event_type)) > 200
			or char_length(v_row.zip) > 20 then
		return 'venue: at most 200 characters per line of the place';
	end if;
	if coalesce(v_row.registration_url, '') <> '' and v_row.registration_url !~* '^https?://[^\s]+$' then
		return 'registration_url: expected an http(s) address';
	end if;
	if coalesce(v_row.contact_email, '') <> '' and v_row.contact_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
		return 'contact_email: expected an e-mail address';
	end if;
	return null;
end;
$$;

comment on function public.event_submission_problem is 'The first way a submitted event is not valid, or null.';

alter table public.event_submissions add constraint event_submissions_event_check
	check (public.event_submission_problem(event) is null);

/**
  ---------------------------------------------------------------------------
  The audit log names the event a change is about
  ---------------------------------------------------------------------------
 */
alter table public.audit_log add column if not exists event_id uuid;

comment on column public.audit_log.event_id is 'The chamber''s own event (chamber_events.id) the change is about (section event), else null.';

create index if not exists audit_log_event_at_idx on public.audit_log (event_id, at desc)
	where event_id is not null;

/**
  ---------------------------------------------------------------------------
  Publishing: the events cache versions
  ---------------------------------------------------------------------------
  Each write of the chamber's own events moves the versions the calendars
  and the event pages' requests carry. The event's own audit rows say what
  changed, so these bumps write none (cache_versions_audit skips them).
 */
create or replace function public.cache_versions_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	-- The config version follows configuration changes, and the events versions the chamber's
	-- own events' changes: both are audited themselves.
	if new.type = 'config' or new.version = old.version
			or current_setting('chamber.events_publish', true) = 'on' then
		return null;
	end if;
	select * into v_actor from public.audit_actor(new.tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'cache', new.type,
		to_jsonb(old.version), to_jsonb(new.version)
	);
	return null;
end;
$$;

comment on function public.cache_versions_audit is 'Trigger: an audit_log row per cache version bump (other than config, and the events versions the chamber''s own events move).';

create or replace function public.publish_chamber_events(p_tenant_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
	perform set_config('chamber.events_publish', 'on', true);
	insert into public.cache_versions as c (tenant_id, type, version)
	select p_tenant_id, t, 1 from unnest(array['events', 'community_events', 'event_details']) t
	on conflict (tenant_id, type) do update set version = c.version + 1, updated_at = now();
	perform set_config('chamber.events_publish', '', true);
end;
$$;

comment on function public.publish_chamber_events is 'Moves the chamber''s events cache versions (events, community_events, event_details) after a change of its own events.';

revoke all on function public.publish_chamber_events(uuid) from public, anon, authenticated;

/**
  ---------------------------------------------------------------------------
  The fields of an event, as the Events tab and the API name them
  ---------------------------------------------------------------------------
 */
create or replace function public.chamber_event_fields()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array['calendar', 'status', 'name', 'summary', 'description', 'time_zone', 'all_day',
		'starts_local', 'ends_local', 'rrule', 'venue', 'address1', 'address2', 'city', 'state', 'zip',
		'event_type', 'event_type_color', 'featured', 'image_url', 'registration_url',
		'registration_disabled', 'registration_opens', 'registration_closes', 'tickets',
		'contact_email', 'show_attendees'];
$$;

comment on function public.chamber_event_fields is 'The fields of a chamber''s own event staff change (chamber_events'' columns).';

/** The fields of a row as JSON, with local times as 'yyyy-mm-ddThh:mm' (as the editor sends them). */
create or replace function public.chamber_event_document(p_row public.chamber_events)
returns jsonb
language sql
stable
set search_path = ''
as $$
	select (
		select jsonb_object_agg(f, to_jsonb(p_row) -> f)
		from unnest(public.chamber_event_fields()) f
	) || jsonb_build_object(
		'starts_local', to_char(p_row.starts_local, 'YYYY-MM-DD"T"HH24:MI'),
		'ends_local', to_char(p_row.ends_local, 'YYYY-MM-DD"T"HH24:MI')
	);
$$;

comment on function public.chamber_event_document is 'A chamber event''s fields as JSON (chamber_event_fields), local times as yyyy-mm-ddThh:mm.';

/** Whether the signed-in user may change this field of the chamber's events. */
create or replace function public.may_change_event_field(p_tenant_id uuid, p_field text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(
		case public.tenant_role(p_tenant_id)
			when 'super_admin' then true
			when 'admin' then true
			-- Featuring puts an event on the site's front rows, as featuring a business does.
			when 'editor' then p_field <> 'featured'
			else false
		end,
		false
	);
$$;

comment on function public.may_change_event_field is 'Whether the signed-in user may change a field of the chamber''s own events (editors: every field but featured).';

/**
  ---------------------------------------------------------------------------
  Occurrences kept in step with their event
  ---------------------------------------------------------------------------
  p_dates: the series' dates as the app expanded its rule,
  [{key: 'yyyy-mm-dd', start: 'yyyy-mm-ddThh:mm', end: …}] in order; null for
  a one-off event, whose one occurrence follows its times. A date still in
  the rule keeps its EventId and its own changes; a moved occurrence keeps
  its own times; dates the rule no longer has are deleted. A feed's read
  passes each date's own changes and cancellation too (p_from_feed), and
  leaves the occurrences staff changed here.
 */
create or replace function public.sync_event_occurrences(
	p_event public.chamber_events,
	p_dates jsonb,
	p_from_feed boolean default false
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_dates jsonb := p_dates;
	v_first text;
begin
	if p_event.rrule is null then
		v_dates := jsonb_build_array(jsonb_build_object(
			'key', 'once',
			'start', to_char(p_event.starts_local, 'YYYY-MM-DD"T"HH24:MI'),
			'end', to_char(p_event.ends_local, 'YYYY-MM-DD"T"HH24:MI')
		));
		-- A series that became one event keeps the EventId of its first date.
		if not exists (select 1 from public.chamber_event_occurrences where series_id = p_event.id and recurrence_key = 'once') then
			update public.chamber_event_occurrences set recurrence_key = 'once'
			where event_id = (select min(o.event_id) from public.chamber_event_occurrences o
				where o.series_id = p_event.id
					and o.recurrence_key = to_char(p_event.starts_local, 'YYYY-MM-DD'));
		end if;
	else
		if jsonb_typeof(v_dates) is distinct from 'array' or jsonb_array_length(v_dates) = 0 then
			raise exception 'occurrences: a recurring event needs the dates of its rule' using errcode = '22023';
		end if;
		if jsonb_array_length(v_dates) > 1000 then
			raise exception 'occurrences: at most 1000 dates in a series' using errcode = '22023';
		end if;
		if exists (select 1 from jsonb_array_elements(v_dates) d
				where (d ->> 'key') is null or (d ->> 'key') !~ '^\d{4}-\d{2}-\d{2}$'
					or (d ->> 'start') is null or (d ->> 'end') is null) then
			raise exception 'occurrences: each date needs its key (yyyy-mm-dd), start and end' using errcode = '22023';
		end if;
		if (select count(distinct d ->> 'key') from jsonb_array_elements(v_dates) d) <> jsonb_array_length(v_dates) then
			raise exception 'occurrences: a date appears twice' using errcode = '22023';
		end if;
		-- An event that became a series keeps its EventId for its first date.
		v_first := v_dates -> 0 ->> 'key';
		if not exists (select 1 from public.chamber_event_occurrences where series_id = p_event.id and recurrence_key = v_first) then
			update public.chamber_event_occurrences set recurrence_key = v_first
			where series_id = p_event.id and recurrence_key = 'once';
		end if;
	end if;

	delete from public.chamber_event_occurrences o
	where o.series_id = p_event.id
		and not exists (select 1 from jsonb_array_elements(v_dates) d where d ->> 'key' = o.recurrence_key)
		and not (p_from_feed and o.changed_here and o.recurrence_key <> 'once');

	insert into public.chamber_event_occurrences as o (
		tenant_id, series_id, recurrence_key, starts_local, ends_local, start_utc, end_utc, cancelled, changes
	)
	select p_event.tenant_id, p_event.id, d.key,
		coalesce(d.changes ->> 'starts_local', d.start)::timestamp,
		coalesce(d.changes ->> 'ends_local', d.end)::timestamp,
		coalesce(d.changes ->> 'starts_local', d.start)::timestamp at time zone p_event.time_zone,
		coalesce(d.changes ->> 'ends_local', d.end)::timestamp at time zone p_event.time_zone,
		coalesce(d.cancelled, false), coalesce(d.changes, '{}'::jsonb)
	from jsonb_to_recordset(v_dates) as d(key text, start text, "end" text, cancelled boolean, changes jsonb)
	on conflict (series_id, recurrence_key) do update
		set starts_local = case when p_from_feed or not (o.changes ? 'starts_local') then excluded.starts_local
				else (o.changes ->> 'starts_local')::timestamp end,
			ends_local = case when p_from_feed or not (o.changes ? 'ends_local') then excluded.ends_local
				else (o.changes ->> 'ends_local')::timestamp end,
			start_utc = case when p_from_feed or not (o.changes ? 'starts_local') then excluded.start_utc
				else (o.changes ->> 'starts_local')::timestamp at time zone p_event.time_zone end,
			end_utc = case when p_from_feed or not (o.changes ? 'ends_local') then excluded.end_utc
				else (o.changes ->> 'ends_local')::timestamp at time zone p_event.time_zone end,
			cancelled = case when p_from_feed then excluded.cancelled else o.cancelled end,
			changes = case when p_from_feed then excluded.changes else o.changes end
		where not (p_from_feed and o.changed_here);
end;
$$;

comment on function public.sync_event_occurrences is 'Keeps an event''s occurrences in step with its times and the dates of its rule, each date keeping its EventId.';

revoke all on function public.sync_event_occurrences(public.chamber_events, jsonb, boolean) from public, anon, authenticated;

/** One audit row of a chamber event. */
create or replace function public.audit_chamber_event(
	p_tenant_id uuid, p_event_id uuid, p_field text, p_old jsonb, p_new jsonb
) returns void
language sql
security definer
set search_path = ''
as $$
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, event_id)
	select p_tenant_id, a.actor_id, a.actor_email, a.actor_role, 'event', p_field, p_old, p_new, p_event_id
	from public.audit_actor(p_tenant_id) a;
$$;

comment on function public.audit_chamber_event is 'Writes one audit_log row (section event) about a chamber event.';

revoke all on function public.audit_chamber_event(uuid, uuid, text, jsonb, jsonb) from public, anon, authenticated;

/** The staff role a writer needs for the chamber's events, or the refusal. */
create or replace function public.require_event_staff(p_tenant_id uuid, p_roles text[] default array['super_admin', 'admin', 'editor'])
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_role text := public.tenant_role(p_tenant_id);
begin
	if v_role is null or not (v_role = any (array['super_admin', 'admin', 'editor'])) then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if not public.has_tenant_role(p_tenant_id, p_roles) then
		raise exception 'Only the chamber''s admins can do this' using errcode = '42501',
			hint = 'Ask an admin of the chamber to make this change.';
	end if;
	return v_role;
end;
$$;

comment on function public.require_event_staff is 'Refuses (42501) a caller without one of the roles for the chamber; answers their role.';

revoke all on function public.require_event_staff(uuid, text[]) from public, anon, authenticated;

/**
  ---------------------------------------------------------------------------
  save_chamber_event: add or change an event, as the user
  ---------------------------------------------------------------------------
  p_event_id null adds one (p_changes needs name, time_zone, starts_local,
  ends_local; p_version 0). Otherwise p_changes holds the changed fields and
  p_version the version the change was made from: a field someone else
  changed since to another value refuses the whole save with PT409 (the
  conflicts, their values, who and when, in the detail). p_dates: the dates
  of the event's rule, required when the rule or the times change (see
  sync_event_occurrences). A feed's event keeps the fields changed here
  through the feed's reads; set back to the feed's value, a field follows
  the feed again. Answers {id, version}.
 */
create or replace function public.save_chamber_event(
	p_tenant_id uuid,
	p_event_id uuid,
	p_changes jsonb,
	p_version integer,
	p_dates jsonb default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_role text := public.require_event_staff(p_tenant_id);
	v_actor record;
	v_who text;
	v_field text;
	v_row public.chamber_events;
	v_new public.chamber_events;
	v_old jsonb;
	v_doc jsonb;
	v_changed text[] := '{}';
	v_conflicts jsonb;
	v_times_changed boolean;
begin
	if jsonb_typeof(p_changes) is distinct from 'object' then
		raise exception 'Expected the changed fields' using errcode = '22023';
	end if;
	for v_field in select jsonb_object_keys(p_changes) loop
		if not (v_field = any (public.chamber_event_fields())) then
			raise exception 'Not a field of an event: %', v_field using errcode = '22023';
		end if;
		if not public.may_change_event_field(p_tenant_id, v_field) then
			raise exception 'Editors cannot feature an event' using errcode = '42501',
				hint = 'Ask an admin of the chamber to make this change.';
		end if;
	end loop;
	select * into v_actor from public.audit_actor(p_tenant_id);
	v_who := coalesce(v_actor.actor_email, v_actor.actor_role);

	if p_event_id is null then
		if coalesce(btrim(p_changes ->> 'name'), '') = '' then
			raise exception 'name: a new event needs its name' using errcode = '22023';
		end if;
		if not (p_changes ? 'time_zone' and p_changes ? 'starts_local' and p_changes ? 'ends_local') then
			raise exception 'starts_local: a new event needs its start, end and time zone' using errcode = '22023';
		end if;
		v_new := jsonb_populate_record(
			null::public.chamber_events,
			jsonb_build_object('tenant_id', p_tenant_id, 'origin', 'staff', 'created_by', v_who, 'updated_by', v_who)
				|| p_changes
		);
		insert into public.chamber_events as e (
			tenant_id, calendar, status, name, summary, description, time_zone, all_day, starts_local,
			ends_local, rrule, venue, address1, address2, city, state, zip, event_type, event_type_color,
			featured, image_url, registration_url, registration_disabled, registration_opens,
			registration_closes, tickets, contact_email, show_attendees, created_by, updated_by
		) values (
			p_tenant_id, coalesce(v_new.calendar, 'chamber'), coalesce(v_new.status, 'published'),
			v_new.name, coalesce(v_new.summary, ''), coalesce(v_new.description, ''), v_new.time_zone,
			coalesce(v_new.all_day, false), v_new.starts_local, v_new.ends_local, nullif(v_new.rrule, ''),
			coalesce(v_new.venue, ''), coalesce(v_new.address1, ''), coalesce(v_new.address2, ''),
			coalesce(v_new.city, ''), coalesce(v_new.state, ''), coalesce(v_new.zip, ''),
			coalesce(v_new.event_type, ''), coalesce(v_new.event_type_color, '#0d3e63'),
			coalesce(v_new.featured, false), coalesce(v_new.image_url, ''),
			coalesce(v_new.registration_url, ''), coalesce(v_new.registration_disabled, true),
			v_new.registration_opens, v_new.registration_closes, coalesce(v_new.tickets, '[]'::jsonb),
			coalesce(v_new.contact_email, ''), coalesce(v_new.show_attendees, false), v_who, v_who
		)
		returning * into v_row;
		perform public.sync_event_occurrences(v_row, p_dates);
		perform public.audit_chamber_event(p_tenant_id, v_row.id, 'added', null, public.chamber_event_document(v_row));
		perform public.publish_chamber_events(p_tenant_id);
		return jsonb_build_object('id', v_row.id, 'version', v_row.version);
	end if;

	select * into v_row from public.chamber_events
	where id = p_event_id and tenant_id = p_tenant_id
	for update;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	if p_version is null or p_version < 1 or p_version > v_row.version then
		raise exception 'version: expected the version the event was opened at (1 to %)', v_row.version
			using errcode = '22023';
	end if;
	v_old := public.chamber_event_document(v_row);
	-- An empty rule is none (the editor sends '' for 'does not repeat').
	if p_changes ->> 'rrule' = '' then
		p_changes := jsonb_set(p_changes, '{rrule}', 'null'::jsonb);
	end if;
	v_new := jsonb_populate_record(v_row, p_changes);
	v_doc := public.chamber_event_document(v_new);
	select coalesce(array_agg(f), '{}') into v_changed
	from jsonb_object_keys(p_changes) f
	where v_old -> f is distinct from v_doc -> f;

	select coalesce(jsonb_agg(jsonb_build_object(
			'field', c.f,
			'value', v_old -> c.f,
			'changedBy', coalesce(a.actor_email, case when a.actor_role in ('service_role', 'database') or a.actor_role is null then 'the calendar feed' else a.actor_role end),
			'changedAt', coalesce(a.at, v_row.updated_at)
		) order by c.f), '[]'::jsonb)
	into v_conflicts
	from unnest(v_changed) c(f)
	left join lateral (
		select al.actor_email, al.actor_role, al.at from public.audit_log al
		where al.event_id = v_row.id and al.field = c.f
		order by al.at desc, al.id desc limit 1
	) a on true
	where coalesce((v_row.field_versions ->> c.f)::integer, 0) > p_version;
	if jsonb_array_length(v_conflicts) > 0 then
		raise exception 'Someone else changed this event since you opened it'
			using errcode = 'PT409',
				detail = jsonb_build_object('version', v_row.version, 'conflicts', v_conflicts)::text;
	end if;

	v_times_changed := v_changed && array['starts_local', 'ends_local', 'time_zone', 'all_day', 'rrule'];
	if cardinality(v_changed) = 0 and p_dates is null then
		return jsonb_build_object('id', v_row.id, 'version', v_row.version);
	end if;
	if v_new.rrule is not null and v_times_changed and p_dates is null then
		raise exception 'occurrences: a changed recurring event needs the dates of its rule' using errcode = '22023';
	end if;

	update public.chamber_events e
	set (calendar, status, name, summary, description, time_zone, all_day, starts_local, ends_local,
			rrule, venue, address1, address2, city, state, zip, event_type, event_type_color, featured,
			image_url, registration_url, registration_disabled, registration_opens, registration_closes,
			tickets, contact_email, show_attendees) = (
		v_new.calendar, v_new.status, v_new.name, v_new.summary, v_new.description, v_new.time_zone,
		v_new.all_day, v_new.starts_local, v_new.ends_local, v_new.rrule, v_new.venue, v_new.address1,
		v_new.address2, v_new.city, v_new.state, v_new.zip, v_new.event_type, v_new.event_type_color,
		v_new.featured, v_new.image_url, v_new.registration_url, v_new.registration_disabled,
		v_new.registration_opens, v_new.registration_closes, v_new.tickets, v_new.contact_email,
		v_new.show_attendees
	),
		version = e.version + case when cardinality(v_changed) > 0 or p_dates is not null then 1 else 0 end,
		field_versions = e.field_versions
			|| coalesce((select jsonb_object_agg(f, e.version + 1) from unnest(v_changed) f), '{}'::jsonb),
		-- Changed here: the feed's reads leave these fields be; set back to the feed's value, a
		-- field follows the feed again.
		staff_fields = case when e.origin = 'feed' then (
			select coalesce(array_agg(distinct f), '{}') from unnest(e.staff_fields || v_changed) f
			where not (f = any (v_changed) and e.feed_values ? f and e.feed_values -> f = v_doc -> f)
		) else e.staff_fields end,
		feed_values = case when e.origin = 'feed' then
			e.feed_values || coalesce((
				select jsonb_object_agg(f, v_old -> f) from unnest(v_changed) f where not (e.feed_values ? f)
			), '{}'::jsonb)
		else e.feed_values end,
		updated_at = now(),
		updated_by = v_who
	where e.id = v_row.id
	returning * into v_row;

	if v_times_changed or p_dates is not null then
		perform public.sync_event_occurrences(v_row, p_dates);
	end if;
	-- A rule that changes nothing about the times leaves the dates where they are; a one-off's
	-- place or name changes nothing in its occurrence row either.
	perform public.audit_chamber_event(p_tenant_id, v_row.id, f, v_old -> f, v_doc -> f)
	from unnest(v_changed) f;
	perform public.publish_chamber_events(p_tenant_id);
	return jsonb_build_object('id', v_row.id, 'version', v_row.version);
end;
$$;

comment on function public.save_chamber_event is 'Adds or changes a chamber''s own event as the user: roles per field, the version check (PT409), the feed''s overrides, the occurrences, audit rows, the cache versions.';

/** Deletes an event and its dates (admins); its audit rows stay. */
create or replace function public.delete_chamber_event(p_tenant_id uuid, p_event_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_row public.chamber_events;
begin
	perform public.require_event_staff(p_tenant_id, array['super_admin', 'admin']);
	delete from public.chamber_events where id = p_event_id and tenant_id = p_tenant_id
	returning * into v_row;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	perform public.audit_chamber_event(p_tenant_id, p_event_id, 'deleted', public.chamber_event_document(v_row), null);
	perform public.publish_chamber_events(p_tenant_id);
	return jsonb_build_object('id', p_event_id, 'version', v_row.version);
end;
$$;

comment on function public.delete_chamber_event is 'Deletes a chamber''s own event with its dates (admins); the audit log keeps what it was.';

/**
  A copy of an event to start another from: every field and date, as a draft
  (not public until published), the staff's own (a feed's event copied is no
  longer the feed's).
 */
create or replace function public.duplicate_chamber_event(p_tenant_id uuid, p_event_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_role text := public.require_event_staff(p_tenant_id);
	v_actor record;
	v_who text;
	v_source public.chamber_events;
	v_row public.chamber_events;
begin
	select * into v_source from public.chamber_events where id = p_event_id and tenant_id = p_tenant_id;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	v_who := coalesce(v_actor.actor_email, v_actor.actor_role);
	insert into public.chamber_events (
		tenant_id, calendar, status, name, summary, description, time_zone, all_day, starts_local,
		ends_local, rrule, venue, address1, address2, city, state, zip, event_type, event_type_color,
		featured, image_url, registration_url, registration_disabled, registration_opens,
		registration_closes, tickets, contact_email, show_attendees, created_by, updated_by
	)
	select tenant_id, calendar, 'draft', left('Copy of ' || name, 200), summary, description, time_zone,
		all_day, starts_local, ends_local, rrule, venue, address1, address2, city, state, zip,
		event_type, event_type_color, featured and v_role <> 'editor', image_url, registration_url,
		registration_disabled, registration_opens, registration_closes, tickets, contact_email,
		show_attendees, v_who, v_who
	from public.chamber_events where id = p_event_id
	returning * into v_row;
	insert into public.chamber_event_occurrences (
		tenant_id, series_id, recurrence_key, starts_local, ends_local, start_utc, end_utc, cancelled, changes
	)
	select tenant_id, v_row.id, recurrence_key, starts_local, ends_local, start_utc, end_utc, cancelled, changes
	from public.chamber_event_occurrences where series_id = p_event_id
	order by start_utc;
	perform public.audit_chamber_event(p_tenant_id, v_row.id, 'added', null,
		public.chamber_event_document(v_row) || jsonb_build_object('copyOf', p_event_id));
	return jsonb_build_object('id', v_row.id, 'version', v_row.version);
end;
$$;

comment on function public.duplicate_chamber_event is 'Copies a chamber''s own event (fields and dates) as a new draft.';

/**
  One occurrence of a series changed or cancelled on its own (its key: its
  original local date). p_changes replaces the occurrence's own changes
  ({} takes them all back); p_cancelled cancels or reinstates the date.
  Versioned with the series. Answers {id, version, eventId}.
 */
create or replace function public.change_event_occurrence(
	p_tenant_id uuid,
	p_event_id uuid,
	p_key text,
	p_changes jsonb,
	p_cancelled boolean,
	p_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_row public.chamber_events;
	v_occurrence public.chamber_event_occurrences;
	v_field text := 'occurrence:' || p_key;
	v_changed_by text;
	v_changed_at timestamptz;
	v_problem text := public.event_occurrence_changes_problem(p_changes);
	v_start timestamp;
	v_end timestamp;
begin
	perform public.require_event_staff(p_tenant_id);
	if v_problem is not null then
		raise exception '%', v_problem using errcode = '22023';
	end if;
	select * into v_row from public.chamber_events where id = p_event_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	select * into v_occurrence from public.chamber_event_occurrences
	where series_id = p_event_id and recurrence_key = p_key for update;
	if not found then
		raise exception 'No such date in this event' using errcode = 'PT404';
	end if;
	if coalesce((v_row.field_versions ->> v_field)::integer, 0) > p_version
			and (v_occurrence.changes, v_occurrence.cancelled) is distinct from (p_changes, p_cancelled) then
		select coalesce(al.actor_email, al.actor_role), al.at into v_changed_by, v_changed_at
		from public.audit_log al where al.event_id = p_event_id and al.field = v_field
		order by al.at desc, al.id desc limit 1;
		raise exception 'Someone else changed this date since you opened it'
			using errcode = 'PT409',
				detail = jsonb_build_object('version', v_row.version, 'conflicts', jsonb_build_array(jsonb_build_object(
					'field', v_field,
					'value', jsonb_build_object('changes', v_occurrence.changes, 'cancelled', v_occurrence.cancelled),
					'changedBy', coalesce(v_changed_by, v_row.updated_by),
					'changedAt', coalesce(v_changed_at, v_row.updated_at)
				)))::text;
	end if;
	if (v_occurrence.changes, v_occurrence.cancelled) is not distinct from (p_changes, p_cancelled) then
		return jsonb_build_object('id', p_event_id, 'version', v_row.version, 'eventId', v_occurrence.event_id);
	end if;
	-- Its own times, else the series' times on its date.
	v_start := coalesce(p_changes ->> 'starts_local',
		p_key || to_char(v_row.starts_local, '"T"HH24:MI'))::timestamp;
	v_end := coalesce(p_changes ->> 'ends_local',
		(p_key::date + (v_row.ends_local::date - v_row.starts_local::date))::text || to_char(v_row.ends_local, '"T"HH24:MI'))::timestamp;
	if p_key = 'once' then
		v_start := coalesce((p_changes ->> 'starts_local')::timestamp, v_row.starts_local);
		v_end := coalesce((p_changes ->> 'ends_local')::timestamp, v_row.ends_local);
	end if;
	if v_end < v_start then
		raise exception 'ends_local: ends before it starts' using errcode = '22023';
	end if;
	update public.chamber_event_occurrences
	set changes = p_changes, cancelled = p_cancelled, changed_here = true,
		starts_local = v_start, ends_local = v_end,
		start_utc = v_start at time zone v_row.time_zone, end_utc = v_end at time zone v_row.time_zone
	where event_id = v_occurrence.event_id;
	update public.chamber_events e
	set version = e.version + 1,
		field_versions = e.field_versions || jsonb_build_object(v_field, e.version + 1),
		updated_at = now(),
		updated_by = coalesce((select a.actor_email from public.audit_actor(p_tenant_id) a), e.updated_by)
	where e.id = p_event_id
	returning * into v_row;
	perform public.audit_chamber_event(p_tenant_id, p_event_id, v_field,
		jsonb_build_object('changes', v_occurrence.changes, 'cancelled', v_occurrence.cancelled),
		jsonb_build_object('changes', p_changes, 'cancelled', p_cancelled));
	perform public.publish_chamber_events(p_tenant_id);
	return jsonb_build_object('id', p_event_id, 'version', v_row.version, 'eventId', v_occurrence.event_id);
end;
$$;

comment on function public.change_event_occurrence is 'Changes or cancels one date of a chamber''s own event on its own (RECURRENCE-ID / EXDATE), versioned with the event.';

/** A feed's event: a field changed here follows the feed again, with the feed's last value. */
create or replace function public.clear_event_override(p_tenant_id uuid, p_event_id uuid, p_field text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_row public.chamber_events;
	v_value jsonb;
begin
	perform public.require_event_staff(p_tenant_id);
	select * into v_row from public.chamber_events where id = p_event_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	if not (p_field = any (v_row.staff_fields)) then
		raise exception 'This field follows the calendar feed already' using errcode = 'PT404';
	end if;
	if not public.may_change_event_field(p_tenant_id, p_field) then
		raise exception 'Editors cannot feature an event' using errcode = '42501';
	end if;
	v_value := v_row.feed_values -> p_field;
	update public.chamber_events
	set staff_fields = array_remove(staff_fields, p_field), feed_values = feed_values - p_field
	where id = p_event_id;
	if v_value is null then
		return jsonb_build_object('id', p_event_id, 'version', v_row.version);
	end if;
	return public.save_chamber_event(p_tenant_id, p_event_id, jsonb_build_object(p_field, v_value),
		v_row.version, null);
end;
$$;

comment on function public.clear_event_override is 'Takes the calendar feed''s value of a field changed here back; the feed''s reads set it again.';

/**
  ---------------------------------------------------------------------------
  What the Events tab reads (staff of the chamber)
  ---------------------------------------------------------------------------
 */

/** An occurrence as the public reads it: the series' fields under the occurrence's own. */
create or replace function public.chamber_event_public_row(
	p_event public.chamber_events,
	p_occurrence public.chamber_event_occurrences
) returns jsonb
language sql
stable
set search_path = ''
as $$
	select jsonb_build_object(
		'event_id', p_occurrence.event_id,
		'calendar', p_event.calendar,
		'origin', p_event.origin,
		'cancelled', p_occurrence.cancelled or p_event.status = 'cancelled',
		'start_utc', p_occurrence.start_utc,
		'end_utc', p_occurrence.end_utc,
		'name', p_event.name, 'summary', p_event.summary, 'description', p_event.description,
		'time_zone', p_event.time_zone, 'all_day', p_event.all_day,
		'venue', p_event.venue, 'address1', p_event.address1, 'address2', p_event.address2,
		'city', p_event.city, 'state', p_event.state, 'zip', p_event.zip,
		'event_type', p_event.event_type, 'event_type_color', p_event.event_type_color,
		'featured', p_event.featured, 'image_url', p_event.image_url,
		'registration_url', p_event.registration_url,
		'registration_disabled', p_event.registration_disabled,
		'registration_opens', p_event.registration_opens,
		'registration_closes', p_event.registration_closes,
		'tickets', p_event.tickets, 'contact_email', p_event.contact_email,
		'show_attendees', p_event.show_attendees
	) || (p_occurrence.changes - 'starts_local' - 'ends_local');
$$;

comment on function public.chamber_event_public_row is 'One occurrence of a chamber''s own event with its series'' fields, its own changes over them.';

/**
  A page of the chamber's events for its staff: its own (each series once,
  at its next date), when p_with_file the tenant file's, and p_extra, the
  membership system's events as the function read them ([{eventId, name,
  calendar, eventType, startUtc, endUtc}]); the last two read-only.
  p_when: upcoming, past, cancelled, draft, or null for all. Answers
  {total, events}.
 */
create or replace function public.admin_list_chamber_events(
	p_tenant_id uuid,
	p_query text default null,
	p_when text default null,
	p_type text default null,
	p_origin text default null,
	p_with_file boolean default true,
	p_limit integer default 25,
	p_offset integer default 0,
	p_extra jsonb default null
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_pattern text;
	v_total bigint;
	v_rows jsonb;
begin
	perform public.require_event_staff(p_tenant_id);
	if p_when is not null and p_when not in ('upcoming', 'past', 'cancelled', 'draft') then
		raise exception 'when: expected upcoming, past, cancelled or draft' using errcode = '22023';
	end if;
	if p_origin is not null and p_origin not in ('staff', 'feed', 'submission', 'file', 'atlas') then
		raise exception 'source: expected staff, feed, submission, file or atlas' using errcode = '22023';
	end if;
	if p_extra is not null and (jsonb_typeof(p_extra) <> 'array' or jsonb_array_length(p_extra) > 5000) then
		raise exception 'extra: expected at most 5000 events' using errcode = '22023';
	end if;
	if nullif(btrim(p_query), '') is not null then
		v_pattern := '%' || replace(replace(replace(lower(btrim(p_query)), '\', '\\'), '%', '\%'), '_', '\_') || '%';
	end if;
	with own_events as (
		select e.id::text as id, e.name, e.calendar, e.origin, e.status, e.event_type,
			e.rrule is not null as recurring, e.updated_at, e.updated_by,
			n.event_id, n.start_utc, n.end_utc,
			(select count(*) from public.chamber_event_occurrences o where o.series_id = e.id) as dates,
			f.name as feed_name
		from public.chamber_events e
		left join public.event_feeds f on f.id = e.feed_id
		left join lateral (
			-- The next date that has not ended, else the last one.
			select o.event_id, o.start_utc, o.end_utc from public.chamber_event_occurrences o
			where o.series_id = e.id
			order by (o.end_utc < now()), case when o.end_utc >= now() then o.start_utc end, o.start_utc desc
			limit 1
		) n on true
		where e.tenant_id = p_tenant_id
	),
	file_events as (
		select 'file:' || ev.event_id as id, ev.data ->> 'EventName' as name,
			case ev.source when 'community' then 'community' else 'chamber' end as calendar,
			'file' as origin, case when ev.closed then 'cancelled' else 'published' end as status,
			coalesce(ev.data ->> 'EventType', '') as event_type, false as recurring,
			null::timestamptz as updated_at, null::text as updated_by,
			ev.event_id, ev.start_utc, ev.end_utc, 1::bigint as dates, null::text as feed_name
		from public.events ev
		where p_with_file and ev.tenant_id = p_tenant_id
	),
	atlas_events as (
		select 'atlas:' || (x ->> 'eventId') as id, x ->> 'name' as name,
			case x ->> 'calendar' when 'community' then 'community' else 'chamber' end as calendar,
			'atlas' as origin, 'published' as status, coalesce(x ->> 'eventType', '') as event_type,
			false as recurring, null::timestamptz as updated_at, null::text as updated_by,
			(x ->> 'eventId')::integer as event_id, (x ->> 'startUtc')::timestamptz as start_utc,
			(x ->> 'endUtc')::timestamptz as end_utc, 1::bigint as dates, null::text as feed_name
		from jsonb_array_elements(coalesce(p_extra, '[]'::jsonb)) x
	),
	all_events as (
		select * from own_events union all select * from file_events union all select * from atlas_events
	),
	matching as (
		select r.* from all_events r
		where (v_pattern is null or lower(r.name) like v_pattern)
			and (nullif(btrim(p_type), '') is null or r.event_type = btrim(p_type))
			and (p_origin is null or r.origin = p_origin)
			and case p_when
				when 'upcoming' then r.status = 'published' and r.end_utc >= now()
				when 'past' then r.status <> 'draft' and r.end_utc < now()
				when 'cancelled' then r.status = 'cancelled'
				when 'draft' then r.status = 'draft'
				else true
			end
	)
	select count(*),
		coalesce((
			select jsonb_agg(jsonb_build_object(
				'id', m.id, 'name', m.name, 'calendar', m.calendar, 'source', m.origin, 'status', m.status,
				'eventType', m.event_type, 'recurring', m.recurring, 'dates', m.dates,
				'eventId', m.event_id, 'startUtc', m.start_utc, 'endUtc', m.end_utc,
				'feedName', m.feed_name, 'updatedAt', m.updated_at, 'updatedBy', m.updated_by,
				'readOnly', m.origin in ('file', 'atlas')
			) order by (m.end_utc < now()), case when m.end_utc >= now() then m.start_utc end,
				m.start_utc desc, m.id)
			from (
				select * from matching
				order by (end_utc < now()), case when end_utc >= now() then start_utc end, start_utc desc, id
				limit least(greatest(coalesce(p_limit, 25), 1), 100) offset greatest(coalesce(p_offset, 0), 0)
			) m
		), '[]'::jsonb)
	into v_total, v_rows
	from matching;
	return jsonb_build_object('total', v_total, 'events', v_rows);
end;
$$;

comment on function public.admin_list_chamber_events is 'A page of the chamber''s events for its staff (its own, and the tenant file''s read-only), upcoming first; {total, events}.';

/** One of the chamber's own events for its staff: its fields, version, state and dates. */
create or replace function public.admin_chamber_event(p_tenant_id uuid, p_event_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_row public.chamber_events;
begin
	perform public.require_event_staff(p_tenant_id);
	select * into v_row from public.chamber_events where id = p_event_id and tenant_id = p_tenant_id;
	if not found then
		raise exception 'No such event in this chamber' using errcode = 'PT404';
	end if;
	return jsonb_build_object(
		'id', v_row.id,
		'event', public.chamber_event_document(v_row),
		'version', v_row.version,
		'source', v_row.origin,
		'feed', (select jsonb_build_object('id', f.id, 'name', f.name) from public.event_feeds f where f.id = v_row.feed_id),
		'overrides', coalesce((
			select jsonb_agg(jsonb_build_object('field', f, 'feedValue', v_row.feed_values -> f) order by f)
			from unnest(v_row.staff_fields) f
		), '[]'::jsonb),
		'createdAt', v_row.created_at, 'createdBy', v_row.created_by,
		'updatedAt', v_row.updated_at, 'updatedBy', v_row.updated_by,
		'dates', coalesce((
			select jsonb_agg(jsonb_build_object(
				'key', o.recurrence_key, 'eventId', o.event_id,
				'start', to_char(o.starts_local, 'YYYY-MM-DD"T"HH24:MI'),
				'end', to_char(o.ends_local, 'YYYY-MM-DD"T"HH24:MI'),
				'cancelled', o.cancelled, 'changes', o.changes, 'changedHere', o.changed_here
			) order by o.start_utc, o.event_id)
			from public.chamber_event_occurrences o where o.series_id = v_row.id
		), '[]'::jsonb)
	);
end;
$$;

comment on function public.admin_chamber_event is 'One chamber event for its staff: {id, event, version, source, feed, overrides, dates, …}.';

/**
  ---------------------------------------------------------------------------
  What visitors read: published and cancelled events, never drafts
  ---------------------------------------------------------------------------
 */
create or replace function public.public_chamber_events(
	p_tenant_id uuid,
	p_calendar text,
	p_start timestamptz,
	p_end timestamptz
) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(jsonb_agg(x.row order by x.start_utc, x.event_id), '[]'::jsonb)
	from (
		select public.chamber_event_public_row(e, o) as row, o.start_utc, o.event_id
		from public.chamber_event_occurrences o
		join public.chamber_events e on e.id = o.series_id
		where o.tenant_id = p_tenant_id
			and e.calendar = p_calendar
			and e.status in ('published', 'cancelled')
			and o.start_utc <= p_end and o.end_utc >= p_start
		order by o.start_utc, o.event_id
		-- A range of the calendars' longest (three years) holds far fewer.
		limit 5000
	) x;
$$;

comment on function public.public_chamber_events is 'The chamber''s own published and cancelled events of one calendar overlapping a range, one row per date, for visitors.';

create or replace function public.public_chamber_event(p_tenant_id uuid, p_event_id integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select public.chamber_event_public_row(e, o)
	from public.chamber_event_occurrences o
	join public.chamber_events e on e.id = o.series_id
	where o.tenant_id = p_tenant_id and o.event_id = p_event_id
		and e.status in ('published', 'cancelled');
$$;

comment on function public.public_chamber_event is 'One date of the chamber''s own published or cancelled events by its EventId, for visitors; null otherwise.';

/**
  ---------------------------------------------------------------------------
  Calendar feeds: add, remove, and what a read brings
  ---------------------------------------------------------------------------
 */
create or replace function public.add_event_feed(p_tenant_id uuid, p_url text, p_calendar text, p_name text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
	v_id uuid;
begin
	perform public.require_event_staff(p_tenant_id, array['super_admin', 'admin']);
	select * into v_actor from public.audit_actor(p_tenant_id);
	if exists (select 1 from public.event_feeds where tenant_id = p_tenant_id and url = p_url) then
		raise exception 'url: the chamber reads this feed already' using errcode = '23505';
	end if;
	insert into public.event_feeds (tenant_id, url, calendar, name, created_by)
	values (p_tenant_id, p_url, coalesce(p_calendar, 'chamber'), coalesce(p_name, ''),
		coalesce(v_actor.actor_email, v_actor.actor_role))
	returning id into v_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'event_feeds', v_id::text, null,
		jsonb_build_object('url', p_url, 'calendar', p_calendar));
	return jsonb_build_object('id', v_id);
end;
$$;

comment on function public.add_event_feed is 'Adds a calendar feed to the chamber (admins), to preview before its first read.';

create or replace function public.remove_event_feed(p_tenant_id uuid, p_feed_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_feed public.event_feeds;
	v_actor record;
	v_events integer;
begin
	perform public.require_event_staff(p_tenant_id, array['super_admin', 'admin']);
	select count(*) into v_events from public.chamber_events where feed_id = p_feed_id;
	delete from public.event_feeds where id = p_feed_id and tenant_id = p_tenant_id returning * into v_feed;
	if not found then
		raise exception 'No such feed in this chamber' using errcode = 'PT404';
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'event_feeds', p_feed_id::text,
		jsonb_build_object('url', v_feed.url, 'calendar', v_feed.calendar, 'events', v_events), null);
	perform public.publish_chamber_events(p_tenant_id);
	return jsonb_build_object('id', p_feed_id, 'events', v_events);
end;
$$;

comment on function public.remove_event_feed is 'Removes a calendar feed and the events it brought (admins).';

/** Who reads a feed: its chamber's admins (on demand), or the server's schedule (service role). */
create or replace function public.may_read_event_feed(p_feed public.event_feeds)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select public.has_tenant_role(p_feed.tenant_id, array['super_admin', 'admin'])
		or coalesce(auth.role(), '') = 'service_role';
$$;

comment on function public.may_read_event_feed is 'Whether the caller may read a calendar feed into the chamber: its admins, or the server''s schedule.';

revoke all on function public.may_read_event_feed(public.event_feeds) from public, anon, authenticated;

/**
  What a read of a feed brings: p_events, the feed's events as the app parsed
  them with ical.js, [{uid, fields: {name, description, …, starts_local,
  ends_local, time_zone, all_day, rrule}, dates: [{key, start, end,
  cancelled, changes}] | null}]. Matched by UID: a new one is added, a known
  one updated in place (fields staff changed here keep staff's value; the
  feed's goes to feed_values), one the feed no longer has is cancelled (and
  published again when it comes back). p_dry_run: answers what would change
  and writes nothing (the preview of a feed's first read). A real read makes
  the feed active. Answers {added, updated, cancelled, unchanged, events:
  [{uid, name, change}]} (events for a dry run only).
 */
create or replace function public.apply_event_feed(p_feed_id uuid, p_events jsonb, p_dry_run boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_feed public.event_feeds;
	v_item jsonb;
	v_fields jsonb;
	v_row public.chamber_events;
	v_new public.chamber_events;
	v_old jsonb;
	v_doc jsonb;
	v_changed text[];
	v_kept jsonb;
	v_added integer := 0;
	v_updated integer := 0;
	v_cancelled integer := 0;
	v_unchanged integer := 0;
	v_list jsonb := '[]'::jsonb;
	v_summary jsonb;
	v_uids text[];
begin
	select * into v_feed from public.event_feeds where id = p_feed_id for update;
	if not found or not public.may_read_event_feed(v_feed) then
		raise exception 'No such feed in this chamber' using errcode = 'PT404';
	end if;
	if jsonb_typeof(p_events) is distinct from 'array' then
		raise exception 'events: expected the feed''s events' using errcode = '22023';
	end if;
	if jsonb_array_length(p_events) > 2000 then
		raise exception 'events: a feed may bring at most 2000 events' using errcode = '22023';
	end if;
	select array_agg(e ->> 'uid') into v_uids from jsonb_array_elements(p_events) e;
	if exists (select 1 from unnest(v_uids) u where u is null or char_length(u) > 500)
			or (select count(distinct u) from unnest(v_uids) u) <> cardinality(v_uids) then
		raise exception 'events: each needs its own UID' using errcode = '22023';
	end if;

	begin
		for v_item in select e from jsonb_array_elements(p_events) e loop
			v_fields := (v_item -> 'fields') - 'calendar' - 'status' - 'featured';
			if exists (select 1 from jsonb_object_keys(v_fields) k where not (k = any (public.chamber_event_fields()))) then
				raise exception 'events: a field no event has' using errcode = '22023';
			end if;
			select * into v_row from public.chamber_events where feed_id = p_feed_id and feed_uid = v_item ->> 'uid' for update;
			if not found then
				v_new := jsonb_populate_record(null::public.chamber_events, v_fields);
				insert into public.chamber_events (
					tenant_id, calendar, origin, feed_id, feed_uid, status, name, summary, description,
					time_zone, all_day, starts_local, ends_local, rrule, venue, address1, address2, city,
					state, zip, event_type, event_type_color, image_url, registration_url,
					registration_disabled, contact_email, created_by, updated_by
				) values (
					v_feed.tenant_id, v_feed.calendar, 'feed', p_feed_id, v_item ->> 'uid', 'published',
					v_new.name, coalesce(v_new.summary, ''), coalesce(v_new.description, ''), v_new.time_zone,
					coalesce(v_new.all_day, false), v_new.starts_local, v_new.ends_local, nullif(v_new.rrule, ''),
					coalesce(v_new.venue, ''), coalesce(v_new.address1, ''), coalesce(v_new.address2, ''),
					coalesce(v_new.city, ''), coalesce(v_new.state, ''), coalesce(v_new.zip, ''),
					coalesce(v_new.event_type, ''), coalesce(v_new.event_type_color, '#0d3e63'),
					coalesce(v_new.image_url, ''), coalesce(v_new.registration_url, ''),
					coalesce(v_new.registration_url, '') = '', coalesce(v_new.contact_email, ''), 'feed', 'feed'
				)
				returning * into v_row;
				perform public.sync_event_occurrences(v_row, v_item -> 'dates', true);
				perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, 'added', null, public.chamber_event_document(v_row));
				v_added := v_added + 1;
				v_list := v_list || jsonb_build_object('uid', v_item ->> 'uid', 'name', v_row.name, 'change', 'added');
				continue;
			end if;
			-- The feed's values of fields changed here are kept beside them, not written.
			v_kept := (select coalesce(jsonb_object_agg(k, v_fields -> k), '{}'::jsonb)
				from jsonb_object_keys(v_fields) k where k = any (v_row.staff_fields));
			v_fields := v_fields - v_row.staff_fields;
			if v_row.status = 'cancelled' and not ('status' = any (v_row.staff_fields)) then
				-- Back in the feed.
				v_fields := v_fields || '{"status": "published"}';
			end if;
			v_old := public.chamber_event_document(v_row);
			v_new := jsonb_populate_record(v_row, v_fields);
			v_doc := public.chamber_event_document(v_new);
			select coalesce(array_agg(f), '{}') into v_changed
			from jsonb_object_keys(v_fields) f where v_old -> f is distinct from v_doc -> f;
			update public.chamber_events e
			set (status, name, summary, description, time_zone, all_day, starts_local, ends_local, rrule,
					venue, address1, address2, city, state, zip, event_type, event_type_color, image_url,
					registration_url, contact_email) = (
				v_new.status, v_new.name, v_new.summary, v_new.description, v_new.time_zone, v_new.all_day,
				v_new.starts_local, v_new.ends_local, nullif(v_new.rrule, ''), v_new.venue, v_new.address1,
				v_new.address2, v_new.city, v_new.state, v_new.zip, v_new.event_type, v_new.event_type_color,
				v_new.image_url, v_new.registration_url, v_new.contact_email
			),
				feed_values = e.feed_values || v_kept,
				version = e.version + case when cardinality(v_changed) > 0 then 1 else 0 end,
				field_versions = e.field_versions
					|| coalesce((select jsonb_object_agg(f, e.version + 1) from unnest(v_changed) f), '{}'::jsonb),
				updated_at = case when cardinality(v_changed) > 0 then now() else e.updated_at end,
				updated_by = case when cardinality(v_changed) > 0 then 'feed' else e.updated_by end
			where e.id = v_row.id
			returning * into v_row;
			perform public.sync_event_occurrences(v_row, v_item -> 'dates', true);
			perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, f, v_old -> f, v_doc -> f)
			from unnest(v_changed) f;
			if cardinality(v_changed) > 0 then
				v_updated := v_updated + 1;
				v_list := v_list || jsonb_build_object('uid', v_item ->> 'uid', 'name', v_row.name, 'change', 'updated');
			else
				v_unchanged := v_unchanged + 1;
			end if;
		end loop;

		-- Gone from the feed: cancelled here (staff may delete it), unless staff decided its status.
		for v_row in
			update public.chamber_events e
			set status = 'cancelled', version = e.version + 1,
				field_versions = e.field_versions || jsonb_build_object('status', e.version + 1),
				updated_at = now(), updated_by = 'feed'
			where e.feed_id = p_feed_id and e.status <> 'cancelled'
				and not (e.feed_uid = any (coalesce(v_uids, '{}')))
				and not ('status' = any (e.staff_fields))
			returning e.*
		loop
			perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, 'status', '"published"', '"cancelled"');
			v_cancelled := v_cancelled + 1;
			v_list := v_list || jsonb_build_object('uid', v_row.feed_uid, 'name', v_row.name, 'change', 'cancelled');
		end loop;

		v_summary := jsonb_build_object('added', v_added, 'updated', v_updated, 'cancelled', v_cancelled,
			'unchanged', v_unchanged);
		if p_dry_run then
			raise exception 'dry run' using errcode = 'P0001', detail = (v_summary || jsonb_build_object('events', v_list))::text;
		end if;
	exception when sqlstate 'P0001' then
		if sqlerrm = 'dry run' then
			get stacked diagnostics v_summary = pg_exception_detail;
			return v_summary;
		end if;
		raise;
	end;

	update public.event_feeds
	set state = 'active', last_read_at = now(), last_ok_at = now(), last_error = null, error_since = null,
		error_notified_at = null,
		event_count = (select count(*) from public.chamber_events where feed_id = p_feed_id and status <> 'cancelled')
	where id = p_feed_id;
	if v_added + v_updated + v_cancelled > 0 then
		perform public.publish_chamber_events(v_feed.tenant_id);
	end if;
	return v_summary;
end;
$$;

comment on function public.apply_event_feed is 'Applies a read of a calendar feed (or, dry run, says what it would change): matched by UID, staff''s changes kept, events gone from the feed cancelled.';

/**
  A read that failed: the feed's events stay as they are, the error is kept,
  and the answer says whether to tell the chamber's admins now (the first
  failure, then once a day while it lasts).
 */
create or replace function public.record_event_feed_error(p_feed_id uuid, p_error text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_feed public.event_feeds;
	v_notify boolean;
begin
	select * into v_feed from public.event_feeds where id = p_feed_id for update;
	if not found or not public.may_read_event_feed(v_feed) then
		raise exception 'No such feed in this chamber' using errcode = 'PT404';
	end if;
	v_notify := v_feed.state = 'active'
		and (v_feed.error_notified_at is null or v_feed.error_notified_at < now() - interval '1 day');
	update public.event_feeds
	set last_read_at = now(), last_error = left(coalesce(p_error, 'The feed could not be read'), 500),
		error_since = coalesce(error_since, now()),
		error_notified_at = case when v_notify then now() else error_notified_at end
	where id = p_feed_id;
	return jsonb_build_object('notify', v_notify, 'errorSince', coalesce(v_feed.error_since, now()));
end;
$$;

comment on function public.record_event_feed_error is 'Records a failed read of a calendar feed (its events stay); says whether to e-mail the admins now.';

/**
  ---------------------------------------------------------------------------
  Reviewing what the community submitted
  ---------------------------------------------------------------------------
  Approve (p_changes: staff's edits over the submission, may be {}) makes it
  a published community event; decline keeps it with the note. Either way
  the answer carries what the e-mail to the submitter needs.
 */
create or replace function public.review_event_submission(
	p_tenant_id uuid,
	p_submission_id uuid,
	p_approve boolean,
	p_changes jsonb,
	p_note text
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_submission public.event_submissions;
	v_actor record;
	v_who text;
	v_event jsonb;
	v_saved jsonb;
	v_event_id integer;
begin
	perform public.require_event_staff(p_tenant_id);
	select * into v_submission from public.event_submissions
	where id = p_submission_id and tenant_id = p_tenant_id for update;
	if not found then
		raise exception 'No such submission in this chamber' using errcode = 'PT404';
	end if;
	if v_submission.status <> 'pending' then
		raise exception 'This submission was % already', v_submission.status using errcode = 'PT409';
	end if;
	if char_length(coalesce(p_note, '')) > 1000 then
		raise exception 'note: at most 1000 characters' using errcode = '22023';
	end if;
	select * into v_actor from public.audit_actor(p_tenant_id);
	v_who := coalesce(v_actor.actor_email, v_actor.actor_role);
	if p_approve then
		v_event := v_submission.event || coalesce(p_changes, '{}'::jsonb)
			|| jsonb_build_object('calendar', 'community', 'status', 'published');
		v_event := v_event || jsonb_build_object('registration_disabled', coalesce(v_event ->> 'registration_url', '') = '');
		v_saved := public.save_chamber_event(p_tenant_id, null, v_event - 'rrule', 0, null);
		update public.chamber_events set origin = 'submission' where id = (v_saved ->> 'id')::uuid;
		select o.event_id into v_event_id from public.chamber_event_occurrences o
		where o.series_id = (v_saved ->> 'id')::uuid;
	end if;
	update public.event_submissions
	set status = case when p_approve then 'approved' else 'declined' end,
		note = coalesce(p_note, ''), reviewed_at = now(), reviewed_by = v_who,
		event_series_id = (v_saved ->> 'id')::uuid
	where id = p_submission_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, event_id)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'event_submissions',
		p_submission_id::text, '"pending"', to_jsonb(case when p_approve then 'approved' else 'declined' end),
		(v_saved ->> 'id')::uuid);
	return jsonb_build_object(
		'id', p_submission_id,
		'status', case when p_approve then 'approved' else 'declined' end,
		'eventSeriesId', v_saved ->> 'id',
		'eventId', v_event_id,
		'name', coalesce(v_event ->> 'name', v_submission.event ->> 'name'),
		'submitterName', v_submission.submitter_name,
		'submitterEmail', v_submission.submitter_email
	);
end;
$$;

comment on function public.review_event_submission is 'Approves (as submitted or edited: a published community event) or declines (with a note) a community submission; answers what the submitter''s e-mail needs.';

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
 */
revoke all on function public.is_time_zone(text) from public, anon, authenticated;
revoke all on function public.event_tickets_problem(jsonb) from public, anon, authenticated;
revoke all on function public.event_occurrence_fields() from public, anon, authenticated;
revoke all on function public.event_occurrence_changes_problem(jsonb) from public, anon, authenticated;
revoke all on function public.event_submission_problem(jsonb) from public, anon, authenticated;
revoke all on function public.chamber_event_fields() from public, anon, authenticated;
revoke all on function public.chamber_event_document(public.chamber_events) from public, anon, authenticated;
revoke all on function public.chamber_event_public_row(public.chamber_events, public.chamber_event_occurrences) from public, anon, authenticated;
revoke all on function public.may_change_event_field(uuid, text) from public, anon;
revoke all on function public.save_chamber_event(uuid, uuid, jsonb, integer, jsonb) from public, anon;
revoke all on function public.delete_chamber_event(uuid, uuid) from public, anon;
revoke all on function public.duplicate_chamber_event(uuid, uuid) from public, anon;
revoke all on function public.change_event_occurrence(uuid, uuid, text, jsonb, boolean, integer) from public, anon;
revoke all on function public.clear_event_override(uuid, uuid, text) from public, anon;
revoke all on function public.admin_list_chamber_events(uuid, text, text, text, text, boolean, integer, integer, jsonb) from public, anon;
revoke all on function public.admin_chamber_event(uuid, uuid) from public, anon;
revoke all on function public.public_chamber_events(uuid, text, timestamptz, timestamptz) from public;
revoke all on function public.public_chamber_event(uuid, integer) from public;
revoke all on function public.add_event_feed(uuid, text, text, text) from public, anon;
revoke all on function public.remove_event_feed(uuid, uuid) from public, anon;
revoke all on function public.apply_event_feed(uuid, jsonb, boolean) from public, anon;
revoke all on function public.record_event_feed_error(uuid, text) from public, anon;
revoke all on function public.review_event_submission(uuid, uuid, boolean, jsonb, text) from public, anon;

grant execute on function public.is_time_zone(text) to service_role;
grant execute on function public.event_tickets_problem(jsonb) to service_role;
grant execute on function public.event_occurrence_fields() to service_role;
grant execute on function public.event_occurrence_changes_problem(jsonb) to service_role;
grant execute on function public.event_submission_problem(jsonb) to service_role;
grant execute on function public.chamber_event_fields() to service_role;
grant execute on function public.chamber_event_document(public.chamber_events) to service_role;
grant execute on function public.chamber_event_public_row(public.chamber_events, public.chamber_event_occurrences) to service_role;
grant execute on function public.publish_chamber_events(uuid) to service_role;
grant execute on function public.sync_event_occurrences(public.chamber_events, jsonb, boolean) to service_role;
grant execute on function public.audit_chamber_event(uuid, uuid, text, jsonb, jsonb) to service_role;
grant execute on function public.require_event_staff(uuid, text[]) to service_role;
grant execute on function public.may_read_event_feed(public.event_feeds) to service_role;
grant execute on function public.may_change_event_field(uuid, text) to authenticated, service_role;
grant execute on function public.save_chamber_event(uuid, uuid, jsonb, integer, jsonb) to authenticated, service_role;
grant execute on function public.delete_chamber_event(uuid, uuid) to authenticated, service_role;
grant execute on function public.duplicate_chamber_event(uuid, uuid) to authenticated, service_role;
grant execute on function public.change_event_occurrence(uuid, uuid, text, jsonb, boolean, integer) to authenticated, service_role;
grant execute on function public.clear_event_override(uuid, uuid, text) to authenticated, service_role;
grant execute on function public.admin_list_chamber_events(uuid, text, text, text, text, boolean, integer, integer, jsonb) to authenticated, service_role;
grant execute on function public.admin_chamber_event(uuid, uuid) to authenticated, service_role;
grant execute on function public.public_chamber_events(uuid, text, timestamptz, timestamptz) to anon, authenticated, service_role;
grant execute on function public.public_chamber_event(uuid, integer) to anon, authenticated, service_role;
grant execute on function public.add_event_feed(uuid, text, text, text) to authenticated, service_role;
grant execute on function public.remove_event_feed(uuid, uuid) to authenticated, service_role;
grant execute on function public.apply_event_feed(uuid, jsonb, boolean) to authenticated, service_role;
grant execute on function public.record_event_feed_error(uuid, text) to authenticated, service_role;
grant execute on function public.review_event_submission(uuid, uuid, boolean, jsonb, text) to authenticated, service_role;
