/**
  ---------------------------------------------------------------------------
  Bootstrap: what Supabase provides, created only where it is missing
  ---------------------------------------------------------------------------
  On hosted Supabase every object below already exists and each block is a
  no-op, so the same migrations run on Supabase, on plain Postgres and on
  PGlite (the embedded default).
 */

/**
  ---------------------------------------------------------------------------
  Roles
  ---------------------------------------------------------------------------
  anon and authenticated are what PostgREST switches to for a request;
  service_role bypasses row-level security for the build and the import;
  authenticator is the login PostgREST connects as.
 */
do $$
begin
	if not exists (select 1 from pg_roles where rolname = 'anon') then
		create role anon nologin noinherit;
	end if;
	if not exists (select 1 from pg_roles where rolname = 'authenticated') then
		create role authenticated nologin noinherit;
	end if;
	if not exists (select 1 from pg_roles where rolname = 'service_role') then
		create role service_role nologin noinherit bypassrls;
	end if;
	if not exists (select 1 from pg_roles where rolname = 'authenticator') then
		-- The password only matters on a real Postgres; the local stack connects over loopback.
		create role authenticator login noinherit password 'authenticator';
	end if;
end
$$;

grant anon, authenticated, service_role to authenticator;

/**
  ---------------------------------------------------------------------------
  auth schema: the claims PostgREST puts in request.jwt.claims
  ---------------------------------------------------------------------------
 */
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

do $$
begin
	if not exists (
		select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
		where n.nspname = 'auth' and p.proname = 'jwt'
	) then
		create function auth.jwt() returns jsonb
		language sql stable
		as $fn$
			select coalesce(
				nullif(current_setting('request.jwt.claim', true), ''),
				nullif(current_setting('request.jwt.claims', true), '')
			)::jsonb
		$fn$;
	end if;
	if not exists (
		select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
		where n.nspname = 'auth' and p.proname = 'uid'
	) then
		create function auth.uid() returns uuid
		language sql stable
		as $fn$
			select nullif(
				coalesce(
					current_setting('request.jwt.claim.sub', true),
					(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
				),
				''
			)::uuid
		$fn$;
	end if;
	if not exists (
		select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
		where n.nspname = 'auth' and p.proname = 'role'
	) then
		create function auth.role() returns text
		language sql stable
		as $fn$
			select coalesce(
				current_setting('request.jwt.claim.role', true),
				(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
			)::text
		$fn$;
	end if;
end
$$;

/**
  ---------------------------------------------------------------------------
  auth.users: the identity store
  ---------------------------------------------------------------------------
  Supabase's auth service owns this table. Locally the stack's auth endpoints
  (scripts/stack/auth.ts) read and write the same columns, with argon2 hashes.
 */
create table if not exists auth.users (
	id uuid primary key default gen_random_uuid(),
	email text unique,
	encrypted_password text,
	email_confirmed_at timestamptz,
	last_sign_in_at timestamptz,
	raw_app_meta_data jsonb default '{}'::jsonb,
	raw_user_meta_data jsonb default '{}'::jsonb,
	created_at timestamptz default now(),
	updated_at timestamptz default now()
);

/**
  ---------------------------------------------------------------------------
  Extensions and default privileges
  ---------------------------------------------------------------------------
  Supabase grants table privileges to the API roles by default and lets
  row-level security decide; plain Postgres needs the same defaults.
 */
create extension if not exists pg_trgm;
create extension if not exists btree_gin;

grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;
