/**
  ---------------------------------------------------------------------------
  Calendar feeds read, and the community's submissions
  ---------------------------------------------------------------------------
  The app now reads the chamber's calendar feeds (on a schedule and on
  demand: src/features/chamber-events/feeds.server.ts, parsed with ical.js)
  and takes the community's submissions (/api/event-submissions). What that
  needs of the database:

  - add_event_feed: at most 10 feeds a chamber.
  - apply_event_feed: a read names the feed (X-WR-CALNAME) when the admins
    left the name blank; an event gone from the feed is cancelled here only
    while it has a date to come (a feed that drops its past events, as
    Outlook's published calendars do past their window, leaves them as they
    were); the dates of a series whose times staff changed here stay as
    staff set them; a read that changes only a series' dates (an EXDATE, a
    moved instance) is an update; the answer lists each change with its
    date, the fields it changes and the fields kept as staff set them, for
    the preview.
  - event_submissions: the member who submitted (signed in by their link),
    and limits held by Postgres whoever inserts: at most 3 submissions
    waiting per e-mail address, and 200 per chamber.
 */

/**
  ---------------------------------------------------------------------------
  Feeds: at most 10 a chamber
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
	-- One chamber's adds wait for each other, so two at once cannot pass the count together.
	perform pg_advisory_xact_lock(hashtextextended('event_feeds:' || p_tenant_id::text, 0));
	if (select count(*) from public.event_feeds where tenant_id = p_tenant_id) >= 10 then
		raise exception 'url: a chamber reads at most 10 calendar feeds; remove one first' using errcode = '22023';
	end if;
	if exists (select 1 from public.event_feeds where tenant_id = p_tenant_id and url = p_url) then
		raise exception 'url: the chamber reads this feed already' using errcode = '23505';
	end if;
	insert into public.event_feeds (tenant_id, url, calendar, name, created_by)
	values (p_tenant_id, p_url, coalesce(p_calendar, 'chamber'), left(btrim(coalesce(p_name, '')), 200),
		coalesce(v_actor.actor_email, v_actor.actor_role))
	returning id into v_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (p_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'event_feeds', v_id::text, null,
		jsonb_build_object('url', p_url, 'calendar', p_calendar));
	return jsonb_build_object('id', v_id);
end;
$$;

comment on function public.add_event_feed is 'Adds a calendar feed to the chamber (admins; at most 10), to preview before its first read.';

/**
  ---------------------------------------------------------------------------
  apply_event_feed: what a read brings
  ---------------------------------------------------------------------------
  p_events as before ([{uid, fields, dates}], parsed by the app with
  ical.js); p_name the feed's own name. Answers {added, updated, cancelled,
  unchanged, events: [{uid, name, change, start, fields, kept}]}: change is
  added, updated, cancelled or kept (unchanged, with fields staff changed
  here that the feed has otherwise); start the event's next date; fields
  what an update changes ('dates' for its dates); kept the fields left as
  staff set them.
 */
drop function if exists public.apply_event_feed(uuid, jsonb, boolean);

