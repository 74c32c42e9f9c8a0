import { useStore } from '@nanostores/react';
import { format } from 'date-fns/format';
import { useCallback, useEffect, useId, useState } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import { chamberTimeZone } from '../config/time-zone.ts';
import type { WaitingChange } from '../publish/policy.ts';
import WaitingList from '../publish/WaitingList.tsx';
import {
	$requestCount,
	loadRequests,
	refreshRequestCount,
	requestsApi,
	type StaffApi,
} from './store.ts';
import { formatHoursText, isOpeningHours } from '../business/hours/hours.ts';
import { fieldLabel, requestDiff, type MemberRequest } from './self-service.ts';
import './self-service.css';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import { ColumnHeads } from '../ui/ColumnHeads.tsx';

const when = (iso: string) => format(new Date(iso), 'MMM d, yyyy HH:mm');

/** The count of waiting requests beside the tab's name; nothing when none wait. */
export function RequestCountBadge(deps: StaffApi) {
	const count = useStore($requestCount);
	const { getAccessToken, chamber } = deps;
	useEffect(() => {
		void refreshRequestCount({ getAccessToken, chamber });
	}, [getAccessToken, chamber]);
	if (!count) return null;
	return (
		<span className="requests-badge" aria-label={`${count} waiting`}>
			{count}
		</span>
	);
}

/** A field's value as staff edit it in 'Edit and approve': text, or one entry a line. */
function toText(field: string, value: unknown): string {
	if (field === 'categories' && Array.isArray(value)) return value.join('\n');
	if (field === 'hours') {
		return isOpeningHours(value) ? formatHoursText(value).replaceAll('; ', '\n') : '';
	}
	if (field === 'social_media' && Array.isArray(value)) {
		return value
			.map((l: { platform: string; url: string }) => `${l.platform}: ${l.url}`)
			.join('\n');
	}
	if (typeof value === 'string') return value;
	return JSON.stringify(value, null, 2);
}

