/**
  ---------------------------------------------------------------------------
  Member imports: files without membership-system ids
  ---------------------------------------------------------------------------
  The member list a small chamber keeps is often a spreadsheet of names,
  phones, e-mails and websites, with no membership system's id. The dry run
  (src/features/members/import/match.ts) matches each row to a business by
  its e-mail, its website's host, then its name (with its city when the file
  has cities) and records what it matched on. A row that may be more than
  one business, or is one only by a similar name, is to confirm: it carries
  its choices (each business with what applying would do to it, and a new
  business) and a person chooses one or skips the row
  (confirm_member_import_row). Nothing is applied while a row is still to
  confirm: the request to apply and the apply itself refuse.

  A business such a file adds is numbered by the chamber ('chamber-1', …;
  the membership system's ids are digits only, so the two never collide),
  when the import is applied; the number stays with the business, so its
  next files find it by that id as well as by the rules.
 */

alter table public.member_import_rows drop constraint if exists member_import_rows_action_check;
alter table public.member_import_rows add constraint member_import_rows_action_check
	check (action in ('add', 'change', 'unchanged', 'missing', 'invalid', 'confirm', 'skipped'));

alter table public.member_import_rows
	add column if not exists matched_on text
		check (matched_on in ('id', 'email', 'website', 'name_city', 'name', 'similar_name')),
	add column if not exists candidates jsonb
		check (candidates is null or (jsonb_typeof(candidates) = 'array' and jsonb_array_length(candidates) between 1 and 6)),
	add column if not exists choice text check (length(choice) <= 40);

alter table public.member_import_rows drop constraint if exists member_import_rows_confirm_has_choices;
alter table public.member_import_rows add constraint member_import_rows_confirm_has_choices
	check (action not in ('confirm', 'skipped') or candidates is not null);

comment on column public.member_import_rows.action is 'add, change, unchanged, missing, invalid; for a file without ids also confirm (a person must choose the business) and skipped (the person left the row out).';
comment on column public.member_import_rows.matched_on is 'What the row matched its business on: id, email, website, name_city, name (a file without ids), or similar_name (a row a person confirmed).';
comment on column public.member_import_rows.candidates is 'A row to confirm: its choices, [{choice, profile_id, weblink_profile_id, name, city, email, website, on, action, base_version, record, changes}]; choice ''new'' adds the row as a new business.';
comment on column public.member_import_rows.choice is 'What the person chose for a row to confirm: a business''s id, ''new'' or ''skip''; null while undecided.';

/** The chamber's own numbering of the businesses files without ids add. */
create table if not exists public.business_numbers (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	last_number bigint not null default 0 check (last_number >= 0)
);

comment on table public.business_numbers is 'The last number a chamber gave a business that a file without membership-system ids added (its id is ''chamber-{number}''); written only by apply_member_import.';

alter table public.business_numbers enable row level security;
revoke all on table public.business_numbers from anon, authenticated;
grant all on table public.business_numbers to service_role;

/**
  A person decides a row to confirm: one of its businesses, 'new' (add it),
  or 'skip'. The row then says what applying will do, as the dry run would
  have for that business; the import's counts follow. A business another row
  of the file already matched cannot be chosen (it would be written twice).
  Judged as the caller: the chamber's admins, while the preview is open.
 */
