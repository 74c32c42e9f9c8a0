import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import type { AdminTabProps } from '../admin/admin.ts';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import { SelectField, TextField } from '../admin/fields.tsx';
import { CALENDAR_LABELS, CALENDARS, FIELD_LABELS, type Calendar } from './chamber-events.ts';
import { formatWhen, localLabel } from './EventEditor.tsx';
import { FEED_LIMITS } from './feed-limits.ts';
import { describeRead, type FeedRead, type FeedRow } from './feeds.ts';
import { eventsApi, type EventsDeps } from './store.ts';

/**
 * The chamber's calendar feeds (admins): add one (its address from Google Calendar or Outlook, a
 * webcal:// link too), see what its first read would bring, import it, read one now, remove one.
 * Every read keeps the fields staff changed in the Events tab and cancels what the feed dropped;
 * a feed that fails says why here (and its admins get an e-mail).
 */

type FeedAnswer = { feed: FeedRow; read: FeedRead };

const CALENDAR_OPTIONS = CALENDARS.map((value) => ({ value, label: CALENDAR_LABELS[value] }));

const CHANGE_LABELS: Record<string, string> = {
	added: 'To add',
	updated: 'To change',
	cancelled: 'To cancel (gone from the feed)',
	kept: 'Kept as changed here',
};
const DONE_LABELS: Record<string, string> = {
	added: 'Added',
	updated: 'Changed',
	cancelled: 'Cancelled (gone from the feed)',
	kept: 'Kept as changed here',
};

function fieldName(field: string): string {
	if (field === 'dates') return 'dates';
	return (FIELD_LABELS as Record<string, string>)[field]?.toLowerCase() ?? field;
}

function fetchFeeds(deps: EventsDeps) {
	return eventsApi<{ feeds: FeedRow[] }>(
		deps,
		'GET',
		'/api/admin/event-feeds',
		undefined,
		'The calendar feeds could not be loaded.',
	);
}

function useFeeds(deps: EventsDeps) {
	const [feeds, setFeeds] = useState<FeedRow[] | null>(null);
	const [error, setError] = useState<string | null>(null);
	const [round, setRound] = useState(0);
	useEffect(() => {
		let live = true;
		void fetchFeeds(deps).then((answer) => {
			if (!live) return;
			if (answer.ok) {
				setFeeds(answer.data.feeds);
				setError(null);
			} else setError(answer.error);
		});
		return () => {
			live = false;
		};
	}, [deps, round]);
	const reload = useCallback(() => setRound((n) => n + 1), []);
	return { feeds, error, reload, setFeeds };
}

/** A read's changes (a preview's, or what a read did), and what it left out. */
function ReadReport({ read }: { read: FeedRead }) {
	const labels = read.dryRun ? CHANGE_LABELS : DONE_LABELS;
	const events = read.result?.events ?? [];
	return (
		<div className="events-feed__report">
			<p>{describeRead(read)}</p>
			{events.length > 0 && (
				<ul className="events-dates">
					{events.map((change) => (
						<li key={`${change.uid}-${change.change}`}>
							<span>
								<strong>{change.name}</strong>
								{change.start && <> — {localLabel(change.start)}</>}
								{change.fields.length > 0 && change.change === 'updated' && (
									<>
										<br />
										<small>Changes: {change.fields.map(fieldName).join(', ')}</small>
									</>
								)}
								{change.kept.length > 0 && (
									<>
										<br />
										<small>Kept as changed here: {change.kept.map(fieldName).join(', ')}</small>
									</>
								)}
							</span>
							<span>{labels[change.change]}</span>
						</li>
					))}
				</ul>
			)}
			{read.skipped.length > 0 && (
				<>
					<p>Not imported:</p>
					<ul>
						{read.skipped.map((skip, index) => (
							<li key={`${skip.uid}-${index}`}>
								{skip.name || skip.uid || 'An event'}: {skip.reason}
							</li>
						))}
					</ul>
				</>
			)}
		</div>
	);
}

function FeedItem({
	feed,
	deps,
	onChanged,
	initialRead,
}: {
	feed: FeedRow;
	deps: EventsDeps;
	onChanged(feed: FeedRow | null): void;
	initialRead: FeedRead | null;
}) {
	const [read, setRead] = useState<FeedRead | null>(initialRead);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const titleId = useId();
	const name = feed.name || 'Calendar feed';

	const act = async (action: 'preview' | 'read') => {
		setBusy(true);
		setError(null);
		const answer = await eventsApi<FeedAnswer>(
			deps,
			'POST',
			`/api/admin/event-feeds/${feed.id}/${action}`,
			undefined,
			'The feed could not be read.',
		);
		setBusy(false);
		if (!answer.ok) {
			setError(answer.error);
			return;
		}
		setRead(answer.data.read);
		onChanged(answer.data.feed);
	};
	const remove = async () => {
		if (
			!window.confirm(`Remove ${name}? Its ${feed.event_count} events are taken off the calendars.`)
		) {
			return;
		}
		setBusy(true);
		const answer = await eventsApi(
			deps,
			'DELETE',
			`/api/admin/event-feeds/${feed.id}`,
			undefined,
			'The feed could not be removed.',
		);
		setBusy(false);
		if (answer.ok) onChanged(null);
		else setError(answer.error);
	};

	return (
		<li className="events-feed" aria-labelledby={titleId}>
			<h4 id={titleId}>{name}</h4>
			<p className="events-feed__url">{feed.url}</p>
			<p>
				{CALENDAR_LABELS[feed.calendar]} ·{' '}
				{feed.state === 'preview'
					? 'Not imported yet: preview it, then import its events.'
					: `${feed.event_count} ${feed.event_count === 1 ? 'event' : 'events'}${
							feed.last_ok_at ? `, last read ${formatWhen(feed.last_ok_at)}` : ''
						}`}
			</p>
			{feed.last_error && (
				<p className="admin-banner admin-banner--error" role="alert">
					{feed.state === 'active'
						? `Could not be read since ${formatWhen(feed.error_since ?? feed.last_read_at ?? '')}: ${feed.last_error}. Its events stay as the last good read left them.`
						: `Could not be read: ${feed.last_error}.`}
				</p>
			)}
			<ErrorBanner error={error} />
			{read && !read.error && <ReadReport read={read} />}
			<div className="ops-toolbar">
				{feed.state === 'preview' ? (
					<>
						<button
							type="button"
							className="admin-button"
							disabled={busy}
							onClick={() => void act('read')}
						>
							Import these events
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							disabled={busy}
							onClick={() => void act('preview')}
						>
							Preview again
						</button>
					</>
				) : (
					<button
						type="button"
						className="admin-button"
						disabled={busy}
						onClick={() => void act('read')}
					>
						Read now
					</button>
				)}
				<button
					type="button"
					className="admin-button admin-button--secondary"
					disabled={busy}
					onClick={() => void remove()}
				>
					Remove feed
				</button>
			</div>
			{busy && <p role="status">Reading the feed…</p>}
		</li>
	);
}