function fromText(field: string, text: string, original: unknown): unknown {
	// The hours' text form: the Members tab's schema reads it when the approval is sent.
	if (field === 'hours') return text;
	if (field === 'categories')
		return text
			.split('\n')
			.map((l) => l.trim())
			.filter(Boolean);
	if (field === 'social_media') {
		return text
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean)
			.map((line) => {
				const at = line.indexOf(':');
				return { platform: line.slice(0, at).trim(), url: line.slice(at + 1).trim() };
			});
	}
	if (typeof original === 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

type Mode =
	| { kind: 'view' }
	| { kind: 'edit'; texts: Record<string, string> }
	| { kind: 'return'; note: string };

function RequestCard({
	request,
	deps,
	onDone,
}: {
	request: MemberRequest;
	deps: StaffApi;
	onDone(message: string): void;
}) {
	const ids = useId();
	const [mode, setMode] = useState<Mode>({ kind: 'view' });
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const { submission, business } = request;

	async function approve(changes?: Record<string, unknown>) {
		setBusy(true);
		setError(null);
		const answer = await requestsApi(deps, `/${submission.id}/approve`, {
			version: business.version,
			...(changes ? { changes } : {}),
		});
		setBusy(false);
		if (answer.status === 200) {
			onDone(`Approved the update of ${business.name}: it is published with the next build.`);
			return;
		}
		const conflicts = answer.body.conflicts as { field: string }[] | undefined;
		setError(
			conflicts
				? `Someone changed ${conflicts.map((c) => fieldLabel(c.field).toLowerCase()).join(', ')} of this listing since: reload to see the new values.`
				: String(answer.body.error ?? 'The request could not be approved.'),
		);
	}

	async function returnRequest(note: string) {
		setBusy(true);
		setError(null);
		const answer = await requestsApi(deps, `/${submission.id}/return`, { note });
		setBusy(false);
		if (answer.status === 200) onDone(`Returned the update of ${business.name} to the member.`);
		else setError(String(answer.body.error ?? 'The request could not be returned.'));
	}

	return (
		<article className="request-card" aria-labelledby={`${ids}-title`}>
			<h3 id={`${ids}-title`}>{business.name}</h3>
			<p className="admin-field__hint">
				From {submission.memberEmail}, {when(submission.submittedAt)}
			</p>
			<table className="request-diff">
				<caption className="sr-only">Changes requested for {business.name}</caption>
				<ColumnHeads names={['Field', 'On the site', 'Requested']} />
				<tbody>
					{requestDiff(request).map((line) => (
						<tr key={line.field}>
							<th scope="row">{line.label}</th>
							<td className="request-diff__live">
								{line.live.map((text, i) => (
									<div key={i}>{text}</div>
								))}
							</td>
							<td className="request-diff__requested">
								{line.requested.map((text, i) => (
									<div key={i}>{text}</div>
								))}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<ErrorBanner error={error} />
			{mode.kind === 'edit' && (
				<div className="request-edit">
					{Object.keys(submission.changes).map((field) => (
						<div className="admin-field" key={field}>
							<label htmlFor={`${ids}-${field}`}>{fieldLabel(field)}</label>
							<textarea
								id={`${ids}-${field}`}
								rows={field === 'website' || field === 'work_phone' || field === 'logo_url' ? 1 : 5}
								value={mode.texts[field] ?? ''}
								onChange={(e) =>
									setMode({ kind: 'edit', texts: { ...mode.texts, [field]: e.target.value } })
								}
							/>
						</div>
					))}
				</div>
			)}
			{mode.kind === 'return' && (
				<div className="admin-field">
					<label htmlFor={`${ids}-note`}>Note to the member</label>
					<textarea
						id={`${ids}-note`}
						rows={3}
						maxLength={2000}
						value={mode.note}
						onChange={(e) => setMode({ kind: 'return', note: e.target.value })}
					/>
				</div>
			)}
			<div className="request-actions">
				{mode.kind === 'view' && (
					<>
						<button
							type="button"
							className="admin-button"
							disabled={busy}
							onClick={() => void approve()}
						>
							Approve
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							disabled={busy}
							onClick={() =>
								setMode({
									kind: 'edit',
									texts: Object.fromEntries(
										Object.entries(submission.changes).map(([f, v]) => [f, toText(f, v)]),
									),
								})
							}
						>
							Edit and approve
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							disabled={busy}
							onClick={() => setMode({ kind: 'return', note: '' })}
						>
							Return with a note
						</button>
					</>
				)}
				{mode.kind === 'edit' && (
					<button
						type="button"
						className="admin-button"
						disabled={busy}
						onClick={() =>
							void approve(
								Object.fromEntries(
									Object.entries(submission.changes).map(([f, v]) => [
										f,
										fromText(f, mode.texts[f] ?? '', v),
									]),
								),
							)
						}
					>
						Approve with my edits
					</button>
				)}
				{mode.kind === 'return' && (
					<button
						type="button"
						className="admin-button"
						disabled={busy || mode.note.trim() === ''}
						onClick={() => void returnRequest(mode.note)}
					>
						Return request
					</button>
				)}
				{mode.kind !== 'view' && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						onClick={() => setMode({ kind: 'view' })}
					>
						Cancel
					</button>
				)}
			</div>
		</article>
	);
}

type Load =
	| { kind: 'loading' }
	| { kind: 'failed'; error: string }
	| { kind: 'ready'; requests: MemberRequest[] };

/**
 * The Requests tab: each member's pending update of its listing as a field-by-field diff against
 * the live listing, with Approve (applied as this staff member's edit, published, the member
 * e-mailed), Edit and approve, and Return with a note.
 */
export default function RequestsTab({ chamber, client, config, getAccessToken }: AdminTabProps) {
	const [load, setLoad] = useState<Load>({ kind: 'loading' });
	const [message, setMessage] = useState<string | null>(null);
	const [waiting, setWaiting] = useState<WaitingChange[]>([]);

	// Members' own saves that went live without review and wait for the publish window (RLS: the
	// chamber's staff read them).
	useEffect(() => {
		let live = true;
		void client
			.from('waiting_changes')
			.select('id, source, summary, business_id, requested_by_email, created_at, due_at, daily')
			.eq('tenant_id', chamber.id)
			.eq('state', 'waiting')
			.eq('source', 'member')
			.order('due_at', { ascending: true })
			.limit(100)
			.then(({ data }) => {
				if (!live || !data) return;
				setWaiting(
					data.map((row) => ({
						id: Number(row.id),
						source: 'member',
						summary: row.summary,
						businessId: row.business_id,
						requestedBy: row.requested_by_email,
						createdAt: row.created_at,
						dueAt: row.due_at,
						daily: row.daily,
					})),
				);
			});
		return () => {
			live = false;
		};
	}, [client, chamber.id, message]);
	const reload = useCallback(
		() =>
			loadRequests({ getAccessToken, chamber: chamber.key }).then((list) =>
				setLoad(
					typeof list === 'string'
						? { kind: 'failed', error: list }
						: { kind: 'ready', requests: list.requests },
				),
			),
		[getAccessToken, chamber.key],
	);

	useEffect(() => {
		let live = true;
		loadRequests({ getAccessToken, chamber: chamber.key }).then((list) => {
			if (!live) return;
			setLoad(
				typeof list === 'string'
					? { kind: 'failed', error: list }
					: { kind: 'ready', requests: list.requests },
			);
		});
		return () => {
			live = false;
		};
	}, [getAccessToken, chamber.key]);

	return (
		<div className="requests-tab">
			<p className="admin-section__note">
				Members' updates of their own listings. Approving one saves it as your change of the listing
				and publishes it; the member is told by e-mail either way.
			</p>
			{waiting.length > 0 && (
				<section aria-labelledby="requests-waiting-title">
					<h3 id="requests-waiting-title">Live without review, waiting for a publish</h3>
					<WaitingList waiting={waiting} timeZone={chamberTimeZone(config)} />
				</section>
			)}
			{message && (
				<p className="admin-banner admin-banner--success" role="status">
					{message}
				</p>
			)}
			{load.kind === 'loading' && (
				<p className="admin-status" role="status">
					Loading the requests...
				</p>
			)}
			{load.kind === 'failed' && <ErrorBanner error={load.error} />}
			{load.kind === 'ready' && load.requests.length === 0 && <p>No requests are waiting.</p>}
			{load.kind === 'ready' &&
				load.requests.map((request) => (
					<RequestCard
						key={`${request.submission.id}-${request.submission.submittedAt}`}
						request={request}
						deps={{ getAccessToken, chamber: chamber.key }}
						onDone={(text) => {
							setMessage(text);
							void reload();
						}}
					/>
				))}
		</div>
	);
}
