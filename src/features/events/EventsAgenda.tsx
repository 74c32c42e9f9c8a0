import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
	emptyPeriodText,
	eventTypes,
	featuredVisible,
	filterByTypes,
	neededRange,
	overlaps,
	periodHeader,
	periodRange,
	prefetchRange,
	type DayKey,
	type EventSource,
	type ViewMode,
} from './calendar.ts';
import { EventFilters } from './EventFilters.tsx';
import type { Event } from './events.ts';
import { EventSummary } from './EventSummary.tsx';
import { FeaturedEventCard } from './FeaturedEventCard.tsx';
import { useToday } from './hooks.ts';
import { LoadingEvents } from './LoadingEvents.tsx';
import { MiniCalendar } from './MiniCalendar.tsx';
import {
	createEventsFeed,
	createListView,
	fetchFeaturedEvent,
	type EventsFeed,
	type ListViewStore,
} from './store.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './calendar.css';

export interface AgendaProps {
	eventsLabel: string;
	communityLabel: string;
	/** features.showEvents: the chamber tab (at least one of the two is on, else no page). */
	showEvents: boolean;
	showCommunity: boolean;
	showFilters: boolean;
	/** The featured event, when the featured card is switched on and an id is set. */
	featuredEventId: number | null;
}

const MODES: readonly ViewMode[] = ['day', 'week', 'month'];
const MODE_LABELS = { day: 'Day', week: 'Week', month: 'Month' } as const;
const ICS_FEEDS = { events: '/api/events.ics', community: '/api/events.ics?source=community' };

/** /events-list (reading B): day/week/month lists beside a mini calendar, per event source. */
function EventsAgenda(props: AgendaProps) {
	const today = useToday();
	const state = useMemo(() => {
		if (!today) return null;
		const range = prefetchRange(today);
		return {
			view: createListView(today, props.showEvents ? 'events' : 'community'),
			feeds: {
				events: createEventsFeed('events', range),
				community: createEventsFeed('community', range),
			},
		};
	}, [today, props.showEvents]);
	if (!today || !state) return <LoadingEvents reserve="agenda" />;
	return <Agenda {...props} today={today} store={state.view} feeds={state.feeds} />;
}

export interface AgendaState {
	today: DayKey;
	store: ListViewStore;
	feeds: Record<EventSource, EventsFeed>;
}

