/**
  ---------------------------------------------------------------------------
  The build's read of every business, in name order
  ---------------------------------------------------------------------------
  The build reads a whole chamber (profiles, category pages, the sitemap) in
  batches of 1000, ordered by report_name then id, each batch starting after
  the last row of the one before (listAllBusinesses). Without an index in
  that order every batch scanned and sorted all of the chamber's businesses:
  about 1.7 s a batch at 50,000 businesses on PGlite, 88 s in all; with it a
  batch reads its 1000 rows in order and stops. (Reading by offset, as
  before, also built the card record of every skipped row again: minutes.)
 */

-- Only published businesses are ever listed, like every directory index.
create index if not exists profiles_directory_report_name_idx
	on public.profiles (tenant_id, report_name, id) where published;

comment on index public.profiles_directory_report_name_idx is 'The build reads every published business of a chamber by report_name, then id, batch after batch (listAllBusinesses).';
