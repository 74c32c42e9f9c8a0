/**
  ---------------------------------------------------------------------------
  Announcements: short notices of the chamber
  ---------------------------------------------------------------------------
  Admins post them; visitors read the published ones.
 */
create table if not exists public.announcements (
	id uuid primary key default gen_random_uuid(),
	tenant_id uuid not null references public.tenants (id) on delete cascade,
	title text not null check (char_length(title) between 1 and 200),
	published boolean not null default false,
	created_at timestamptz not null default now()
);

comment on table public.announcements is 'Short notices a chamber''s admins post; visitors read the published ones.';

alter table public.announcements enable row level security;

create policy "Anyone can read published announcements" on public.announcements
	for select to anon, authenticated using (published);
create policy "Chamber staff can read their announcements" on public.announcements
	for select to authenticated using (public.has_tenant_role(tenant_id));
create policy "Chamber admins can post announcements" on public.announcements
	for insert to authenticated
	with check (public.has_tenant_role(tenant_id, array['super_admin', 'admin']));

grant select on public.announcements to anon, authenticated;
grant insert on public.announcements to authenticated;
grant all on public.announcements to service_role;

create or replace function public.announcements_audit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
	v_actor record;
begin
	select * into v_actor from public.audit_actor(new.tenant_id);
	insert into public.audit_log (tenant_id, actor_id, actor_email, actor_role, section, field, old_value, new_value)
	values (new.tenant_id, v_actor.actor_id, v_actor.actor_email, v_actor.actor_role, 'announcements', new.id::text, null, to_jsonb(new.title));
	return null;
end;
$$;

comment on function public.announcements_audit is 'Trigger: an audit_log row when an announcement is posted.';

revoke all on function public.announcements_audit() from public, anon, authenticated;

create trigger announcements_audit after insert on public.announcements
	for each row execute function public.announcements_audit();
