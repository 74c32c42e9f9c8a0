/**
  ---------------------------------------------------------------------------
  Scheduled publishing: a change that goes live at a chosen time
  ---------------------------------------------------------------------------
  'Publish at…' on a save or a restore stores the change instead of writing
  it, and the scheduled function (every 5 minutes) writes what is due and
  publishes it. The header and History list what is scheduled, by whom, with
  Cancel.

  A scheduled change is checked when it is scheduled exactly as a save made
  then would be: the insert trigger applies it as the inserting user (row-level
  security, the role trigger, the value rules, the version check of
  update_chamber_config) and undoes it. Whatever path the row comes in by
  (the function, a direct insert with a staff token), a change that user may
  not make cannot be scheduled. When it fires, it is applied again in the
  name of its author (the audit log says who) if their role for the chamber
  is still at least the one they scheduled it with; a field someone changed
  since fails it, as a save would be refused (never a silent overwrite).

  The chamber's time zone, in which staff enter the time, is a new field of
  the configuration (contact.timeZone), so config_rules() is redefined below.
 */

create or replace function public.config_rules()
returns jsonb
language sql
immutable
set search_path = ''
as $rules$
	select '{
	"colors": {"types":["object"],"properties":{"primary":{"types":["string"],"maxLength":7},"primaryLight":{"types":["string"],"maxLength":7},"primaryDark":{"types":["string"],"maxLength":7},"secondary":{"types":["string"],"maxLength":7},"secondaryLight":{"types":["string"],"maxLength":7},"secondaryDark":{"types":["string"],"maxLength":7}}},
	"logo": {"types":["object"],"properties":{"standard":{"types":["string"],"maxLength":2000},"stacked":{"types":["string"],"maxLength":2000},"favicon":{"types":["string"],"maxLength":2000}}},
	"fonts": {"types":["object"],"properties":{"heading":{"types":["string"],"enum":["Inter","Roboto","Open Sans","Lato","Montserrat","Poppins","Raleway","Nunito","Playfair Display","Merriweather","Source Sans Pro","Oswald","PT Sans","Rubik","Work Sans","Quicksand","Ubuntu","Barlow","DM Sans","Manrope"]},"body":{"types":["string"],"enum":["Inter","Roboto","Open Sans","Lato","Montserrat","Poppins","Raleway","Nunito","Playfair Display","Merriweather","Source Sans Pro","Oswald","PT Sans","Rubik","Work Sans","Quicksand","Ubuntu","Barlow","DM Sans","Manrope"]}}},
	"text_colors": {"types":["object"],"properties":{"heading":{"types":["string"],"maxLength":7},"body":{"types":["string"],"maxLength":7},"link":{"types":["string"],"maxLength":7},"linkHover":{"types":["string"],"maxLength":7},"onDarkHeading":{"types":["string"],"maxLength":7},"onDarkBody":{"types":["string"],"maxLength":7}}},
	"contact": {"types":["object"],"properties":{"address":{"types":["string"],"maxLength":200},"addressLine2":{"types":["string"],"maxLength":200},"city":{"types":["string"],"maxLength":200},"state":{"types":["string"],"maxLength":2},"zip":{"types":["string"],"maxLength":200},"phone":{"types":["string"],"maxLength":200},"timeZone":{"types":["string"],"enum":["","America/New_York","America/Detroit","America/Indiana/Indianapolis","America/Chicago","America/Denver","America/Boise","America/Phoenix","America/Los_Angeles","America/Anchorage","Pacific/Honolulu","America/Puerto_Rico","Pacific/Guam"]},"email":{"types":["string"],"maxLength":254}}},
	"social": {"types":["object"],"properties":{"facebook":{"types":["string"],"maxLength":2000},"twitter":{"types":["string"],"maxLength":2000},"linkedin":{"types":["string"],"maxLength":2000},"instagram":{"types":["string"],"maxLength":2000},"youtube":{"types":["string"],"maxLength":2000}}},
	"urls": {"types":["object"],"properties":{"mainWebsite":{"types":["string"],"maxLength":2000},"joinUrl":{"types":["string"],"maxLength":2000},"aboutUrl":{"types":["string"],"maxLength":2000},"teamUrl":{"types":["string"],"maxLength":2000},"presidentUrl":{"types":["string"],"maxLength":2000},"boardUrl":{"types":["string"],"maxLength":2000},"eventsUrl":{"types":["string"],"maxLength":2000},"networkingUrl":{"types":["string"],"maxLength":2000},"newsUrl":{"types":["string"],"maxLength":2000},"advocacyUrl":{"types":["string"],"maxLength":2000},"privacyUrl":{"types":["string"],"maxLength":2000},"businessResourcesUrl":{"types":["string"],"maxLength":2000},"workforceUrl":{"types":["string"],"maxLength":2000},"communityGuideUrl":{"types":["string"],"maxLength":2000},"communityMapUrl":{"types":["string"],"maxLength":2000},"jobBoardUrl":{"types":["string"],"maxLength":2000},"committeesUrl":{"types":["string"],"maxLength":2000},"annualReportUrl":{"types":["string"],"maxLength":2000},"contactUrl":{"types":["string"],"maxLength":2000},"eventRegistrationBaseUrl":{"types":["string"],"maxLength":2000}}},
	"footer_labels": {"types":["object"],"properties":{"businessResourcesLabel":{"types":["string"],"maxLength":200},"workforceLabel":{"types":["string"],"maxLength":200},"communityGuideLabel":{"types":["string"],"maxLength":200},"jobBoardLabel":{"types":["string"],"maxLength":200}}},
	"content": {"types":["object"],"properties":{"heroTitle":{"types":["string"],"maxLength":200},"heroSubtitle":{"types":["string"],"maxLength":1000},"footerTagline":{"types":["string"],"maxLength":1000},"copyrightText":{"types":["string"],"maxLength":200},"featuredTitle":{"types":["string"],"maxLength":200},"categoriesTitle":{"types":["string"],"maxLength":200},"whyJoinTitle":{"types":["string"],"maxLength":200},"whyJoinText":{"types":["string"],"maxLength":1000},"whyJoinButtonText":{"types":["string"],"maxLength":200},"directoryTitle":{"types":["string"],"maxLength":200},"sidebarTitle":{"types":["string"],"maxLength":200},"sidebarTagline":{"types":["string"],"maxLength":1000},"sidebarButtonText":{"types":["string"],"maxLength":200},"eventsTabLabel":{"types":["string"],"maxLength":200},"communityEventsTabLabel":{"types":["string"],"maxLength":200},"defaultEventsCalendar":{"types":["string"],"enum":["events","community-events","events-list"]},"metaDescription":{"types":["string"],"maxLength":1000},"metaKeywords":{"types":["string"],"maxLength":1000}}},
	"services": {"types":["object"],"properties":{"googleAnalyticsId":{"types":["string"],"maxLength":30},"recaptchaSiteKey":{"types":["string"],"maxLength":100},"emailDomain":{"types":["string"],"maxLength":253}}},
	"features": {"types":["object"],"properties":{"showEvents":{"types":["boolean"]},"showCommunityEvents":{"types":["boolean"]},"showNewMembersFilter":{"types":["boolean"]},"showMembershipLevels":{"types":["boolean"]},"showBanners":{"types":["boolean"]},"showEventFilters":{"types":["boolean"]},"showFeaturedEvent":{"types":["boolean"]},"featuredEventId":{"types":["integer","null","string"],"maxLength":20},"showBusinessShortDescription":{"types":["boolean"]},"showEventAttendeeCountInHeader":{"types":["boolean"]},"memberBadgeDisplay":{"types":["string"],"enum":["level","year"]},"businessDetailLayout":{"types":["string"],"enum":["classic","modern"]},"showMainContact":{"types":["boolean"]}}},
	"membership_levels": {"types":["object"],"properties":{"featured":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"canLinkWebsite":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}}}},
	"featured_businesses": {"types":["object"],"properties":{"strategy":{"types":["string"],"enum":["membership","affiliation","random"]},"count":{"types":["null","number","string"],"maxLength":20},"membershipLevels":{"types":["array"],"maxItems":50,"items":{"types":["string"],"maxLength":200}},"affiliation":{"types":["string"],"maxLength":200},"requireCompleteProfile":{"types":["boolean"]},"showViewAllButton":{"types":["boolean"]}}},
	"category_display": {"types":["object"],"properties":{"count":{"types":["null","number","string"],"maxLength":20},"sortBy":{"types":["string"],"enum":["popularity","alphabetical"]}}},
	"search_page": {"types":["object"],"properties":{"defaultSort":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]},"availableSorts":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["nameAsc","nameDesc","membershipHighToLow","membershipLowToHigh","listingPositionHighToLow","listingPositionLowToHigh","listingPositionHighToLowRandom","listingPositionLowToHighRandom","random"]}},"showSortDropdown":{"types":["boolean"]},"showFilters":{"types":["boolean"]},"availableFilters":{"types":["array"],"maxItems":50,"items":{"types":["string"],"enum":["city","county","zip","affiliation"]}},"membershipHierarchy":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"name":{"types":["string"],"maxLength":200},"rank":{"types":["integer"]}},"required":["name","rank"]}}}},
	"navigation": {"types":["object"],"properties":{"menuItems":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"id":{"types":["string"],"maxLength":200},"label":{"types":["string"],"maxLength":200},"type":{"types":["string"],"enum":["link","dropdown"]},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]},"items":{"types":["array"],"maxItems":50,"items":{"types":["object"],"properties":{"label":{"types":["string"],"maxLength":200},"url":{"types":["string"],"maxLength":2000},"isInternal":{"types":["boolean"]}},"required":["label"]}}},"required":["id","label"]}}}}
}'::jsonb;
$rules$;

