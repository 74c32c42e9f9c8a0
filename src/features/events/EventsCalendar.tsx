import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
	monthStart,
	periodRange,
	prefetchRange,
	type DayKey,
	type EventSource,
} from './calendar.ts';
import type { Event } from './events.ts';
import { useDisplayMode, useToday } from './hooks.ts';
import { LoadingEvents } from './LoadingEvents.tsx';
import { MonthGrid } from './MonthGrid.tsx';
import { MonthList } from './MonthList.tsx';
import { createEventsFeed, type EventsFeed } from './store.ts';
import { ViewToggle } from './ViewToggle.tsx';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';
import './calendar.css';

interface Props {
	source: EventSource;
}

const ERRORS = {
	events: { title: 'Error Loading Events', text: 'Failed to load events' },
	community: {
		title: 'Error Loading Community Events',
		text: 'This might be due to a temporary issue. Please try refreshing the page.',
	},
} as const;

/**
 * /events (reading A) and /community-events: a List / Calendar page of one event source.
 *
 * The events are fetched in the browser, behind 'Loading events...', rather than embedded at
 * build time: the month shown and list-or-calendar depend on the visitor's date and screen and
 * so wait for hydration anyway, and embedding would serve events as old as the last build,
 * ignoring cache purges. The page's own script (EventsPrefetch.astro) starts the first request
 * while this island's script loads, so the list does not wait for both one after the other.
 */
function EventsCalendar({ source }: Props) {
	const today = useToday();
	const feed = useMemo(
		() => (today ? createEventsFeed(source, prefetchRange(today)) : null),
		[source, today],
	);
	if (!today || !feed) return <LoadingEvents reserve="calendar" />;
	return <Calendar source={source} today={today} feed={feed} />;
}

/** The key to the community calendar's colours: the 'Community' category's dot. */
function Legend({ events }: { events: readonly Event[] }) {
	const colour = events.find((e) => e.EventType === 'Community')?.EventTypeColor;
	return (
		<p className="ev-legend">
			<span
				className="ev-legend__dot"
				style={{ background: colour ?? 'var(--color-primary)' }}
				aria-hidden="true"
			/>
			Community
		</p>
	);
}

function Calendar({ source, today, feed }: Props & { today: DayKey; feed: EventsFeed }) {
	const state = useStore(feed.$state);
	const [mode, setMode] = useDisplayMode();
	const [month, setMonth] = useState(() => monthStart(today));
	const scrolledRef = useRef(false);

	useEffect(() => {
		void feed.load();
	}, [feed]);

	function changeMonth(next: DayKey) {
		setMonth(next);
		void feed.ensure(periodRange('month', next));
	}

	if (state.status === 'loading' || !mode) return <LoadingEvents reserve="calendar" />;
	if (state.status === 'error') {
		const error = ERRORS[source];
		return (
			<div className="ev-error" role="alert">
				<h2>{error.title}</h2>
				<p>{error.text}</p>
				<button type="button" className="ev-button" onClick={() => window.location.reload()}>
					Refresh Page
				</button>
			</div>
		);
	}
	return (
		<div className="ev-calendar">
			<div className="ev-calendar__bar">
				<ViewToggle mode={mode} onChange={setMode} />
				{source === 'community' && <Legend events={state.events} />}
			</div>
			{mode === 'calendar' ? (
				<MonthGrid
					month={month}
					events={state.events}
					today={today}
					onMonthChange={changeMonth}
					loadingMore={state.loadingMore}
				/>
			) : (
				<MonthList events={state.events} today={today} scrolledRef={scrolledRef} />
			)}
		</div>
	);
}

export default withErrorBoundary('EventsCalendar', EventsCalendar);
