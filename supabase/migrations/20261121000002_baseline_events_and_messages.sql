/**
  ---------------------------------------------------------------------------
  Baseline: events and the messages visitors send
  ---------------------------------------------------------------------------
 */

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
create policy "Anyone can read open events" on public.events
	for select to anon, authenticated
	using (not closed);

create policy "Chamber staff can read their closed events" on public.events
	for select to authenticated
	using (public.has_tenant_role(tenant_id));

grant select on table public.events to anon, authenticated;
grant all on table public.events to service_role;

/**
  ---------------------------------------------------------------------------
  Contact messages: 'message this business'
  ---------------------------------------------------------------------------
  Stored before any delivery so nothing is lost; written by the
  contact-business function with the service role, never by visitors
  directly. The dialog sends a random key with each message: a retried
  submit (a lost answer, a double click) finds the stored message instead of
  storing and sending it again. attempts counts deliveries tried, so a
  stored-but-undelivered message is retried a bounded number of times.
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
	created_at timestamptz not null default now(),
	idempotency_key uuid,
	attempts integer not null default 0,
	last_attempt_at timestamptz,
	next_attempt_at timestamptz not null default now()
);

comment on table public.contact_messages is 'Messages visitors sent to a business; kept whether or not e-mail delivery worked.';
comment on column public.contact_messages.idempotency_key is 'Random key the contact dialog sends with one message; the same key again is the same message.';
comment on column public.contact_messages.attempts is 'Delivery attempts so far (the one after the submit, retried submits, the scheduled retry).';
comment on column public.contact_messages.last_attempt_at is 'When delivery was last tried.';
comment on column public.contact_messages.next_attempt_at is 'When delivery may be tried next: after a failure the back-off, during an attempt the end of its lease.';

create index if not exists contact_messages_tenant_created_idx on public.contact_messages (tenant_id, created_at desc);
create unique index if not exists contact_messages_idempotency_idx
	on public.contact_messages (tenant_id, idempotency_key);
create index if not exists contact_messages_undelivered_idx
	on public.contact_messages (created_at) where delivery_status <> 'sent';
create index if not exists contact_messages_due_idx
	on public.contact_messages (tenant_id, next_attempt_at) where delivery_status <> 'sent';

alter table public.contact_messages enable row level security;

create policy "Chamber admins can read messages sent to their businesses" on public.contact_messages
	for select to authenticated
	using (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on table public.contact_messages to authenticated;
grant all on table public.contact_messages to service_role;

/**
  ---------------------------------------------------------------------------
  Contact messages: delivered in the background, retried with back-off
  ---------------------------------------------------------------------------
  A stored message is the visitor's success; e-mailing it to the business
  happens afterwards, and again later while the mail server is down. Each
  attempt is claimed first: claim_contact_delivery counts it and holds the
  message for the attempt's length (a lease in next_attempt_at), so the
  attempt right after the submit, a retried submit and the scheduled retry
  never send one message at the same time. record_contact_delivery notes
  the outcome: sent, or failed with the reason and when to try again. Both
  use the database's clock and are the service role's only.
 */

create or replace function public.claim_contact_delivery(
	p_message_id uuid,
	p_max_attempts integer,
	p_lease_seconds integer
)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
	with claimed as (
		update public.contact_messages
		set attempts = attempts + 1,
			last_attempt_at = now(),
			next_attempt_at = now() + make_interval(secs => p_lease_seconds)
		where id = p_message_id
			and delivery_status <> 'sent'
			and attempts < p_max_attempts
			and next_attempt_at <= now()
		returning attempts
	)
	select attempts from claimed;
$$;

comment on function public.claim_contact_delivery(uuid, integer, integer) is 'Claims one delivery attempt of an unsent message that is due and has attempts left and answers its number; null when it was sent, is being tried, is not due or ran out of attempts.';

create or replace function public.record_contact_delivery(
	p_message_id uuid,
	p_sent boolean,
	p_error text,
	p_retry_seconds integer
)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
	update public.contact_messages
	set delivery_status = case when p_sent then 'sent' else 'failed' end,
		delivery_error = case when p_sent then null else left(p_error, 500) end,
		next_attempt_at = case when p_sent then next_attempt_at
			else now() + make_interval(secs => p_retry_seconds) end
	where id = p_message_id;
$$;

comment on function public.record_contact_delivery(uuid, boolean, text, integer) is 'Records how a delivery attempt ended: sent, or failed with the reason and the back-off before the next attempt.';

revoke all on function public.claim_contact_delivery(uuid, integer, integer) from public, anon, authenticated;
revoke all on function public.record_contact_delivery(uuid, boolean, text, integer) from public, anon, authenticated;
grant execute on function public.claim_contact_delivery(uuid, integer, integer) to service_role;
grant execute on function public.record_contact_delivery(uuid, boolean, text, integer) to service_role;
