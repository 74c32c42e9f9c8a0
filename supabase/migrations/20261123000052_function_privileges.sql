/**
  ---------------------------------------------------------------------------
  Function privileges: only what PostgREST's callers need
  ---------------------------------------------------------------------------
  Postgres lets PUBLIC execute every new function, and PostgREST offers every
  function in an exposed schema that the caller may execute as
  /rest/v1/rpc/<name>. So anyone holding the anon key could call helpers
  never meant as an API: security-definer ones run with the owner's rights
  (the search vocabulary, the tenant-role check), invoker ones at least cost
  work. Migration 20261123000051 did this for tables; this does it for
  functions.

  Every function of schema public starts from nothing here; the service role
  keeps all of them; anon and authenticated get back exactly the ones below.
  What a function called by an API role calls in turn must be executable by
  that role too when the caller is SECURITY INVOKER, and so must a function
  in a policy that applies to the role (policies run as the querying role).
  Trigger functions need no EXECUTE to fire, so they get none.

  Functions of migrations numbered after this one (update_chamber_config,
  get_membership_levels, may_manage_logo, set_chamber_logo) grant their own,
  as every migration must from now on: see the default privileges at the end.
 */

do $$
declare
	fn regprocedure;
begin
	for fn in
		select p.oid::regprocedure
		from pg_proc p
		join pg_namespace n on n.oid = p.pronamespace
		where n.nspname = 'public'
			-- pg_trgm's and btree_gin's functions belong to their extensions, not to us.
			and not exists (
				select 1 from pg_depend d
				where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
			)
	loop
		execute format('revoke all on function %s from public, anon, authenticated', fn);
		execute format('grant execute on function %s to service_role', fn);
	end loop;
end
$$;

/**
  ---------------------------------------------------------------------------
  What visitors call (anon, and signed-in users on the same pages)
  ---------------------------------------------------------------------------
  The directory reads and the site's own calls
  (src/features/directory/directory.server.ts), plus what these reach as
  invoker functions: get_filter_options → matching_profiles →
  directory_match_sql and search_tsquery; search_businesses and the
  listing-position procedures → directory_page (the bounded one).
 */
grant execute on function public.search_businesses(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to anon, authenticated;
grant execute on function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to anon, authenticated;
grant execute on function public.count_businesses_with_category(
	uuid, text, text, text, text, text, boolean, text
) to anon, authenticated;
grant execute on function public.get_businesses_with_listing_position(
	uuid, text, text, text, text, text, boolean, text, integer, integer, text
) to anon, authenticated;
grant execute on function public.get_businesses_with_listing_position_randomized(
	uuid, text, text, text, text, text, boolean, text, integer, integer, double precision, text
) to anon, authenticated;
grant execute on function public.get_affiliation_counts(uuid, integer) to anon, authenticated;
grant execute on function public.featured_business_candidates(
	uuid, text, text[], text, boolean, integer
) to anon, authenticated;
grant execute on function public.list_categories(uuid) to anon, authenticated;
grant execute on function public.get_filter_options(uuid, text, text, text) to anon, authenticated;
grant execute on function public.matching_profiles(
	uuid, text, text, text, text, text, boolean, text
) to anon, authenticated;
grant execute on function public.directory_match_sql(
	boolean, text, text, text, text, boolean, text
) to anon, authenticated;
grant execute on function public.search_tsquery(uuid, text) to anon, authenticated;

/**
  ---------------------------------------------------------------------------
  What chamber staff call (authenticated only)
  ---------------------------------------------------------------------------
  has_tenant_role sits in the staff policies of most tables; tenant_role,
  config_section_name and editor_feature_keys in the invoker trigger that
  checks a configuration change (chamber_config_check_role); the rest are
  the admin panel's own calls. No policy that applies to anon calls any of
  them, so visitors get none.
 */
grant execute on function public.has_tenant_role(uuid, text[]) to authenticated;
grant execute on function public.tenant_role(uuid) to authenticated;
grant execute on function public.config_section_name(text) to authenticated;
grant execute on function public.editor_feature_keys() to authenticated;
grant execute on function public.bump_cache_version(uuid, text) to authenticated;
grant execute on function public.expire_publishes(uuid, timestamptz) to authenticated;
grant execute on function public.request_publish(uuid, text) to authenticated;

-- A database that applied migrations 20261123000090 and 20261123000095 before this one (they are
-- numbered after it) gets back what those grant, so both orders end the same.
do $$
declare
	v_grant record;
begin
	for v_grant in
		select * from (values
			('public.update_chamber_config(uuid, text, text, jsonb)', 'authenticated'),
			('public.get_membership_levels(uuid)', 'anon, authenticated'),
			('public.may_manage_logo(text, text)', 'authenticated'),
			('public.set_chamber_logo(uuid, text, text)', 'authenticated'),
			('public.update_chamber_config(uuid, text, text, jsonb, bigint)', 'authenticated'),
			('public.config_section_names()', 'authenticated'),
			('public.config_section_version(uuid, text)', 'authenticated'),
			('public.config_versions(public.chamber_config)', 'authenticated'),
			('public.config_conflicts(uuid, text, text, jsonb, bigint)', 'authenticated'),
			('public.apply_scheduled_change(uuid, text, jsonb, jsonb)', 'authenticated'),
			('public.cancel_scheduled_publish(bigint)', 'authenticated')
		) g(fn, roles)
	loop
		if to_regprocedure(v_grant.fn) is not null then
			execute format('grant execute on function %s to %s', v_grant.fn, v_grant.roles);
		end if;
	end loop;
end
$$;

/**
  ---------------------------------------------------------------------------
  Functions created later: nobody but the service role until granted
  ---------------------------------------------------------------------------
  The PUBLIC default can only be taken away globally (a per-schema REVOKE
  cannot remove a global default); the per-schema lines undo Supabase's own
  defaults for its API roles. Applies to functions this role creates, i.e.
  to every migration.
 */
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges in schema public grant execute on functions to service_role;

