/**
  ---------------------------------------------------------------------------
  Events for the local events source
  ---------------------------------------------------------------------------
  Chamber and community events in the WebLink/Atlas shape (Items, Sponsors,
  Attendees included), so the local source answers exactly as Atlas does.
  The columns beside `data` exist only to filter and sort.
 */

create table if not exists public.events (
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	source text not null check (source in ('chamber', 'community')),
	event_id integer not null check (event_id > 0),
	start_utc timestamptz not null,
	end_utc timestamptz not null,
	closed boolean not null default false,
	data jsonb not null,
	primary key (tenant_id, source, event_id),
	check (end_utc >= start_utc),
	check ((data ->> 'EventId')::integer = event_id)
);

comment on table public.events is 'Chamber (source chamber) and community events as the Atlas API returns them, one jsonb document each.';

create index if not exists events_tenant_source_start_idx on public.events (tenant_id, source, start_utc);

alter table public.events enable row level security;

-- Closed events are dropped from every list and detail, so visitors never read them.
drop policy if exists "Anyone can read open events" on public.events;
create policy "Anyone can read open events" on public.events
	for select to anon, authenticated
	using (not closed);

drop policy if exists "Chamber staff can read their closed events" on public.events;
create policy "Chamber staff can read their closed events" on public.events
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

/**
  ---------------------------------------------------------------------------
  Contact messages: 'message this business'
  ---------------------------------------------------------------------------
  Stored before any delivery so nothing is lost; written by the
  contact-business function with the service role, never by visitors directly.
 */
create table if not exists public.contact_messages (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	business_id uuid,
	business_name text not null,
	name text not null,
	email text not null,
	message text not null,
	delivery_status text not null default 'pending' check (delivery_status in ('pending', 'sent', 'failed')),
	delivery_error text,
	created_at timestamptz not null default now()
);

comment on table public.contact_messages is 'Messages visitors sent to a business; kept whether or not e-mail delivery worked.';

create index if not exists contact_messages_tenant_created_idx on public.contact_messages (tenant_id, created_at desc);

alter table public.contact_messages enable row level security;

drop policy if exists "Chamber admins can read messages sent to their businesses" on public.contact_messages;
create policy "Chamber admins can read messages sent to their businesses" on public.contact_messages
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));
