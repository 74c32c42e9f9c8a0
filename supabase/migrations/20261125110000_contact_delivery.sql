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

alter table public.contact_messages
	add column if not exists next_attempt_at timestamptz not null default now();

comment on column public.contact_messages.next_attempt_at is 'When delivery may be tried next: after a failure the back-off, during an attempt the end of its lease.';
comment on column public.contact_messages.attempts is 'Delivery attempts so far (the one after the submit, retried submits, the scheduled retry).';

create index if not exists contact_messages_due_idx
	on public.contact_messages (tenant_id, next_attempt_at) where delivery_status <> 'sent';

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
