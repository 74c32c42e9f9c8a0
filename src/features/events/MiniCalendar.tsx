import { useState } from 'react';
import { DayName } from './DayName.tsx';
import { monthStart, monthTitle, monthWeeks, moreLabel, type DayKey } from './calendar.ts';
import type { Event } from './events.ts';
import { DayGrid } from './DayGrid.tsx';

interface Props {
	/** First day of the month shown. */
	month: DayKey;
	selected: DayKey;
	today: DayKey;
	events: readonly Event[];
	onSelect: (day: DayKey) => void;
	onMonthTitle: () => void;
	onShiftMonth: (step: 1 | -1) => void;
}

/**
 * The /events-list month calendar: a grid of day buttons named by full date and number of
 * events; today and the selected day highlighted, days with events outlined with '+N'.
 */
export function MiniCalendar(props: Props) {
	const { month, selected, today, events, onSelect, onMonthTitle, onShiftMonth } = props;
	const [focused, setFocused] = useState(selected);
	const focusDay =
		monthStart(focused) === month ? focused : monthStart(selected) === month ? selected : month;
	const weeks = monthWeeks(month, events, today);

	return (
		<div className="ev-mini">
			<div className="ev-mini__nav">
				<button
					type="button"
					className="ev-arrow"
					aria-label="Show previous month"
					onClick={() => onShiftMonth(-1)}
				>
					<span aria-hidden="true">‹</span>
				</button>
				<h2 className="ev-mini__heading">
					<button
						type="button"
						className="ev-mini__title"
						aria-describedby="ev-mini-title-hint"
						onClick={onMonthTitle}
					>
						{monthTitle(month)}
					</button>
				</h2>
				<span id="ev-mini-title-hint" hidden>
					Shows the events of the whole month
				</span>
				<button
					type="button"
					className="ev-arrow"
					aria-label="Show next month"
					onClick={() => onShiftMonth(1)}
				>
					<span aria-hidden="true">›</span>
				</button>
			</div>
			<DayGrid
				className="ev-mini__grid"
				aria-label={monthTitle(month)}
				weeks={weeks}
				focusDay={focusDay}
				onMove={(day) => {
					setFocused(day);
					if (monthStart(day) < month) onShiftMonth(-1);
					if (monthStart(day) > month) onShiftMonth(1);
				}}
				renderDay={(day) => {
					const count = day.events.length;
					const classes = ['ev-mini__day'];
					if (day.isToday) classes.push('ev-mini__day--today');
					if (day.key === selected) classes.push('ev-mini__day--selected');
					if (count > 0) classes.push('ev-mini__day--events');
					return (
						<td aria-selected={day.key === selected}>
							<button
								type="button"
								data-day={day.key}
								tabIndex={day.key === focusDay ? 0 : -1}
								className={classes.join(' ')}
								aria-current={day.isToday ? 'date' : undefined}
								onFocus={() => setFocused(day.key)}
								onClick={() => onSelect(day.key)}
							>
								<DayName day={day.key} count={count} />
								{count > 1 && (
									<span className="ev-mini__more" aria-hidden="true">
										{moreLabel(count)}
									</span>
								)}
							</button>
						</td>
					);
				}}
			/>
		</div>
	);
}
