/**
  ---------------------------------------------------------------------------
  A faster member import
  ---------------------------------------------------------------------------
  Applying a large import spent most of its time in the directory's own
  upkeep rather than in writing the businesses: the search-words trigger
  matched the old and new rows of an update pairwise (its transition tables
  have no statistics, so the planner chose a nested loop: 2,500 rows made
  6 million comparisons), and each new business had its search columns
  computed twice, once without its listings as it was inserted and once more,
  rewriting the row and every index on it, when its listings followed.

  Here the search-words trigger compares the two sides as sets (except all),
  and import_tenant computes each business's search columns once, from the
  file's listings, writing them with the business; the row trigger and the
  listings trigger stand aside while it does (a setting local to the
  transaction, which only import_tenant sets). What the directory shows is
  unchanged: the same search columns, words and counts.
 */

/**
  ---------------------------------------------------------------------------
  The search columns of a business from its values
  ---------------------------------------------------------------------------
 */

/**
  A business's search columns from its name, categories and listings (in the
  shape business_list_value answers): the one definition of what search
  reads. Inactive listings do not count; tags are dropped from descriptions.
 */
create or replace function public.profile_search_document_of(
	p_report_name text,
	p_categories text[],
	p_listings jsonb,
	out search_vector tsvector,
	out search_text text
)
language sql
immutable
set search_path = ''
as $$
	select
		setweight(to_tsvector('english', p_report_name), 'A')
			|| setweight(to_tsvector('english', array_to_string(p_categories, ' ') || ' ' || coalesce(l.keywords, '')), 'B')
			|| setweight(to_tsvector('english', coalesce(l.descriptions, '')), 'C'),
		lower(p_report_name || ' ' || array_to_string(p_categories, ' ') || ' ' || coalesce(l.keywords, ''))
	from (
		select
			string_agg(
				coalesce(e.v ->> 'keywords', '') || ' '
					|| array_to_string(array(select jsonb_array_elements_text(coalesce(e.v -> 'categories', '[]'))), ' '),
				' ' order by e.ord
			) as keywords,
			-- Tags would only add noise to the index.
			string_agg(
				regexp_replace(
					coalesce(e.v ->> 'short_description', '') || ' ' || coalesce(e.v ->> 'description', ''),
					'<[^>]*>', ' ', 'g'
				),
				' ' order by e.ord
			) as descriptions
		from jsonb_array_elements(coalesce(p_listings, '[]')) with ordinality e(v, ord)
		where coalesce((e.v ->> 'active')::boolean, true)
	) l;
$$;

comment on function public.profile_search_document_of is 'A business''s search_vector and search_text from its name, categories and listings (business_list_value''s shape); the one definition of what search reads.';

/** The search columns of a stored business (its listings as stored). */
create or replace function public.profile_search_document(profile_id uuid, report_name text, categories text[], out search_vector tsvector, out search_text text)
language sql
stable
security definer
set search_path = ''
as $$
	select d.search_vector, d.search_text
	from public.profile_search_document_of(
		report_name,
		categories,
		public.business_list_value(profile_search_document.profile_id, 'listings')
	) d;
$$;

comment on function public.profile_search_document(uuid, text, text[]) is 'A stored business''s search columns: profile_search_document_of with its listings as stored.';

/** Set by import_tenant while it writes the search columns itself (local to its transaction). */
create or replace function public.import_writes_search()
returns boolean
language sql
stable
set search_path = ''
as $$
	select coalesce(current_setting('chamber.import_writes_search', true), '') = 'on';
$$;

comment on function public.import_writes_search is 'Whether import_tenant is writing the search columns itself in this transaction (its setting chamber.import_writes_search), so the search triggers stand aside.';

create or replace function public.profiles_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	if public.import_writes_search() then
		return new;
	end if;
	select d.search_vector, d.search_text into new.search_vector, new.search_text
	from public.profile_search_document(new.id, new.report_name, new.categories) d;
	return new;
end;
$$;

create or replace function public.listings_search_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
	if public.import_writes_search() then
		return null;
	end if;
	-- Touching search columns only, so the profiles row trigger (name, categories) does not fire;
	-- a business whose search columns come out the same is not rewritten.
	update public.profiles p
	set search_vector = d.search_vector, search_text = d.search_text
	from (select distinct profile_id from changed_rows) c
	join public.profiles p2 on p2.id = c.profile_id
	cross join lateral public.profile_search_document(p2.id, p2.report_name, p2.categories) d
	where p.id = c.profile_id
		and (p.search_vector, p.search_text) is distinct from (d.search_vector, d.search_text);
	return null;