export function Agenda(props: AgendaProps & AgendaState) {
	const { today, store, feeds, showFilters, featuredEventId } = props;
	const view = useStore(store.$view);
	const feed = feeds[view.source];
	const state = useStore(feed.$state);
	const [featured, setFeatured] = useState<Event | null>(null);

	useEffect(() => {
		void feed.load();
	}, [feed]);

	useEffect(() => {
		void feed.ensure(neededRange(view));
	}, [feed, view]);

	useEffect(() => {
		if (featuredEventId !== null) void fetchFeaturedEvent(featuredEventId).then(setFeatured);
	}, [featuredEventId]);

	const filtered = useMemo(
		() => filterByTypes(state.events, view.types),
		[state.events, view.types],
	);
	const period = periodRange(view.mode, view.selected);
	const rows = filtered.filter((event) => overlaps(event, period));
	const types = useMemo(() => eventTypes(state.events), [state.events]);

	const tabs: { source: EventSource; label: string }[] = [];
	if (props.showEvents) tabs.push({ source: 'events', label: props.eventsLabel });
	if (props.showCommunity) tabs.push({ source: 'community', label: props.communityLabel });

	return (
		<div className="ev-agenda">
			<SourceTabs tabs={tabs} selected={view.source} onSelect={store.switchSource} />
			<div
				className="ev-agenda__panel"
				role="tabpanel"
				id="ev-agenda-panel"
				aria-labelledby={`ev-tab-${view.source}`}
			>
				<section className="ev-agenda__list" aria-labelledby="ev-period-title">
					<div className="ev-period">
						<button
							type="button"
							className="ev-arrow"
							aria-label={`Previous ${view.mode}`}
							onClick={() => store.shift(-1)}
						>
							<span aria-hidden="true">‹</span>
						</button>
						<h2 id="ev-period-title" className="ev-period__title" aria-live="polite">
							{periodHeader(view.mode, view.selected)}
						</h2>
						<button
							type="button"
							className="ev-arrow"
							aria-label={`Next ${view.mode}`}
							onClick={() => store.shift(1)}
						>
							<span aria-hidden="true">›</span>
						</button>
					</div>
					<div className="ev-toggle" role="group" aria-label="Show events for one">
						{MODES.map((m) => (
							<button
								key={m}
								type="button"
								aria-pressed={view.mode === m}
								onClick={() => store.setMode(m)}
							>
								{MODE_LABELS[m]}
							</button>
						))}
					</div>
					{state.status === 'loading' ? (
						<LoadingEvents />
					) : state.status === 'error' ? (
						<p className="ev-error" role="alert">
							Error loading events: {state.error}
						</p>
					) : rows.length === 0 ? (
						<p className="ev-empty">{emptyPeriodText(view.mode)}</p>
					) : (
						<ul className="ev-agenda__events">
							{rows.map((event) => (
								<li key={event.EventId}>
									<EventSummary event={event} />
								</li>
							))}
						</ul>
					)}
					<p className="ev-subscribe">
						<a href={ICS_FEEDS[view.source]}>Subscribe to calendar</a>
					</p>
				</section>
				<aside className="ev-agenda__side" aria-label="Calendar and filters">
					<MiniCalendar
						month={view.month}
						selected={view.selected}
						today={today}
						events={filtered}
						onSelect={store.selectDay}
						onMonthTitle={store.showMonth}
						onShiftMonth={store.shiftMonth}
					/>
					<p className="ev-status ev-status--small" role="status">
						{state.loadingMore ? 'Loading more events...' : ''}
					</p>
					{featured && featuredVisible(featured, view.types) && (
						<FeaturedEventCard event={featured} />
					)}
					{showFilters && state.status === 'loaded' && (
						<EventFilters
							types={types}
							selected={view.types}
							onToggle={store.toggleType}
							onClear={store.clearTypes}
						/>
					)}
				</aside>
			</div>
		</div>
	);
}

interface SourceTabsProps {
	tabs: { source: EventSource; label: string }[];
	selected: EventSource;
	onSelect: (source: EventSource) => void;
}

/** WAI-ARIA tabs with automatic activation: arrows, Home and End move and select. */
function SourceTabs({ tabs, selected, onSelect }: SourceTabsProps) {
	const list = useRef<HTMLDivElement>(null);

	function onKeyDown(event: KeyboardEvent) {
		const index = tabs.findIndex((t) => t.source === selected);
		const last = tabs.length - 1;
		const next =
			event.key === 'ArrowRight'
				? index === last
					? 0
					: index + 1
				: event.key === 'ArrowLeft'
					? index === 0
						? last
						: index - 1
					: event.key === 'Home'
						? 0
						: event.key === 'End'
							? last
							: null;
		if (next === null) return;
		event.preventDefault();
		const tab = tabs[next]!;
		onSelect(tab.source);
		list.current?.querySelector<HTMLElement>(`#ev-tab-${tab.source}`)?.focus();
	}

	return (
		<div
			className="ev-tabs"
			role="tablist"
			aria-label="Event calendars"
			ref={list}
			onKeyDown={onKeyDown}
		>
			{tabs.map((tab) => (
				<button
					key={tab.source}
					type="button"
					role="tab"
					id={`ev-tab-${tab.source}`}
					aria-selected={tab.source === selected}
					aria-controls="ev-agenda-panel"
					tabIndex={tab.source === selected ? 0 : -1}
					onClick={() => onSelect(tab.source)}
				>
					{tab.label}
				</button>
			))}
		</div>
	);
}

export default withErrorBoundary('EventsAgenda', EventsAgenda);
