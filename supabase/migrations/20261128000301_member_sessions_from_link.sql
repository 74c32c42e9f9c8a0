/**
  ---------------------------------------------------------------------------
  Members sign in by the e-mailed link only, for at most 30 days
  ---------------------------------------------------------------------------
  A member's session comes from the link (or code) e-mailed to the
  business's address on file: that is what proves the member holds the
  mailbox. The identity service lets any session that came from an e-mailed
  link set a password (PUT /auth/v1/user) without knowing one, and Supabase
  Auth offers no hook to refuse that, so a member could turn a one-hour link
  into a password that still signs in after the mailbox is lost. Member
  access therefore asks how the token's session began: its amr claim must
  hold an e-mailed-link method (GoTrue's otp for the implicit flow and
  verifyOtp, magiclink or recovery for the PKCE flow: the methods GoTrue
  counts as recovery), authenticated less than 30 days ago. A refreshed token
  carries its session's amr, with the time the session was authenticated
  that way, so refreshing does not stretch the 30 days; a password sign-in
  carries amr password and is no member. The functions check the same
  (authenticateMember, MEMBER_SIGN_IN_METHODS and MEMBER_SESSION_DAYS in
  src/features/self-service/self-service.ts).
 */
create or replace function public.member_session_from_link()
returns boolean
language sql
stable
set search_path = ''
as $$
	select coalesce((
		select bool_or(
			a.entry ->> 'method' in ('otp', 'magiclink', 'recovery')
			and jsonb_typeof(a.entry -> 'timestamp') = 'number'
			and to_timestamp((a.entry ->> 'timestamp')::double precision) > now() - interval '30 days'
		)
		from jsonb_array_elements(
			case when jsonb_typeof(auth.jwt() -> 'amr') = 'array' then auth.jwt() -> 'amr' else '[]'::jsonb end
		) a(entry)
	), false);
$$;

comment on function public.member_session_from_link is 'True when the request''s token comes from a session that began with an e-mailed link or code (amr otp, magiclink or recovery) less than 30 days ago: the only sessions that are a business''s member.';

revoke all on function public.member_session_from_link() from public, anon, authenticated;
grant execute on function public.member_session_from_link() to service_role;

/**
  The one member check, as before, and only for a session from the e-mailed
  link (member_session_from_link).
 */
create or replace function public.is_business_member(check_profile_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
	select public.member_session_from_link() and exists (
		select 1
		from public.business_members m
		join public.profiles p on p.id = m.profile_id
		where m.user_id = auth.uid()
			and m.profile_id = check_profile_id
			and p.removed_at is null
			and nullif(lower(btrim(p.email)), '') = m.email
	);
$$;

comment on function public.is_business_member is 'True when the signed-in user is the member of this business (bound to it, its address on file unchanged, not removed) and signed in by the e-mailed link less than 30 days ago.';

revoke all on function public.is_business_member(uuid) from public;
grant execute on function public.is_business_member(uuid) to authenticated, service_role;
