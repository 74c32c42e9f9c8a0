/**
  ---------------------------------------------------------------------------
  Member imports and the sync from the membership system
  ---------------------------------------------------------------------------
  A chamber's admins bring member data in from a file (CSV, XLSX or the
  tenant file's JSON) or from the membership system (the scheduled sync).
  Either is a job (member_imports) that a background function works through:
  it reads the file, maps its columns to the business fields, validates every
  row with the tenant file's schema and compares it with the directory (the
  dry run, one member_import_rows row per business). Nothing is written to
  the directory until a person (or the scheduled sync) asks to apply the dry
  run; apply_member_import then writes exactly what the dry run showed, in one
  transaction, through import_tenant, which leaves fields staff changed here
  (business_overrides) as they are.

  Files are uploaded by the browser with the user's token to the private
  imports bucket, under a folder named by the chamber's id: Netlify functions
  take at most 6 MB per request, a 50,000-member export is more.
 */

/**
  ---------------------------------------------------------------------------
  The fields a column can fill
  ---------------------------------------------------------------------------
  The business fields of the tenant file that a table's column can hold, plus
  the parts of lists a spreadsheet has one column for: the primary listing's
  texts and one link per social network. The same list is MAPPING_TARGETS in
  src/features/members/import/fields.ts (a test compares them).
 */
create or replace function public.member_import_targets()
returns text[]
language sql
immutable
set search_path = ''
as $$
	select array[
		'weblink_profile_id', 'report_name', 'address1', 'address2', 'city', 'county', 'state', 'zip',
		'work_phone', 'website', 'email', 'featured', 'categories', 'membership_level_name',
		'membership_rank', 'member_since_date', 'main_related_profile_name', 'logo_url',
		'listing_position', 'is_member', 'published', 'description', 'short_description', 'keywords',
		'facebook', 'twitter', 'linkedin', 'instagram', 'youtube'
	];
$$;

comment on function public.member_import_targets is 'The business fields an imported column can be mapped to (the same list as MAPPING_TARGETS in the app).';

/**
  ---------------------------------------------------------------------------
  Column mappings a chamber saved
  ---------------------------------------------------------------------------
 */
create table if not exists public.member_import_mappings (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	header text not null check (length(header) between 1 and 200),
	field text not null check (field = '' or field = any (public.member_import_targets())),
	updated_at timestamptz not null default now(),
	updated_by text,
	primary key (tenant_id, header)
);

comment on table public.member_import_mappings is 'How a chamber maps a column heading its files have and the built-in mappings do not know: the next file with that heading is mapped the same way.';
comment on column public.member_import_mappings.header is 'The heading, normalised: lower case, letters and digits only.';
comment on column public.member_import_mappings.field is 'The business field it fills (member_import_targets), or empty: the column is ignored.';

alter table public.member_import_mappings enable row level security;
revoke all on table public.member_import_mappings from anon, authenticated;
grant select on table public.member_import_mappings to authenticated;
grant all on table public.member_import_mappings to service_role;

drop policy if exists "Chamber admins can read their chamber's column mappings" on public.member_import_mappings;
create policy "Chamber admins can read their chamber's column mappings" on public.member_import_mappings
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

/**
  ---------------------------------------------------------------------------
  Import jobs: one file or one sync, with its progress and dry run
  ---------------------------------------------------------------------------
 */
create table if not exists public.member_imports (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	kind text not null check (kind in ('file', 'sync')),
	source text not null check (length(source) between 1 and 300),
	storage_path text check (length(storage_path) <= 500),
	state text not null default 'queued' check (state in (
		'queued', 'reading', 'needs_mapping', 'validating', 'previewed', 'apply_requested',
		'applying', 'applied', 'failed', 'discarded'
	)),
	auto_apply boolean not null default false,
	headers jsonb check (headers is null or jsonb_typeof(headers) = 'array'),
	mapping jsonb not null default '{}'::jsonb check (jsonb_typeof(mapping) = 'object'),
	rows_total integer check (rows_total >= 0),
	rows_read integer not null default 0 check (rows_read >= 0),
	rows_validated integer not null default 0 check (rows_validated >= 0),
	rows_applied integer not null default 0 check (rows_applied >= 0),
	counts jsonb not null default '{}'::jsonb check (jsonb_typeof(counts) = 'object'),
	missing_action text check (missing_action in ('keep', 'unpublish')),
	error text check (length(error) <= 2000),
	requested_by uuid,
	requested_by_email text,
	applied_by_email text,
	created_at timestamptz not null default now(),
	updated_at timestamptz not null default now(),
	previewed_at timestamptz,
	applied_at timestamptz,
	publish_id bigint
);

