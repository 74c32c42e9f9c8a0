import { useId, type ReactNode } from 'react';

// The panel's form controls: every one labelled by a visible <label>, hints tied with
// aria-describedby, the field's default shown as the placeholder where a field is unset.

interface Common {
	label: string;
	hint?: ReactNode;
	disabled?: boolean;
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
	return hint ? (
		<p id={id} className="admin-field__hint">
			{hint}
		</p>
	) : null;
}

/** What ties a control to its label and hints. */
interface Control {
	id: string;
	disabled?: boolean;
	'aria-describedby'?: string;
}

/**
 * A labelled control with its hint and, under it, a second line that describes it too (a
 * counter): the control is given the attributes that tie them.
 */
function Field({
	label,
	hint,
	disabled,
	note,
	children,
}: Common & { note?: ReactNode; children(control: Control): ReactNode }) {
	const id = useId();
	const described = [hint && `${id}-hint`, note && `${id}-note`].filter(Boolean).join(' ');
	return (
		<div className="admin-field">
			<label htmlFor={id}>{label}</label>
			{children({ id, disabled, 'aria-describedby': described || undefined })}
			<Hint id={`${id}-hint`} hint={hint} />
			<Hint id={`${id}-note`} hint={note} />
		</div>
	);
}

export function TextField({
	value,
	onChange,
	placeholder,
	type = 'text',
	maxLength,
	transform,
	...field
}: Common & {
	value: string;
	onChange(value: string): void;
	placeholder?: string;
	type?: 'text' | 'email' | 'url' | 'tel';
	maxLength?: number;
	/** Applied as typed, e.g. uppercasing a state. */
	transform?: (value: string) => string;
}) {
	return (
		<Field {...field}>
			{(control) => (
				<input
					{...control}
					type={type}
					value={value}
					placeholder={placeholder}
					maxLength={maxLength}
					onChange={(e) => onChange(transform ? transform(e.target.value) : e.target.value)}
				/>
			)}
		</Field>
	);
}

export function TextArea({
	value,
	onChange,
	placeholder,
	maxLength,
	counter,
	...field
}: Common & {
	value: string;
	onChange(value: string): void;
	placeholder?: string;
	maxLength?: number;
	/** Shows '{n} / {max} characters' under the field. */
	counter?: boolean;
}) {
	return (
		<Field
			{...field}
			note={counter && maxLength ? `${value.length} / ${maxLength} characters` : undefined}
		>
			{(control) => (
				<textarea
					{...control}
					value={value}
					rows={3}
					placeholder={placeholder}
					maxLength={maxLength}
					onChange={(e) => onChange(e.target.value)}
				/>
			)}
		</Field>
	);
}

const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** A colour picker and its hex text input, kept in step. */
export function ColorField({
	label,
	disabled,
	value,
	onChange,
}: Common & { value: string; onChange(value: string): void }) {
	const id = useId();
	const valid = HEX.test(value);
	// <input type=color> only takes #rrggbb.
	const full =
		valid && value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value;
	return (
		<div className="admin-field admin-field--color">
			<label htmlFor={id}>{label}</label>
			<div className="admin-color">
				<input
					type="color"
					aria-label={`${label} colour picker`}
					value={valid ? full.toLowerCase() : '#000000'}
					disabled={disabled}
					onChange={(e) => onChange(e.target.value)}
				/>
				<input
					id={id}
					type="text"
					value={value}
					maxLength={7}
					spellCheck={false}
					disabled={disabled}
					aria-invalid={!valid}
					aria-describedby={valid ? undefined : `${id}-error`}
					onChange={(e) => onChange(e.target.value.trim())}
				/>
			</div>
			{!valid && (
				<p id={`${id}-error`} className="admin-field__error">
					Enter a hex colour like #0d3e63
				</p>
			)}
		</div>
	);
}

export function Toggle({
	label,
	hint,
	disabled,
	checked,
	onChange,
}: Common & { checked: boolean; onChange(checked: boolean): void }) {
	const id = useId();
	return (
		<div className="admin-field admin-field--toggle">
			<input
				id={id}
				type="checkbox"
				checked={checked}
				disabled={disabled}
				aria-describedby={hint ? `${id}-hint` : undefined}
				onChange={(e) => onChange(e.target.checked)}
			/>
			<label htmlFor={id}>{label}</label>
			<Hint id={`${id}-hint`} hint={hint} />
		</div>
	);
}

export function SelectField<T extends string>({
	value,
	options,
	onChange,
	...field
}: Common & {
	value: T;
	options: readonly { value: T; label: string }[];
	onChange(value: T): void;
}) {
	return (
		<Field {...field}>
			{(control) => (
				<select {...control} value={value} onChange={(e) => onChange(e.target.value as T)}>
					{options.map((option) => (
						<option key={option.value} value={option.value}>
							{option.label}
						</option>
					))}
				</select>
			)}
		</Field>
	);
}

/** A fieldset of checkboxes for a list setting (sorts, filters, levels). */
export function CheckboxList<T extends string>({
	legend,
	values,
	options,
	onChange,
	disabled,
}: {
	legend: string;
	values: readonly T[];
	options: readonly { value: T; label: string }[];
	onChange(values: T[]): void;
	disabled?: boolean;
}) {
	const id = useId();
	return (
		<fieldset className="admin-fieldset">
			<legend>{legend}</legend>
			<div className="admin-checks">
				{options.map((option, index) => (
					<div className="admin-field admin-field--toggle" key={option.value}>
						<input
							id={`${id}-${index}`}
							type="checkbox"
							checked={values.includes(option.value)}
							disabled={disabled}
							onChange={(e) =>
								onChange(
									e.target.checked
										? [...values, option.value]
										: values.filter((v) => v !== option.value),
								)
							}
						/>
						<label htmlFor={`${id}-${index}`}>{option.label}</label>
					</div>
				))}
			</div>
		</fieldset>
	);
}

/** A titled group of fields inside a tab. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
	return (
		<section className="admin-section">
			<h3>{title}</h3>
			<div className="admin-grid">{children}</div>
		</section>
	);
}
