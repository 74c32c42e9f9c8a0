/**
  ---------------------------------------------------------------------------
  A member reads its own business's statistics
  ---------------------------------------------------------------------------
  The counters carry their business's id; a signed-in member (bound to its
  business, is_business_member) reads that business's rows and no other.
  The report functions read as the caller, so they answer the member for its
  own business with no change: zeros for every other business.
 */
drop policy if exists "Members can read their own business's statistics" on public.business_stats;
create policy "Members can read their own business's statistics" on public.business_stats
	for select to authenticated
	using (public.is_business_member(business_id));

comment on table public.business_stats is 'Counters per business, day in the chamber''s time zone, and kind (card shown, profile view, each action; search words that led to a view). Added to by /api/stats only; read by the chamber''s admins, and by a member for its own business.';
