/**
  ---------------------------------------------------------------------------
  Supabase Auth's tables, in the shape a hosted project has them
  ---------------------------------------------------------------------------
  On a Supabase project the auth service (GoTrue) owns the auth schema: its
  migrations create these tables as supabase_auth_admin, and the project's own
  migrations may not create or alter anything there. The local stack plays the
  platform's part instead: before the project's migrations it creates the
  tables the identity service (scripts/stack/auth/) and the app use, only where
  they are missing, with GoTrue's columns, defaults, constraints and indexes
  (tests/db/platform-shape.test.ts compares them with supabase/platform-shape.json,
  taken from a hosted-shaped database). Tables GoTrue has and nothing here uses
  (MFA factors, SSO, OAuth clients, flow state, audit log) are left out.

  As on a hosted project, GoTrue writes empty strings, not NULL, into the
  token columns of auth.users, and looks users up by instance_id and aud.
 */

do $$
begin
	if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
		create role supabase_auth_admin nologin noinherit createrole;
	end if;
	if to_regnamespace('auth') is null then
		create schema auth authorization supabase_auth_admin;
	end if;
end
$$;

grant usage on schema auth to anon, authenticated, service_role, supabase_auth_admin;
grant create on schema auth to supabase_auth_admin;

do $$
begin
	if to_regtype('auth.aal_level') is null then
		create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
		alter type auth.aal_level owner to supabase_auth_admin;
	end if;
	if to_regtype('auth.one_time_token_type') is null then
		create type auth.one_time_token_type as enum (
			'confirmation_token', 'reauthentication_token', 'recovery_token', 'email_change_token_new',
			'email_change_token_current', 'phone_change_token'
		);
		alter type auth.one_time_token_type owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.users') is null then
		create table auth.users (
			instance_id uuid,
			id uuid not null,
			aud character varying(255),
			role character varying(255),
			email character varying(255),
			encrypted_password character varying(255),
			email_confirmed_at timestamp with time zone,
			invited_at timestamp with time zone,
			confirmation_token character varying(255),
			confirmation_sent_at timestamp with time zone,
			recovery_token character varying(255),
			recovery_sent_at timestamp with time zone,
			email_change_token_new character varying(255),
			email_change character varying(255),
			email_change_sent_at timestamp with time zone,
			last_sign_in_at timestamp with time zone,
			raw_app_meta_data jsonb,
			raw_user_meta_data jsonb,
			is_super_admin boolean,
			created_at timestamp with time zone,
			updated_at timestamp with time zone,
			phone text default null::character varying,
			phone_confirmed_at timestamp with time zone,
			phone_change text default ''::character varying,
			phone_change_token character varying(255) default ''::character varying,
			phone_change_sent_at timestamp with time zone,
			confirmed_at timestamp with time zone generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
			email_change_token_current character varying(255) default ''::character varying,
			email_change_confirm_status smallint default 0,
			banned_until timestamp with time zone,
			reauthentication_token character varying(255) default ''::character varying,
			reauthentication_sent_at timestamp with time zone,
			is_sso_user boolean default false not null,
			deleted_at timestamp with time zone,
			is_anonymous boolean default false not null,
			constraint users_pkey primary key (id),
			constraint users_phone_key unique (phone),
			constraint users_email_change_confirm_status_check check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)
		);
		comment on table auth.users is 'Auth: Stores user login data within a secure schema.';
		comment on column auth.users.is_sso_user is 'Auth: Set this column to true when the account comes from SSO. These accounts can have duplicate emails.';
		create unique index confirmation_token_idx on auth.users (confirmation_token) where confirmation_token::text !~ '^[0-9 ]*$';
		create unique index email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current::text !~ '^[0-9 ]*$';
		create unique index email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new::text !~ '^[0-9 ]*$';
		create unique index reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token::text !~ '^[0-9 ]*$';
		create unique index recovery_token_idx on auth.users (recovery_token) where recovery_token::text !~ '^[0-9 ]*$';
		create unique index users_email_partial_key on auth.users (email) where is_sso_user = false;
		comment on index auth.users_email_partial_key is 'Auth: A partial unique index that applies only when is_sso_user is false';
		create index users_instance_id_email_idx on auth.users (instance_id, lower(email::text));
		create index users_instance_id_idx on auth.users (instance_id);
		create index users_is_anonymous_idx on auth.users (is_anonymous);
		alter table auth.users enable row level security;
		alter table auth.users owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.identities') is null then
		create table auth.identities (
			provider_id text not null,
			user_id uuid not null references auth.users (id) on delete cascade,
			identity_data jsonb not null,
			provider text not null,
			last_sign_in_at timestamp with time zone,
			created_at timestamp with time zone,
			updated_at timestamp with time zone,
			email text generated always as (lower(identity_data ->> 'email')) stored,
			id uuid default gen_random_uuid() not null,
			constraint identities_pkey primary key (id),
			constraint identities_provider_id_provider_unique unique (provider_id, provider)
		);
		comment on table auth.identities is 'Auth: Stores identities associated to a user.';
		comment on column auth.identities.email is 'Auth: Email is a generated column that references the optional email property in the identity_data';
		create index identities_email_idx on auth.identities (email text_pattern_ops);
		comment on index auth.identities_email_idx is 'Auth: Ensures indexed queries on the email column';
		create index identities_user_id_idx on auth.identities (user_id);
		alter table auth.identities enable row level security;
		alter table auth.identities owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.sessions') is null then
		-- GoTrue's oauth_client_id references auth.oauth_clients, which is left out here.
		create table auth.sessions (
			id uuid not null,
			user_id uuid not null references auth.users (id) on delete cascade,
			created_at timestamp with time zone,
			updated_at timestamp with time zone,
			factor_id uuid,
			aal auth.aal_level,
			not_after timestamp with time zone,
			refreshed_at timestamp without time zone,
			user_agent text,
			ip inet,
			tag text,
			oauth_client_id uuid,
			refresh_token_hmac_key text,
			refresh_token_counter bigint,
			scopes text,
			constraint sessions_pkey primary key (id),
			constraint sessions_scopes_length check (char_length(scopes) <= 4096)
		);
		comment on table auth.sessions is 'Auth: Stores session data associated to a user.';
		comment on column auth.sessions.not_after is 'Auth: Not after is a nullable column that contains a timestamp after which the session should be regarded as expired.';
		comment on column auth.sessions.refresh_token_hmac_key is 'Holds a HMAC-SHA256 key used to sign refresh tokens for this session.';
		comment on column auth.sessions.refresh_token_counter is 'Holds the ID (counter) of the last issued refresh token.';
		create index sessions_not_after_idx on auth.sessions (not_after desc);
		create index sessions_oauth_client_id_idx on auth.sessions (oauth_client_id);
		create index sessions_user_id_idx on auth.sessions (user_id);
		create index user_id_created_at_idx on auth.sessions (user_id, created_at);
		alter table auth.sessions enable row level security;
		alter table auth.sessions owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.mfa_amr_claims') is null then
		-- How each session was started (password, otp, recovery …): the token's amr claim.
		create table auth.mfa_amr_claims (
			session_id uuid not null references auth.sessions (id) on delete cascade,
			created_at timestamp with time zone not null,
			updated_at timestamp with time zone not null,
			authentication_method text not null,
			id uuid not null,
			constraint amr_id_pk primary key (id),
			constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
		);
		comment on table auth.mfa_amr_claims is 'auth: stores authenticator method reference claims for multi factor authentication';
		alter table auth.mfa_amr_claims enable row level security;
		alter table auth.mfa_amr_claims owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.refresh_tokens') is null then
		create table auth.refresh_tokens (
			instance_id uuid,
			id bigserial not null,
			token character varying(255),
			user_id character varying(255),
			revoked boolean,
			created_at timestamp with time zone,
			updated_at timestamp with time zone,
			parent character varying(255),
			session_id uuid references auth.sessions (id) on delete cascade,
			constraint refresh_tokens_pkey primary key (id),
			constraint refresh_tokens_token_unique unique (token)
		);
		comment on table auth.refresh_tokens is 'Auth: Store of tokens used to refresh JWT tokens once they expire.';
		create index refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
		create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
		create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
		create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
		create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);
		alter table auth.refresh_tokens enable row level security;
		alter table auth.refresh_tokens owner to supabase_auth_admin;
	end if;

	if to_regclass('auth.one_time_tokens') is null then
		create table auth.one_time_tokens (
			id uuid not null,
			user_id uuid not null references auth.users (id) on delete cascade,
			token_type auth.one_time_token_type not null,
			token_hash text not null,
			relates_to text not null,
			created_at timestamp without time zone default now() not null,
			updated_at timestamp without time zone default now() not null,
			constraint one_time_tokens_pkey primary key (id),
			constraint one_time_tokens_token_hash_check check (char_length(token_hash) > 0)
		);
		create index one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);
		create index one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
		create unique index one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);
		alter table auth.one_time_tokens enable row level security;
		alter table auth.one_time_tokens owner to supabase_auth_admin;
	end if;
