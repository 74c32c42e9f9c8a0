import { format } from 'date-fns/format';
import { useEffect, useState, type ReactNode } from 'react';
import {
	budgetWarningText,
	monthText,
	NETLIFY_CREDITS,
	type PublishUsage,
	type WaitingChange,
} from './policy.ts';
import { describeChangeValue, type HistoryEntry } from './publish.ts';
import { formatInZone, type ScheduledView } from './schedule.ts';
import ScheduledList from './ScheduledList.tsx';
import WaitingList from './WaitingList.tsx';
import { publishRequested } from './store.ts';
import { ColumnHeads } from '../ui/ColumnHeads.tsx';
import './publish.css';

interface Props {
	getAccessToken(): Promise<string>;
	/** After a restore was saved (the panel reloads its configuration). */
	onRestored?: () => void;
	fetch?: typeof fetch;
	/** The chamber's time zone: scheduled times are on its clock. */
	timeZone?: string;
	/**
	 * 'Restore at…' beside Restore: renders the control that schedules the restore of a kept
	 * configuration; `schedule(at)` does it (true when scheduled).
	 */
	restoreAt?: (entry: HistoryEntry, schedule: (at: string) => Promise<boolean>) => ReactNode;
}

type Load =
	| { kind: 'loading' }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; entries: HistoryEntry[] };

type Notice = { kind: 'success' | 'error'; text: string } | null;

async function errorOf(response: Response, fallback: string): Promise<string> {
	const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
	return typeof body?.error === 'string' ? body.error : fallback;
}

/**
 * The last 20 published configurations (admins and super_admins): when each went live, who asked,
 * what it changed field by field (and who changed it, from the audit log), and 'Restore', which
 * saves that configuration again with the user's own rights and publishes it.
 */