create or replace function public.apply_event_feed(
	p_feed_id uuid,
	p_events jsonb,
	p_dry_run boolean default false,
	p_name text default null
) returns jsonb
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
	v_kept_fields text[];
	v_dates_before jsonb;
	v_dates_after jsonb;
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
	if exists (select 1 from jsonb_array_elements(p_events) e where jsonb_typeof(e -> 'fields') is distinct from 'object') then
		raise exception 'events: each needs its fields' using errcode = '22023';
	end if;
	select coalesce(array_agg(e ->> 'uid'), '{}') into v_uids from jsonb_array_elements(p_events) e;
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
				v_list := v_list || jsonb_build_object('uid', v_item ->> 'uid', 'name', v_row.name, 'change', 'added',
					'start', public.chamber_event_next_start(v_row.id), 'fields', '[]'::jsonb, 'kept', '[]'::jsonb);
				continue;
			end if;
			-- The feed's values of fields changed here are kept beside them, not written; those the
			-- feed has otherwise than staff are named in the answer.
			v_doc := public.chamber_event_document(v_row);
			v_kept := (select coalesce(jsonb_object_agg(k, v_fields -> k), '{}'::jsonb)
				from jsonb_object_keys(v_fields) k where k = any (v_row.staff_fields));
			select coalesce(array_agg(k order by k), '{}') into v_kept_fields
			from jsonb_object_keys(v_kept) k where v_kept -> k is distinct from v_doc -> k;
			v_fields := v_fields - v_row.staff_fields;
			if v_row.status = 'cancelled' and not ('status' = any (v_row.staff_fields)) then
				-- Back in the feed.
				v_fields := v_fields || '{"status": "published"}';
			end if;
			v_old := v_doc;
			v_new := jsonb_populate_record(v_row, v_fields);
			v_doc := public.chamber_event_document(v_new);
			select coalesce(array_agg(f order by f), '{}') into v_changed
			from jsonb_object_keys(v_fields) f where v_old -> f is distinct from v_doc -> f;
			v_dates_before := public.chamber_event_dates_print(v_row.id);
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
			-- Times changed here: the series' dates stay as staff set them.
			if not (v_row.staff_fields && array['starts_local', 'ends_local', 'time_zone', 'all_day', 'rrule']) then
				perform public.sync_event_occurrences(v_row, v_item -> 'dates', true);
			end if;
			v_dates_after := public.chamber_event_dates_print(v_row.id);
			perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, f, v_old -> f, v_doc -> f)
			from unnest(v_changed) f;
			if v_dates_after is distinct from v_dates_before then
				if cardinality(v_changed) = 0 then
					update public.chamber_events e
					set version = e.version + 1, updated_at = now(), updated_by = 'feed'
					where e.id = v_row.id;
				end if;
				perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, 'dates',
					to_jsonb(jsonb_array_length(v_dates_before)), to_jsonb(jsonb_array_length(v_dates_after)));
				v_changed := v_changed || array['dates'];
			end if;
			if cardinality(v_changed) > 0 then
				v_updated := v_updated + 1;
				v_list := v_list || jsonb_build_object('uid', v_item ->> 'uid', 'name', v_row.name, 'change', 'updated',
					'start', public.chamber_event_next_start(v_row.id), 'fields', to_jsonb(v_changed),
					'kept', to_jsonb(v_kept_fields));
			else
				v_unchanged := v_unchanged + 1;
				if cardinality(v_kept_fields) > 0 then
					v_list := v_list || jsonb_build_object('uid', v_item ->> 'uid', 'name', v_row.name, 'change', 'kept',
						'start', public.chamber_event_next_start(v_row.id), 'fields', '[]'::jsonb,
						'kept', to_jsonb(v_kept_fields));
				end if;
			end if;
		end loop;

		-- Gone from the feed while it has a date to come: cancelled here (staff may delete it),
		-- unless staff decided its status. A past event the feed dropped stays as it was.
		for v_row in
			update public.chamber_events e
			set status = 'cancelled', version = e.version + 1,
				field_versions = e.field_versions || jsonb_build_object('status', e.version + 1),
				updated_at = now(), updated_by = 'feed'
			where e.feed_id = p_feed_id and e.status <> 'cancelled'
				and not (e.feed_uid = any (v_uids))
				and not ('status' = any (e.staff_fields))
				and exists (select 1 from public.chamber_event_occurrences o where o.series_id = e.id and o.end_utc >= now())
			returning e.*
		loop
			perform public.audit_chamber_event(v_feed.tenant_id, v_row.id, 'status', '"published"', '"cancelled"');
			v_cancelled := v_cancelled + 1;
			v_list := v_list || jsonb_build_object('uid', v_row.feed_uid, 'name', v_row.name, 'change', 'cancelled',
				'start', public.chamber_event_next_start(v_row.id), 'fields', '["status"]'::jsonb, 'kept', '[]'::jsonb);
		end loop;

		v_summary := jsonb_build_object('added', v_added, 'updated', v_updated, 'cancelled', v_cancelled,
			'unchanged', v_unchanged, 'events', v_list);
		if p_dry_run then
			raise exception 'dry run' using errcode = 'P0001', detail = v_summary::text;
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
		name = case when name = '' then left(btrim(coalesce(p_name, '')), 200) else name end,
		event_count = (select count(*) from public.chamber_events where feed_id = p_feed_id and status <> 'cancelled')
	where id = p_feed_id;
	if v_added + v_updated + v_cancelled > 0 then
		perform public.publish_chamber_events(v_feed.tenant_id);
	end if;
	return v_summary;
