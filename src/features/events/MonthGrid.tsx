import { useId, useMemo, useState } from 'react';
import {
	addMonthsTo,
	monthStart,
	monthTitle,
	monthWeeks,
	chipTextColor,
	type DayKey,
} from './calendar.ts';
import { eventPath, isCancelled, type Event } from './events.ts';
import { DayGrid } from './DayGrid.tsx';
import { DayName } from './DayName.tsx';

interface Props {
	/** First day of the month shown. */
	month: DayKey;
	events: readonly Event[];
	today: DayKey;
	onMonthChange: (month: DayKey) => void;
	loadingMore: boolean;
}

/**
 * The month calendar of /events and /community-events: a grid whose day cells are named by
 * their full date and number of events, with each event linking to its page, coloured by type.
 * The arrow keys move between days (and months); Tab goes from a day into its events.
 */
export function MonthGrid({ month, events, today, onMonthChange, loadingMore }: Props) {
	const titleId = useId();
	const [focused, setFocused] = useState(today);
	const focusDay = monthStart(focused) === month ? focused : month;
	const weeks = useMemo(() => monthWeeks(month, events, today), [month, events, today]);

	return (
		<section className="ev-month" aria-labelledby={titleId}>
			<div className="ev-month__nav">
				<button
					type="button"
					className="ev-arrow"
					aria-label="Previous month"
					onClick={() => onMonthChange(addMonthsTo(month, -1))}
				>
					<span aria-hidden="true">‹</span>
				</button>
				<h2 id={titleId} className="ev-month__title" aria-live="polite">
					{monthTitle(month)}
				</h2>
				<button
					type="button"
					className="ev-arrow"
					aria-label="Next month"
					onClick={() => onMonthChange(addMonthsTo(month, 1))}
				>
					<span aria-hidden="true">›</span>
				</button>
			</div>
			<div className="ev-month__body">
				<DayGrid
					className="ev-grid"
					aria-labelledby={titleId}
					weeks={weeks}
					focusDay={focusDay}
					onMove={(day) => {
						setFocused(day);
						if (monthStart(day) !== month) onMonthChange(monthStart(day));
					}}
					padClassName="ev-grid__pad"
					renderDay={(day) => {
						const active = day.key === focusDay;
						return (
							<td
								data-day={day.key}
								tabIndex={active ? 0 : -1}
								aria-current={day.isToday ? 'date' : undefined}
								className={day.isToday ? 'ev-grid__day ev-grid__day--today' : 'ev-grid__day'}
								onFocus={() => setFocused(day.key)}
							>
								<span className="ev-grid__date">
									<DayName
										day={day.key}
										count={day.events.length}
										suffix={day.events.length > 0 ? ': ' : ''}
									/>
								</span>
								{day.events.length > 0 && (
									<ul className="ev-grid__events">
										{day.events.map((event) => (
											<li key={event.EventId}>
												<a
													href={eventPath(event)}
													tabIndex={active ? 0 : -1}
													className="ev-chip"
													style={{
														background: event.EventTypeColor,
														color: chipTextColor(event),
													}}
												>
													{isCancelled(event) && 'Cancelled: '}
													{event.EventName}
												</a>
											</li>
										))}
									</ul>
								)}
							</td>
						);
					}}
				/>
				<div className={loadingMore ? 'ev-overlay' : 'ev-overlay ev-overlay--idle'} role="status">
					{loadingMore ? 'Loading more events...' : ''}
				</div>
			</div>
		</section>
	);
}
