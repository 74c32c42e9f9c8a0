import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { currentGroupKey, groupByMonth, type DayKey } from './calendar.ts';
import { EventSummary } from './EventSummary.tsx';
import type { Event } from './events.ts';

interface Props {
	events: readonly Event[];
	today: DayKey;
	/** Set once the list has scrolled to the current month, so it does so once per visit. */
	scrolledRef: RefObject<boolean>;
}

/** Months shown at first (the current one and the next) and added per 'Show more events'. */
const LIST_MONTHS = 2;

/** The months shown, by key ('yyyy-mm', inclusive); null until the events are grouped. */
type Shown = { from: string; to: string } | null;

/**
 * Events grouped by month under sticky 'MMMM yyyy' headings, opened at the current month.
 *
 * A few months at a time: the whole loaded range (six months and more) was one list of over
 * 4,000 px on a phone, seconds of main-thread work at first paint. The current month and the next
 * show first; 'Show earlier events' and 'Show more events' add months, and focus moves to the
 * first month added, so keyboard and screen reader users land on what appeared.
 */
export function MonthList({ events, today, scrolledRef }: Props) {
	const groups = useMemo(() => groupByMonth(events), [events]);
	const ref = useRef<HTMLDivElement>(null);
	const [shown, setShown] = useState<Shown>(null);
	const focusKey = useRef<string | null>(null);

	const start = currentGroupKey(groups, today);
	const range: Shown =
		shown ??
		(start === null
			? null
			: {
					from: start,
					to: groups[Math.min(groupIndex(groups, start) + LIST_MONTHS - 1, groups.length - 1)]!.key,
				});
	const visible = range
		? groups.filter((group) => group.key >= range.from && group.key <= range.to)
		: [];
	const first = visible[0] ? groupIndex(groups, visible[0].key) : 0;
	const last = visible.at(-1) ? groupIndex(groups, visible.at(-1)!.key) : -1;
	const earlier = first > 0 ? groups[Math.max(0, first - LIST_MONTHS)] : undefined;
	const later =
		last < groups.length - 1 ? groups[Math.min(groups.length - 1, last + LIST_MONTHS)] : undefined;

	useEffect(() => {
		if (scrolledRef.current || !start) return;
		scrolledRef.current = true;
		ref.current?.querySelector(`[data-month="${start}"]`)?.scrollIntoView({ block: 'start' });
	}, [start, scrolledRef]);

	useEffect(() => {
		const key = focusKey.current;
		if (!key) return;
		focusKey.current = null;
		ref.current?.querySelector<HTMLElement>(`#ev-month-${key}`)?.focus();
	});

	if (groups.length === 0 || !range) return <p className="ev-empty">No events found.</p>;

	const show = (next: { from: string; to: string }, focus: string) => {
		focusKey.current = focus;
		setShown(next);
	};

	return (
		<div className="ev-list" ref={ref}>
			{earlier && (
				<p className="ev-list__more">
					<button
						type="button"
						className="ev-button ev-button--quiet"
						onClick={() => show({ ...range, from: earlier.key }, earlier.key)}
					>
						Show earlier events
					</button>
				</p>
			)}
			{visible.map((group) => (
				<section key={group.key} data-month={group.key} aria-labelledby={`ev-month-${group.key}`}>
					<h2 id={`ev-month-${group.key}`} className="ev-list__month" tabIndex={-1}>
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
			{later && (
				<p className="ev-list__more">
					<button
						type="button"
						className="ev-button ev-button--quiet"
						onClick={() => show({ ...range, to: later.key }, groups[last + 1]!.key)}
					>
						Show more events
					</button>
				</p>
			)}
		</div>
	);
}

function groupIndex(groups: readonly { key: string }[], key: string): number {
	return groups.findIndex((group) => group.key === key);
}
