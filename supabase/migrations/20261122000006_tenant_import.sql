/**
  ---------------------------------------------------------------------------
  Tenant import: one call, one transaction
  ---------------------------------------------------------------------------
  scripts/tenant-import.ts validates a tenant file with zod, hashes the
  passwords, maps the configuration to its row and sends it here through
  supabase-js with the service role. A function body is one transaction, so a
  failure anywhere writes nothing. Ids are deterministic (given, or derived
  from the tenant and the source system's id), so importing the same file
  twice leaves every row as it was.
 */

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
			coalesce((e.v ->> 'id')::uuid, md5(v_tenant_id::text || ':banner:' || e.ord)::uuid),
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
		insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data)
		select
			md5('user:' || lower(u ->> 'email'))::uuid, lower(u ->> 'email'), u ->> 'password_hash',
			'2000-01-01T00:00:00Z'::timestamptz, jsonb_build_object('provider', 'email')
		from jsonb_array_elements(payload -> 'users') u
		on conflict (email) do update set encrypted_password = excluded.encrypted_password
			where auth.users.encrypted_password is distinct from excluded.encrypted_password;

		insert into public.admin_users (user_id, tenant_id, email, role)
		select au.id, v_tenant_id, au.email, u ->> 'role'
		from jsonb_array_elements(payload -> 'users') u
		join auth.users au on au.email = lower(u ->> 'email')
		on conflict (user_id) do update set tenant_id = excluded.tenant_id, role = excluded.role
			where (public.admin_users.tenant_id, public.admin_users.role)
				is distinct from (excluded.tenant_id, excluded.role);
		get diagnostics v_users = row_count;
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
		'users', jsonb_array_length(coalesce(payload -> 'users', '[]'))
	);
end;
$$;

comment on function public.import_tenant is 'Upserts a whole tenant from a validated tenant file in one transaction (service role only).';

revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;

