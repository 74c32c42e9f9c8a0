import { useEffect, useId, useState, type SubmitEvent } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import { SelectField } from '../admin/fields.tsx';
import { formatWhen, localLabel } from './EventEditor.tsx';
import {
	SUBMISSION_STATUSES,
	type ReviewAnswer,
	type SubmissionRow,
	type SubmissionStatus,
	type SubmittedField,
} from './submissions.ts';
import { eventsApi, type EventsDeps } from './store.ts';

/**
 * The community's submissions in the Events tab (the chamber's staff): each waiting event as
 * submitted, and approve it (a published community event at once), edit it and approve, or
 * decline it with a note; the submitter is e-mailed either way. Nothing of a submission is
 * public before it is approved.
 */

const STATUS_LABELS: Record<SubmissionStatus, string> = {
	pending: 'Waiting for review',
	approved: 'Approved',
	declined: 'Declined',
};
const STATUS_OPTIONS = SUBMISSION_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

/** The fields staff may edit before approving, as the form shows them. */
const EDITABLE: { field: SubmittedField; label: string; type?: string }[] = [
	{ field: 'name', label: 'Title' },
	{ field: 'starts_local', label: 'Starts', type: 'datetime-local' },
	{ field: 'ends_local', label: 'Ends', type: 'datetime-local' },
	{ field: 'venue', label: 'Venue' },
	{ field: 'address1', label: 'Address' },
	{ field: 'city', label: 'City' },
	{ field: 'state', label: 'State' },
	{ field: 'zip', label: 'ZIP' },
	{ field: 'registration_url', label: 'Registration or information link', type: 'url' },
	{ field: 'contact_email', label: 'Questions to (e-mail)', type: 'email' },
];

type Draft = Record<SubmittedField, string | boolean>;

function draftOf(row: SubmissionRow): Draft {
	const e = row.event;
	return {
		name: e.name,
		description: e.description ?? '',
		all_day: e.all_day ?? false,
		starts_local: e.starts_local,
		ends_local: e.ends_local,
		venue: e.venue ?? '',
		address1: e.address1 ?? '',
		city: e.city ?? '',
		state: e.state ?? '',
		zip: e.zip ?? '',
		registration_url: e.registration_url ?? '',
		contact_email: e.contact_email ?? '',
	};
}

function whenText(row: SubmissionRow): string {
	const { starts_local: start, ends_local: end, all_day: allDay } = row.event;
	if (allDay) {
		const first = localLabel(start).replace(/,? \d+:\d+ [AP]M$/, '');
		const last = localLabel(end).replace(/,? \d+:\d+ [AP]M$/, '');
		return first === last ? `${first}, all day` : `${first} to ${last}, all day`;
	}
	return `${localLabel(start)} to ${localLabel(end)}`;
}

