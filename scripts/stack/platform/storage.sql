/**
  ---------------------------------------------------------------------------
  Supabase Storage's tables, in the shape a hosted project has them
  ---------------------------------------------------------------------------
  On a Supabase project the storage service owns the storage schema (its
  migrations run as supabase_storage_admin). The local file service
  (scripts/stack/storage/) keeps its files under {CHAMBER_DATA_DIR}/storage and
  their rows in the same tables, created here only where they are missing with
  Storage's columns, defaults, constraints and indexes, and the helper
  functions policies use ((storage.foldername(name))[1] …). As on Supabase,
  access to objects is decided by row-level security on storage.objects,
  evaluated with the caller's token. Tables Storage has and nothing here uses
  (S3 multipart uploads, analytics and vector buckets, migrations) are left out.
  Storage's triggers come too: rows are deleted only by the Storage API, which
  sets storage.allow_delete_query for its own statement (protect_delete), so a
  hand-written delete fails here as on a hosted project.
 */

do $$
begin
	if not exists (select 1 from pg_roles where rolname = 'supabase_storage_admin') then
		create role supabase_storage_admin nologin noinherit createrole;
	end if;
	if to_regnamespace('storage') is null then
		create schema storage authorization supabase_storage_admin;
	end if;
end
$$;

grant usage on schema storage to anon, authenticated, service_role, supabase_storage_admin;
grant create on schema storage to supabase_storage_admin;

do $$
begin
	if to_regtype('storage.buckettype') is null then
		create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
		alter type storage.buckettype owner to supabase_storage_admin;
	end if;

	if to_regclass('storage.buckets') is null then
		create table storage.buckets (
			id text not null,
			name text not null,
			owner uuid,
			created_at timestamp with time zone default now(),
			updated_at timestamp with time zone default now(),
			public boolean default false,
			avif_autodetection boolean default false,
			file_size_limit bigint,
			allowed_mime_types text[],
			owner_id text,
			type storage.buckettype default 'STANDARD'::storage.buckettype not null,
			versioning_status text default 'DISABLED'::text not null,
			constraint buckets_pkey primary key (id),
			constraint buckets_versioning_dark_check check (versioning_status = 'DISABLED'::text),
			constraint buckets_versioning_standard_only_check check (type = 'STANDARD'::storage.buckettype or versioning_status = 'DISABLED'::text),
			constraint buckets_versioning_status_check check (versioning_status = any (array['DISABLED'::text, 'ENABLED'::text, 'SUSPENDED'::text]))
		);
		comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';
		create unique index bname on storage.buckets (name);
		alter table storage.buckets enable row level security;
		alter table storage.buckets owner to supabase_storage_admin;
		grant all on table storage.buckets to anon, authenticated, service_role;
	end if;

	if to_regclass('storage.objects') is null then
		create table storage.objects (
			id uuid default gen_random_uuid() not null,
			bucket_id text,
			name text,
			owner uuid,
			created_at timestamp with time zone default now(),
			updated_at timestamp with time zone default now(),
			last_accessed_at timestamp with time zone default now(),
			metadata jsonb,
			path_tokens text[] generated always as (string_to_array(name, '/'::text)) stored,
			version text,
			owner_id text,
			user_metadata jsonb,
			archived_at timestamp with time zone,
			is_delete_marker boolean default false not null,
			is_versioned boolean default false not null,
			constraint objects_pkey primary key (id),
			constraint "objects_bucketId_fkey" foreign key (bucket_id) references storage.buckets (id)
		);
		comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';
		create unique index bucketid_objname on storage.objects (bucket_id, name);
		create index idx_objects_bucket_id_name on storage.objects (bucket_id, name collate "C");
		create index idx_objects_bucket_id_name_lower on storage.objects (bucket_id, lower(name) collate "C");
		create index name_prefix_search on storage.objects (name text_pattern_ops);
		alter table storage.objects enable row level security;
		alter table storage.objects owner to supabase_storage_admin;
		-- As on Supabase: the API roles may try anything; policies decide.
		grant all on table storage.objects to anon, authenticated, service_role;
	end if;

	if to_regprocedure('storage.foldername(text)') is null then
		create function storage.foldername(name text) returns text[]
		language plpgsql immutable
		as $fn$
		declare
			_parts text[];
		begin
			select string_to_array(name, '/') into _parts;
			return _parts[1 : array_length(_parts, 1) - 1];
		end
		$fn$;
		alter function storage.foldername(text) owner to supabase_storage_admin;
	end if;
	if to_regprocedure('storage.filename(text)') is null then
		create function storage.filename(name text) returns text
		language plpgsql immutable
		as $fn$
		declare
			_parts text[];
		begin
			select string_to_array(name, '/') into _parts;
			return _parts[array_length(_parts, 1)];
		end
		$fn$;
		alter function storage.filename(text) owner to supabase_storage_admin;
	end if;
	if to_regprocedure('storage.extension(text)') is null then
		create function storage.extension(name text) returns text
		language plpgsql immutable
		as $fn$
		declare
			_parts text[];
			_filename text;
		begin
			select string_to_array(name, '/') into _parts;
			select _parts[array_length(_parts, 1)] into _filename;
			return reverse(split_part(reverse(_filename), '.', 1));
		end
		$fn$;
		alter function storage.extension(text) owner to supabase_storage_admin;
	end if;

	if to_regprocedure('storage.protect_delete()') is null then
		create function storage.protect_delete() returns trigger
		language plpgsql
		as $fn$
		begin
			if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
				raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
					using hint = 'This prevents accidental data loss from orphaned objects.',
						errcode = '42501';
			end if;
			return null;
		end;
		$fn$;
		alter function storage.protect_delete() owner to supabase_storage_admin;
		create trigger protect_buckets_delete before delete on storage.buckets
			for each statement execute function storage.protect_delete();
		create trigger protect_objects_delete before delete on storage.objects
			for each statement execute function storage.protect_delete();
	end if;
	if to_regprocedure('storage.update_updated_at_column()') is null then
		create function storage.update_updated_at_column() returns trigger
		language plpgsql
		as $fn$
		begin
			new.updated_at = now();
			return new;
		end;
		$fn$;
		alter function storage.update_updated_at_column() owner to supabase_storage_admin;
		create trigger update_objects_updated_at before update on storage.objects
			for each row execute function storage.update_updated_at_column();
	end if;
	if to_regprocedure('storage.enforce_bucket_name_length()') is null then
		create function storage.enforce_bucket_name_length() returns trigger
		language plpgsql
		as $fn$
		begin
			if length(new.name) > 100 then
				raise exception 'bucket name "%" is too long (% characters). Max is 100.', new.name, length(new.name);
			end if;
			return new;
		end;
		$fn$;
		alter function storage.enforce_bucket_name_length() owner to supabase_storage_admin;
		create trigger enforce_bucket_name_length_trigger before insert or update of name on storage.buckets
			for each row execute function storage.enforce_bucket_name_length();
	end if;
end
$$;