comment on table public.member_imports is 'One import of member data (a file, or a sync from the membership system): its state, progress and dry-run counts. Written by the import functions; the 20 newest of each kind are kept per chamber.';
comment on column public.member_imports.source is 'The file''s name, or the membership system a sync read.';
comment on column public.member_imports.storage_path is 'The uploaded file in the imports bucket ({tenant id}/…); removed once the import is applied or given up.';
comment on column public.member_imports.state is 'queued → reading → (needs_mapping) → validating → previewed → apply_requested → applying → applied; or failed, or discarded by a person.';
comment on column public.member_imports.auto_apply is 'The scheduled sync applies its own dry run when it found no invalid rows.';
comment on column public.member_imports.headers is 'For the mapping screen: the file''s headings the mappings do not know, with sample values.';
comment on column public.member_imports.mapping is 'Heading (as in the file) → business field, as this import used it.';
comment on column public.member_imports.counts is 'The dry run''s counts: added, changed, unchanged, missing, invalid, kept; after applying also unpublished.';
comment on column public.member_imports.missing_action is 'What the person chose for members missing from the file: keep them, or unpublish them.';

create index if not exists member_imports_tenant_created_idx on public.member_imports (tenant_id, kind, created_at desc);
-- One import at a time per chamber is working (a second one would race the first for the same rows).
create unique index if not exists member_imports_one_working_per_tenant on public.member_imports (tenant_id)
	where state in ('queued', 'reading', 'validating', 'apply_requested', 'applying');

alter table public.member_imports enable row level security;
revoke all on table public.member_imports from anon, authenticated;
grant select on table public.member_imports to authenticated;
grant all on table public.member_imports to service_role;

drop policy if exists "Chamber admins can read their chamber's imports" on public.member_imports;
create policy "Chamber admins can read their chamber's imports" on public.member_imports
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

/** The dry run: what applying would do to each business, one row per business. */
create table if not exists public.member_import_rows (
	id bigint generated always as identity primary key,
	import_id uuid not null references public.member_imports (id) on delete cascade,
	tenant_id uuid not null,
	row_number integer check (row_number >= 1),
	action text not null check (action in ('add', 'change', 'unchanged', 'missing', 'invalid')),
	profile_id uuid,
	weblink_profile_id text check (length(weblink_profile_id) <= 100),
	name text check (length(name) <= 500),
	base_version integer,
	record jsonb check (record is null or jsonb_typeof(record) = 'object'),
	changes jsonb check (changes is null or jsonb_typeof(changes) = 'array'),
	errors jsonb check (errors is null or jsonb_typeof(errors) = 'array')
);

comment on table public.member_import_rows is 'The dry run of an import, one row per business: added, changed (field by field), unchanged, missing from the file, or invalid (with row, column and message).';
comment on column public.member_import_rows.row_number is 'The row in the file as a spreadsheet numbers it (the headings are row 1); null for a business missing from the file.';
comment on column public.member_import_rows.base_version is 'The business''s version the dry run compared with: applying refuses when it moved since.';
comment on column public.member_import_rows.record is 'The business to write, in the tenant file''s shape (added and changed rows).';
comment on column public.member_import_rows.changes is '[{field, before, after, kept}]: kept is true where staff changed the field here and the import leaves it.';
comment on column public.member_import_rows.errors is '[{column, field, message}] of an invalid row.';

create index if not exists member_import_rows_import_action_idx on public.member_import_rows (import_id, action, row_number);

alter table public.member_import_rows enable row level security;
revoke all on table public.member_import_rows from anon, authenticated;
grant select on table public.member_import_rows to authenticated;
grant all on table public.member_import_rows to service_role;

drop policy if exists "Chamber admins can read their chamber's import previews" on public.member_import_rows;
create policy "Chamber admins can read their chamber's import previews" on public.member_import_rows
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

/** The 20 newest imports of each kind are kept per chamber (the panel's report of sync runs). */
create or replace function public.member_imports_keep_newest()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	delete from public.member_imports m
	where m.tenant_id = new.tenant_id and m.kind = new.kind
		and m.state not in ('queued', 'reading', 'validating', 'apply_requested', 'applying')
		and m.id not in (
			select k.id from public.member_imports k
			where k.tenant_id = new.tenant_id and k.kind = new.kind
			order by k.created_at desc
			limit 20
		);
	return null;
