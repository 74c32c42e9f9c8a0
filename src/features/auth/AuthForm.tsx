import {
	useState,
	type SubmitEvent,
	type InputHTMLAttributes,
	type ReactNode,
	type Ref,
} from 'react';
import { newPasswordProblem, PASSWORD_MIN_LENGTH } from './auth.ts';

// The parts the admin pages' forms (sign-in, forgotten and reset password, change password) are
// made of. Every id is the form's `useId()` with a suffix, so labels, hints and errors stay tied
// to their inputs however many forms a page holds.

interface AuthFormProps {
	/** The form's `useId()`. */
	id: string;
	title: string;
	lead: ReactNode;
	onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
	children: ReactNode;
}

/** A page's form in its card, named by its title. */
export function AuthForm({ id, title, lead, onSubmit, children }: AuthFormProps) {
	return (
		<form
			className="auth-card"
			method="post"
			onSubmit={onSubmit}
			noValidate
			aria-labelledby={`${id}-title`}
		>
			<h1 id={`${id}-title`}>{title}</h1>
			<p className="auth-card__lead">{lead}</p>
			{children}
		</form>
	);
}

/**
 * Why the form or page cannot go on, announced at once. With a `ref` it can take focus, for a
 * refusal the person would otherwise miss.
 */
export function ErrorAlert({ message, ref }: { message: string; ref?: Ref<HTMLParagraphElement> }) {
	return (
		<p
			className="auth-alert auth-alert--error"
			role="alert"
			tabIndex={ref ? -1 : undefined}
			ref={ref}
		>
			{message}
		</p>
	);
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
	id: string;
	label: string;
	value: string;
	onValue: (value: string) => void;
	/** What the field asks for, said with it. */
	hint?: string;
	/** A button beside the input. */
	children?: ReactNode;
}

/** A labelled input. */
function Field({ id, label, hint, onValue, children, ...props }: FieldProps) {
	const input = (
		<input
			id={id}
			aria-describedby={hint ? `${id}-hint` : undefined}
			onChange={(e) => onValue(e.target.value)}
			{...props}
		/>
	);
	return (
		<div className="auth-field">
			<label htmlFor={id}>{label}</label>
			{children ? (
				<div className="auth-field__row">
					{input}
					{children}
				</div>
			) : (
				input
			)}
			{hint && (
				<small id={`${id}-hint`} className="auth-hint">
					{hint}
				</small>
			)}
		</div>
	);
}

type ValueProps = Pick<FieldProps, 'id' | 'value' | 'onValue' | 'disabled'>;

/** The account's e-mail address, which is its user name for password managers. */
export function EmailField(props: ValueProps) {
	return (
		<Field label="Email" type="email" name="email" autoComplete="username" required {...props} />
	);
}

interface PasswordProps extends Omit<FieldProps, 'type' | 'children'> {
	autoComplete: 'current-password' | 'new-password';
	/** With a Show password button, for a password typed once. */
	revealable?: boolean;
}

/** A password, unseen as it is typed unless the person asks to see it. */
export function PasswordField({ revealable = false, ...props }: PasswordProps) {
	const [shown, setShown] = useState(false);
	return (
		<Field type={shown ? 'text' : 'password'} required {...props}>
			{revealable && (
				<button
					type="button"
					className="auth-field__reveal"
					aria-pressed={shown}
					aria-controls={props.id}
					onClick={() => setShown((was) => !was)}
				>
					{shown ? 'Hide password' : 'Show password'}
				</button>
			)}
		</Field>
	);
}

/** The values of NewPasswordFields (`fields`) and what keeps them from being submitted. */
export function useNewPassword() {
	const [password, setPassword] = useState('');
	const [confirm, setConfirm] = useState('');
	return {
		password,
		problem: newPasswordProblem(password, confirm),
		clear() {
			setPassword('');
			setConfirm('');
		},
		fields: { password, confirm, onPassword: setPassword, onConfirm: setConfirm },
	};
}

type NewPasswordProps = ReturnType<typeof useNewPassword>['fields'] & {
	/** The form's `useId()`. */
	id: string;
	confirmLabel: string;
};

/**
 * The new password and its confirmation, with the rule under the first and, once both hold
 * something (so the first keystroke is not greeted by an error), what is wrong with them.
 */
export function NewPasswordFields({
	id,
	password,
	confirm,
	onPassword,
	onConfirm,
	confirmLabel,
}: NewPasswordProps) {
	const problem = password && confirm ? newPasswordProblem(password, confirm) : null;
	return (
		<>
			<PasswordField
				id={`${id}-new`}
				label="New password"
				autoComplete="new-password"
				minLength={PASSWORD_MIN_LENGTH}
				hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
				value={password}
				onValue={onPassword}
			/>
			<PasswordField
				id={`${id}-confirm`}
				label={confirmLabel}
				autoComplete="new-password"
				aria-invalid={problem ? true : undefined}
				aria-describedby={problem ? `${id}-problem` : undefined}
				value={confirm}
				onValue={onConfirm}
			/>
			{/* Always there, so screen readers announce the problem when it appears. */}
			<p id={`${id}-problem`} className="auth-field-error" aria-live="polite">
				{problem}
			</p>
		</>
	);
}

interface SubmitProps {
	label: string;
	/** Said instead of the label while the request runs. */
	busyLabel: string;
	busy: boolean;
	disabled?: boolean;
}

/** The form's submit button, which cannot be pressed twice while its request runs. */
export function SubmitButton({ label, busyLabel, busy, disabled = false }: SubmitProps) {
	return (
		<button type="submit" className="auth-button" disabled={disabled || busy}>
			{busy ? busyLabel : label}
		</button>
	);
}
