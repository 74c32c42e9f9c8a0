/**
  ---------------------------------------------------------------------------
  Timeouts on the API roles: no statement runs away, no transaction idles
  ---------------------------------------------------------------------------
  A statement that runs for minutes holds its connection and its locks, and
  a client that opens a transaction and goes quiet holds its locks until it
  comes back. Both are ended by the database on the roles the API uses:
  PostgREST logs in as authenticator (its settings apply to the session) and
  applies the impersonated role's own settings in each request's transaction.

  - anon 3 s and authenticated 8 s: a hosted project's own defaults, set here
    too so a plain PostgreSQL (DATABASE_URL) behaves the same.
  - service_role 5 minutes: the import writes a whole chamber in one call;
    without its own setting it would inherit authenticator's 8 s.
  - idle in a transaction for 60 s: the session is ended (SQLSTATE 25P03).

  The postgres role may set these on a hosted project (supautils lets it
  configure the API roles). PGlite, the embedded database, is skipped: it
  cannot interrupt a statement and spins once
  idle_in_transaction_session_timeout is set; the embedded stack ends idle
  transactions itself (scripts/stack/wire.ts).
 */

do $$
begin
	if version() like '%PGlite%' then
		return;
	end if;

	alter role anon set statement_timeout = '3s';
	alter role authenticated set statement_timeout = '8s';
	alter role service_role set statement_timeout = '5min';
	alter role authenticator set statement_timeout = '8s';

	alter role anon set idle_in_transaction_session_timeout = '60s';
	alter role authenticated set idle_in_transaction_session_timeout = '60s';
	alter role service_role set idle_in_transaction_session_timeout = '60s';
	alter role authenticator set idle_in_transaction_session_timeout = '60s';
end;
$$;
