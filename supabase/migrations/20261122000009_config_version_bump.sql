/**
  ---------------------------------------------------------------------------
  A configuration change bumps the tenant's `config` cache version
  ---------------------------------------------------------------------------
  Functions keep the chamber configuration per instance for as long as the
  `config` version stays the same (getCachedChamberConfig), and CDN cache keys
  carry that version. So every real change of a chamber_config row bumps it,
  in the same transaction, whoever makes the change: the tenant import (whose
  upsert only updates a row that differs) or, later, the admin portal.
 */

create or replace function public.chamber_config_bump_version()
returns trigger
language plpgsql
-- Definer rights: an editor allowed to change the configuration may not write cache_versions
-- directly, but the bump belongs to the change.
security definer
set search_path = ''
as $$
begin
	update public.cache_versions
	set version = version + 1, updated_at = now()
	where tenant_id = new.tenant_id and type = 'config';
	return null;
end;
$$;

comment on function public.chamber_config_bump_version is 'Trigger: bumps the tenant''s config cache version after its chamber_config row changes.';

revoke all on function public.chamber_config_bump_version() from public, anon, authenticated;

drop trigger if exists chamber_config_bump_version_after_update on public.chamber_config;
create trigger chamber_config_bump_version_after_update after update on public.chamber_config
	for each row
	when (old.* is distinct from new.*)
	execute function public.chamber_config_bump_version();