/**
  ---------------------------------------------------------------------------
  scheduled_publishes
  ---------------------------------------------------------------------------
 */
create table if not exists public.scheduled_publishes (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	run_at timestamptz not null,
	kind text not null check (kind in ('save', 'restore')),
	changes jsonb not null default '[]'::jsonb
		check (jsonb_typeof(changes) = 'array' and jsonb_array_length(changes) <= 200),
	snapshot jsonb check (snapshot is null or jsonb_typeof(snapshot) = 'object'),
	restore_of bigint,
	summary text not null default '' check (length(summary) <= 300),
	state text not null default 'scheduled'
		check (state in ('scheduled', 'published', 'canceled', 'failed')),
	created_by uuid,
	created_by_email text,
	created_role text check (created_role in ('super_admin', 'admin', 'editor')),
	created_at timestamptz not null default now(),
	finished_at timestamptz,
	canceled_by_email text,
	error text check (length(error) <= 1000),
	publish_id bigint references public.publishes (id) on delete set null,
	constraint scheduled_publishes_kind_shape check (
		(kind = 'save' and snapshot is null and jsonb_array_length(changes) >= 1)
		or (kind = 'restore' and snapshot is not null)
	)
);

comment on table public.scheduled_publishes is 'Changes staff scheduled to go live at a time (''Publish at…''): stored, checked as their author, written and published by the scheduled function when due.';
comment on column public.scheduled_publishes.run_at is 'When it goes live (the scheduled function runs every 5 minutes; times are on a 5-minute mark).';
comment on column public.scheduled_publishes.changes is 'For a save: the writes, each {column, field, value, version, path} as update_chamber_config takes them.';
comment on column public.scheduled_publishes.snapshot is 'For a restore: the configuration row to write back (without slug), copied when it was scheduled.';
comment on column public.scheduled_publishes.restore_of is 'For a restore: the publish whose configuration it restores.';
comment on column public.scheduled_publishes.summary is 'What it changes, for people (the header, History, the build''s title).';
comment on column public.scheduled_publishes.created_role is 'The author''s role for the chamber when they scheduled it; it fires only while they still hold at least that.';
comment on column public.scheduled_publishes.error is 'Why it did not go live (failed).';
comment on column public.scheduled_publishes.publish_id is 'The publish (build) that took it live.';

