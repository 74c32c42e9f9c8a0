import type { SupabaseClient } from '../../lib/database.ts';
import { useEffect, useId, useState } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import { downloadFile } from '../admin/download.ts';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import { Section, Toggle } from '../admin/fields.tsx';
import { chamberTimeZone } from '../config/time-zone.ts';
// The admin's buttons, fields and notes, also on a member's own page (MemberReport).
import '../admin/admin.css';
import '../ui/ui.css';
import { countsCsv, membersCsv, monthsCsv } from './exports.ts';
import {
	readBusinessReport,
	readMemberTotals,
	readMonthlyEmailSwitch,
	writeMonthlyEmailSwitch,
} from './queries.ts';
import {
	actionsByKind,
	chamberTotals,
	KIND_LABELS,
	monthLabel,
	monthOf,
	periodSchema,
	sortMembers,
	type BusinessReport,
	type MemberSortKey,
	type MonthTotals,
	type Period,
} from './reports.ts';
import { ColumnHeads } from '../ui/ColumnHeads.tsx';
import './reports.css';

type Load<T> = { kind: 'loading' } | { kind: 'failed'; error: string } | { kind: 'ready'; data: T };

const numberFormat = new Intl.NumberFormat('en-US');
const fmt = (n: number) => numberFormat.format(n);

/** A CSV file (exports.ts writes them) the browser downloads. */
function downloadCsv(filename: string, csv: string): void {
	downloadFile(filename, csv, 'text/csv;charset=utf-8');
}