end
$$;

/**
  The claims PostgREST puts in request.jwt.claims, as Supabase defines them.
 */
do $$
begin
	if to_regprocedure('auth.uid()') is null then
		create function auth.uid() returns uuid
		language sql stable
		as $fn$
			select coalesce(
				nullif(current_setting('request.jwt.claim.sub', true), ''),
				(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
			)::uuid
		$fn$;
		alter function auth.uid() owner to supabase_auth_admin;
	end if;
	if to_regprocedure('auth.role()') is null then
		create function auth.role() returns text
		language sql stable
		as $fn$
			select coalesce(
				nullif(current_setting('request.jwt.claim.role', true), ''),
				(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
			)::text
		$fn$;
		alter function auth.role() owner to supabase_auth_admin;
	end if;
	if to_regprocedure('auth.email()') is null then
		create function auth.email() returns text
		language sql stable
		as $fn$
			select coalesce(
				nullif(current_setting('request.jwt.claim.email', true), ''),
				(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
			)::text
		$fn$;
		alter function auth.email() owner to supabase_auth_admin;
	end if;
	if to_regprocedure('auth.jwt()') is null then
		create function auth.jwt() returns jsonb
		language sql stable
		as $fn$
			select coalesce(
				nullif(current_setting('request.jwt.claim', true), ''),
				nullif(current_setting('request.jwt.claims', true), '')
			)::jsonb
		$fn$;
		alter function auth.jwt() owner to supabase_auth_admin;
	end if;
end
$$;