end;
$$;

comment on function public.member_imports_keep_newest is 'Trigger: keeps the 20 newest imports of each kind per chamber.';

drop trigger if exists member_imports_keep_newest_after_insert on public.member_imports;
create trigger member_imports_keep_newest_after_insert after insert on public.member_imports
	for each row execute function public.member_imports_keep_newest();

/**
  ---------------------------------------------------------------------------
  The imports bucket: private, written by the chamber's admins
  ---------------------------------------------------------------------------
  Objects are named {tenant id}/{random}-{file name}. Admins upload into their
  chamber's folder with their own token; the import functions read them with
  the service role. Nobody else may read them: a member export holds private
  e-mail addresses and phone numbers.
 */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
	'imports',
	'imports',
	false,
	52428800,
	array[
		'text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel',
		'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json',
		'application/octet-stream'
	]
)
on conflict (id) do nothing;

create or replace function public.may_upload_import(p_bucket_id text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select p_bucket_id = 'imports' and exists (
		select 1
		from public.tenants t
		where t.id::text = (storage.foldername(p_name))[1]
			and public.has_tenant_role(t.id, array['super_admin', 'admin'])
	);
$$;

comment on function public.may_upload_import is 'True for an object of the imports bucket in the folder ({tenant id}/…) of a chamber the signed-in user is an admin or super_admin of.';

revoke all on function public.may_upload_import(text, text) from public, anon;
grant execute on function public.may_upload_import(text, text) to authenticated, service_role;

drop policy if exists "Chamber admins can upload their chamber's imports" on storage.objects;
create policy "Chamber admins can upload their chamber's imports" on storage.objects
	for insert to authenticated
	with check (public.may_upload_import(bucket_id, name));

/**
  ---------------------------------------------------------------------------
  Starting, mapping, applying and discarding: as the user
  ---------------------------------------------------------------------------
 */

/** The caller may run imports for the chamber: its admins, super_admins, or the server side. */
create or replace function public.may_import_members(p_tenant_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select coalesce(nullif(auth.role(), ''), 'database') in ('service_role', 'database')
		or public.has_tenant_role(p_tenant_id, array['super_admin', 'admin']);
$$;

comment on function public.may_import_members is 'True for the chamber''s admins and super_admins (imports change every field of a business), and the server side.';

/**
  A new import (queued for the background function). A preview still open for
  the chamber is discarded: it was made against the directory as it was.
 */
create or replace function public.create_member_import(
	p_tenant_id uuid,
	p_kind text,
	p_source text,
	p_storage_path text default null,
	p_auto_apply boolean default false
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_id uuid;
	v_uid uuid := auth.uid();
begin
	if not public.may_import_members(p_tenant_id) then
		raise exception 'Only the chamber''s admins can import members' using errcode = '42501';
	end if;
	if p_kind = 'file' and (p_storage_path is null or (storage.foldername(p_storage_path))[1] is distinct from p_tenant_id::text) then
		raise exception 'The file must be uploaded to the chamber''s folder of the imports bucket' using errcode = '22023';
	end if;
	if p_auto_apply and auth.uid() is not null then
		raise exception 'Only the scheduled sync applies without a person' using errcode = '42501';
	end if;
	update public.member_imports
	set state = 'discarded', updated_at = now()
	where tenant_id = p_tenant_id and state in ('needs_mapping', 'previewed');
	-- A background run that died (a crash, a deploy) would hold the chamber's imports forever.
	update public.member_imports
	set state = 'failed', updated_at = now(),
		error = 'The import stopped without finishing (nothing was applied). Please start it again.'
	where tenant_id = p_tenant_id
		and state in ('queued', 'reading', 'validating', 'apply_requested', 'applying')
		and updated_at < now() - interval '15 minutes';
	begin
		insert into public.member_imports (
			tenant_id, kind, source, storage_path, auto_apply, requested_by, requested_by_email
		)
		values (
			p_tenant_id, p_kind, left(coalesce(nullif(trim(p_source), ''), p_kind), 300), p_storage_path,
			p_auto_apply, v_uid, (select u.email from auth.users u where u.id = v_uid)
		)
		returning id into v_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = '55006';
	end;
	return v_id;
end;
$$;

comment on function public.create_member_import is 'Queues an import of a file in the imports bucket (or a sync) for a chamber, as its admin (or the server side for the scheduled sync).';

/** The person's mapping of unknown headings: saved for the chamber, and the import goes on. */
create or replace function public.submit_member_import_mapping(p_import_id uuid, p_mapping jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_header text;
	v_field text;
	v_actor text := coalesce(auth.jwt() ->> 'email', auth.role());
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or not public.may_import_members(v_import.tenant_id) then
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if v_import.state <> 'needs_mapping' then
		raise exception 'This import is not waiting for its columns to be mapped' using errcode = '55000';
	end if;
	if jsonb_typeof(p_mapping) is distinct from 'object' then
		raise exception 'Expected the headings and the fields they fill' using errcode = '22023';
	end if;
	for v_header, v_field in select key, value #>> '{}' from jsonb_each(p_mapping) loop
		if v_field is null or not (v_field = '' or v_field = any (public.member_import_targets())) then
			raise exception 'Not a field a column can fill: %', v_field using errcode = '22023';
		end if;
		if length(v_header) not between 1 and 200 then
			raise exception 'A heading must be 1 to 200 characters' using errcode = '22023';
		end if;
		insert into public.member_import_mappings (tenant_id, header, field, updated_at, updated_by)
		values (
			v_import.tenant_id, left(regexp_replace(lower(v_header), '[^a-z0-9]', '', 'g'), 200),
			v_field, now(), v_actor
		)
		on conflict (tenant_id, header) do update
			set field = excluded.field, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
	end loop;
	delete from public.member_import_mappings where tenant_id = v_import.tenant_id and header = '';
	update public.member_imports
	set mapping = mapping || p_mapping, state = 'queued', headers = null, error = null, updated_at = now()
	where id = p_import_id;
end;
$$;

comment on function public.submit_member_import_mapping is 'A person maps the headings the built-in mappings do not know; saved for the chamber, and the import is queued again.';

/** A person asks to apply a dry run, saying what happens to members missing from the file. */
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
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if p_missing is null or p_missing not in ('keep', 'unpublish') then
		raise exception 'Choose keep or unpublish for members missing from the file' using errcode = '22023';
	end if;
	if v_import.state <> 'previewed' then
		raise exception 'This import has no preview to apply' using errcode = '55000';
	end if;
	if coalesce((v_import.counts ->> 'invalid')::integer, 0) > 0 then
		raise exception 'The file has invalid rows: correct them and import it again' using errcode = '22023';
	end if;
	begin
		update public.member_imports
		set state = 'apply_requested', missing_action = p_missing, updated_at = now(),
			applied_by_email = coalesce(auth.jwt() ->> 'email', auth.role())
		where id = p_import_id;
	exception when unique_violation then
		raise exception 'Another import of this chamber is under way; wait for it to finish'
			using errcode = '55006';
	end;
end;
$$;

comment on function public.request_member_import_apply is 'Queues the apply of a previewed import, with the choice for members missing from the file (keep or unpublish).';

create or replace function public.discard_member_import(p_import_id uuid)
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
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if v_import.state not in ('needs_mapping', 'previewed', 'failed') then
		raise exception 'Only a preview, a mapping or a failed import can be discarded' using errcode = '55000';
	end if;
	update public.member_imports set state = 'discarded', updated_at = now() where id = p_import_id;
end;
$$;

comment on function public.discard_member_import is 'A person gives up a preview (nothing was written to the directory).';

/**
  The preview as the panel lists it: the first rows of one kind (add, change,
  missing, invalid, or kept: unchanged but with fields kept as changed here).
  The role is checked once for the import, not per row as the table's policy
  would (which made a 60,000-row preview take seconds per list).
 */
create or replace function public.member_import_preview(
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
	errors jsonb
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
		raise exception 'No such import' using errcode = 'P0002';
	end if;
	if p_kind is null or p_kind not in ('add', 'change', 'missing', 'invalid', 'kept') then
		raise exception 'Expected add, change, missing, invalid or kept' using errcode = '22023';
	end if;
	return query
		select r.id, r.row_number, r.action, r.weblink_profile_id, r.name, r.changes, r.errors
		from public.member_import_rows r
		where r.import_id = p_import_id
			and r.action = case p_kind when 'kept' then 'unchanged' else p_kind end
			and (p_kind <> 'kept' or r.changes is not null)
		order by r.row_number, r.id
		limit least(greatest(coalesce(p_limit, 100), 1), 500);
end;
$$;

comment on function public.member_import_preview is 'The first rows of one kind of an import''s dry run, for the chamber''s admins (the panel''s preview lists).';

/**
  ---------------------------------------------------------------------------
  The background function's side (service role)
  ---------------------------------------------------------------------------
 */

/** Takes a queued import (to read) or an apply request (to apply); null when another took it. */
create or replace function public.claim_member_import(p_import_id uuid)
returns setof public.member_imports
language sql
security definer
set search_path = ''
as $$
	update public.member_imports
	set state = case state when 'queued' then 'reading' else 'applying' end, updated_at = now()
	where id = p_import_id and state in ('queued', 'apply_requested')
	returning *;
$$;

/** The businesses of a chamber with these membership-system ids, as the dry run compares them. */
create or replace function public.member_import_documents(p_tenant_id uuid, p_weblink_ids text[])
returns table (
	id uuid,
	weblink_profile_id text,
	version integer,
	removed boolean,
	document jsonb,
	overrides text[]
)
language sql
stable
security definer
set search_path = ''
as $$
	select p.id, p.weblink_profile_id, p.version, p.removed_at is not null,
		public.business_document(p.id),
		coalesce(
			(select array_agg(o.field order by o.field) from public.business_overrides o where o.profile_id = p.id),
			'{}'
		)
	from public.profiles p
	where p.tenant_id = p_tenant_id and p.weblink_profile_id = any (p_weblink_ids);
$$;

comment on function public.member_import_documents is 'The businesses a batch of imported rows names (by membership-system id), in the tenant file''s shape, with their version and the fields staff changed here.';

/**
  Writes a dry run: its added and changed businesses through import_tenant
  (fields staff changed here keep their value, removed businesses stay
  removed), and unpublishes the members missing from the file when that was
  chosen. All or nothing: a business that changed since the dry run refuses
  the whole apply.
 */
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
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or v_import.state <> 'applying' then
		raise exception 'This import is not being applied' using errcode = '55000';
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

	select count(*) into v_written
	from public.member_import_rows r
	where r.import_id = p_import_id and r.action in ('add', 'change');
	-- In chunks that double from 250 up to 2,500: import_tenant analyzes the directory's tables
	-- after each, so the planner never joins thousands of new rows believing the tables empty,
	-- and the directory's statement triggers (search words, counts), which join their transition
	-- tables without statistics, never see more than 2,500 rows at once. In one call a
	-- 50,000-row file into an empty chamber took over 10 minutes; 5,000 rows took 46 s.
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

comment on function public.apply_member_import is 'Applies an import''s dry run in one transaction (service role): added and changed businesses through import_tenant, members missing from the file unpublished if chosen; refused when a business changed since the dry run.';

revoke all on function public.member_import_targets() from public, anon;
revoke all on function public.member_imports_keep_newest() from public, anon, authenticated;
revoke all on function public.may_import_members(uuid) from public, anon;
revoke all on function public.create_member_import(uuid, text, text, text, boolean) from public, anon;
revoke all on function public.submit_member_import_mapping(uuid, jsonb) from public, anon;
revoke all on function public.request_member_import_apply(uuid, text) from public, anon;
revoke all on function public.discard_member_import(uuid) from public, anon;
revoke all on function public.member_import_preview(uuid, text, integer) from public, anon;
revoke all on function public.claim_member_import(uuid) from public, anon, authenticated;
revoke all on function public.member_import_documents(uuid, text[]) from public, anon, authenticated;
revoke all on function public.apply_member_import(uuid) from public, anon, authenticated;
grant execute on function public.member_import_targets() to authenticated, service_role;
grant execute on function public.may_import_members(uuid) to authenticated, service_role;
grant execute on function public.create_member_import(uuid, text, text, text, boolean) to authenticated, service_role;
grant execute on function public.submit_member_import_mapping(uuid, jsonb) to authenticated, service_role;
grant execute on function public.request_member_import_apply(uuid, text) to authenticated, service_role;
grant execute on function public.discard_member_import(uuid) to authenticated, service_role;
grant execute on function public.member_import_preview(uuid, text, integer) to authenticated, service_role;
grant execute on function public.claim_member_import(uuid) to service_role;
grant execute on function public.member_import_documents(uuid, text[]) to service_role;
grant execute on function public.apply_member_import(uuid) to service_role;