/** What `load` answers for `key`; loading again whenever the key changes. */
function useLoad<T>(key: string, load: () => Promise<T>): Load<T> {
	const [state, setState] = useState<{ key: string; load: Load<T> }>({
		key: '',
		load: { kind: 'loading' },
	});
	useEffect(() => {
		let live = true;
		load().then(
			(data) => live && setState({ key, load: { kind: 'ready', data } }),
			(error: unknown) =>
				live &&
				setState({
					key,
					load: {
						kind: 'failed',
						error: error instanceof Error ? error.message : 'Failed to load the statistics',
					},
				}),
		);
		return () => {
			live = false;
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- the key names everything the load reads
	}, [key]);
	return state.key === key ? state.load : { kind: 'loading' };
}

/** The period's label: 'November 2026', or 'June 2026 – November 2026'. */
function periodLabel(period: Period): string {
	return period.from === period.to
		? monthLabel(period.from)
		: `${monthLabel(period.from)} – ${monthLabel(period.to)}`;
}

function periodFile(period: Period): string {
	return period.from === period.to ? period.from : `${period.from}_${period.to}`;
}

/**
 * The Reports tab (admin, super_admin; docs/reports.md): the chamber's totals and every member's
 * shown / views / actions for a month or a range of months, sortable; one business's report;
 * CSV of every table; the monthly e-mail's switch. Read with the signed-in user's client, so
 * row-level security decides what it shows.
 */
export default function ReportsTab({ chamber, client, config }: AdminTabProps) {
	const timeZone = chamberTimeZone(config);
	const [period, setPeriod] = useState<Period>(() => currentPeriod(timeZone));
	const [business, setBusiness] = useState<{ id: string; name: string } | null>(null);

	return (
		<div className="reports">
			<PeriodPicker timeZone={timeZone} onChange={setPeriod} />
			{business ? (
				<BusinessReportView
					client={client}
					tenantId={chamber.id}
					business={business}
					period={period}
					onBack={() => setBusiness(null)}
				/>
			) : (
				<MembersView client={client} tenantId={chamber.id} period={period} onOpen={setBusiness} />
			)}
			{/* The numbers first: the e-mail's switch is set once, the numbers read every visit. */}
			<MonthlyEmail client={client} tenantId={chamber.id} />
		</div>
	);
}

/** This month in the chamber's time zone, as a period. */
function currentPeriod(timeZone: string): Period {
	const month = monthOf(new Date(), timeZone);
	return { from: month, to: month };
}

/**
 * One business's report for a member on its own page (/members/listing): the period and the
 * report staff open from the Reports tab, read with the member's session (row-level security
 * lets a member read its own business's counters only).
 */
export function MemberReport({
	client,
	tenantId,
	business,
	timeZone,
}: {
	client: SupabaseClient;
	tenantId: string;
	business: { id: string; name: string };
	timeZone: string;
}) {
	const [period, setPeriod] = useState<Period>(() => currentPeriod(timeZone));
	return (
		<div className="reports">
			<PeriodPicker timeZone={timeZone} onChange={setPeriod} />
			<BusinessReportView client={client} tenantId={tenantId} business={business} period={period} />
		</div>
	);
}

const PERIOD_ENDS: Record<keyof Period, string> = { from: 'From month', to: 'To month' };

/** A month, or a range from one month to another, up to this month; the current month first. */
function PeriodPicker({
	timeZone,
	onChange,
}: {
	timeZone: string;
	onChange(period: Period): void;
}) {
	const thisMonth = monthOf(new Date(), timeZone);
	const [draft, setDraft] = useState<Period>({ from: thisMonth, to: thisMonth });
	const [periodError, setPeriodError] = useState('');
	const ids = useId();

	const apply = (next: Period) => {
		setDraft(next);
		const parsed = periodSchema.safeParse(next);
		if (!parsed.success) {
			setPeriodError(parsed.error.issues[0]?.message ?? 'Choose a month');
			return;
		}
		setPeriodError('');
		onChange(parsed.data);
	};

	return (
		<Section title="Period">
			<div className="reports__period">
				{(['from', 'to'] as const).map((end) => (
					<div className="admin-field" key={end}>
						<label htmlFor={`${ids}-${end}`}>{PERIOD_ENDS[end]}</label>
						<input
							id={`${ids}-${end}`}
							type="month"
							value={draft[end]}
							max={thisMonth}
							onChange={(e) => apply({ ...draft, [end]: e.target.value })}
						/>
					</div>
				))}
			</div>
			{periodError && (
				<p className="admin-field__error" role="alert">
					{periodError}
				</p>
			)}
			<p className="admin-section__note">
				Days are counted in the chamber&apos;s time zone ({timeZone}). What is counted, and what is
				not: the site&apos;s{' '}
				<a href="/privacy/statistics" target="_blank" rel="noopener">
					statistics and privacy page
				</a>
				.
			</p>
		</Section>
	);
}

function MonthlyEmail({ client, tenantId }: { client: SupabaseClient; tenantId: string }) {
	const [on, setOn] = useState<boolean | null>(null);
	const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
	useEffect(() => {
		readMonthlyEmailSwitch(client, tenantId).then(setOn, () =>
			setMessage({ kind: 'error', text: 'The monthly e-mail setting could not be loaded.' }),
		);
	}, [client, tenantId]);
	const change = async (next: boolean) => {
		setOn(next);
		setMessage(null);
		try {
			await writeMonthlyEmailSwitch(client, tenantId, next);
			setMessage({
				kind: 'success',
				text: next ? 'Monthly e-mails are on.' : 'Monthly e-mails are off.',
			});
		} catch {
			setOn(!next);
			setMessage({ kind: 'error', text: 'The setting could not be saved. Please try again.' });
		}
	};
	return (
		<Section title="Monthly e-mail to members">
			<Toggle
				label="Send each member business its numbers every month"
				hint="On the first days of each month, every member business with an e-mail address gets its numbers for the month before, compared with the month before that. Each e-mail has a link to stop them."
				checked={on ?? false}
				disabled={on === null}
				onChange={(next) => void change(next)}
			/>
			{message && (
				<p
					className={`admin-banner admin-banner--${message.kind}`}
					role={message.kind === 'error' ? 'alert' : 'status'}
				>
					{message.text}
				</p>
			)}
		</Section>
	);
}

const COLUMNS: { key: MemberSortKey; label: string }[] = [
	{ key: 'name', label: 'Business' },
	{ key: 'shown', label: 'Shown' },
	{ key: 'views', label: 'Profile views' },
	{ key: 'actions', label: 'Actions' },
];

function MembersView({
	client,
	tenantId,
	period,
	onOpen,
}: {
	client: SupabaseClient;
	tenantId: string;
	period: Period;
	onOpen(business: { id: string; name: string }): void;
}) {
	const load = useLoad(`${tenantId} ${period.from} ${period.to}`, () =>
		readMemberTotals(client, tenantId, period),
	);
	const [sort, setSort] = useState<{ key: MemberSortKey; direction: 'ascending' | 'descending' }>({
		key: 'views',
		direction: 'descending',
	});
	if (load.kind === 'loading') return <p role="status">Loading the statistics...</p>;
	if (load.kind === 'failed') {
		return <ErrorBanner error={load.error} />;
	}
	const rows = sortMembers(load.data, sort.key, sort.direction);
	const totals = chamberTotals(rows);
	const label = periodLabel(period);
	const toggle = (key: MemberSortKey) =>
		setSort((current) => ({
			key,
			direction:
				current.key === key
					? current.direction === 'ascending'
						? 'descending'
						: 'ascending'
					: key === 'name'
						? 'ascending'
						: 'descending',
		}));
	return (
		<>
			<Section title={`Chamber totals, ${label}`}>
				<dl className="reports__totals">
					<div>
						<dt>Shown</dt>
						<dd>{fmt(totals.shown)}</dd>
					</div>
					<div>
						<dt>Profile views</dt>
						<dd>{fmt(totals.views)}</dd>
					</div>
					<div>
						<dt>Actions</dt>
						<dd>{fmt(totals.actions)}</dd>
					</div>
				</dl>
			</Section>
			<Section title="Members">
				<button
					type="button"
					className="admin-button admin-button--secondary"
					onClick={() => downloadCsv(`members-${periodFile(period)}.csv`, membersCsv(rows))}
				>
					Export members as CSV
				</button>
				<div className="ops-table-wrap">
					<table className="ops-table reports__table">
						<caption>
							Every member business, {label} ({rows.length})
						</caption>
						<thead>
							<tr>
								{COLUMNS.map((column) => (
									<th
										key={column.key}
										scope="col"
										aria-sort={sort.key === column.key ? sort.direction : undefined}
									>
										<button
											type="button"
											className="reports__sort"
											onClick={() => toggle(column.key)}
										>
											{column.label}
											<span aria-hidden="true">
												{sort.key === column.key
													? sort.direction === 'ascending'
														? ' ▲'
														: ' ▼'
													: ''}
											</span>
										</button>
									</th>
								))}
							</tr>
						</thead>
						<tbody>
							{rows.map((row) => (
								<tr key={row.businessId}>
									<th scope="row">
										<button
											type="button"
											className="reports__open"
											onClick={() => onOpen({ id: row.businessId, name: row.name })}
										>
											{row.name}
										</button>
									</th>
									<td>{fmt(row.shown)}</td>
									<td>{fmt(row.views)}</td>
									<td>{fmt(row.actions)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			</Section>
		</>
	);
}

function BusinessReportView({
	client,
	tenantId,
	business,
	period,
	onBack,
}: {
	client: SupabaseClient;
	tenantId: string;
	business: { id: string; name: string };
	period: Period;
	/** Back to the members table (staff); a member's page has no table to go back to. */
	onBack?(): void;
}) {
	const load = useLoad(`${tenantId} ${business.id} ${period.from} ${period.to}`, () =>
		readBusinessReport(client, tenantId, business.id, period),
	);
	const label = periodLabel(period);
	const slug = business.name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
	return (
		<div className="reports__business">
			{onBack && (
				<button type="button" className="admin-button admin-button--secondary" onClick={onBack}>
					Back to all members
				</button>
			)}
			<h3 className="reports__business-name">{business.name}</h3>
			{load.kind === 'loading' && <p role="status">Loading the report...</p>}
			{load.kind === 'failed' && <ErrorBanner error={load.error} />}
			{load.kind === 'ready' && (
				<BusinessReportBody
					report={load.data}
					label={label}
					file={`${slug}-${periodFile(period)}`}
				/>
			)}
		</div>
	);
}

function BusinessReportBody({
	report,
	label,
	file,
}: {
	report: BusinessReport;
	label: string;
	file: string;
}) {
	const actions = actionsByKind(report);
	return (
		<>
			<Section title="Last 12 months">
				<div className="reports__chart-row">
					<MonthsChart months={report.months} />
					{/* Beside the charts it may scroll sideways: a stop for the keyboard, named. */}
					<div
						className="ops-table-wrap"
						role="region"
						aria-label="Last 12 months, by month"
						tabIndex={0}
					>
						<table className="ops-table reports__table">
							<caption>Last 12 months, by month</caption>
							<ColumnHeads names={['Month', 'Shown', 'Profile views', 'Actions']} />
							<tbody>
								{report.months.map((m) => (
									<tr key={m.month}>
										<th scope="row">{monthLabel(m.month)}</th>
										<td>{fmt(m.shown)}</td>
										<td>{fmt(m.views)}</td>
										<td>{fmt(m.actions)}</td>
									</tr>
								))}
							</tbody>
						</table>
					</div>
				</div>
				<button
					type="button"
					className="admin-button admin-button--secondary"
					onClick={() => downloadCsv(`${file}-months.csv`, monthsCsv(report.months))}
				>
					Export months as CSV
				</button>
			</Section>
			<Section title={`Actions by kind, ${label}`}>
				<CountTable
					caption={`Actions by kind, ${label}`}
					columns={['Action', 'Count']}
					rows={actions.map((a): [string, number] => [KIND_LABELS[a.kind], a.count])}
					file={`${file}-actions.csv`}
					exportLabel="Export actions as CSV"
				/>
			</Section>
			<Section title={`Top search words, ${label}`}>
				{report.searches.length === 0 ? (
					<p>No views came from a search in this period.</p>
				) : (
					<CountTable
						caption={`Top search words, ${label}`}
						columns={['Searched for', 'Views']}
						rows={report.searches.map((s): [string, number] => [s.words, s.count])}
						file={`${file}-searches.csv`}
						exportLabel="Export search words as CSV"
					/>
				)}
			</Section>
		</>
	);
}

/** A table of labels and their counts, with its CSV export (the same two columns). */
function CountTable({
	caption,
	columns,
	rows,
	file,
	exportLabel,
}: {
	caption: string;
	columns: [string, string];
	rows: [string, number][];
	file: string;
	exportLabel: string;
}) {
	return (
		<>
			<div className="ops-table-wrap">
				<table className="ops-table reports__table">
					<caption>{caption}</caption>
					<thead>
						<tr>
							<th scope="col">{columns[0]}</th>
							<th scope="col">{columns[1]}</th>
						</tr>
					</thead>
					<tbody>
						{rows.map(([name, count]) => (
							<tr key={name}>
								<th scope="row">{name}</th>
								<td>{fmt(count)}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
			<button
				type="button"
				className="admin-button admin-button--secondary"
				onClick={() => downloadCsv(file, countsCsv(columns, rows))}
			>
				{exportLabel}
			</button>
		</>
	);
}

const SERIES = [
	{ key: 'shown', label: 'Shown' },
	{ key: 'views', label: 'Profile views' },
	{ key: 'actions', label: 'Actions' },
] as const;

/**
 * Three small bar charts (shown, views, actions: each its own scale, as shown is usually many
 * times the others), drawn as SVG when rendered. Each is an image with a text alternative; the
 * table beside it holds the same numbers for screen readers and for reading exact values.
 */
function MonthsChart({ months }: { months: readonly MonthTotals[] }) {
	const width = 240;
	const height = 90;
	const gap = 4;
	const bar = (width - gap * (months.length - 1)) / Math.max(months.length, 1);
	return (
		<div className="reports__charts">
			{SERIES.map((series) => {
				const values = months.map((m) => m[series.key]);
				const max = Math.max(1, ...values);
				const summary = `${series.label} per month, ${monthLabel(months[0]?.month ?? '')} to ${monthLabel(months.at(-1)?.month ?? '')}: ${months.map((m) => `${monthLabel(m.month)} ${fmt(m[series.key])}`).join(', ')}`;
				return (
					<figure key={series.key} className="reports__chart">
						<figcaption>{series.label}</figcaption>
						<svg
							role="img"
							aria-label={summary}
							viewBox={`0 0 ${width} ${height + 14}`}
							width={width}
							height={height + 14}
						>
							{months.map((m, i) => {
								const h = Math.round((m[series.key] / max) * height);
								return (
									<rect
										key={m.month}
										className={`reports__bar reports__bar--${series.key}`}
										x={i * (bar + gap)}
										y={height - h}
										width={bar}
										height={h}
									>
										<title>{`${monthLabel(m.month)}: ${fmt(m[series.key])}`}</title>
									</rect>
								);
							})}
							<line x1="0" x2={width} y1={height} y2={height} stroke="#9ca3af" />
							<text x="0" y={height + 12} className="reports__axis">
								{months[0]?.month.slice(2).replace('-', '/')}
							</text>
							<text x={width} y={height + 12} textAnchor="end" className="reports__axis">
								{months.at(-1)?.month.slice(2).replace('-', '/')}
							</text>
						</svg>
						<p className="reports__chart-max">Highest: {fmt(Math.max(0, ...values))}</p>
					</figure>
				);
			})}
		</div>
	);
}