end;
$$;

/**
  ---------------------------------------------------------------------------
  Search words: an update's changed rows found as sets
  ---------------------------------------------------------------------------
  The words of a row published before and after with the same text cancel;
  except all finds the rows that differ by hashing, in one pass over each side.
 */
create or replace function public.profiles_search_words_trigger()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_tenant_ids uuid[];
	v_texts text[];
	v_signs integer[];
begin
	if tg_op = 'INSERT' then
		select array_agg(n.tenant_id), array_agg(n.search_text), array_agg(1)
		into v_tenant_ids, v_texts, v_signs
		from new_rows n
		where n.published;
	elsif tg_op = 'DELETE' then
		select array_agg(o.tenant_id), array_agg(o.search_text), array_agg(-1)
		into v_tenant_ids, v_texts, v_signs
		from old_rows o
		where o.published;
	else
		-- Only rows whose words or publication changed.
		select array_agg(c.tenant_id), array_agg(c.search_text), array_agg(c.sign)
		into v_tenant_ids, v_texts, v_signs
		from (
			select g.tenant_id, g.search_text, -1 as sign
			from (
				select o.id, o.tenant_id, o.search_text from old_rows o where o.published
				except all
				select n.id, n.tenant_id, n.search_text from new_rows n where n.published
			) g
			union all
			select a.tenant_id, a.search_text, 1
			from (
				select n.id, n.tenant_id, n.search_text from new_rows n where n.published
				except all
				select o.id, o.tenant_id, o.search_text from old_rows o where o.published
			) a
		) c;
	end if;
	if v_tenant_ids is not null then
		perform public.search_words_apply(v_tenant_ids, v_texts, v_signs);
	end if;
	return null;
end;
$$;

/**
  ---------------------------------------------------------------------------
  A business's lists, read with plans kept for the session
  ---------------------------------------------------------------------------
  business_list_value is called for each business the dry run compares (four
  times, through business_document). As a SQL function called from another it
  was planned again at every call (2 ms a business); in PL/pgSQL its queries'
  plans are kept for the session (0.1 ms). Same answers.
 */
create or replace function public.business_list_value(p_profile_id uuid, p_field text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
	case p_field
		when 'listings' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position)
				from public.listings l where l.profile_id = p_profile_id), '[]'::jsonb);
		when 'social_media' then
			return coalesce((
				select jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url) order by s.position)
				from public.social_media s where s.profile_id = p_profile_id), '[]'::jsonb);
		when 'profile_affiliations' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url, 'aff_code', a.aff_code,
					'aff_name', a.aff_name, 'list_available_on_website', a.list_available_on_website
				) order by a.position)
				from public.profile_affiliations a where a.profile_id = p_profile_id), '[]'::jsonb);
		when 'web_content' then
			return coalesce((
				select jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position)
				from public.web_content w where w.profile_id = p_profile_id), '[]'::jsonb);
		else
			return '[]'::jsonb;
	end case;
end;
$$;

