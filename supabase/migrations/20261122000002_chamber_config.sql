/**
  ---------------------------------------------------------------------------
  Chamber configuration: everything tenant-specific a page reads
  ---------------------------------------------------------------------------
  One row per tenant, one column per section of the configuration. The jsonb
  sections keep the app's camelCase keys; src/features/config/config.ts is
  their schema and fills in defaults, so a column holds only what was set.
 */

create table if not exists public.chamber_config (
	tenant_id uuid primary key references public.tenants (id) on delete cascade,
	name text not null,
	slug text not null,
	city text not null default '',
	state text not null default '' check (length(state) <= 2),
	founded_year integer,
	colors jsonb not null default '{}'::jsonb,
	logo jsonb not null default '{}'::jsonb,
	fonts jsonb not null default '{}'::jsonb,
	text_colors jsonb not null default '{}'::jsonb,
	contact jsonb not null default '{}'::jsonb,
	social jsonb not null default '{}'::jsonb,
	urls jsonb not null default '{}'::jsonb,
	footer_labels jsonb not null default '{}'::jsonb,
	content jsonb not null default '{}'::jsonb,
	services jsonb not null default '{}'::jsonb,
	features jsonb not null default '{}'::jsonb,
	membership_levels jsonb not null default '{}'::jsonb,
	featured_businesses jsonb not null default '{}'::jsonb,
	category_display jsonb not null default '{}'::jsonb,
	search_page jsonb not null default '{}'::jsonb,
	navigation jsonb not null default '{}'::jsonb,
	updated_at timestamptz not null default now()
);

comment on table public.chamber_config is 'The chamber configuration: one row per tenant, a column per section.';

alter table public.chamber_config enable row level security;

drop policy if exists "Anyone can read chamber configuration" on public.chamber_config;
create policy "Anyone can read chamber configuration" on public.chamber_config
	for select to anon, authenticated
	using (true);

-- Editors may change content; which sections each role may touch is checked by /api/update-config.
drop policy if exists "Chamber staff can update their chamber configuration" on public.chamber_config;
create policy "Chamber staff can update their chamber configuration" on public.chamber_config
	for update to authenticated
	using (public.has_tenant_role(tenant_id))
	with check (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  Cache versions: bumping one invalidates every CDN entry keyed by it
  ---------------------------------------------------------------------------
 */
create table if not exists public.cache_versions (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	type text not null check (
		type in ('config', 'categories', 'events', 'community_events', 'event_details')
	),
	version integer not null default 1 check (version >= 1),
	updated_at timestamptz not null default now(),
	primary key (tenant_id, type)
);

comment on table public.cache_versions is 'Per tenant and resource type, the version that cache keys and ?v= parameters carry.';

alter table public.cache_versions enable row level security;

drop policy if exists "Anyone can read cache versions" on public.cache_versions;
create policy "Anyone can read cache versions" on public.cache_versions
	for select to anon, authenticated
	using (true);

drop policy if exists "Chamber admins can create cache versions" on public.cache_versions;
create policy "Chamber admins can create cache versions" on public.cache_versions
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

drop policy if exists "Chamber admins can bump cache versions" on public.cache_versions;
create policy "Chamber admins can bump cache versions" on public.cache_versions
	for update to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']))
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

/**
  ---------------------------------------------------------------------------
  Cache purge log: who refreshed what, shown to super admins
  ---------------------------------------------------------------------------
 */
create table if not exists public.cache_purge_log (
	id bigint generated always as identity primary key,
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	user_email text not null,
	purge_type text not null,
	created_at timestamptz not null default now()
);

comment on table public.cache_purge_log is 'Every cache refresh from the admin portal; the Cache tab shows the newest 15 to super admins.';

create index if not exists cache_purge_log_tenant_created_idx
	on public.cache_purge_log (tenant_id, created_at desc);

alter table public.cache_purge_log enable row level security;

drop policy if exists "Super admins can read the cache purge log" on public.cache_purge_log;
create policy "Super admins can read the cache purge log" on public.cache_purge_log
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin']));

drop policy if exists "Chamber admins can record a cache purge" on public.cache_purge_log;
create policy "Chamber admins can record a cache purge" on public.cache_purge_log
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
