/**
  ---------------------------------------------------------------------------
  Bootstrap: the extensions and default privileges the project relies on
  ---------------------------------------------------------------------------
  Supabase's own objects (the API roles, auth.uid() and auth.jwt(), the auth
  and storage schemas and their tables) are the platform's: on a hosted
  project Supabase creates them, and no migration here creates or alters
  them. The local stack creates them before the migrations run
  (scripts/stack/platform/), in the shape a hosted project has them.
 */

create extension if not exists pg_trgm;
create extension if not exists btree_gin;

/**
  Supabase grants table privileges to the API roles by default and lets
  row-level security decide; plain Postgres needs the same defaults.
 */
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;
