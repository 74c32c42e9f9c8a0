/**
  ---------------------------------------------------------------------------
  Tenant import: users of the importing chamber only
  ---------------------------------------------------------------------------
  A tenant file could move an existing admin of another chamber into the
  importing one by naming their e-mail, and could create super_admins, who
  administer every chamber. So:
  - an import creates and updates users of its own chamber only; an e-mail
    that belongs to another chamber's admin stops the import, naming it;
  - a super_admin is created (or kept) only when the command was given
    --allow-super-admin (payload.allow_super_admin).
  The users themselves are Supabase Auth's: the import
  (src/features/tenants/tenants.server.ts) creates them through its admin API,
  never by writing auth.users, after import_users_check has refused a file
  that breaks the rules above; import_tenant then records them as this
  chamber's admins (import_tenant_users) in the same transaction as the rest
  of the chamber. Banner ids may be the membership system's numbers as well
  as uuids.
 */

create or replace function public.import_users_conflicts(
	p_tenant_id uuid,
	p_users jsonb,
	p_allow_super_admin boolean
) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_conflict text;
begin
	select string_agg(format('%s (%s)', au.email, t.slug), ', ' order by au.email)
	into v_conflict
	from jsonb_array_elements(p_users) u
	join public.admin_users au on au.email = lower(u ->> 'email')
	join public.tenants t on t.id = au.tenant_id
	where au.tenant_id is distinct from p_tenant_id;
	if v_conflict is not null then
		raise exception 'These users belong to another chamber and an import changes only its own chamber''s users: %', v_conflict
			using errcode = '42501';
	end if;

	if not p_allow_super_admin then
		select string_agg(lower(u ->> 'email'), ', ')
		into v_conflict
		from jsonb_array_elements(p_users) u
		where u ->> 'role' = 'super_admin';
		if v_conflict is not null then
			raise exception 'A super_admin administers every chamber; import with --allow-super-admin to create or keep one: %', v_conflict
				using errcode = '42501';
		end if;
	end if;
end;
$$;

