import { useId } from 'react';
import './RowList.css';

/** One text of a row: the item's key, its input's label (numbered per row) and kind. */
export interface RowColumn<T> {
	key: keyof T & string;
	label: (n: number) => string;
	type?: 'text' | 'url';
	multiline?: boolean;
	/** A list of words, edited comma-separated. */
	commaList?: boolean;
}

/** The page's own classes for a field, its problem and the buttons: each page keeps its look. */
export interface RowListClasses {
	field: string;
	error: string;
	button: string;
}

function RowInput({
	label,
	value,
	type = 'text',
	multiline,
	disabled,
	problems,
	classes,
	onChange,
}: {
	label: string;
	value: string;
	type?: 'text' | 'url';
	multiline?: boolean;
	disabled: boolean;
	problems: readonly string[];
	classes: RowListClasses;
	onChange(value: string): void;
}) {
	const id = useId();
	const common = {
		id,
		value,
		disabled,
		'aria-invalid': problems.length > 0,
		'aria-describedby': problems.length ? `${id}-error` : undefined,
	};
	return (
		<div className={`${classes.field}${multiline ? ' row-list__wide' : ''}`}>
			<label htmlFor={id}>{label}</label>
			{multiline ? (
				<textarea {...common} rows={5} onChange={(e) => onChange(e.target.value)} />
			) : (
				<input {...common} type={type} onChange={(e) => onChange(e.target.value)} />
			)}
			{problems.length > 0 && (
				<p id={`${id}-error`} className={classes.error}>
					{problems.join(' ')}
				</p>
			)}
		</div>
	);
}

const none: readonly string[] = [];

/**
 * A list of items edited as rows of texts (a listing's social links, web content …): each row
 * removable, Add at the end. The value and onChange are the whole list.
 */
export default function RowList<T extends object>({
	items,
	columns,
	blank,
	onChange,
	add,
	remove,
	classes,
	disabled = false,
	resizable = !disabled,
	problems,
}: {
	items: readonly T[];
	columns: readonly RowColumn<T>[];
	/** A new row's values. */
	blank: () => T;
	onChange(items: T[]): void;
	/** The Add button's text. */
	add: string;
	/** Each row's Remove button's text. */
	remove: (n: number) => string;
	classes: RowListClasses;
	disabled?: boolean;
	/** Whether rows may be added and removed, or only their texts changed. */
	resizable?: boolean;
	/** A text's problems, by its row and key: shown under it and read with it. */
	problems?: (index: number, key: string) => readonly string[];
}) {
	const update = (index: number, key: string, value: unknown) =>
		onChange(items.map((item, i) => (i === index ? { ...item, [key]: value } : item)));
	return (
		<>
			<ol className="row-list">
				{items.map((item, index) => (
					<li key={index} className="row-list__row">
						<div className="row-list__fields">
							{columns.map((column) => {
								const value = (item as Record<string, unknown>)[column.key];
								return (
									<RowInput
										key={column.key}
										label={column.label(index + 1)}
										type={column.type}
										multiline={column.multiline}
										value={column.commaList ? (value as string[]).join(', ') : (value as string)}
										disabled={disabled}
										problems={problems?.(index, column.key) ?? none}
										classes={classes}
										onChange={(text) =>
											update(
												index,
												column.key,
												column.commaList ? text.split(',').map((word) => word.trimStart()) : text,
											)
										}
									/>
								);
							})}
						</div>
						{resizable && (
							<button
								type="button"
								className={classes.button}
								onClick={() => onChange(items.filter((_, i) => i !== index))}
							>
								{remove(index + 1)}
							</button>
						)}
					</li>
				))}
			</ol>
			{resizable && (
				<button
					type="button"
					className={classes.button}
					onClick={() => onChange([...items, blank()])}
				>
					{add}
				</button>
			)}
		</>
	);
}
