/**
  ---------------------------------------------------------------------------
  Logos are written by the upload function alone
  ---------------------------------------------------------------------------
  A logo reaches the bucket through POST /api/upload-logo, which reads the
  file's type from its bytes and cleans SVGs of script. An admin's token
  could otherwise put a file straight into the public bucket (an SVG with a
  script, served from the storage origin). So staff may only list their
  chamber's logos; the function writes them with the service role (which
  passes row-level security), after asking the database, as the user,
  whether they may (may_manage_logo).
 */

drop policy if exists "Chamber admins can upload their chamber's logos" on storage.objects;
drop policy if exists "Chamber admins can replace their chamber's logos" on storage.objects;
drop policy if exists "Chamber admins can remove their chamber's logos" on storage.objects;
