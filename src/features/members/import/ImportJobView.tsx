import type { SupabaseClient } from '../../../lib/database.ts';
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { callApi } from '../../ui/api.ts';
import { mapsId, MAPPING_TARGETS, TARGET_LABELS } from './fields.ts';
import { MATCH_RULE_LABELS, MATCH_RULES, type MatchRule } from './match.ts';
import {
	fieldLabel,
	formatSummary,
	fullCounts,
	showValue,
	WORKING_STATES,
	type ImportJob,
	type PreviewCandidate,
	type PreviewRow,
	type RowAction,
} from './import.ts';
import './import.css';
import ErrorBanner from '../../admin/ErrorBanner.tsx';
import { $saved } from '../../admin/store.ts';
import { chamberTimeZone } from '../../config/time-zone.ts';
import { liveByText } from '../../publish/policy.ts';
import { ColumnHeads } from '../../ui/ColumnHeads.tsx';

/** The chamber's clock, on which the panel shows times (its saved configuration's zone). */
function chamberZone(): string {
	const saved = $saved.get();
	return saved ? chamberTimeZone(saved) : 'America/New_York';
}

/** How many businesses of each kind the preview lists (the counts say how many there are). */
const LISTED = 100;

interface Props {
	job: ImportJob;
	client: SupabaseClient;
	getAccessToken(): Promise<string>;
	/** The job changed on the server (an action was accepted): read it again. */
	onChanged(): void;
	/** The person is done with this import (applied, failed or discarded). */
	onDone(): void;
}

const number = (n: number | null | undefined) => (n ?? 0).toLocaleString('en-US');

/** The progress bar of a job the background function is working on; survives a reload. */
function Progress({ job }: { job: ImportJob }) {
	const total = job.rows_total ?? 0;
	let text: string;
	let value: number | undefined;
	if (job.state === 'queued') text = 'Waiting to start…';
	else if (job.state === 'reading') {
		text = total > 0 ? `Read ${number(job.rows_read)} rows` : 'Reading the file…';
	} else if (job.state === 'validating') {
		text = `Checked ${number(job.rows_validated)} of ${number(total)} rows`;
		value = job.rows_validated;
	} else {
		const counts = fullCounts(job.counts);
		text = `Applying ${number(counts.added + counts.changed)} changes…`;
	}
	return (
		<div className="member-import__progress">
			<progress
				aria-label="Import progress"
				max={value === undefined ? undefined : Math.max(total, 1)}
				value={value}
			/>
			<p role="status">{text}</p>
		</div>
	);
}

