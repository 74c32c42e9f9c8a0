import type { SupabaseClient } from '../../../lib/database.ts';
import { useCallback, useEffect, useState } from 'react';
import { publishRequested } from '../../publish/store.ts';
import { IMPORT_JOB_COLUMNS, WORKING_STATES, type ImportJob } from './import.ts';

/** How often the panel reads a running import's progress. */
const POLL_MS = 1000;

/**
 * The chamber's newest import of a kind, read with the user's token (RLS: its admins), and read
 * again every second while the background function works on it: the progress lives in the
 * database, so a reload (or another admin's browser) shows the same import where it is.
 */
export function useImportJob(client: SupabaseClient, tenantId: string, kind: 'file' | 'sync') {
	const [job, setJob] = useState<ImportJob | null>(null);
	const [loaded, setLoaded] = useState(false);
	const [dismissed, setDismissed] = useState<string | null>(null);

	const reload = useCallback(async () => {
		const { data } = await client
			.from('member_imports')
			.select(IMPORT_JOB_COLUMNS)
			.eq('tenant_id', tenantId)
			.eq('kind', kind)
			.order('created_at', { ascending: false })
			.limit(1)
			.overrideTypes<ImportJob[], { merge: false }>();
		const next = data?.[0] ?? null;
		setJob((previous) => {
			// An applied import waits for the publish window: the header's status shows it at once.
			if (previous?.id === next?.id && previous?.live_by === null && next?.live_by) {
				publishRequested();
			}
			return next;
		});
		setLoaded(true);
	}, [client, tenantId, kind]);

	useEffect(() => {
		void reload();
	}, [reload]);

	// An applied import is collected for the publish window right after; read it once more to show that.
	const working =
		job !== null &&
		(WORKING_STATES.includes(job.state) ||
			(job.state === 'applied' &&
				job.live_by === null &&
				Date.now() - Date.parse(job.updated_at) < 60_000));
	useEffect(() => {
		if (!working) return;
		const timer = setTimeout(() => void reload(), POLL_MS);
		return () => clearTimeout(timer);
	}, [working, job, reload]);

	// An import that waits for a person (or is being worked on) is shown whenever the panel
	// opens; its outcome only to the page that followed it, not every time the tab is opened.
	const [followed, setFollowed] = useState<string | null>(null);
	const open = job !== null && !['applied', 'failed', 'discarded'].includes(job.state);
	if (open && followed !== job.id) setFollowed(job.id);
	const shown = job && job.id !== dismissed && (open || job.id === followed) ? job : null;
	return {
		job: shown,
		/** The newest import, even one the person closed (for the sync's report). */
		latest: job,
		loaded,
		reload,
		dismiss: () => setDismissed(job?.id ?? null),
		/** An import was queued: show it. */
		started: () => {
			setDismissed(null);
			void reload();
		},
	};
}