create or replace function public.confirm_member_import_row(p_import_id uuid, p_row_id bigint, p_choice text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_row public.member_import_rows;
	v_pick jsonb;
	v_other integer;
	v_counts jsonb;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if v_import.state <> 'previewed' then
		raise exception 'This import has no preview to confirm' using errcode = 'PT409';
	end if;
	select * into v_row from public.member_import_rows r
	where r.id = p_row_id and r.import_id = p_import_id and r.candidates is not null;
	if not found then
		raise exception 'No such row to confirm' using errcode = 'PT404';
	end if;
	if p_choice = 'skip' then
		update public.member_import_rows
		set action = 'skipped', choice = 'skip', profile_id = null, weblink_profile_id = null,
			base_version = null, record = null, changes = null, matched_on = null
		where id = p_row_id;
	else
		select c into v_pick from jsonb_array_elements(v_row.candidates) c where c ->> 'choice' = p_choice;
		if v_pick is null then
			raise exception 'Not one of the row''s choices: %', left(coalesce(p_choice, 'null'), 60)
				using errcode = '22023';
		end if;
		if v_pick ->> 'profile_id' is not null then
			select r.row_number into v_other
			from public.member_import_rows r
			where r.import_id = p_import_id and r.id <> p_row_id
				and r.profile_id = (v_pick ->> 'profile_id')::uuid and r.action in ('change', 'unchanged')
			limit 1;
			if found then
				raise exception 'Row % of the file already matches %: choose another business, a new one, or skip this row', v_other, v_pick ->> 'name'
					using errcode = 'PT409';
			end if;
		end if;
		update public.member_import_rows
		set action = v_pick ->> 'action', choice = p_choice,
			profile_id = (v_pick ->> 'profile_id')::uuid,
			weblink_profile_id = v_pick ->> 'weblink_profile_id',
			base_version = (v_pick ->> 'base_version')::integer,
			record = nullif(v_pick -> 'record', 'null'::jsonb),
			changes = nullif(v_pick -> 'changes', 'null'::jsonb),
			matched_on = v_pick ->> 'on'
		where id = p_row_id;
	end if;
	select v_import.counts || jsonb_build_object(
		'added', count(*) filter (where r.action = 'add'),
		'changed', count(*) filter (where r.action = 'change'),
		'unchanged', count(*) filter (where r.action = 'unchanged'),
		'confirm', count(*) filter (where r.action = 'confirm'),
		'skipped', count(*) filter (where r.action = 'skipped'),
		'kept', count(*) filter (
			where r.action in ('change', 'unchanged') and r.changes @> '[{"kept": true}]'::jsonb
		)
	)
	into v_counts
	from public.member_import_rows r
	where r.import_id = p_import_id;
	update public.member_imports set counts = v_counts, updated_at = now() where id = p_import_id;
	return v_counts;
end;
$$;

comment on function public.confirm_member_import_row is 'A chamber admin decides a row to confirm of a previewed import: one of its businesses, a new one (''new'') or ''skip''; answers the import''s counts.';

revoke all on function public.confirm_member_import_row(uuid, bigint, text) from public, anon;
grant execute on function public.confirm_member_import_row(uuid, bigint, text) to authenticated, service_role;

/** The preview's lists: with what each row matched on, and the choices of the rows to confirm. */
drop function if exists public.member_import_preview(uuid, text, integer);
create function public.member_import_preview(
	p_import_id uuid,
	p_kind text,
	p_limit integer default 100
) returns table (
	id bigint,
	row_number integer,
	action text,
	weblink_profile_id text,
	name text,
	changes jsonb,
	errors jsonb,
	matched_on text,
	candidates jsonb,
	choice text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
begin
	select m.tenant_id into v_tenant_id from public.member_imports m where m.id = p_import_id;
	if v_tenant_id is null or not public.may_import_members(v_tenant_id) then
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if p_kind is null or p_kind not in ('add', 'change', 'missing', 'invalid', 'kept', 'confirm') then
		raise exception 'Expected add, change, missing, invalid, kept or confirm' using errcode = '22023';
	end if;
	-- confirm: every row that was to confirm, decided or not (a decision can be changed).
	return query
		select r.id, r.row_number, r.action, r.weblink_profile_id, r.name, r.changes, r.errors,
			r.matched_on,
			(select jsonb_agg(c - 'record' - 'base_version' - 'profile_id') from jsonb_array_elements(r.candidates) c),
			r.choice
		from public.member_import_rows r
		where r.import_id = p_import_id
			and case p_kind
				when 'confirm' then r.candidates is not null
				when 'kept' then r.action = 'unchanged' and r.changes is not null
				else r.action = p_kind
			end
		order by r.row_number, r.id
		limit least(greatest(coalesce(p_limit, 100), 1), 500);
end;
$$;

comment on function public.member_import_preview is 'The first rows of one kind of an import''s dry run, for the chamber''s admins (the panel''s preview lists); confirm lists the rows a person chooses the business of.';

revoke all on function public.member_import_preview(uuid, text, integer) from public, anon;
grant execute on function public.member_import_preview(uuid, text, integer) to authenticated, service_role;

/** The request to apply waits until no row is still to confirm. */
create or replace function public.request_member_import_apply(p_import_id uuid, p_missing text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'PT404';
	end if;
	if p_missing is null or p_missing not in ('keep', 'unpublish') then
		raise exception 'Choose keep or unpublish for members missing from the file' using errcode = '22023';
	end if;
	if v_import.state <> 'previewed' then
		raise exception 'This import has no preview to apply' using errcode = 'PT409';
	end if;
	if coalesce((v_import.counts ->> 'invalid')::integer, 0) > 0 then
		raise exception 'The file has invalid rows: correct them and import it again' using errcode = '22023';
	end if;
	if exists (
		select 1 from public.member_import_rows r where r.import_id = p_import_id and r.action = 'confirm'
	) then
		raise exception 'Some rows are still to confirm: choose a business for each, or skip it, first'
			using errcode = 'PT409';
	end if;
	begin
		update public.member_imports
		set state = 'apply_requested', missing_action = p_missing, updated_at = now(),
			applied_by = auth.uid(), applied_by_email = coalesce(auth.jwt() ->> 'email', auth.role())
		where id = p_import_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = 'PT409';
	end;
end;
$$;

/** The apply refuses a row still to confirm, and numbers the businesses a file without ids adds. */
create or replace function public.apply_member_import(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_tenant public.tenants;
	v_stale text;
	v_written integer := 0;
	v_done integer := 0;
	v_chunk integer := 250;
	v_unpublished integer := 0;
	v_counts jsonb;
	v_new integer;
	v_last bigint;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or v_import.state <> 'applying' then
		raise exception 'This import is not being applied' using errcode = 'PT409';
	end if;
	-- claim_member_import checked the person who asked; a change of role since is refused too.
	v_stale := public.member_import_refusal(v_import);
	if v_stale is not null then
		raise exception '%', v_stale using errcode = '42501';
	end if;
	select * into v_tenant from public.tenants where id = v_import.tenant_id;
	-- The dry run was just written: the queries below plan with its real size.
	analyze public.member_import_rows;

	select coalesce(r.name, r.weblink_profile_id) into v_stale
	from public.member_import_rows r
	left join public.profiles p on p.id = r.profile_id
	where r.import_id = p_import_id and (
		(r.action = 'change' and (p.id is null or p.version <> r.base_version))
		or (r.action = 'add' and exists (
			select 1 from public.profiles x
			where x.tenant_id = v_import.tenant_id and x.weblink_profile_id = r.weblink_profile_id
		))
	)
	limit 1;
	if v_stale is not null then
		raise exception 'The directory changed since the preview (% was changed meanwhile). Nothing was applied: import the file again to see the changes as they are now.', v_stale
			using errcode = 'PT409';
	end if;

	if exists (
		select 1 from public.member_import_rows r where r.import_id = p_import_id and r.action = 'confirm'
	) then
		raise exception 'Some rows are still to confirm: nothing was applied.' using errcode = 'PT409';
	end if;

	-- The businesses a file without ids adds: the chamber's next numbers, in the file's order.
	select count(*) into v_new
	from public.member_import_rows r
	where r.import_id = p_import_id and r.action = 'add' and r.weblink_profile_id is null;
	if v_new > 0 then
		insert into public.business_numbers (tenant_id) values (v_import.tenant_id)
		on conflict (tenant_id) do nothing;
		select greatest(n.last_number, coalesce((
			select max(substring(p.weblink_profile_id from 9)::bigint)
			from public.profiles p
			where p.tenant_id = v_import.tenant_id and p.weblink_profile_id ~ '^chamber-[0-9]{1,18}$'
		), 0))
		into v_last
		from public.business_numbers n where n.tenant_id = v_import.tenant_id
		for update;
		update public.member_import_rows r
		set weblink_profile_id = 'chamber-' || (v_last + x.n),
			record = r.record || jsonb_build_object('weblink_profile_id', 'chamber-' || (v_last + x.n))
		from (
			select r2.id, row_number() over (order by r2.row_number, r2.id) as n
			from public.member_import_rows r2
			where r2.import_id = p_import_id and r2.action = 'add' and r2.weblink_profile_id is null
		) x
		where r.id = x.id;
		update public.business_numbers set last_number = v_last + v_new
		where tenant_id = v_import.tenant_id;
	end if;

	select count(*) into v_written
	from public.member_import_rows r
	where r.import_id = p_import_id and r.action in ('add', 'change');
	-- In chunks that double from 250 up to 2,500: import_tenant analyzes the directory's tables
	-- after each while they are still small next to the chunk, so the planner never joins
	-- thousands of new rows believing the tables empty, and no statement holds more than 2,500
	-- businesses' documents at once.
	while v_done < v_written loop
		drop table if exists pg_temp.import_businesses;
		drop table if exists pg_temp.import_lists;
		perform public.import_tenant(
			jsonb_build_object(
				'tenant', jsonb_build_object('slug', v_tenant.slug, 'name', v_tenant.name),
				'businesses', (
					select jsonb_agg(c.record order by c.row_number)
					from (
						select r.record, r.row_number
						from public.member_import_rows r
						where r.import_id = p_import_id and r.action in ('add', 'change')
						order by r.row_number, r.id
						offset v_done limit v_chunk
					) c
				)
			),
			false
		);
		v_done := v_done + v_chunk;
		v_chunk := least(v_chunk * 2, 2500);
	end loop;
	if v_written > 0 then
		analyze public.profiles;
		analyze public.listings;
	end if;
	if v_import.kind = 'sync' then
		update public.profiles p set updated_by = 'sync'
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action in ('add', 'change')
			and p.tenant_id = v_import.tenant_id and p.weblink_profile_id = r.weblink_profile_id;
	end if;

	if v_import.missing_action = 'unpublish' then
		update public.profiles p
		set published = false, updated_by = case v_import.kind when 'sync' then 'sync' else 'import' end
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action = 'missing' and p.id = r.profile_id and p.published
			and not exists (
				select 1 from public.business_overrides o where o.profile_id = p.id and o.field = 'published'
			);
		get diagnostics v_unpublished = row_count;
	end if;

	v_counts := v_import.counts || jsonb_build_object('unpublished', v_unpublished);
	update public.member_imports
	set state = 'applied', rows_applied = v_written, counts = v_counts, applied_at = now(),
		updated_at = now(), error = null
	where id = p_import_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		v_import.tenant_id, v_import.requested_by, coalesce(v_import.applied_by_email, v_import.requested_by_email),
		coalesce(nullif(auth.role(), ''), 'database'), 'members', v_import.kind, null,
		v_counts || jsonb_build_object('import', p_import_id, 'source', v_import.source)
	);
	return v_counts || jsonb_build_object('written', v_written);
end;
$$;
