import { Fragment, type ReactNode, type TableHTMLAttributes } from 'react';
import { WEEKDAYS, type CalendarDay, type DayKey } from './calendar.ts';
import type { Event } from './events.ts';
import { useDayGrid } from './useDayGrid.ts';

interface Props extends Omit<TableHTMLAttributes<HTMLTableElement>, 'children' | 'onKeyDown'> {
	/** The month's weeks (monthWeeks). */
	weeks: CalendarDay<Event>[][];
	/** The day that holds the tab stop. */
	focusDay: DayKey;
	/** The arrow keys moved to this day, which may be in another month. */
	onMove: (day: DayKey) => void;
	/** The class of the empty cells of the neighbouring months' days. */
	padClassName?: string;
	/** The cell of a day of the month. */
	renderDay: (day: CalendarDay<Event>) => ReactNode;
}

/** A month as a grid of days under the weekdays' names, moved through with the arrow keys. */
export function DayGrid({ weeks, focusDay, onMove, padClassName, renderDay, ...table }: Props) {
	const { gridRef, onKeyDown } = useDayGrid(focusDay, onMove);
	return (
		<table role="grid" ref={gridRef} onKeyDown={onKeyDown} {...table}>
			<thead>
				<tr>
					{WEEKDAYS.map(([short, long]) => (
						<th key={short} scope="col">
							<abbr title={long}>{short}</abbr>
						</th>
					))}
				</tr>
			</thead>
			<tbody>
				{weeks.map((week) => (
					<tr key={week[0]!.key}>
						{week.map((day) =>
							day.inMonth ? (
								<Fragment key={day.key}>{renderDay(day)}</Fragment>
							) : (
								<td key={day.key} className={padClassName} />
							),
						)}
					</tr>
				))}
			</tbody>
		</table>
	);
}
