import type { SupabaseClient } from '../../lib/database.ts';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import {
	ErrorAlert,
	NewPasswordFields,
	PasswordField,
	SubmitButton,
	useNewPassword,
} from './AuthForm.tsx';

type Status =
	{ kind: 'idle' } | { kind: 'saving' } | { kind: 'error'; message: string } | { kind: 'done' };

/** What the identity service's refusals mean to the person changing their password. */
function explain(error: { code?: string; message: string }): string {
	if (error.code === 'current_password_required' || error.code === 'current_password_mismatch') {
		return 'Your current password is not right.';
	}
	if (error.code === 'same_password' || error.code === 'weak_password') return error.message;
	return 'Failed to change the password. Please try again.';
}

/**
 * 'Change password' in the admin header: the current password, then the new one twice. The
 * identity service asks for the current one (Supabase Auth's "require current password"), so a
 * session someone else got hold of cannot take the account over; a change signs out the user's
 * other sessions.
 */
export default function ChangePassword({ client }: { client: SupabaseClient }) {
	const ids = useId();
	const dialog = useRef<HTMLDialogElement>(null);
	const [current, setCurrent] = useState('');
	const newPassword = useNewPassword();
	const [status, setStatus] = useState<Status>({ kind: 'idle' });

	function open() {
		setCurrent('');
		newPassword.clear();
		setStatus({ kind: 'idle' });
		dialog.current?.showModal();
	}

	async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
		event.preventDefault();
		if (!current) {
			setStatus({ kind: 'error', message: 'Please enter your current password.' });
			return;
		}
		if (newPassword.problem) {
			setStatus({ kind: 'error', message: newPassword.problem });
			return;
		}
		setStatus({ kind: 'saving' });
		const { error } = await client.auth.updateUser({
			password: newPassword.password,
			current_password: current,
		});
		setStatus(error ? { kind: 'error', message: explain(error) } : { kind: 'done' });
	}

	return (
		<>
			<button type="button" className="auth-button auth-button--small" onClick={open}>
				Change password
			</button>
			<dialog ref={dialog} className="auth-dialog" aria-labelledby={`${ids}-title`}>
				<form className="auth-card" method="dialog" onSubmit={onSubmit} noValidate>
					<h2 id={`${ids}-title`}>Change password</h2>
					{status.kind === 'error' && <ErrorAlert message={status.message} />}
					{status.kind === 'done' ? (
						<p className="auth-alert auth-alert--success" role="status">
							Your password has been changed. Your other sessions were signed out.
						</p>
					) : (
						<>
							<PasswordField
								id={`${ids}-current`}
								label="Current password"
								autoComplete="current-password"
								value={current}
								onValue={setCurrent}
							/>
							<NewPasswordFields
								id={ids}
								confirmLabel="Confirm new password"
								{...newPassword.fields}
							/>
							<SubmitButton
								label="Change password"
								busyLabel="Changing..."
								busy={status.kind === 'saving'}
							/>
						</>
					)}
					<button
						type="button"
						className="auth-button auth-button--outline"
						onClick={() => dialog.current?.close()}
					>
						{status.kind === 'done' ? 'Close' : 'Cancel'}
					</button>
				</form>
			</dialog>
		</>
	);
}
