import { WEEKDAYS } from './calendar.ts';

export function WeekdayHeader() {
	return (
		<thead>
			<tr>
				{WEEKDAYS.map(([short, long]) => (
					<th key={short} scope="col">
						<abbr title={long}>{short}</abbr>
					</th>
				))}
			</tr>
		</thead>
	);
}