/**
  ---------------------------------------------------------------------------
  The import writes each business's search columns once
  ---------------------------------------------------------------------------
  import_tenant of 20261124140000_member_listings.sql, with the lists read
  before the businesses are written, so each business's search columns come
  from its final name, categories and listings and are written with it.
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
	v_actor record;
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
		-- Each business as it would be stored (d), with its id and whether it exists already.
		create temporary table pg_temp.import_businesses on commit drop as
		select x.id, x.b, public.business_from_file(x.b) as d, false as existed,
			''::tsvector as search_vector, ''::text as search_text
		from (
			select
				coalesce(
					(b ->> 'id')::uuid,
					md5(v_tenant_id::text || ':profile:' || (b ->> 'weblink_profile_id'))::uuid
				) as id,
				b
			from jsonb_array_elements(payload -> 'businesses') b
		) x;
		create index on pg_temp.import_businesses (id);
		select count(*) into v_businesses from pg_temp.import_businesses;

		-- Businesses the file no longer has go, but those added by staff (no membership-system id).
		if replace_businesses then
			delete from public.profiles p
			where p.tenant_id = v_tenant_id
				and p.weblink_profile_id not like 'local-%'
				and not exists (select 1 from pg_temp.import_businesses i where i.id = p.id);
		end if;
		perform public.purge_removed_businesses(v_tenant_id);
		update pg_temp.import_businesses i set existed = true
		from public.profiles p where p.id = i.id;

		-- What the membership system says of the fields staff changed here, kept beside them …
		update public.business_overrides o
		set system_value = case
			when o.field = any (public.business_list_fields())
				then public.business_list_normalized(o.field, coalesce(i.b -> o.field, '[]'::jsonb))
			else i.d -> o.field
		end
		from pg_temp.import_businesses i
		where o.tenant_id = v_tenant_id and o.profile_id = i.id;

		-- … while those fields keep the value staff gave them.
		update pg_temp.import_businesses i
		set d = i.d || m.kept
		from (
			select o.profile_id, jsonb_object_agg(o.field, to_jsonb(p) -> o.field) as kept
			from public.business_overrides o
			join public.profiles p on p.id = o.profile_id
			where o.tenant_id = v_tenant_id and o.field = any (public.business_scalar_fields())
			group by o.profile_id
		) m
		where m.profile_id = i.id;

		-- The lists of each business as the file has them, but those staff changed; then only those
		-- that differ from what is stored are written.
		create temporary table pg_temp.import_lists on commit drop as
		select i.id, i.existed, f.field,
			-- Most lists of most rows are empty: no need to normalize those.
			case when coalesce(i.b -> f.field, '[]'::jsonb) = '[]'::jsonb then '[]'::jsonb
				else public.business_list_normalized(f.field, i.b -> f.field)
			end as rows,
			'[]'::jsonb as current
		from pg_temp.import_businesses i
		cross join unnest(public.business_list_fields()) f(field)
		where not exists (
			select 1 from public.business_overrides o where o.profile_id = i.id and o.field = f.field
		);
		create index on pg_temp.import_lists (id, field);

		update pg_temp.import_lists x set current = c.rows
		from (
			select l.profile_id, jsonb_agg(jsonb_build_object(
					'description', l.description, 'short_description', l.short_description,
					'categories', to_jsonb(l.categories), 'keywords', l.keywords,
					'active', l.active, 'primary_listing', l.primary_listing
				) order by l.position) as rows
			from public.listings l
			join pg_temp.import_businesses i on i.id = l.profile_id and i.existed
			where l.tenant_id = v_tenant_id
			group by l.profile_id
		) c
		where x.field = 'listings' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select s.profile_id, jsonb_agg(jsonb_build_object('platform', s.platform, 'url', s.url)
				order by s.position) as rows
			from public.social_media s
			join pg_temp.import_businesses i on i.id = s.profile_id and i.existed
			where s.tenant_id = v_tenant_id
			group by s.profile_id
		) c
		where x.field = 'social_media' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select a.profile_id, jsonb_agg(jsonb_build_object(
					'icon', a.icon, 'icon_text', a.icon_text, 'icon_url', a.icon_url,
					'aff_code', a.aff_code, 'aff_name', a.aff_name,
					'list_available_on_website', a.list_available_on_website
				) order by a.position) as rows
			from public.profile_affiliations a
			join pg_temp.import_businesses i on i.id = a.profile_id and i.existed
			where a.tenant_id = v_tenant_id
			group by a.profile_id
		) c
		where x.field = 'profile_affiliations' and x.existed and x.id = c.profile_id;
		update pg_temp.import_lists x set current = c.rows
		from (
			select w.profile_id, jsonb_agg(jsonb_build_object(
					'content_type', w.content_type, 'content_title', w.content_title,
					'full_url', w.full_url, 'rel_url', w.rel_url
				) order by w.position) as rows
			from public.web_content w
			join pg_temp.import_businesses i on i.id = w.profile_id and i.existed
			where w.tenant_id = v_tenant_id
			group by w.profile_id
		) c
		where x.field = 'web_content' and x.existed and x.id = c.profile_id;
		-- The search columns as the directory's triggers would leave them once the lists are in
		-- (profile_search_document_of), computed here for the whole batch: the triggers that
		-- would compute them row by row, and again after the listings, stand aside meanwhile.
		update pg_temp.import_businesses i
		set search_vector = s.search_vector, search_text = s.search_text
		from pg_temp.import_businesses i2
		left join pg_temp.import_lists x on x.id = i2.id and x.field = 'listings'
		cross join lateral public.profile_search_document_of(
			i2.d ->> 'report_name',
			array(select jsonb_array_elements_text(i2.d -> 'categories')),
			coalesce(
				x.rows,
				case when i2.existed then public.business_list_value(i2.id, 'listings') end,
				'[]'::jsonb
			)
		) s
		where i.id = i2.id;
		perform set_config('chamber.import_writes_search', 'on', true);

		insert into public.profiles as p (
			id, tenant_id, report_name, address1, address2, city, county, state, zip, work_phone,
			website, email, featured, categories, membership_level_name, membership_rank,
			member_since_date, weblink_profile_id, main_related_profile_name, logo_url,
			listing_position, is_member, published, updated_by, search_vector, search_text
		)
		select
			i.id, v_tenant_id, i.d ->> 'report_name', i.d ->> 'address1', i.d ->> 'address2',
			i.d ->> 'city', i.d ->> 'county', i.d ->> 'state', i.d ->> 'zip', i.d ->> 'work_phone',
			i.d ->> 'website', i.d ->> 'email', (i.d ->> 'featured')::boolean,
			array(select jsonb_array_elements_text(i.d -> 'categories')),
			i.d ->> 'membership_level_name', (i.d ->> 'membership_rank')::integer,
			(i.d ->> 'member_since_date')::date, i.b ->> 'weblink_profile_id',
			i.d ->> 'main_related_profile_name', i.d ->> 'logo_url',
			(i.d ->> 'listing_position')::integer, (i.d ->> 'is_member')::boolean,
			(i.d ->> 'published')::boolean, 'import', i.search_vector, i.search_text
		from pg_temp.import_businesses i
		on conflict (id) do update set
			report_name = excluded.report_name, address1 = excluded.address1,
			address2 = excluded.address2, city = excluded.city, county = excluded.county,
			state = excluded.state, zip = excluded.zip, work_phone = excluded.work_phone,
			website = excluded.website, email = excluded.email, featured = excluded.featured,
			categories = excluded.categories, membership_level_name = excluded.membership_level_name,
			membership_rank = excluded.membership_rank, member_since_date = excluded.member_since_date,
			weblink_profile_id = excluded.weblink_profile_id,
			main_related_profile_name = excluded.main_related_profile_name,
			logo_url = excluded.logo_url, listing_position = excluded.listing_position,
			is_member = excluded.is_member,
			-- A removed business stays off the site until staff restore it.
			published = excluded.published and p.removed_at is null,
			published_before_removal = case
				when p.removed_at is null then null else excluded.published
			end,
			updated_by = 'import',
			search_vector = excluded.search_vector, search_text = excluded.search_text
		-- Only a business whose values differ is written: an unchanged re-import changes nothing.
		where (p.report_name, p.address1, p.address2, p.city, p.county, p.state, p.zip, p.work_phone,
				p.website, p.email, p.featured, p.categories, p.membership_level_name, p.membership_rank,
				p.member_since_date, p.weblink_profile_id, p.main_related_profile_name, p.logo_url,
				p.listing_position, p.is_member, p.published,
				case when p.removed_at is null then null else p.published_before_removal end)
			is distinct from (excluded.report_name, excluded.address1, excluded.address2, excluded.city,
				excluded.county, excluded.state, excluded.zip, excluded.work_phone, excluded.website,
				excluded.email, excluded.featured, excluded.categories, excluded.membership_level_name,
				excluded.membership_rank, excluded.member_since_date, excluded.weblink_profile_id,
				excluded.main_related_profile_name, excluded.logo_url, excluded.listing_position,
				excluded.is_member, excluded.published and p.removed_at is null,
				case when p.removed_at is null then null else excluded.published end);

		update public.profiles p
		set search_vector = i.search_vector, search_text = i.search_text
		from pg_temp.import_businesses i
		where p.id = i.id and i.existed
			and (p.search_text, p.search_vector) is distinct from (i.search_text, i.search_vector);

		delete from pg_temp.import_lists where rows = current;

		delete from public.listings l using pg_temp.import_lists x
		where x.field = 'listings' and l.profile_id = x.id;
		insert into public.listings (
			id, tenant_id, profile_id, position, description, short_description, categories, keywords,
			active, primary_listing
		)
		select
			md5(x.id::text || ':listing:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'description', e.v ->> 'short_description',
			array(select jsonb_array_elements_text(e.v -> 'categories')),
			e.v ->> 'keywords', (e.v ->> 'active')::boolean, (e.v ->> 'primary_listing')::boolean
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'listings';

		delete from public.social_media s using pg_temp.import_lists x
		where x.field = 'social_media' and s.profile_id = x.id;
		insert into public.social_media (id, tenant_id, profile_id, position, platform, url)
		select
			md5(x.id::text || ':social:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'platform', e.v ->> 'url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'social_media';

		delete from public.profile_affiliations a using pg_temp.import_lists x
		where x.field = 'profile_affiliations' and a.profile_id = x.id;
		insert into public.profile_affiliations (
			id, tenant_id, profile_id, position, icon, icon_text, icon_url, aff_code, aff_name,
			list_available_on_website
		)
		select
			md5(x.id::text || ':affiliation:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'icon', e.v ->> 'icon_text', e.v ->> 'icon_url', e.v ->> 'aff_code',
			e.v ->> 'aff_name', (e.v ->> 'list_available_on_website')::boolean
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'profile_affiliations';

		delete from public.web_content w using pg_temp.import_lists x
		where x.field = 'web_content' and w.profile_id = x.id;
		insert into public.web_content (
			id, tenant_id, profile_id, position, content_type, content_title, full_url, rel_url
		)
		select
			md5(x.id::text || ':web:' || e.ord)::uuid, v_tenant_id, x.id, e.ord,
			e.v ->> 'content_type', e.v ->> 'content_title', e.v ->> 'full_url', e.v ->> 'rel_url'
		from pg_temp.import_lists x
		cross join lateral jsonb_array_elements(x.rows) with ordinality e(v, ord)
		where x.field = 'web_content';

		perform set_config('chamber.import_writes_search', 'off', true);

		-- A list of a business that was there before changed: its version, and the audit.
		select * into v_actor from public.audit_actor(v_tenant_id);
		insert into public.audit_log (
			tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value, business_id
		)
		select v_tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'business',
			x.field, x.current, x.rows, x.id
		from pg_temp.import_lists x
		where x.existed;
		update public.profiles p
		set version = p.version + 1,
			field_versions = p.field_versions || c.fields,
			updated_by = 'import'
		from (
			select x.id, jsonb_object_agg(x.field, pp.version + 1) as fields
			from pg_temp.import_lists x
			join public.profiles pp on pp.id = x.id
			where x.existed
			group by x.id
		) c
		where p.id = c.id;
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
	-- (PGlite runs no autovacuum). The directory's two large tables are analyzed when this
	-- import is a fifth or more of what their statistics count: a smaller batch moves no plan,
	-- and sampling 30,000 rows would cost more than the batch (apply_member_import, which
	-- imports in batches, analyzes them once after its last).
	if v_businesses * 5 >= (select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.profiles'::regclass) then
		analyze public.profiles;
		analyze public.listings;
	end if;
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

comment on function public.import_tenant is 'Upserts a whole tenant from a validated tenant file in one transaction (service role only); businesses are updated in place, keeping what staff changed here.';

revoke all on function public.import_tenant(jsonb, boolean) from public, anon, authenticated;
grant execute on function public.import_tenant(jsonb, boolean) to service_role;

/**
  ---------------------------------------------------------------------------
  The apply analyzes the directory once, after its last batch
  ---------------------------------------------------------------------------
  apply_member_import of 20261125120000_member_imports.sql, with the
  statistics brought up to date at the end instead of after every batch.
 */
