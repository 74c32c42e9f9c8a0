/**
  ---------------------------------------------------------------------------
  Logos: a public Storage bucket, who may write it, and the logo field
  ---------------------------------------------------------------------------
  The admin panel's Logos tab uploads a chamber's
  standard logo, stacked logo and favicon through supabase-js's storage client
  with the user's own token, so Storage judges every write by the policies
  below (row-level security on storage.objects), as it judges a direct call.

  Objects are named {tenant id}/{logo type}-{random}.{ext}: the first folder
  says whose logo it is, and every upload gets a new name, so no CDN or browser
  ever shows an old logo under a new configuration (and the live site keeps its
  old logo until the build with the new one is live).
 */

/**
  ---------------------------------------------------------------------------
  The bucket: created only where missing (a hosted project may have it)
  ---------------------------------------------------------------------------
  Public: the site's pages and the panel show logos by their public URL.
  5 MB and the logos' image types are also the bucket's own limits,
  so Storage refuses anything else even when called directly.
 */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
	'logos',
	'logos',
	true,
	5242880,
	array['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon']
)
on conflict (id) do nothing;

/**
  ---------------------------------------------------------------------------
  Policies on storage.objects
  ---------------------------------------------------------------------------
  A chamber's admins (and super_admins, who hold that role in every chamber)
  may add, replace, list and remove the objects under their chamber's folder;
  editors and other chambers' admins may not (Upload Logos).
  Reading a public bucket's files by their public URL needs no policy.
 */

/** Whether an object of the logos bucket lies in a folder of a chamber the user administers. */
create or replace function public.may_manage_logo(p_bucket_id text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select p_bucket_id = 'logos' and exists (
		select 1
		from public.tenants t
		where t.id::text = (storage.foldername(p_name))[1]
			and public.has_tenant_role(t.id, array['super_admin', 'admin'])
	);
$$;

comment on function public.may_manage_logo is 'True for an object of the logos bucket in the folder ({tenant id}/…) of a chamber the signed-in user is an admin or super_admin of.';

revoke all on function public.may_manage_logo(text, text) from public;
grant execute on function public.may_manage_logo(text, text) to authenticated, service_role;

drop policy if exists "Chamber admins can upload their chamber's logos" on storage.objects;
create policy "Chamber admins can upload their chamber's logos" on storage.objects
	for insert to authenticated
	with check (public.may_manage_logo(bucket_id, name));

drop policy if exists "Chamber admins can replace their chamber's logos" on storage.objects;
create policy "Chamber admins can replace their chamber's logos" on storage.objects
	for update to authenticated
	using (public.may_manage_logo(bucket_id, name))
	with check (public.may_manage_logo(bucket_id, name));

drop policy if exists "Chamber admins can list their chamber's logos" on storage.objects;
create policy "Chamber admins can list their chamber's logos" on storage.objects
	for select to authenticated
	using (public.may_manage_logo(bucket_id, name));

drop policy if exists "Chamber admins can remove their chamber's logos" on storage.objects;
create policy "Chamber admins can remove their chamber's logos" on storage.objects
	for delete to authenticated
	using (public.may_manage_logo(bucket_id, name));

/**
  ---------------------------------------------------------------------------
  set_chamber_logo: one logo type of the configuration, as the caller
  ---------------------------------------------------------------------------
  Sets logo.{standard|stacked|favicon} with jsonb_set in one UPDATE, so two
  uploads of different types never overwrite each other. Security invoker:
  row-level security and the role trigger (migration 030: the logo section is
  for admins) judge it as they judge any write of the user.
 */
create or replace function public.set_chamber_logo(p_tenant_id uuid, p_type text, p_url text)
returns timestamptz
language plpgsql
security invoker
set search_path = ''
as $$
declare
	v_updated_at timestamptz;
begin
	if p_type is null or p_type not in ('standard', 'stacked', 'favicon') then
		raise exception 'Unknown logo type: %', p_type using errcode = '22023';
	end if;
	if p_url is null or p_url !~ '^https?://' then
		raise exception 'A logo is an http(s) URL' using errcode = '22023';
	end if;
	update public.chamber_config
	set logo = jsonb_set(coalesce(logo, '{}'::jsonb), array[p_type], to_jsonb(p_url), true)
	where tenant_id = p_tenant_id
	returning updated_at into v_updated_at;
	if v_updated_at is null then
		raise exception 'You cannot change this chamber''s configuration' using errcode = '42501';
	end if;
	return v_updated_at;
end;
$$;

comment on function public.set_chamber_logo is 'Sets one logo URL (standard, stacked or favicon) of a chamber''s configuration as the caller: RLS and the role trigger judge it.';

revoke all on function public.set_chamber_logo(uuid, text, text) from public;
grant execute on function public.set_chamber_logo(uuid, text, text) to authenticated, service_role;