export default function FeedsPanel({
	chamber,
	getAccessToken,
	onClose,
}: AdminTabProps & { onClose(): void }) {
	const [deps] = useState<EventsDeps>(() => ({ chamber: chamber.key, getAccessToken }));
	const { feeds, error, reload, setFeeds } = useFeeds(deps);
	const [url, setUrl] = useState('');
	const [calendar, setCalendar] = useState<Calendar>('chamber');
	const [name, setName] = useState('');
	const [adding, setAdding] = useState(false);
	const [addError, setAddError] = useState<string | null>(null);
	const [fresh, setFresh] = useState<Record<string, FeedRead>>({});
	const titleId = useId();

	const add = async (event: SubmitEvent) => {
		event.preventDefault();
		setAdding(true);
		setAddError(null);
		const answer = await eventsApi<FeedAnswer>(
			deps,
			'POST',
			'/api/admin/event-feeds',
			{ url, calendar, name },
			'The feed could not be added.',
		);
		setAdding(false);
		if (!answer.ok) {
			setAddError(answer.error);
			return;
		}
		setFresh((f) => ({ ...f, [answer.data.feed.id]: answer.data.read }));
		setUrl('');
		setName('');
		reload();
	};

	const changed = (id: string) => (feed: FeedRow | null) =>
		setFeeds((list) => (list ?? []).flatMap((f) => (f.id !== id ? [f] : feed ? [feed] : [])));

	return (
		<section className="members-tab events-feeds" aria-labelledby={titleId}>
			<div className="ops-toolbar">
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to events
				</button>
			</div>
			<h3 id={titleId}>Calendar feeds</h3>
			<p>
				Events of a Google Calendar or Outlook calendar, read every {FEED_LIMITS.scheduleMinutes}{' '}
				minutes. Give its public or secret iCalendar address (.ics, or a webcal:// link). Fields
				changed in the Events tab stay as changed here; events removed from the calendar are
				cancelled here.
			</p>
			<form className="members-filters" aria-label="Add a calendar feed" onSubmit={add}>
				<TextField
					label="Feed address"
					type="url"
					value={url}
					maxLength={2000}
					placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
					onChange={setUrl}
				/>
				<SelectField<Calendar>
					label="Calendar"
					value={calendar}
					options={CALENDAR_OPTIONS}
					onChange={(value) => setCalendar(value)}
				/>
				<TextField
					label="Name (optional)"
					value={name}
					maxLength={200}
					hint="Blank: the name the calendar gives itself."
					onChange={setName}
				/>
				<div className="members-filters__actions">
					<button type="submit" className="admin-button" disabled={adding || !url.trim()}>
						Add and preview
					</button>
				</div>
			</form>
			{adding && <p role="status">Reading the feed…</p>}
			<ErrorBanner error={addError ?? error} />
			{feeds && feeds.length === 0 && <p>No calendar feed yet.</p>}
			{feeds && feeds.length > 0 && (
				<ul className="events-feeds__list">
					{feeds.map((feed) => (
						<FeedItem
							key={feed.id}
							feed={feed}
							deps={deps}
							initialRead={fresh[feed.id] ?? null}
							onChanged={changed(feed.id)}
						/>
					))}
				</ul>
			)}
		</section>
	);
}

/** Above the Events tab's list (admins): each feed that cannot be read, and since when. */
export function FeedAlerts({ chamber, getAccessToken }: AdminTabProps) {
	const [deps] = useState<EventsDeps>(() => ({ chamber: chamber.key, getAccessToken }));
	const { feeds } = useFeeds(deps);
	const failing = (feeds ?? []).filter((f) => f.state === 'active' && f.last_error);
	if (failing.length === 0) return null;
	return (
		<div className="admin-banner admin-banner--error" role="alert">
			{failing.map((feed) => (
				<p key={feed.id}>
					The calendar feed {feed.name ? `“${feed.name}” ` : ''}could not be read since{' '}
					{formatWhen(feed.error_since ?? '')}: {feed.last_error}. Its events stay as they were; see
					Calendar feeds.
				</p>
			))}
		</div>
	);
}