/** The mapping screen: every column of the file, with the field it fills. */
function MappingForm({ job, getAccessToken, onChanged }: Props) {
	const headers = job.headers ?? [];
	const [choices, setChoices] = useState<Record<string, string>>(() =>
		Object.fromEntries(headers.map((h) => [h.header, h.field ?? 'choose'])),
	);
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const id = useId();

	async function submit(event: SubmitEvent) {
		event.preventDefault();
		const unchosen = headers.filter((h) => choices[h.header] === 'choose').map((h) => h.header);
		if (unchosen.length > 0) {
			setError(`Choose a field (or Ignore) for ${unchosen.join(', ')}.`);
			return;
		}
		const used = Object.values(choices).filter((f) => f !== '');
		const twice = used.find((f, i) => used.indexOf(f) !== i);
		if (twice) {
			setError(`Two columns fill ${fieldLabel(twice)}: choose one.`);
			return;
		}
		setBusy(true);
		const result = await callApi(`/api/member-imports/${job.id}/mapping`, getAccessToken, {
			json: { mapping: choices },
			fallback: 'The mapping could not be saved.',
		});
		setBusy(false);
		if (!result.ok) setError(result.error);
		else onChanged();
	}

	return (
		<form onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
			<h4 id={`${id}-title`}>Match the file’s columns</h4>
			<p>
				Some columns of {job.source} have headings we do not know. Choose the field each one fills;
				your choices are saved for this chamber’s next files.
			</p>
			{job.error && <p className="admin-banner admin-banner--info">{job.error}</p>}
			{!mapsId(choices) && (
				<p className="admin-banner admin-banner--info">
					No column holds a membership-system id: rows will be matched to the directory’s businesses
					by e-mail, then website, then name (and city).
				</p>
			)}
			<table className="member-import__table">
				<ColumnHeads names={['Column', 'Examples', 'Field']} />
				<tbody>
					{headers.map((h) => (
						<tr key={h.header}>
							<th scope="row">{h.header}</th>
							<td>{h.samples.join(' · ') || '(empty)'}</td>
							<td>
								<select
									aria-label={`Field for ${h.header}`}
									value={choices[h.header]}
									onChange={(e) => setChoices({ ...choices, [h.header]: e.target.value })}
								>
									<option value="choose" disabled>
										Choose…
									</option>
									<option value="">Ignore this column</option>
									{MAPPING_TARGETS.map((t) => (
										<option key={t} value={t}>
											{TARGET_LABELS[t]}
										</option>
									))}
								</select>
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<ErrorBanner error={error} />
			<button type="submit" className="admin-button" disabled={busy}>
				Save mapping and continue
			</button>
		</form>
	);
}

type Rows = Partial<Record<RowAction | 'kept', PreviewRow[]>>;

const PREVIEW_KINDS = ['invalid', 'confirm', 'add', 'change', 'kept', 'missing'] as const;

async function readPreview(client: SupabaseClient, importId: string): Promise<Rows> {
	const rows: Rows = {};
	// One after another: the embedded stack answers one query at a time anyway.
	for (const kind of PREVIEW_KINDS) {
		const { data } = await client.rpc('member_import_preview', {
			p_import_id: importId,
			p_kind: kind,
			p_limit: LISTED,
		});
		rows[kind] = (data as PreviewRow[] | null) ?? [];
	}
	return rows;
}

function Changes({ row }: { row: PreviewRow }) {
	return (
		<ul>
			{(row.changes ?? []).map((change) => (
				<li key={change.field}>
					<strong>{fieldLabel(change.field)}</strong>:{' '}
					{change.kept ? (
						<>
							kept (changed here) as {showValue(change.before)}; the file has{' '}
							{showValue(change.after)}
						</>
					) : (
						<>
							{showValue(change.before)} → {showValue(change.after)}
						</>
					)}
				</li>
			))}
		</ul>
	);
}

function Listed({
	title,
	count,
	rows,
	render,
}: {
	title: string;
	count: number;
	rows: PreviewRow[] | undefined;
	render(row: PreviewRow): React.ReactNode;
}) {
	if (count === 0) return null;
	const shown = rows ?? [];
	return (
		<section className="member-import__section" aria-label={title}>
			<h4>
				{title} ({number(count)})
			</h4>
			<ul className="member-import__list">
				{shown.map((row) => (
					<li key={row.id}>{render(row)}</li>
				))}
			</ul>
			{rows && count > rows.length && <p>… and {number(count - rows.length)} more.</p>}
		</section>
	);
}

/** How a file without ids matched its rows, in one line ('Matched by e-mail: 3, by name: 1.'). */
function matchedSummary(matched: ImportJob['counts']['matched']): string | null {
	if (!matched) return null;
	const parts = MATCH_RULES.filter((rule) => matched[rule]).map(
		(rule) => `by ${MATCH_RULE_LABELS[rule]}: ${number(matched[rule])}`,
	);
	return parts.length > 0
		? `The file has no membership-system ids; rows matched ${parts.join(', ')}.`
		: 'The file has no membership-system ids, and no row matched a business of the directory.';
}

/** Why a business is a choice of a row to confirm. */
const SAME: Readonly<Record<MatchRule, string>> = {
	id: 'same id',
	email: 'same e-mail',
	website: 'same website',
	name_city: 'same name and city',
	name: 'same name',
	similar_name: 'similar name',
};

/** A choice of a row to confirm, as the person reads it. */
function choiceLabel(c: PreviewCandidate): string {
	if (c.choice === 'new') return 'Add it as a new business';
	const where = [c.city, c.email, c.website].filter(Boolean).join(', ');
	const what =
		c.action === 'unchanged'
			? 'nothing to change'
			: `would change ${(c.changes ?? [])
					.filter((x) => !x.kept)
					.map((x) => fieldLabel(x.field))
					.join(', ')}`;
	const why = c.on ? SAME[c.on] : '';
	return `${c.name ?? '(no name)'}${c.weblink_profile_id ? ` (#${c.weblink_profile_id})` : ''}${where ? `, ${where}` : ''}: ${why}; ${what}`;
}

/** A row to confirm: its businesses, a new one, or skip; each choice is saved as it is made. */
function Confirm({
	row,
	job,
	client,
	onChanged,
}: {
	row: PreviewRow;
	job: ImportJob;
	client: SupabaseClient;
	onChanged(): void;
}) {
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	async function choose(choice: string) {
		setBusy(true);
		setError(null);
		const { error: refused } = await client.rpc('confirm_member_import_row', {
			p_import_id: job.id,
			p_row_id: row.id,
			p_choice: choice,
		});
		setBusy(false);
		if (refused) setError(refused.message);
		else onChanged();
	}
	const choices = [
		...(row.candidates ?? []).map((c) => ({ value: c.choice, label: choiceLabel(c) })),
	];
	choices.push({ value: 'skip', label: 'Skip this row' });
	return (
		<fieldset className="admin-fieldset" disabled={busy}>
			<legend>
				Row {row.row_number}: {row.name ?? '(no name)'}
			</legend>
			{choices.map((c) => (
				<label key={c.value} className="member-import__choice">
					<input
						type="radio"
						name={`confirm-${row.id}`}
						value={c.value}
						checked={row.choice === c.value}
						onChange={() => void choose(c.value)}
					/>{' '}
					{c.label}
				</label>
			))}
			<ErrorBanner error={error} />
		</fieldset>
	);
}

/** The dry run: what applying would do, the choice for missing members, Apply and Discard. */
function Preview({ job, client, getAccessToken, onChanged, onDone }: Props) {
	const counts = fullCounts(job.counts);
	const [rows, setRows] = useState<Rows | null>(null);
	const [missing, setMissing] = useState<'keep' | 'unpublish'>('keep');
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);

	useEffect(() => {
		let live = true;
		void readPreview(client, job.id).then((next) => live && setRows(next));
		return () => {
			live = false;
		};
		// A confirmed row changes the import (its counts and updated_at): read the lists again.
	}, [client, job.id, job.updated_at]);

	async function act(action: 'apply' | 'discard') {
		setBusy(true);
		const result = await callApi(`/api/member-imports/${job.id}/${action}`, getAccessToken, {
			json: action === 'apply' ? { missing } : {},
			fallback:
				action === 'apply'
					? 'The changes could not be applied.'
					: 'The preview could not be discarded.',
		});
		setBusy(false);
		if (!result.ok) setError(result.error);
		else if (action === 'apply') onChanged();
		else onDone();
	}

	const label = (row: PreviewRow) =>
		`${row.name ?? '(no name)'}${row.weblink_profile_id ? ` (#${row.weblink_profile_id})` : ''}${
			row.matched_on && row.matched_on !== 'id'
				? ` — matched by ${MATCH_RULE_LABELS[row.matched_on]}`
				: ''
		}`;
	const matched = matchedSummary(job.counts.matched);
	const toConfirm = counts.confirm ?? 0;
	const labelWithChanges = (row: PreviewRow) => (
		<>
			{label(row)}
			<Changes row={row} />
		</>
	);
	return (
		<div>
			<h4>Preview of {job.source}</h4>
			<p role="status">{formatSummary(counts)} Nothing has been changed yet.</p>
			{matched && <p>{matched}</p>}
			{!rows && <p>Loading the preview…</p>}
			<Listed
				title="Invalid rows"
				count={counts.invalid}
				rows={rows?.invalid}
				render={(row) => (
					<>
						Row {row.row_number}
						{row.name ? ` (${row.name})` : ''}:{' '}
						{(row.errors ?? [])
							.map((e) => `${e.column ? `column ${e.column}: ` : ''}${e.message}`)
							.join('; ')}
					</>
				)}
			/>
			{rows?.confirm && rows.confirm.length > 0 && (
				<section className="member-import__section" aria-label="To confirm">
					<h4>To confirm ({number(toConfirm)})</h4>
					<p>
						These rows may be more than one business, or match one by a similar name only. Choose
						the business each one is, add it as a new one, or skip it; nothing is applied until each
						is decided.
					</p>
					{rows.confirm.map((row) => (
						<Confirm key={row.id} row={row} job={job} client={client} onChanged={onChanged} />
					))}
				</section>
			)}
			<Listed title="To add" count={counts.added} rows={rows?.add} render={label} />
			<Listed
				title="To change"
				count={counts.changed}
				rows={rows?.change}
				render={labelWithChanges}
			/>
			<Listed
				title="Kept as changed here"
				count={rows?.kept?.length ?? 0}
				rows={rows?.kept}
				render={labelWithChanges}
			/>
			<Listed
				title="Missing from the file"
				count={counts.missing}
				rows={rows?.missing}
				render={label}
			/>
			{counts.invalid > 0 ? (
				<p className="admin-banner admin-banner--error">
					Nothing can be applied while the file has invalid rows: correct them and import the file
					again.
				</p>
			) : toConfirm > 0 ? (
				<p className="admin-banner admin-banner--info">
					Confirm or skip each row to confirm before applying ({number(toConfirm)} left).
				</p>
			) : (
				counts.missing > 0 && (
					<fieldset className="admin-fieldset">
						<legend>Members missing from the file</legend>
						<label>
							<input
								type="radio"
								name={`missing-${job.id}`}
								checked={missing === 'keep'}
								onChange={() => setMissing('keep')}
							/>{' '}
							Keep them listed
						</label>
						<label>
							<input
								type="radio"
								name={`missing-${job.id}`}
								checked={missing === 'unpublish'}
								onChange={() => setMissing('unpublish')}
							/>{' '}
							Unpublish them
						</label>
					</fieldset>
				)
			)}
			<ErrorBanner error={error} />
			<div className="member-import__actions">
				<button
					type="button"
					className="admin-button"
					disabled={busy || counts.invalid > 0 || toConfirm > 0}
					onClick={() => void act('apply')}
				>
					Apply changes
				</button>
				<button
					type="button"
					className="admin-button admin-button--secondary"
					disabled={busy}
					onClick={() => void act('discard')}
				>
					Discard
				</button>
			</div>
		</div>
	);
}

/** One import (a file or a sync) as far as it has got: progress, mapping, preview or outcome. */
export default function ImportJobView(props: Props) {
	const { job, onDone } = props;
	if (WORKING_STATES.includes(job.state)) return <Progress job={job} />;
	if (job.state === 'needs_mapping') return <MappingForm {...props} />;
	if (job.state === 'previewed') return <Preview {...props} />;
	const counts = fullCounts(job.counts);
	return (
		<div>
			{job.state === 'applied' ? (
				<p className="admin-banner admin-banner--success" role="status">
					Applied {job.source}: {number(job.rows_applied)}{' '}
					{job.rows_applied === 1 ? 'business' : 'businesses'} added or changed
					{counts.unpublished ? `, ${number(counts.unpublished)} unpublished` : ''}.{' '}
					{job.publish_id
						? 'The site is being published.'
						: job.live_by
							? `${liveByText(job.live_by, chamberZone(), new Date())}, with the chamber's publish window.`
							: ''}
				</p>
			) : job.state === 'failed' ? (
				<p className="admin-banner admin-banner--error" role="alert">
					{job.error ?? 'The import failed.'}
				</p>
			) : (
				<p role="status">The preview was discarded; nothing was changed.</p>
			)}
			<button type="button" className="admin-button" onClick={onDone}>
				{job.kind === 'sync' ? 'Close' : 'Import another file'}
			</button>
		</div>
	);
}
