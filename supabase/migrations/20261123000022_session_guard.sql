/**
  ---------------------------------------------------------------------------
  A signed-out token stops working everywhere, not only at /auth/v1
  ---------------------------------------------------------------------------
  An access token is a signed JWT: PostgREST checks its signature and expiry,
  nothing else, so after a sign-out (or a password change, or a detected
  refresh-token reuse) the token would still read and write through
  /rest/v1 until it expires, up to an hour. The identity service refuses it
  at once (GET /auth/v1/user: session_not_found), because its session row is
  gone. This makes PostgREST refuse it too: a pre-request check (PostgREST's
  db-pre-request) that ends the request with 401 when the token names a
  session that no longer exists. Tokens without a session_id (the anon and
  service keys) pass untouched.

  The same works on hosted Supabase, where GoTrue deletes auth.sessions rows
  on sign-out: `alter role authenticator set pgrst.db_pre_request` is how
  Supabase's docs install a pre-request check (supautils lets the postgres
  role set pgrst.* there). The local stack's PostgREST may connect with
  another login, so scripts/stack/postgrest.ts names the function in
  PGRST_DB_PRE_REQUEST as well. There is one pre-request function per
  PostgREST: add further checks to this one rather than replacing it.
 */

create schema if not exists auth_guard;
comment on schema auth_guard is 'Checks PostgREST makes of every request''s token beyond its signature (db-pre-request). Not exposed as an API schema.';
-- PostgREST calls the check as the request's role.
grant usage on schema auth_guard to anon, authenticated, service_role;

create or replace function auth_guard.check_session() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
	v_session_id text := nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id';
	v_active boolean;
begin
	if v_session_id is null or v_session_id = '' then
		return;
	end if;
	begin
		v_active := v_session_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
			and exists (select 1 from auth.sessions s where s.id = v_session_id::uuid);
	exception when insufficient_privilege then
		-- A project where the function's owner may not read auth.sessions: behave as Supabase does
		-- without the check rather than refuse every request.
		return;
	end;
	if not v_active then
		-- PostgREST's own answer for a token it refuses (v12: PGRST301, 401, WWW-Authenticate).
		raise sqlstate 'PGRST' using
			message = json_build_object(
				'code', 'PGRST301',
				'message', 'JWT session has ended',
				'details', 'The session this token belongs to was signed out',
				'hint', null
			)::text,
			detail = json_build_object(
				'status', 401,
				'headers', json_build_object(
					'WWW-Authenticate',
					'Bearer error="invalid_token", error_description="JWT session has ended"'
				)
			)::text;
	end if;
end;
$$;

comment on function auth_guard.check_session() is 'PostgREST db-pre-request: refuses (401) a token whose session_id names a session that has ended (signed out, password changed, refresh token reused).';
revoke all on function auth_guard.check_session() from public;
grant execute on function auth_guard.check_session() to anon, authenticated, service_role;

do $$
begin
	if exists (select 1 from pg_roles where rolname = 'authenticator') then
		alter role authenticator set pgrst.db_pre_request to 'auth_guard.check_session';
	end if;
end
$$;

notify pgrst, 'reload config';