export default function PublishHistory({
	getAccessToken,
	onRestored,
	fetch: doFetch,
	timeZone = 'America/New_York',
	restoreAt,
}: Props) {
	const fetcher = doFetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
	const [load, setLoad] = useState<Load>({ kind: 'loading' });
	const [confirming, setConfirming] = useState<number | null>(null);
	const [restoring, setRestoring] = useState<number | null>(null);
	const [notice, setNotice] = useState<Notice>(null);
	const [version, setVersion] = useState(0);
	const [scheduled, setScheduled] = useState<ScheduledView[]>([]);
	const [month, setMonth] = useState<{ usage: PublishUsage; waiting: WaitingChange[] } | null>(
		null,
	);

	useEffect(() => {
		let live = true;
		void (async () => {
			try {
				const response = await fetcher('/api/publish-history', {
					headers: { Authorization: `Bearer ${await getAccessToken()}` },
				});
				if (!response.ok) throw new Error(await errorOf(response, 'Failed to load the history'));
				const body = (await response.json()) as { entries: HistoryEntry[] };
				if (live) setLoad({ kind: 'ready', entries: body.entries });
				const plans = await fetcher('/api/publish-schedule', {
					headers: { Authorization: `Bearer ${await getAccessToken()}` },
				});
				if (plans.ok && live) {
					const body = (await plans.json()) as { scheduled?: ScheduledView[] };
					setScheduled(Array.isArray(body.scheduled) ? body.scheduled : []);
				}
				const status = await fetcher('/api/publish-status', {
					headers: { Authorization: `Bearer ${await getAccessToken()}` },
				});
				if (status.ok && live) {
					const body = (await status.json()) as {
						usage?: PublishUsage;
						waiting?: WaitingChange[];
					};
					if (body.usage) setMonth({ usage: body.usage, waiting: body.waiting ?? [] });
				}
			} catch (error) {
				const message = error instanceof Error ? error.message : 'Failed to load the history';
				if (live) setLoad({ kind: 'failed', error: message });
			}
		})();
		return () => {
			live = false;
		};
		// The fetcher and token source of a mounted history do not change; `version` reloads.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [version]);

	async function restore(entry: HistoryEntry) {
		setConfirming(null);
		setRestoring(entry.id);
		setNotice(null);
		try {
			const response = await fetcher('/api/publish-restore', {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${await getAccessToken()}`,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify({ publishId: entry.id }),
			});
			if (!response.ok) throw new Error(await errorOf(response, 'Failed to restore'));
			setNotice({
				kind: 'success',
				text: `Restored the configuration published ${when(entry.publishedAt)}. Publishing…`,
			});
			publishRequested();
			onRestored?.();
			setVersion((v) => v + 1);
		} catch (error) {
			setNotice({
				kind: 'error',
				text: error instanceof Error ? error.message : 'Failed to restore',
			});
		} finally {
			setRestoring(null);
		}
	}

	async function cancelScheduled(id: number) {
		setNotice(null);
		const response = await fetcher(`/api/publish-schedule?id=${id}`, {
			method: 'DELETE',
			headers: { Authorization: `Bearer ${await getAccessToken()}` },
		});
		if (!response.ok) {
			setNotice({ kind: 'error', text: await errorOf(response, 'Failed to cancel') });
		} else {
			setNotice({ kind: 'success', text: 'The scheduled publish is cancelled.' });
			publishRequested();
		}
		setVersion((v) => v + 1);
	}

	async function scheduleRestore(entry: HistoryEntry, at: string): Promise<boolean> {
		setNotice(null);
		const response = await fetcher('/api/publish-restore', {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${await getAccessToken()}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({ publishId: entry.id, at }),
		});
		if (!response.ok) {
			setNotice({ kind: 'error', text: await errorOf(response, 'Failed to schedule the restore') });
			return false;
		}
		const body = (await response.json()) as { scheduled: ScheduledView };
		setNotice({
			kind: 'success',
			text: `The configuration published ${when(entry.publishedAt)} is restored ${formatInZone(body.scheduled.runAt, timeZone)}.`,
		});
		setConfirming(null);
		publishRequested();
		setVersion((v) => v + 1);
		return true;
	}

	return (
		<section className="publish-history" aria-labelledby="publish-history-title">
			{month && (
				<section aria-labelledby="publish-month-title">
					<h2 id="publish-month-title">This month</h2>
					<p>
						{monthText(month.usage)} (each publish is a production deploy on Netlify,{' '}
						{NETLIFY_CREDITS.deploy} credits: {month.usage.used * NETLIFY_CREDITS.deploy} so far).
					</p>
					{month.usage.used >= month.usage.warnAt && (
						<p className="publish-status__month--warning">{budgetWarningText(month.usage)}</p>
					)}
					{month.waiting.length > 0 ? (
						<>
							<h3>Waiting for a publish</h3>
							<WaitingList waiting={month.waiting} timeZone={timeZone} />
						</>
					) : (
						<p>Nothing waits for a publish.</p>
					)}
				</section>
			)}
			{scheduled.length > 0 && (
				<section aria-labelledby="publish-scheduled-title">
					<h2 id="publish-scheduled-title">Scheduled</h2>
					<ScheduledList scheduled={scheduled} timeZone={timeZone} onCancel={cancelScheduled} />
				</section>
			)}
			<h2 id="publish-history-title">Published Configurations</h2>
			{notice && (
				<p
					className={`admin-notice admin-notice--${notice.kind}`}
					role={notice.kind === 'error' ? 'alert' : 'status'}
				>
					{notice.text}
				</p>
			)}
			{load.kind === 'loading' && <p role="status">Loading history…</p>}
			{load.kind === 'failed' && <p role="alert">{load.error}</p>}
			{load.kind === 'ready' && load.entries.length === 0 && (
				<p>No configuration has been published from the panel yet.</p>
			)}
			{load.kind === 'ready' &&
				load.entries.map((entry, index) => (
					<article
						key={entry.id}
						className="publish-history__entry"
						aria-labelledby={`publish-${entry.id}`}
					>
						<h3 id={`publish-${entry.id}`}>
							Published {when(entry.publishedAt)}
							{entry.requestedBy ? ` by ${entry.requestedBy}` : ''}
							{index === 0 ? ' (live now)' : ''}
						</h3>
						{entry.reason && <p>{entry.reason}</p>}
						{entry.baseline ? (
							<p>The oldest configuration kept: nothing older to compare it with.</p>
						) : entry.changes.length === 0 ? (
							<p>No configuration changes (published again as it was).</p>
						) : (
							<table>
								<caption className="sr-only">Changes published {when(entry.publishedAt)}</caption>
								<ColumnHeads names={['Section', 'Field', 'Before', 'After', 'Changed by']} />
								<tbody>
									{entry.changes.map((change) => (
										<tr key={`${change.section}.${change.field}`}>
											<td>{change.section}</td>
											<td>{change.field}</td>
											<td>{describeChangeValue(change.before)}</td>
											<td>{describeChangeValue(change.after)}</td>
											<td>{change.changedBy.join(', ') || '—'}</td>
										</tr>
									))}
								</tbody>
							</table>
						)}
						{index > 0 &&
							(confirming === entry.id ? (
								<p>
									Restore this configuration? Everything published after it is replaced.{' '}
									<button
										type="button"
										className="publish-history__restore"
										onClick={() => void restore(entry)}
									>
										Yes, restore
									</button>{' '}
									{restoreAt?.(entry, (at) => scheduleRestore(entry, at))}{' '}
									<button
										type="button"
										className="publish-history__restore"
										onClick={() => setConfirming(null)}
									>
										Cancel
									</button>
								</p>
							) : (
								<button
									type="button"
									className="publish-history__restore"
									disabled={restoring !== null}
									aria-label={`Restore the configuration published ${when(entry.publishedAt)}`}
									onClick={() => setConfirming(entry.id)}
								>
									{restoring === entry.id ? 'Restoring…' : 'Restore'}
								</button>
							))}
					</article>
				))}
		</section>
	);
}

function when(iso: string): string {
	return format(new Date(iso), 'MMM d, yyyy, HH:mm');
}
