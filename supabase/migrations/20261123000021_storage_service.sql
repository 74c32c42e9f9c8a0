/**
  ---------------------------------------------------------------------------
  Storage: buckets and objects, created only where they are missing
  ---------------------------------------------------------------------------
  On a hosted Supabase project the storage service owns the storage schema
  and these exist already; each block is skipped there. Locally the stack's
  Storage-compatible file service (scripts/stack/storage/) keeps the files
  under {CHAMBER_DATA_DIR}/storage and their rows here, with the columns and
  the helper function Supabase's storage schema has, so that policies written
  for Supabase (e.g. on (storage.foldername(name))[1]) work unchanged. As on
  Supabase, access to objects is decided by row-level security on
  storage.objects, evaluated with the caller's token.
 */

do $$
begin
	if to_regnamespace('storage') is null then
		create schema storage;
		grant usage on schema storage to anon, authenticated, service_role;
	end if;

	if to_regclass('storage.buckets') is null then
		create table storage.buckets (
			id text primary key,
			name text not null unique,
			owner uuid,
			public boolean not null default false,
			file_size_limit bigint,
			allowed_mime_types text[],
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now()
		);
		alter table storage.buckets enable row level security;
		grant all on table storage.buckets to service_role;
		grant select on table storage.buckets to anon, authenticated;
	end if;

	if to_regclass('storage.objects') is null then
		create table storage.objects (
			id uuid primary key default gen_random_uuid(),
			bucket_id text not null references storage.buckets (id),
			name text not null,
			owner uuid,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			last_accessed_at timestamptz not null default now(),
			metadata jsonb,
			path_tokens text[] generated always as (string_to_array(name, '/')) stored,
			version text,
			unique (bucket_id, name)
		);
		alter table storage.objects enable row level security;
		-- As on Supabase: the API roles may try anything; policies decide.
		grant all on table storage.objects to anon, authenticated, service_role;
	end if;

	if to_regprocedure('storage.foldername(text)') is null then
		create function storage.foldername(name text) returns text[]
		language sql immutable
		as $fn$
			select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1]
		$fn$;
		grant execute on function storage.foldername(text) to anon, authenticated, service_role;
	end if;

	if to_regprocedure('storage.filename(text)') is null then
		create function storage.filename(name text) returns text
		language sql immutable
		as $fn$
			select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
		$fn$;
		grant execute on function storage.filename(text) to anon, authenticated, service_role;
	end if;
end
$$;