create index if not exists scheduled_publishes_due_idx on public.scheduled_publishes (tenant_id, run_at)
	where state = 'scheduled';
create index if not exists scheduled_publishes_tenant_id_idx on public.scheduled_publishes (tenant_id, id desc);

alter table public.scheduled_publishes enable row level security;

revoke all on table public.scheduled_publishes from anon, authenticated;
grant select on table public.scheduled_publishes to authenticated;
-- Who, when and the outcome are the database's to fill in; a client states only the change.
grant insert (tenant_id, run_at, kind, changes, snapshot, restore_of, summary)
	on table public.scheduled_publishes to authenticated;
grant all on table public.scheduled_publishes to service_role;

drop policy if exists "Chamber staff can read their chamber's scheduled publishes" on public.scheduled_publishes;
create policy "Chamber staff can read their chamber's scheduled publishes" on public.scheduled_publishes
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

drop policy if exists "Chamber staff can schedule changes of their chamber" on public.scheduled_publishes;
create policy "Chamber staff can schedule changes of their chamber" on public.scheduled_publishes
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  apply_scheduled_change: the writes of a scheduled change
  ---------------------------------------------------------------------------
  With the caller's rights (security invoker): as a staff member when the
  insert trigger tries it, as the owner when the scheduled function fires it.
 */