comment on function public.import_users_conflicts is 'Raises when a tenant file''s users include another chamber''s admin, or a super_admin without the flag.';
revoke all on function public.import_users_conflicts(uuid, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_users_conflicts(uuid, jsonb, boolean) to service_role;

create or replace function public.import_users_check(
	p_slug text,
	p_users jsonb,
	p_allow_super_admin boolean
) returns table (email text, user_id uuid)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	perform public.import_users_conflicts(
		(select t.id from public.tenants t where t.slug = p_slug), p_users, p_allow_super_admin
	);
	return query
	select au.email, au.user_id
	from public.admin_users au
	join public.tenants t on t.id = au.tenant_id
	where t.slug = p_slug and au.email in (select lower(u ->> 'email') from jsonb_array_elements(p_users) u);
end;
$$;

comment on function public.import_users_check is 'Before an import creates identities: refuses conflicting users (see import_users_conflicts) and answers which of the file''s users are already this chamber''s admins.';
revoke all on function public.import_users_check(text, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_users_check(text, jsonb, boolean) to service_role;

create or replace function public.import_tenant_users(
	p_tenant_id uuid,
	p_users jsonb,
	p_allow_super_admin boolean
) returns integer
language plpgsql
security definer
set search_path = ''
as $$
begin
	-- Again inside the import's transaction: another import may have run since the check.
	perform public.import_users_conflicts(p_tenant_id, p_users, p_allow_super_admin);

	insert into public.admin_users (user_id, tenant_id, email, role)
	select (u ->> 'user_id')::uuid, p_tenant_id, lower(u ->> 'email'), u ->> 'role'
	from jsonb_array_elements(p_users) u
	on conflict (user_id) do update set role = excluded.role
		where public.admin_users.tenant_id = excluded.tenant_id
			and public.admin_users.role is distinct from excluded.role;

	return jsonb_array_length(p_users);
end;
$$;

comment on function public.import_tenant_users is 'Records the importing chamber''s admin users (created beforehand through the Auth admin API) and their roles.';

create or replace function public.import_tenant(payload jsonb, replace_businesses boolean default true)
returns jsonb
language plpgsql
-- Definer rights: it also writes auth.users, which the service role cannot touch on Supabase.
-- Only service_role may execute it (see the grants below).
security definer
set search_path = ''
as $$
declare
	v_tenant_id uuid;
	v_slug text := payload -> 'tenant' ->> 'slug';
	v_businesses integer := 0;
	v_events integer := 0;
	v_users integer := 0;
begin
	if v_slug is null then
		raise exception 'payload.tenant.slug is required';
	end if;

	insert into public.tenants (slug, name)
	values (v_slug, payload -> 'tenant' ->> 'name')
	on conflict (slug) do update set name = excluded.name
		where public.tenants.name is distinct from excluded.name;
	select id into v_tenant_id from public.tenants where slug = v_slug;

	if payload ? 'config' then
		insert into public.chamber_config as c
		select * from jsonb_populate_record(
			null::public.chamber_config,
			payload -> 'config' || jsonb_build_object('tenant_id', v_tenant_id, 'updated_at', now())
		)
		on conflict (tenant_id) do update set
			name = excluded.name, slug = excluded.slug, city = excluded.city, state = excluded.state,
			founded_year = excluded.founded_year, colors = excluded.colors, logo = excluded.logo,
			fonts = excluded.fonts, text_colors = excluded.text_colors, contact = excluded.contact,
			social = excluded.social, urls = excluded.urls, footer_labels = excluded.footer_labels,
			content = excluded.content, services = excluded.services, features = excluded.features,
			membership_levels = excluded.membership_levels,
			featured_businesses = excluded.featured_businesses,
			category_display = excluded.category_display, search_page = excluded.search_page,
			navigation = excluded.navigation, updated_at = excluded.updated_at
		-- Only a real change moves updated_at.
		where to_jsonb(c) - 'updated_at' is distinct from to_jsonb(excluded) - 'updated_at';
	end if;

	insert into public.cache_versions (tenant_id, type)
	select v_tenant_id, t
	from unnest(array['config', 'categories', 'events', 'community_events', 'event_details']) t
	on conflict do nothing;

	if payload ? 'businesses' then
		if replace_businesses then
			delete from public.profiles where tenant_id = v_tenant_id;
		end if;

		create temporary table pg_temp.import_businesses on commit drop as
		select
			coalesce(
				(b ->> 'id')::uuid,
				md5(v_tenant_id::text || ':profile:' || (b ->> 'weblink_profile_id'))::uuid
			) as id,
			b
		from jsonb_array_elements(payload -> 'businesses') b;

		insert into public.profiles (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published
		)
		select
			i.id, v_tenant_id, i.b ->> 'report_name', coalesce(i.b ->> 'address1', ''),
			coalesce(i.b ->> 'address2', ''), coalesce(i.b ->> 'city', ''),
			coalesce(i.b ->> 'county', ''), coalesce(i.b ->> 'state', ''), coalesce(i.b ->> 'zip', ''),
			coalesce(i.b ->> 'work_phone', ''), coalesce(i.b ->> 'website', ''),
			coalesce(i.b ->> 'email', ''), coalesce((i.b ->> 'featured')::boolean, false),
			coalesce(array(select jsonb_array_elements_text(i.b -> 'categories')), '{}'),
			coalesce(i.b ->> 'membership_level_name', 'Member'), (i.b ->> 'membership_rank')::integer,
			(i.b ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			coalesce(i.b ->> 'main_related_profile_name', ''), coalesce(i.b ->> 'logo_url', ''),
			coalesce((i.b ->> 'listing_position')::integer, 1000),
			coalesce((i.b ->> 'is_member')::boolean, true), coalesce((i.b ->> 'published')::boolean, true)
		from pg_temp.import_businesses i;
		get diagnostics v_businesses = row_count;

		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(i.id::text || ':listing:' || e.ord)::uuid, v_tenant_id, i.id, e.ord,
			coalesce(e.v ->> 'description', ''), coalesce(e.v ->> 'short_description', ''),
			coalesce(array(select jsonb_array_elements_text(e.v -> 'categories')), '{}'),
			coalesce(e.v ->> 'keywords', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'primary_listing')::boolean, false)
		from pg_temp.import_businesses i
		cross join lateral jsonb_array_elements(coalesce(i.b -> 'listings', '[]')) with ordinality e(v, ord);

		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select
			md5(i.id::text || ':social:' || e.ord)::uuid, v_tenant_id, i.id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from pg_temp.import_businesses i
		cross join lateral jsonb_array_elements(coalesce(i.b -> 'social_media', '[]')) with ordinality e(v, ord);

		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select
			md5(i.id::text || ':affiliation:' || e.ord)::uuid, v_tenant_id, i.id, e.ord,
			coalesce(e.v ->> 'icon', ''), coalesce(e.v ->> 'icon_text', ''),
			coalesce(e.v ->> 'icon_url', ''), coalesce(e.v ->> 'aff_code', ''),
			coalesce(e.v ->> 'aff_name', ''),
			coalesce((e.v ->> 'list_available_on_website')::boolean, true)
		from pg_temp.import_businesses i
		cross join lateral jsonb_array_elements(coalesce(i.b -> 'profile_affiliations', '[]')) with ordinality e(v, ord);

		insert into public.web_content (
			id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url
		)
		select
			md5(i.id::text || ':web:' || e.ord)::uuid, v_tenant_id, i.id, e.ord,
			coalesce(e.v ->> 'content_type', ''), coalesce(e.v ->> 'content_title', ''),
			coalesce(e.v ->> 'full_url', ''), coalesce(e.v ->> 'rel_url', '')
		from pg_temp.import_businesses i
		cross join lateral jsonb_array_elements(coalesce(i.b -> 'web_content', '[]')) with ordinality e(v, ord);
	end if;

	if payload ? 'banners' then
		delete from public.banners where tenant_id = v_tenant_id;
		insert into public.banners (
			id, tenant_id, banner_name, image_url, navigate_url, target, alternate_text, active, position
		)
		select
			case
				when e.v ->> 'id' is null then md5(v_tenant_id::text || ':banner:' || e.ord)::uuid
				when e.v ->> 'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (e.v ->> 'id')::uuid
				-- The membership system's numeric banner id: a stable id per chamber and banner.
				else md5(v_tenant_id::text || ':banner-id:' || (e.v ->> 'id'))::uuid
			end,
			v_tenant_id, e.v ->> 'banner_name', e.v ->> 'image_url',
			coalesce(e.v ->> 'navigate_url', ''), coalesce(e.v ->> 'target', '_blank'),
			coalesce(e.v ->> 'alternate_text', ''), coalesce((e.v ->> 'active')::boolean, true),
			coalesce((e.v ->> 'position')::integer, e.ord::integer)
		from jsonb_array_elements(payload -> 'banners') with ordinality e(v, ord);
	end if;

	if payload ? 'events' or payload ? 'communityEvents' then
		delete from public.events where tenant_id = v_tenant_id;
		insert into public.events (tenant_id, source, event_id, start_utc, end_utc, closed, data)
		select
			v_tenant_id, s.source, (e ->> 'EventId')::integer, (e ->> 'StartDateTimeUtc')::timestamptz,
			(e ->> 'EndDateTimeUtc')::timestamptz, coalesce((e ->> 'Closed')::boolean, false), e
		from (
			select 'chamber' as source, e from jsonb_array_elements(coalesce(payload -> 'events', '[]')) e
			union all
			select 'community', e from jsonb_array_elements(coalesce(payload -> 'communityEvents', '[]')) e
		) s;
		get diagnostics v_events = row_count;
	end if;

	if payload ? 'users' then
		v_users := public.import_tenant_users(
			v_tenant_id,
			payload -> 'users',
			coalesce((payload ->> 'allow_super_admin')::boolean, false)
		);
	end if;

	-- Fresh statistics keep search plans on their indexes right after a large import
	-- (PGlite runs no autovacuum).
	analyze public.profiles;
	analyze public.listings;
	analyze public.profile_affiliations;
	analyze public.search_words;
	analyze public.events;

	return jsonb_build_object(
		'tenant_id', v_tenant_id,
		'businesses', v_businesses,
		'events', v_events,
		'users', v_users
	);
end;
$$;

comment on function public.import_tenant is 'Upserts a whole tenant from a validated tenant file in one transaction (service role only).';

revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;
