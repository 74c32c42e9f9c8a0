import { useEffect, useRef, useState } from 'react';
import { dayKey, type DayKey } from './calendar.ts';

/**
 * The visitor's today, known only in the browser: null while pre-rendering and hydrating, so
 * the pre-rendered markup never depends on the build date.
 */
export function useToday(): DayKey | null {
	const [today, setToday] = useState<DayKey | null>(null);
	useEffect(() => setToday(dayKey(new Date())), []);
	return today;
}

export type DisplayMode = 'calendar' | 'list';

/** Mobile breakpoint: the calendar from 768 px, the list below. */
const CALENDAR_MEDIA = '(min-width: 768px)';

/**
 * List or calendar: follows the viewport width, switching on resize, until the visitor picks
 * one. null until mounted.
 */
export function useDisplayMode(): [DisplayMode | null, (mode: DisplayMode) => void] {
	const [mode, setMode] = useState<DisplayMode | null>(null);
	const chosen = useRef(false);
	useEffect(() => {
		const media = window.matchMedia(CALENDAR_MEDIA);
		const follow = () => {
			if (!chosen.current) setMode(media.matches ? 'calendar' : 'list');
		};
		follow();
		media.addEventListener('change', follow);
		return () => media.removeEventListener('change', follow);
	}, []);
	const choose = (next: DisplayMode) => {
		chosen.current = true;
		setMode(next);
	};
	return [mode, choose];
}
