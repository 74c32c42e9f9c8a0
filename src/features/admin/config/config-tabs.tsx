import { useId, useState } from 'react';
import type { AdminRole } from '../../auth/auth.ts';
import type { ChamberConfig } from '../../config/config.ts';
import { countOrFallback } from '../admin.ts';

// What the configuration tabs share (one file each: IdentityTab.tsx, ContactTab.tsx, UrlsTab.tsx,
// ColorsTab.tsx, FontsTab.tsx, ContentTab.tsx, HomepageTab.tsx, SearchTab.tsx, NavTab.tsx). A tab
// edits the panel's draft and saves nothing; 'Save Changes' sends what differs from the saved
// configuration.

export interface ConfigTabProps {
	draft: ChamberConfig;
	role: AdminRole;
}

export const upper2 = (value: string) =>
	value
		.toUpperCase()
		.replace(/[^A-Z]/g, '')
		.slice(0, 2);

/** A number field that stores what the schema would (out of range → the fallback). */
export function CountField({
	label,
	value,
	range,
	hint,
	onChange,
}: {
	label: string;
	value: number;
	range: { min: number; max: number; fallback: number };
	hint?: string;
	onChange(value: number): void;
}) {
	const id = useId();
	const [text, setText] = useState(String(value));
	// A new value from outside (a reload, a restore) replaces what is typed.
	const [shown, setShown] = useState(value);
	if (shown !== value) {
		setShown(value);
		setText(String(value));
	}
	return (
		<div className="admin-field">
			<label htmlFor={id}>{label}</label>
			<input
				id={id}
				type="number"
				min={range.min}
				max={range.max}
				value={text}
				aria-describedby={`${id}-hint`}
				onChange={(e) => setText(e.target.value)}
				onBlur={() => {
					const next = countOrFallback(text, range);
					setText(String(next));
					onChange(next);
				}}
			/>
			<p id={`${id}-hint`} className="admin-field__hint">
				{range.min} to {range.max}; anything else becomes {range.fallback}.{hint ? ` ${hint}` : ''}
			</p>
		</div>
	);
}
