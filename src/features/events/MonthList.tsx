import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { currentGroupKey, groupByMonth, type DayKey } from './calendar.ts';
import { EventSummary } from './EventSummary.tsx';
import type { Event } from './events.ts';

interface Props {
	events: readonly Event[];
	today: DayKey;
	/** Set once the list has scrolled to the current month, so it does so once per visit. */
	scrolledRef: RefObject<boolean>;
}

/** Events grouped by month under sticky 'MMMM yyyy' headings, opened at the current month. */
export function MonthList({ events, today, scrolledRef }: Props) {
	const groups = useMemo(() => groupByMonth(events), [events]);
	const ref = useRef<HTMLDivElement>(null);

	useEffect(() => {
		if (scrolledRef.current) return;
		const key = currentGroupKey(groups, today);
		if (!key) return;
		scrolledRef.current = true;
		ref.current?.querySelector(`[data-month="${key}"]`)?.scrollIntoView({ block: 'start' });
	}, [groups, today, scrolledRef]);

	if (groups.length === 0) return <p className="ev-empty">No events found.</p>;
	return (
		<div className="ev-list" ref={ref}>
			{groups.map((group) => (
				<section key={group.key} data-month={group.key} aria-labelledby={`ev-month-${group.key}`}>
					<h2 id={`ev-month-${group.key}`} className="ev-list__month">
						{group.label}
					</h2>
					<ul className="ev-list__events">
						{group.events.map((event) => (
							<li key={event.EventId}>
								<EventSummary event={event} />
							</li>
						))}
					</ul>
				</section>
			))}
		</div>
	);
}