end;
$$;

comment on function public.apply_event_feed is 'Applies a read of a calendar feed (or, dry run, says what it would change): matched by UID, staff''s changes kept, events gone from the feed with a date to come cancelled.';

/** An event's next date that has not ended (else its last), 'yyyy-mm-ddThh:mm' on its wall clock. */
create or replace function public.chamber_event_next_start(p_event_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
	select to_char(o.starts_local, 'YYYY-MM-DD"T"HH24:MI')
	from public.chamber_event_occurrences o
	where o.series_id = p_event_id
	order by (o.end_utc < now()), case when o.end_utc >= now() then o.start_utc end, o.start_utc desc
	limit 1;
$$;

comment on function public.chamber_event_next_start is 'A chamber event''s next date (else its last) on its wall clock, for the feed''s preview.';

/** What an event's dates are, to tell whether a read changed them. */
create or replace function public.chamber_event_dates_print(p_event_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(jsonb_agg(jsonb_build_array(o.recurrence_key, o.starts_local, o.ends_local, o.cancelled, o.changes)
		order by o.recurrence_key), '[]'::jsonb)
	from public.chamber_event_occurrences o
	where o.series_id = p_event_id;
$$;

comment on function public.chamber_event_dates_print is 'A chamber event''s dates as one value (key, times, cancelled, changes each), compared before and after a feed''s read.';

/**
  ---------------------------------------------------------------------------
  Submissions: who submitted, and how many may wait
  ---------------------------------------------------------------------------
 */
alter table public.event_submissions
	add column if not exists member_user_id uuid references auth.users (id) on delete set null;

comment on column public.event_submissions.member_user_id is 'The member of a business who submitted it, signed in by their e-mailed link (the e-mail is theirs); null for a visitor.';

/**
  Held whoever inserts: at most 3 submissions of one e-mail address wait for
  review at a time, and 200 of one chamber (PT429: PostgREST answers 429).
 */
create or replace function public.event_submissions_limits()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	-- A chamber's submissions are counted one insert at a time.
	perform pg_advisory_xact_lock(hashtextextended('event_submissions:' || new.tenant_id::text, 0));
	if (select count(*) from public.event_submissions
			where tenant_id = new.tenant_id and status = 'pending'
				and lower(submitter_email) = lower(new.submitter_email)) >= 3 then
		raise exception 'Three events of yours are waiting for the chamber''s review already: it answers those first'
			using errcode = 'PT429';
	end if;
	if (select count(*) from public.event_submissions
			where tenant_id = new.tenant_id and status = 'pending') >= 200 then
		raise exception 'The chamber has 200 events waiting for review: please try again in a few days'
			using errcode = 'PT429';
	end if;
	return new;
end;
$$;

comment on function public.event_submissions_limits is 'Trigger: at most 3 pending submissions per e-mail address and 200 per chamber (PT429).';

drop trigger if exists event_submissions_limits on public.event_submissions;
create trigger event_submissions_limits before insert on public.event_submissions
	for each row execute function public.event_submissions_limits();

/**
  ---------------------------------------------------------------------------
  Who may call what
  ---------------------------------------------------------------------------
 */
revoke all on function public.apply_event_feed(uuid, jsonb, boolean, text) from public, anon;
revoke all on function public.chamber_event_next_start(uuid) from public, anon, authenticated;
revoke all on function public.chamber_event_dates_print(uuid) from public, anon, authenticated;
revoke all on function public.event_submissions_limits() from public, anon, authenticated;

grant execute on function public.apply_event_feed(uuid, jsonb, boolean, text) to authenticated, service_role;
grant execute on function public.chamber_event_next_start(uuid) to service_role;
grant execute on function public.chamber_event_dates_print(uuid) to service_role;
