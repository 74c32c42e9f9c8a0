/**
  ---------------------------------------------------------------------------
  Supabase's API roles, created only where they are missing
  ---------------------------------------------------------------------------
  anon and authenticated are what PostgREST switches to for a request;
  service_role bypasses row-level security for the build and the import;
  authenticator is the login PostgREST connects as on Supabase. On a server
  that is not Supabase it is created without login: PostgREST connects with
  the database URL's own user there, unless POSTGREST_DATABASE_URL names one.
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
		create role authenticator nologin noinherit;
	end if;
end
$$;

grant anon, authenticated, service_role to authenticator;

do $$
begin
	if to_regnamespace('extensions') is null then
		create schema extensions;
	end if;
end
$$;
grant usage on schema extensions to anon, authenticated, service_role;
