import { useEffect, useRef, type KeyboardEvent } from 'react';
import { moveFocus, type DayKey } from './calendar.ts';

/**
 * Arrow-key navigation of a month grid with a roving tab stop (WAI-ARIA grid pattern): arrows
 * move by a day or a week, Home/End to the week's edges, Page Up/Down by a month. The element
 * marked data-day={focused} takes the focus after a keyboard move; moves out of the shown month
 * are the caller's to follow (onMove).
 */
export function useDayGrid(focused: DayKey, onMove: (day: DayKey) => void) {
	const gridRef = useRef<HTMLTableElement>(null);
	const movedByKey = useRef(false);

	useEffect(() => {
		if (!movedByKey.current) return;
		movedByKey.current = false;
		gridRef.current?.querySelector<HTMLElement>(`[data-day="${focused}"]`)?.focus();
	});

	function onKeyDown(event: KeyboardEvent) {
		// Keys pressed on an event link inside a cell stay with the link.
		if ((event.target as HTMLElement).closest('a')) return;
		const next = moveFocus(focused, event.key);
		if (!next) return;
		event.preventDefault();
		movedByKey.current = true;
		onMove(next);
	}

	return { gridRef, onKeyDown };
}
