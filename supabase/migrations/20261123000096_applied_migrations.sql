/**
  ---------------------------------------------------------------------------
  applied_migrations: what `npm run doctor` compares with the checkout
  ---------------------------------------------------------------------------
  The Supabase CLI (and the local stack) record each applied migration in
  supabase_migrations.schema_migrations, a schema the Data API does not
  expose. The service role reads the list through this function.
 */
create or replace function public.applied_migrations()
returns table (version text, name text)
language sql
stable
security definer
set search_path = ''
as $$
	select m.version, m.name from supabase_migrations.schema_migrations m order by m.version;
$$;

comment on function public.applied_migrations is 'The migrations applied to this database (version and name), for npm run doctor. Service role only.';
revoke all on function public.applied_migrations() from public, anon, authenticated;
grant execute on function public.applied_migrations() to service_role;