create or replace function public.apply_scheduled_change(
	p_tenant_id uuid,
	p_kind text,
	p_changes jsonb,
	p_snapshot jsonb
) returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_change jsonb;
begin
	if p_kind = 'save' then
		for v_change in select value from jsonb_array_elements(p_changes) loop
			if jsonb_typeof(v_change) <> 'object' or jsonb_typeof(v_change -> 'version') <> 'number' then
				raise exception 'A scheduled change names its column, value and version' using errcode = '22023';
			end if;
			perform public.update_chamber_config(
				p_tenant_id,
				v_change ->> 'column',
				v_change ->> 'field',
				coalesce(v_change -> 'value', 'null'::jsonb),
				(v_change ->> 'version')::bigint
			);
		end loop;
	elsif p_kind = 'restore' then
		update public.chamber_config c
		set name = r.name,
			city = r.city,
			state = r.state,
			founded_year = r.founded_year,
			colors = r.colors,
			logo = r.logo,
			fonts = r.fonts,
			text_colors = r.text_colors,
			contact = r.contact,
			social = r.social,
			urls = r.urls,
			footer_labels = r.footer_labels,
			content = r.content,
			services = r.services,
			features = r.features,
			membership_levels = r.membership_levels,
			featured_businesses = r.featured_businesses,
			category_display = r.category_display,
			search_page = r.search_page,
			navigation = r.navigation
		from jsonb_populate_record(null::public.chamber_config, p_snapshot) r
		where c.tenant_id = p_tenant_id;
		if not found then
			raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
		end if;
	else
		raise exception 'A scheduled change is a save or a restore, not %', p_kind using errcode = '22023';
	end if;
end;
$$;

comment on function public.apply_scheduled_change is 'Writes a scheduled change (a save''s writes through update_chamber_config, or a restore''s whole configuration) with the caller''s rights.';

/**
  The insert trigger: fills in who and when from the token, never from the
  request, and tries the change as the inserting user, then undoes it.
  Security invoker, so the try is judged as that user.
 */
create or replace function public.scheduled_publishes_check()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_role text;
begin
	new.state := 'scheduled';
	new.created_at := now();
	new.finished_at := null;
	new.canceled_by_email := null;
	new.error := null;
	new.publish_id := null;
	if current_user not in ('anon', 'authenticated') then
		-- The server side (the import, tests) schedules in its own name.
		new.created_by := null;
		new.created_by_email := null;
		new.created_role := coalesce(new.created_role, 'super_admin');
		return new;
	end if;
	v_role := public.tenant_role(new.tenant_id);
	if v_role is null then
		raise exception 'You have no role in this chamber' using errcode = '42501';
	end if;
	if new.run_at <= now() then
		raise exception 'A publish is scheduled for a time still to come' using errcode = '22023';
	end if;
	if new.run_at > now() + interval '1 year' then
		raise exception 'A publish is scheduled at most a year ahead' using errcode = '22023';
	end if;
	new.created_by := auth.uid();
	new.created_by_email := nullif(auth.jwt() ->> 'email', '');
	new.created_role := v_role;
	begin
		perform public.apply_scheduled_change(new.tenant_id, new.kind, new.changes, new.snapshot);
		raise exception 'scheduled change tried' using errcode = 'P0001';
	exception when raise_exception then
		if sqlerrm <> 'scheduled change tried' then
			raise;
		end if;
	end;
	return new;
