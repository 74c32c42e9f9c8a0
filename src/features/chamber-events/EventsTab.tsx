import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState, type ComponentType, type SubmitEvent } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import PagedList from '../versioned/PagedList.tsx';
import { SelectField } from '../admin/fields.tsx';
import '../ui/ui.css';
import { chamberTimeZone } from '../config/time-zone.ts';
import { eventPath } from '../events/paths.ts';
import '../members/members.css';
import {
	actorLabel,
	CALENDAR_LABELS,
	PAGE_SIZES,
	SOURCE_LABELS,
	SOURCES,
	STATUS_LABELS,
	WHEN,
	WHEN_LABELS,
	type EventListRow,
} from './chamber-events.ts';
import EventEditor, { formatWhen } from './EventEditor.tsx';
import {
	$editor,
	$filters,
	$notice,
	closeEvent,
	DEFAULT_FILTERS,
	hasUnsavedEventChanges,
	LEAVE_EVENT_QUESTION,
	list,
	loadList,
	newEvent,
	openEvent,
	type EventsDeps,
	type ListFilters,
} from './store.ts';
import './events-tab.css';

export interface EventsTabProps extends AdminTabProps {
	/** The chamber's calendar feeds (admins); left out, the button is not offered. */
	FeedsPanel?: ComponentType<AdminTabProps & { onClose(): void }>;
	/** Above the list (admins): the feeds that cannot be read. */
	FeedAlerts?: ComponentType<AdminTabProps>;
	/** The community's submissions waiting for review; left out, the button is not offered. */
	SubmissionsPanel?: ComponentType<AdminTabProps & { onClose(): void }>;
}

const WHEN_OPTIONS = [
	{ value: '' as const, label: 'All' },
	...WHEN.map((when) => ({ value: when, label: WHEN_LABELS[when] })),
];
const SOURCE_OPTIONS = [
	{ value: '' as const, label: 'All' },
	...SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source] })),
];

function Filters({ deps }: { deps: EventsDeps }) {
	const [form, setForm] = useState<ListFilters>(() => $filters.get());
	const id = useId();
	const set = (patch: Partial<ListFilters>) => setForm((f) => ({ ...f, ...patch }));
	const submit = (event: SubmitEvent) => {
		event.preventDefault();
		void loadList(deps, { ...form, page: 1, pageSize: $filters.get().pageSize });
	};
	return (
		<form className="members-filters" role="search" aria-label="Find events" onSubmit={submit}>
			<div className="admin-field">
				<label htmlFor={`${id}-q`}>Title</label>
				<input
					id={`${id}-q`}
					type="search"
					value={form.q}
					maxLength={200}
					onChange={(e) => set({ q: e.target.value })}
				/>
			</div>
			<SelectField
				label="When"
				value={form.when}
				options={WHEN_OPTIONS}
				onChange={(when) => set({ when })}
			/>
			<div className="admin-field">
				<label htmlFor={`${id}-type`}>Event type</label>
				<input
					id={`${id}-type`}
					value={form.type}
					maxLength={60}
					onChange={(e) => set({ type: e.target.value })}
				/>
			</div>
			<SelectField
				label="Source"
				value={form.source}
				options={SOURCE_OPTIONS}
				onChange={(source) => set({ source })}
			/>
			<div className="members-filters__actions">
				<button type="submit" className="admin-button">
					Search
				</button>
				<button
					type="button"
					className="admin-button admin-button--secondary"
					onClick={() => {
						const cleared = { ...DEFAULT_FILTERS, pageSize: $filters.get().pageSize };
						setForm(cleared);
						void loadList(deps, cleared);
					}}
				>
					Clear
				</button>
			</div>
		</form>
	);
}

/** 'Tue, Mar 2, 2027, 6:00 PM' in the chamber's zone. */
function whenLabel(row: EventListRow, timeZone: string): string {
	if (!row.startUtc) return '';
	return new Intl.DateTimeFormat('en-US', {
		timeZone,
		weekday: 'short',
		month: 'short',
		day: 'numeric',
		year: 'numeric',
		hour: 'numeric',
		minute: '2-digit',
	}).format(new Date(row.startUtc));
}

function EventList({
	deps,
	timeZone,
	onOpen,
}: {
	deps: EventsDeps;
	timeZone: string;
	onOpen(id: string): void;
}) {
	return (
		<PagedList
			store={list}
			deps={deps}
			rows={(result) => result.events.length}
			total={(result) => result.total}
			nouns={['event', 'events']}
			pageSizes={PAGE_SIZES}
			loadingText="Loading the events..."
			emptyText="No event matches."
			pagesLabel="Event pages"
			caption="Events"
			notes={(result) =>
				result.atlasError && <p className="admin-banner admin-banner--info">{result.atlasError}</p>
			}
			head={
				<tr>
					<th scope="col">Title</th>
					<th scope="col">When</th>
					<th scope="col">Calendar</th>
					<th scope="col">Source</th>
					<th scope="col">Status</th>
					<th scope="col">Last change</th>
				</tr>
			}
		>
			{(result) =>
				result.events.map((row) => (
					<EventRow key={row.id} row={row} timeZone={timeZone} onOpen={onOpen} />
				))
			}
		</PagedList>
	);
}