create or replace function public.apply_member_import(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_import public.member_imports;
	v_tenant public.tenants;
	v_stale text;
	v_written integer := 0;
	v_done integer := 0;
	v_chunk integer := 250;
	v_unpublished integer := 0;
	v_counts jsonb;
begin
	select * into v_import from public.member_imports where id = p_import_id for update;
	if not found or v_import.state <> 'applying' then
		raise exception 'This import is not being applied' using errcode = '55000';
	end if;
	select * into v_tenant from public.tenants where id = v_import.tenant_id;
	-- The dry run was just written: the queries below plan with its real size.
	analyze public.member_import_rows;

	select coalesce(r.name, r.weblink_profile_id) into v_stale
	from public.member_import_rows r
	left join public.profiles p on p.id = r.profile_id
	where r.import_id = p_import_id and (
		(r.action = 'change' and (p.id is null or p.version <> r.base_version))
		or (r.action = 'add' and exists (
			select 1 from public.profiles x
			where x.tenant_id = v_import.tenant_id and x.weblink_profile_id = r.weblink_profile_id
		))
	)
	limit 1;
	if v_stale is not null then
		raise exception 'The directory changed since the preview (% was changed meanwhile). Nothing was applied: import the file again to see the changes as they are now.', v_stale
			using errcode = 'PT409';
	end if;

	select count(*) into v_written
	from public.member_import_rows r
	where r.import_id = p_import_id and r.action in ('add', 'change');
	-- In chunks that double from 250 up to 2,500: import_tenant analyzes the directory's tables
	-- after each while they are still small next to the chunk, so the planner never joins
	-- thousands of new rows believing the tables empty, and no statement holds more than 2,500
	-- businesses' documents at once.
	while v_done < v_written loop
		drop table if exists pg_temp.import_businesses;
		drop table if exists pg_temp.import_lists;
		perform public.import_tenant(
			jsonb_build_object(
				'tenant', jsonb_build_object('slug', v_tenant.slug, 'name', v_tenant.name),
				'businesses', (
					select jsonb_agg(c.record order by c.row_number)
					from (
						select r.record, r.row_number
						from public.member_import_rows r
						where r.import_id = p_import_id and r.action in ('add', 'change')
						order by r.row_number, r.id
						offset v_done limit v_chunk
					) c
				)
			),
			false
		);
		v_done := v_done + v_chunk;
		v_chunk := least(v_chunk * 2, 2500);
	end loop;
	if v_written > 0 then
		analyze public.profiles;
		analyze public.listings;
	end if;
	if v_import.kind = 'sync' then
		update public.profiles p set updated_by = 'sync'
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action in ('add', 'change')
			and p.tenant_id = v_import.tenant_id and p.weblink_profile_id = r.weblink_profile_id;
	end if;

	if v_import.missing_action = 'unpublish' then
		update public.profiles p
		set published = false, updated_by = case v_import.kind when 'sync' then 'sync' else 'import' end
		from public.member_import_rows r
		where r.import_id = p_import_id and r.action = 'missing' and p.id = r.profile_id and p.published
			and not exists (
				select 1 from public.business_overrides o where o.profile_id = p.id and o.field = 'published'
			);
		get diagnostics v_unpublished = row_count;
	end if;

	v_counts := v_import.counts || jsonb_build_object('unpublished', v_unpublished);
	update public.member_imports
	set state = 'applied', rows_applied = v_written, counts = v_counts, applied_at = now(),
		updated_at = now(), error = null
	where id = p_import_id;
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (
		v_import.tenant_id, v_import.requested_by, coalesce(v_import.applied_by_email, v_import.requested_by_email),
		coalesce(nullif(auth.role(), ''), 'database'), 'members', v_import.kind, null,
		v_counts || jsonb_build_object('import', p_import_id, 'source', v_import.source)
	);
	return v_counts || jsonb_build_object('written', v_written);
end;
$$;

comment on function public.apply_member_import is 'Applies an import''s dry run in one transaction (service role): added and changed businesses through import_tenant in batches, members missing from the file unpublished if chosen; refused when a business changed since the dry run.';

/**
  ---------------------------------------------------------------------------
  Old addresses: a membership-system id never reaches the id's comparison
  ---------------------------------------------------------------------------
  In a chamber of thousands, the plan a session keeps for business_gone (one
  for any key) looks the key up by both indexes at once, evaluating the id's
  comparison whatever the key: '777' then failed as no uuid, and the old
  address answered 500 instead of 410. The key is now read as an id only when
  it is one.
 */
create or replace function public.business_gone(p_tenant_id uuid, p_key text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select exists (
		select 1 from public.profiles p
		where p.tenant_id = p_tenant_id and not p.published
			and (
				p.id = case
					when p_key ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then p_key::uuid
				end
				or p.weblink_profile_id = case
					when p_key ~ '^\d{1,30}$' then regexp_replace(p_key, '^0+(?=\d)', '')
				end
			)
	);
$$;

revoke all on function public.profile_search_document_of(text, text[], jsonb) from public, anon, authenticated;
revoke all on function public.profile_search_document(uuid, text, text[]) from public, anon, authenticated;
revoke all on function public.import_writes_search() from public, anon, authenticated;