end;
$$;

comment on function public.scheduled_publishes_check is 'Trigger: a scheduled change gets its author from the token and is tried as that user (then undone), so only changes they may make now are scheduled.';

revoke all on function public.scheduled_publishes_check() from public;

drop trigger if exists scheduled_publishes_check on public.scheduled_publishes;
create trigger scheduled_publishes_check before insert on public.scheduled_publishes
	for each row execute function public.scheduled_publishes_check();

-- Nothing but the functions below changes a scheduled publish once it is stored.
create or replace function public.scheduled_publishes_keep()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
	if (new.tenant_id, new.run_at, new.kind, new.changes, new.snapshot, new.created_by, new.created_role)
		is distinct from
		(old.tenant_id, old.run_at, old.kind, old.changes, old.snapshot, old.created_by, old.created_role) then
		raise exception 'A scheduled change is cancelled and scheduled again, not edited' using errcode = '42501';
	end if;
	return new;
end;
$$;

comment on function public.scheduled_publishes_keep is 'Trigger: what a scheduled publish changes, when and by whom never changes after it was checked.';

drop trigger if exists scheduled_publishes_keep on public.scheduled_publishes;
create trigger scheduled_publishes_keep before update on public.scheduled_publishes
	for each row execute function public.scheduled_publishes_keep();

/** The order of the roles: what a role may do includes what the ones below it may. */
create or replace function public.admin_role_rank(p_role text)
returns integer
language sql
immutable
set search_path = ''
as $$
	select case p_role when 'super_admin' then 3 when 'admin' then 2 when 'editor' then 1 else 0 end;
$$;

comment on function public.admin_role_rank is 'super_admin 3, admin 2, editor 1, anything else 0.';

/**
  ---------------------------------------------------------------------------
  cancel_scheduled_publish: Cancel, in the header and History
  ---------------------------------------------------------------------------
  Its author, or an admin (super_admin) of the chamber; only while it waits.
 */
create or replace function public.cancel_scheduled_publish(p_id bigint)
returns setof public.scheduled_publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_row public.scheduled_publishes;
begin
	select * into v_row from public.scheduled_publishes where id = p_id for update;
	if not found or not public.has_tenant_role(v_row.tenant_id) then
		raise exception 'No such scheduled publish' using errcode = '22023';
	end if;
	if v_row.created_by is distinct from auth.uid()
		and not public.has_tenant_role(v_row.tenant_id, array['super_admin', 'admin']) then
		raise exception 'Only its author or an admin can cancel it' using errcode = '42501';
	end if;
	if v_row.state <> 'scheduled' then
		raise exception 'It is % already', v_row.state using errcode = '22023';
	end if;
	update public.scheduled_publishes
	set state = 'canceled',
		finished_at = now(),
		canceled_by_email = (select u.email from auth.users u where u.id = auth.uid())
	where id = p_id
	returning * into v_row;
	return next v_row;
end;
$$;

comment on function public.cancel_scheduled_publish is 'Cancels a scheduled publish that has not gone live: its author, or an admin of the chamber.';

/**
  ---------------------------------------------------------------------------
  fire_scheduled_publishes: what is due goes live (the scheduled function)
  ---------------------------------------------------------------------------
  Service role. Each due change is applied in the name of its author (the
  request's claims are theirs while it is written, so the audit log and the
  version check see them), in a transaction of its own: one that fails is
  marked failed with the reason and the others still go. p_now is the clock
  (tests inject it); rows taken by a concurrent run are skipped.
 */