function SubmissionItem({
	row,
	deps,
	onDecided,
}: {
	row: SubmissionRow;
	deps: EventsDeps;
	onDecided(text: string): void;
}) {
	const [mode, setMode] = useState<'view' | 'edit' | 'decline'>('view');
	const [draft, setDraft] = useState<Draft>(() => draftOf(row));
	const [note, setNote] = useState('');
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const id = useId();
	const e = row.event;
	const where = [e.venue, e.address1, e.city, e.state, e.zip].filter(Boolean).join(', ');

	const decide = async (action: 'approve' | 'decline', body: unknown) => {
		setBusy(true);
		setError(null);
		const answer = await eventsApi<ReviewAnswer>(
			deps,
			'POST',
			`/api/admin/event-submissions/${row.id}/${action}`,
			body,
			'The submission could not be decided.',
		);
		setBusy(false);
		if (!answer.ok) {
			setError(answer.error);
			return;
		}
		onDecided(
			answer.data.status === 'approved'
				? `${answer.data.name} is on the community calendar; ${answer.data.submitterName} is told by e-mail.`
				: `${answer.data.name} was declined; ${answer.data.submitterName} is told by e-mail.`,
		);
	};

	const approveEdited = (event: SubmitEvent) => {
		event.preventDefault();
		const original = draftOf(row);
		const changes = Object.fromEntries(
			Object.entries(draft).filter(([field, value]) => original[field as SubmittedField] !== value),
		);
		void decide('approve', { changes, note });
	};

	const set = (field: SubmittedField, value: string | boolean) =>
		setDraft((d) => ({ ...d, [field]: value }));

	return (
		<li className="events-feed" aria-labelledby={`${id}-title`}>
			<h4 id={`${id}-title`}>{e.name}</h4>
			<p>
				{whenText(row)}
				{where && (
					<>
						<br />
						{where}
					</>
				)}
			</p>
			{e.description && <p className="events-submission__text">{e.description}</p>}
			{(e.registration_url || e.contact_email) && (
				<p>
					{e.registration_url && <>Link: {e.registration_url} </>}
					{e.contact_email && <>Questions to: {e.contact_email}</>}
				</p>
			)}
			<p>
				<small>
					Submitted by {row.submitter_name} ({row.submitter_email})
					{row.member_user_id ? ', a member signed in by their link' : ''} on{' '}
					{formatWhen(row.created_at)}
					{row.reviewed_at && (
						<>
							; {STATUS_LABELS[row.status].toLowerCase()} by {row.reviewed_by} on{' '}
							{formatWhen(row.reviewed_at)}
						</>
					)}
				</small>
			</p>
			{row.note && <p>Note to the submitter: {row.note}</p>}
			{row.status === 'approved' && row.event_series_id && (
				<p>
					<small>It is a community event of the Events tab now.</small>
				</p>
			)}
			<ErrorBanner error={error} />
			{row.status === 'pending' && mode === 'view' && (
				<div className="ops-toolbar">
					<button
						type="button"
						className="admin-button"
						disabled={busy}
						onClick={() => void decide('approve', {})}
					>
						Approve
					</button>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={busy}
						onClick={() => setMode('edit')}
					>
						Edit and approve
					</button>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={busy}
						onClick={() => setMode('decline')}
					>
						Decline
					</button>
				</div>
			)}
			{mode === 'edit' && (
				<form
					className="members-filters"
					aria-label={`Edit ${e.name} before approving`}
					onSubmit={approveEdited}
				>
					{EDITABLE.map(({ field, label, type }) => (
						<div className="admin-field" key={field}>
							<label htmlFor={`${id}-${field}`}>{label}</label>
							<input
								id={`${id}-${field}`}
								type={type ?? 'text'}
								value={String(draft[field])}
								required={field === 'name' || field === 'starts_local' || field === 'ends_local'}
								onChange={(event) => set(field, event.target.value)}
							/>
						</div>
					))}
					<div className="admin-field events-repeat">
						<label htmlFor={`${id}-description`}>Description</label>
						<textarea
							id={`${id}-description`}
							rows={4}
							value={String(draft.description)}
							onChange={(event) => set('description', event.target.value)}
						/>
					</div>
					<div className="admin-field events-repeat">
						<label htmlFor={`${id}-edit-note`}>Note to the submitter (optional)</label>
						<textarea
							id={`${id}-edit-note`}
							rows={2}
							maxLength={1000}
							value={note}
							onChange={(event) => setNote(event.target.value)}
						/>
					</div>
					<div className="members-filters__actions">
						<button type="submit" className="admin-button" disabled={busy}>
							Approve with these changes
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							onClick={() => setMode('view')}
						>
							Back
						</button>
					</div>
				</form>
			)}
			{mode === 'decline' && (
				<form
					aria-label={`Decline ${e.name}`}
					onSubmit={(event) => {
						event.preventDefault();
						void decide('decline', { note });
					}}
				>
					<div className="admin-field">
						<label htmlFor={`${id}-note`}>Note to the submitter</label>
						<textarea
							id={`${id}-note`}
							rows={3}
							maxLength={1000}
							value={note}
							onChange={(event) => setNote(event.target.value)}
						/>
					</div>
					<div className="ops-toolbar">
						<button type="submit" className="admin-button" disabled={busy}>
							Decline and tell the submitter
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							onClick={() => setMode('view')}
						>
							Back
						</button>
					</div>
				</form>
			)}
		</li>
	);
}

export default function SubmissionsPanel({
	chamber,
	getAccessToken,
	onClose,
}: AdminTabProps & { onClose(): void }) {
	const [deps] = useState<EventsDeps>(() => ({ chamber: chamber.key, getAccessToken }));
	const [status, setStatus] = useState<SubmissionStatus>('pending');
	const [list, setList] = useState<{ submissions: SubmissionRow[]; pending: number } | null>(null);
	const [error, setError] = useState<string | null>(null);
	const [notice, setNotice] = useState<string | null>(null);
	const titleId = useId();

	const [round, setRound] = useState(0);

	useEffect(() => {
		let live = true;
		void eventsApi<{ submissions: SubmissionRow[]; pending: number }>(
			deps,
			'GET',
			`/api/admin/event-submissions?status=${status}`,
			undefined,
			'The submissions could not be loaded.',
		).then((answer) => {
			if (!live) return;
			if (answer.ok) {
				setList(answer.data);
				setError(null);
			} else setError(answer.error);
		});
		return () => {
			live = false;
		};
	}, [deps, status, round]);

	return (
		<section className="members-tab" aria-labelledby={titleId}>
			<div className="ops-toolbar">
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to events
				</button>
			</div>
			<h3 id={titleId}>Community submissions</h3>
			<p>
				Events visitors sent for the community calendar (the form on /community-events). None is
				public before it is approved; the submitter is e-mailed either way.
			</p>
			<SelectField<SubmissionStatus>
				label="Show"
				value={status}
				options={STATUS_OPTIONS}
				onChange={(value) => setStatus(value)}
			/>
			{notice && (
				<p className="admin-banner admin-banner--success" role="status">
					{notice}
				</p>
			)}
			<ErrorBanner error={error} />
			{list && (
				<p role="status">
					{list.pending} {list.pending === 1 ? 'event waits' : 'events wait'} for review.
				</p>
			)}
			{list && list.submissions.length === 0 && <p>No submission here.</p>}
			{list && list.submissions.length > 0 && (
				<ul className="events-feeds__list">
					{list.submissions.map((row) => (
						<SubmissionItem
							key={row.id}
							row={row}
							deps={deps}
							onDecided={(text) => {
								setNotice(text);
								setRound((n) => n + 1);
							}}
						/>
					))}
				</ul>
			)}
		</section>
	);
}
