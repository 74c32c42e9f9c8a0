import type { DisplayMode } from './hooks.ts';

/** The List / Calendar switch: two toggle buttons, the current one pressed. */
export function ViewToggle({
	mode,
	onChange,
}: {
	mode: DisplayMode;
	onChange: (mode: DisplayMode) => void;
}) {
	return (
		<div className="ev-toggle" role="group" aria-label="Show events as">
			<button type="button" aria-pressed={mode === 'list'} onClick={() => onChange('list')}>
				List
			</button>
			<button type="button" aria-pressed={mode === 'calendar'} onClick={() => onChange('calendar')}>
				Calendar
			</button>
		</div>
	);
}