create or replace function public.fire_scheduled_publishes(p_tenant_id uuid, p_now timestamptz default null)
returns setof public.scheduled_publishes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
	v_now constant timestamptz := coalesce(p_now, now());
	v_row public.scheduled_publishes;
	v_claims text := current_setting('request.jwt.claims', true);
	v_claim_sub text := current_setting('request.jwt.claim.sub', true);
	v_claim_role text := current_setting('request.jwt.claim.role', true);
	v_claim_email text := current_setting('request.jwt.claim.email', true);
	v_role text;
	v_detail text;
	v_error text;
	v_state text;
begin
	for v_row in
		select * from public.scheduled_publishes s
		where s.tenant_id = p_tenant_id and s.state = 'scheduled' and s.run_at <= v_now
		order by s.run_at, s.id
		for update skip locked
	loop
		begin
			if v_row.created_by is not null then
				perform set_config('request.jwt.claims', jsonb_build_object(
					'sub', v_row.created_by, 'role', 'authenticated', 'email', v_row.created_by_email
				)::text, true);
				perform set_config('request.jwt.claim.sub', '', true);
				perform set_config('request.jwt.claim.role', '', true);
				perform set_config('request.jwt.claim.email', '', true);
				v_role := public.tenant_role(p_tenant_id);
				if public.admin_role_rank(v_role) < public.admin_role_rank(v_row.created_role) then
					raise exception '% no longer has the rights to publish this',
						coalesce(v_row.created_by_email, 'Its author')
						using errcode = '42501';
				end if;
			end if;
			perform public.apply_scheduled_change(p_tenant_id, v_row.kind, v_row.changes, v_row.snapshot);
			v_state := 'published';
			v_error := null;
		exception when others then
			v_state := 'failed';
			if sqlstate = 'PT409' then
				get stacked diagnostics v_detail = pg_exception_detail;
				v_error := format(
					'Not published: %s changed %s after it was scheduled. Schedule it again to publish it over their change.',
					coalesce((
						select string_agg(distinct c ->> 'changedBy', ', ')
						from jsonb_array_elements(v_detail::jsonb -> 'conflicts') c
					), 'someone'),
					coalesce((
						select string_agg(c ->> 'field', ', ')
						from jsonb_array_elements(v_detail::jsonb -> 'conflicts') c
					), 'it')
				);
			else
				v_error := 'Not published: ' || sqlerrm;
			end if;
		end;
		perform set_config('request.jwt.claims', coalesce(v_claims, ''), true);
		perform set_config('request.jwt.claim.sub', coalesce(v_claim_sub, ''), true);
		perform set_config('request.jwt.claim.role', coalesce(v_claim_role, ''), true);
		perform set_config('request.jwt.claim.email', coalesce(v_claim_email, ''), true);
		update public.scheduled_publishes
		set state = v_state, finished_at = v_now, error = left(v_error, 1000)
		where id = v_row.id
		returning * into v_row;
		return next v_row;
	end loop;
end;
$$;

comment on function public.fire_scheduled_publishes is 'Applies a chamber''s scheduled changes that are due (in their authors'' names) and answers them, published or failed. Service role; p_now injects the clock.';

/** The scheduled function records the publish that takes them live. */
create or replace function public.link_scheduled_publishes(p_ids bigint[], p_publish_id bigint)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
	update public.scheduled_publishes set publish_id = p_publish_id where id = any (p_ids);
$$;

comment on function public.link_scheduled_publishes is 'Records the publish that took scheduled changes live.';

revoke all on function public.apply_scheduled_change(uuid, text, jsonb, jsonb) from public;
revoke all on function public.admin_role_rank(text) from public;
revoke all on function public.cancel_scheduled_publish(bigint) from public;
revoke all on function public.fire_scheduled_publishes(uuid, timestamptz) from public;
revoke all on function public.link_scheduled_publishes(bigint[], bigint) from public;
-- The insert trigger tries the change as the inserting user: they run what it calls.
grant execute on function public.apply_scheduled_change(uuid, text, jsonb, jsonb) to authenticated, service_role;
grant execute on function public.admin_role_rank(text) to service_role;
grant execute on function public.cancel_scheduled_publish(bigint) to authenticated, service_role;
grant execute on function public.fire_scheduled_publishes(uuid, timestamptz) to service_role;
grant execute on function public.link_scheduled_publishes(bigint[], bigint) to service_role;