function EventRow({
	row,
	timeZone,
	onOpen,
}: {
	row: EventListRow;
	timeZone: string;
	onOpen(id: string): void;
}) {
	return (
		<tr>
			<th scope="row">
				{row.readOnly ? (
					<>
						{row.eventId ? (
							<a
								href={eventPath({ EventId: row.eventId, EventName: row.name })}
								target="_blank"
								rel="noreferrer"
							>
								{row.name}
							</a>
						) : (
							row.name
						)}
						<br />
						<small>Read-only here</small>
					</>
				) : (
					<button type="button" className="members-link" onClick={() => onOpen(row.id)}>
						{row.name}
					</button>
				)}
			</th>
			<td>
				{whenLabel(row, timeZone)}
				{row.recurring && (
					<>
						<br />
						<small>
							Repeats, {row.dates} {row.dates === 1 ? 'date' : 'dates'}
						</small>
					</>
				)}
			</td>
			<td>{CALENDAR_LABELS[row.calendar]}</td>
			<td>
				{SOURCE_LABELS[row.source]}
				{row.feedName && (
					<>
						<br />
						<small>{row.feedName}</small>
					</>
				)}
			</td>
			<td>
				<span className={`members-status events-status--${row.status}`}>
					{STATUS_LABELS[row.status]}
				</span>
			</td>
			<td>
				{actorLabel(row.updatedBy)}
				{row.updatedAt && (
					<>
						<br />
						<small>{formatWhen(row.updatedAt)}</small>
					</>
				)}
			</td>
		</tr>
	);
}

/** Today in the zone, 'yyyy-mm-dd'. */
function today(timeZone: string): string {
	return new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).format(new Date());
}

/**
 * The Events tab: the chamber's events (its own, the tenant file's and the membership system's,
 * the last two read-only; paged, searched and filtered on the server), 'Add event', an event's
 * editor with its dates, and (admins) the calendar feeds and the community's submissions.
 */
export default function EventsTab(props: EventsTabProps) {
	const { user, chamber, config, getAccessToken, FeedsPanel, FeedAlerts, SubmissionsPanel } = props;
	const deps = useMemo<EventsDeps>(
		() => ({ chamber: chamber.key, getAccessToken }),
		[chamber.key, getAccessToken],
	);
	const editor = useStore($editor);
	const notice = useStore($notice);
	const [view, setView] = useState<'list' | 'feeds' | 'submissions'>('list');
	const timeZone = chamberTimeZone(config);
	const admin = user.role !== 'editor';

	// The list is read again whenever it shows: an event saved, deleted or left meanwhile.
	useEffect(() => {
		if (editor.kind === 'closed') void loadList(deps);
	}, [deps, editor.kind]);

	const leaveEvent = () => {
		if (hasUnsavedEventChanges() && !window.confirm(LEAVE_EVENT_QUESTION)) return;
		closeEvent();
	};
	const back = () => {
		setView('list');
		void loadList(deps);
	};

	if (editor.kind !== 'closed') {
		return <EventEditor deps={deps} role={user.role} onClose={leaveEvent} />;
	}
	if (view === 'feeds' && FeedsPanel) return <FeedsPanel {...props} onClose={back} />;
	if (view === 'submissions' && SubmissionsPanel)
		return <SubmissionsPanel {...props} onClose={back} />;
	return (
		<div className="members-tab">
			<div className="ops-toolbar">
				<button
					type="button"
					className="admin-button"
					onClick={() => newEvent(timeZone, today(timeZone))}
				>
					Add event
				</button>
				{SubmissionsPanel && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						onClick={() => setView('submissions')}
					>
						Community submissions
					</button>
				)}
				{admin && FeedsPanel && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						onClick={() => setView('feeds')}
					>
						Calendar feeds
					</button>
				)}
			</div>
			{notice?.kind === 'success' && (
				<p className="admin-banner admin-banner--success" role="status">
					{notice.text}
				</p>
			)}
			{admin && FeedAlerts && <FeedAlerts {...props} />}
			<Filters deps={deps} />
			<EventList deps={deps} timeZone={timeZone} onOpen={(id) => void openEvent(deps, id)} />
		</div>
	);
}
