import type { SupabaseClient } from '../../../lib/database.ts';
import { useEffect, useId, useState } from 'react';
import type { AdminTabProps } from '../../admin/admin.ts';
import { callApi } from '../../ui/api.ts';
import ImportJobView from '../import/ImportJobView.tsx';
import { formatSummary, fullCounts, IMPORT_JOB_COLUMNS, type ImportJob } from '../import/import.ts';
import { useImportJob } from '../import/useImportJob.ts';
import '../import/import.css';
import ErrorBanner from '../../admin/ErrorBanner.tsx';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';

interface SyncStatus {
	configured: boolean;
	schedule: string;
	missing: 'keep' | 'unpublish' | null;
}

/** The report kept for the chamber: its last 20 syncs, newest first. */
async function readRuns(client: SupabaseClient, tenantId: string): Promise<ImportJob[]> {
	const { data } = await client
		.from('member_imports')
		.select(IMPORT_JOB_COLUMNS)
		.eq('tenant_id', tenantId)
		.eq('kind', 'sync')
		.order('created_at', { ascending: false })
		.limit(20)
		.overrideTypes<ImportJob[], { merge: false }>();
	return data ?? [];
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const STATE_NAMES: Partial<Record<ImportJob['state'], string>> = {
	applied: 'Applied',
	failed: 'Failed',
	discarded: 'Discarded',
	previewed: 'Waiting for a person to apply',
	needs_mapping: 'Waiting for its columns to be mapped',
};

/**
 * The sync from the membership system: whether it is set up, "Sync now" (previewed like a file
 * and applied when the person says so), and the report of the last 20 runs, scheduled or by hand.
 * Mount it in the Members tab with the tab's props.
 */
export default function SyncPanel({ chamber, client, getAccessToken }: AdminTabProps) {
	const { job, latest, reload, dismiss, started } = useImportJob(client, chamber.id, 'sync');
	const [status, setStatus] = useState<SyncStatus | null>(null);
	const [runs, setRuns] = useState<ImportJob[]>([]);
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const id = useId();

	useEffect(() => {
		let live = true;
		void callApi<SyncStatus>(
			`/api/member-sync?chamber=${encodeURIComponent(chamber.key)}`,
			getAccessToken,
			{
				fallback: 'The sync settings could not be read.',
			},
		).then((result) => {
			if (!live) return;
			if (result.ok) setStatus(result.data);
			else setError(result.error);
		});
		return () => {
			live = false;
		};
	}, [chamber.key, getAccessToken]);

	useEffect(() => {
		let live = true;
		void readRuns(client, chamber.id).then((next) => live && setRuns(next));
		return () => {
			live = false;
		};
	}, [client, chamber.id, latest?.state, latest?.id]);

	async function syncNow() {
		setBusy(true);
		setError(null);
		const result = await callApi(`/api/member-sync`, getAccessToken, {
			json: { chamber: chamber.key },
			fallback: 'The sync could not be started.',
		});
		setBusy(false);
		if (!result.ok) setError(result.error);
		else started();
	}

	return (
		<section className="member-sync" aria-labelledby={`${id}-title`}>
			<h3 id={`${id}-title`}>Sync from the membership system</h3>
			{status && !status.configured && (
				<p>
					No membership system is set up for this site. Ask whoever deploys it to set
					ATLAS_MEMBERS_URL and the client credentials (see the deploy guide).
				</p>
			)}
			{status?.configured && (
				<p>
					Syncs {status.schedule === '@daily' ? 'every day' : `on the schedule ${status.schedule}`}{' '}
					from MemberClicks Atlas; fields changed here are kept. Members the membership system no
					longer lists are {status.missing === 'keep' ? 'kept' : 'unpublished'} by the scheduled
					sync.
				</p>
			)}
			<ErrorBanner error={error} />
			{job && job.state !== 'applied' && job.state !== 'failed' ? (
				<ImportJobView
					job={job}
					client={client}
					getAccessToken={getAccessToken}
					onChanged={() => void reload()}
					onDone={dismiss}
				/>
			) : (
				<button
					type="button"
					className="admin-button"
					disabled={busy || !status?.configured}
					onClick={() => void syncNow()}
				>
					Sync now
				</button>
			)}
			<h4>Last syncs</h4>
			{runs.length === 0 ? (
				<p>No sync has run yet.</p>
			) : (
				<table className="member-import__table member-sync__runs">
					<ColumnHeads names={['Started', 'Source', 'Outcome']} />
					<tbody>
						{runs.map((run) => (
							<tr key={run.id}>
								<td>{when.format(new Date(run.created_at))}</td>
								<td>{run.source}</td>
								<td>
									{STATE_NAMES[run.state] ?? 'Running'}
									{run.state === 'failed' && run.error ? `: ${run.error}` : ''}
									{run.previewed_at ? ` — ${formatSummary(fullCounts(run.counts))}` : ''}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	);
}
