/**
  ---------------------------------------------------------------------------
  Table privileges: only what PostgREST needs
  ---------------------------------------------------------------------------
  The bootstrap gave anon and authenticated every privilege on every table
  (Supabase's default), TRUNCATE, TRIGGER and REFERENCES included. Row-level
  security decides which rows; privileges decide which commands at all, so a
  missing policy is no longer the only thing between a visitor and a write.

  Each public table and view keeps, per API role, exactly the commands it
  holds today AND a policy lets that role use (views: SELECT only). Nothing is
  widened: a privilege revoked on purpose (cache_versions, publishes) stays
  revoked. Tables created later get nothing by default; their migration grants
  what they need (the common brief asks every migration to).
 */

do $$
declare
	rel record;
	api_role text;
	command text;
	keep text[];
begin
	for rel in
		select c.oid, c.relname, c.relkind
		from pg_class c
		join pg_namespace n on n.oid = c.relnamespace
		where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
	loop
		foreach api_role in array array['anon', 'authenticated'] loop
			keep := array[]::text[];
			foreach command in array array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] loop
				if not has_table_privilege(api_role, rel.oid, command) then
					continue;
				end if;
				if rel.relkind in ('v', 'm') then
					if command = 'SELECT' then
						keep := keep || command;
					end if;
				elsif exists (
					select 1 from pg_policies p
					where p.schemaname = 'public' and p.tablename = rel.relname
						and (p.cmd = 'ALL' or p.cmd = command)
						and (api_role = any (p.roles) or 'public' = any (p.roles))
				) then
					keep := keep || command;
				end if;
			end loop;
			execute format('revoke all on table public.%I from %I', rel.relname, api_role);
			if cardinality(keep) > 0 then
				execute format(
					'grant %s on table public.%I to %I', array_to_string(keep, ', '), rel.relname, api_role
				);
			end if;
		end loop;
	end loop;
end
$$;

-- Revoking a table's privileges revoked anon's column privileges on profiles too (migration
-- 20261123000050): every column but the e-mail address, again.
do $$
declare
	readable text;
begin
	select string_agg(quote_ident(attname), ', ' order by attnum) into readable
	from pg_attribute
	where attrelid = 'public.profiles'::regclass and attnum > 0 and not attisdropped
		and attname <> 'email';
	execute format('grant select (%s) on public.profiles to anon', readable);
end
$$;

-- Sequences: visitors insert nothing; signed-in users' inserts may draw identity values.
revoke all on all sequences in schema public from anon;

-- Later tables and sequences start with nothing for the API roles.
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;

/**
  ---------------------------------------------------------------------------
  Directory reads anon can call: bounded
  ---------------------------------------------------------------------------
  directory_page (security definer) served any p_limit and any query length
  to anyone holding the anon key, and search_businesses and the listing-
  position procedures pass theirs through. The unbounded body is kept under
  another name that only the service role and this wrapper reach; the public
  name caps a page at 100 rows and a query at 200 characters.
 */
alter function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) rename to directory_page_unbounded;

revoke all on function public.directory_page_unbounded(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) from public, anon, authenticated;
grant execute on function public.directory_page_unbounded(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to service_role;

create or replace function public.directory_page(
	p_tenant_id uuid,
	p_search_query text default null,
	p_category text default null,
	p_city text default null,
	p_county text default null,
	p_zip text default null,
	p_affiliation text default null,
	p_new_members_only boolean default false,
	p_sort text default 'nameAsc',
	p_hierarchy jsonb default '[]'::jsonb,
	p_seed double precision default 0.5,
	p_limit integer default 24,
	p_offset integer default 0
) returns table (profile_id uuid, ord integer, total bigint)
language sql
stable
security definer
set search_path = public, pg_temp
rows 24
as $$
	select * from public.directory_page_unbounded(
		p_tenant_id,
		left(p_search_query, 200),
		left(p_category, 200),
		left(p_city, 200),
		left(p_county, 200),
		left(p_zip, 200),
		left(p_affiliation, 200),
		p_new_members_only,
		p_sort,
		p_hierarchy,
		p_seed,
		least(greatest(coalesce(p_limit, 24), 0), 100),
		least(greatest(coalesce(p_offset, 0), 0), 1000000)
	);
$$;

comment on function public.directory_page is 'Ids of one page (at most 100) of matching businesses in one of the nine directory sorts, with their place and the total of matches; queries and filters cut at 200 characters.';

revoke all on function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) from public;
grant execute on function public.directory_page(
	uuid, text, text, text, text, text, text, boolean, text, jsonb, double precision, integer, integer
) to anon, authenticated, service_role;
