import { useEffect, useId, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import { loadRecaptcha, recaptchaToken } from '../../contact/recaptcha.ts';
import { MEMBER_SESSION_KEY } from '../../self-service/paths.ts';
import { SUBMISSION_LIMITS as L, SUBMISSION_TEXTS } from '../submission-limits.ts';

// 'Submit an event' on /community-events: a native modal <dialog> whose form the browser
// validates (required fields, e-mail and link types, the limits of submission-limits.ts), sent to
// /api/event-submissions, which checks everything again. It is bundled into a standalone script
// that loads on the first click of the button (the calendar pages' script budget); its styles
// are ContactDialog.css's, which the page links.

const TABBABLE = 'button, input, textarea, select, a[href], [tabindex]:not([tabindex="-1"])';

/** Tab stays inside the dialog (a modal alone lets it reach the browser's own controls). */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
	if (event.key !== 'Tab') return;
	const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(TABBABLE)].filter(
		(el) => !el.matches(':disabled, [tabindex="-1"]') && el.offsetParent !== null,
	);
	const first = controls[0];
	const last = controls.at(-1);
	if (!first || !last) return;
	if (event.shiftKey && document.activeElement === first) {
		event.preventDefault();
		last.focus();
	} else if (!event.shiftKey && document.activeElement === last) {
		event.preventDefault();
		first.focus();
	}
}

interface MemberSession {
	token: string;
	email: string;
}

/**
 * The member's session in this browser (signed in by their e-mailed link on the member page),
 * while its access token is good for another minute: they submit with it, without reCAPTCHA.
 */
export function memberSession(
	storage: Pick<Storage, 'getItem'> = localStorage,
): MemberSession | null {
	try {
		const stored = JSON.parse(storage.getItem(MEMBER_SESSION_KEY) ?? 'null') as {
			access_token?: string;
			expires_at?: number;
			user?: { email?: string };
		} | null;
		if (!stored?.access_token || !stored.user?.email) return null;
		if ((stored.expires_at ?? 0) * 1000 < Date.now() + 60_000) return null;
		return { token: stored.access_token, email: stored.user.email };
	} catch {
		return null;
	}
}

type Status = { kind: 'idle' | 'sending' | 'sent' } | { kind: 'error'; message: string };

interface Props {
	/** services.recaptchaSiteKey; '' sends without a token. */
	recaptchaSiteKey: string;
	open: boolean;
	onClose(): void;
}

export default function SubmitEventDialog({ recaptchaSiteKey, open, onClose }: Props) {
	const dialog = useRef<HTMLDialogElement>(null);
	const form = useRef<HTMLFormElement>(null);
	const firstField = useRef<HTMLInputElement>(null);
	const returnFocus = useRef<HTMLElement | null>(null);
	const [status, setStatus] = useState<Status>({ kind: 'idle' });
	const [allDay, setAllDay] = useState(false);
	const [member, setMember] = useState<MemberSession | null>(null);
	const id = useId();
	const sending = status.kind === 'sending';

	useEffect(() => {
		const element = dialog.current;
		if (!element) return;
		if (open && !element.open) {
			returnFocus.current = document.activeElement as HTMLElement | null;
			setStatus({ kind: 'idle' });
			const session = memberSession();
			setMember(session);
			element.showModal();
			firstField.current?.focus();
			if (recaptchaSiteKey && !session) loadRecaptcha(recaptchaSiteKey);
		} else if (!open && element.open) element.close();
	}, [open, recaptchaSiteKey]);

	const close = () => dialog.current?.close();

	const submit = async (event: SubmitEvent<HTMLFormElement>) => {
		event.preventDefault();
		const data = new FormData(event.currentTarget);
		const field = (name: string) => String(data.get(name) ?? '').trim();
		const starts = allDay ? `${field('starts_day')}T00:00` : field('starts_local');
		const ends = allDay ? `${field('ends_day') || field('starts_day')}T23:59` : field('ends_local');
		setStatus({ kind: 'sending' });
		try {
			const token =
				recaptchaSiteKey && !member ? await recaptchaToken(recaptchaSiteKey) : undefined;
			let response: Response;
			try {
				response = await fetch('/api/event-submissions', {
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						Accept: 'application/json',
						...(member ? { Authorization: `Bearer ${member.token}` } : {}),
					},
					body: JSON.stringify({
						submitterName: field('submitterName'),
						submitterEmail: member?.email ?? field('submitterEmail'),
						recaptchaToken: token,
						website: field('website'),
						event: {
							name: field('name'),
							description: field('description'),
							all_day: allDay,
							starts_local: starts,
							ends_local: ends,
							venue: field('venue'),
							address1: field('address1'),
							city: field('city'),
							state: field('state'),
							zip: field('zip'),
							registration_url: field('registration_url'),
							contact_email: field('contact_email'),
						},
					}),
				});
			} catch {
				throw new Error(SUBMISSION_TEXTS.failed);
			}
			const answer = (await response.json().catch(() => null)) as {
				success?: boolean;
				error?: string;
			} | null;
			if (!response.ok || !answer?.success)
				throw new Error(answer?.error || SUBMISSION_TEXTS.failed);
			form.current?.reset();
			setAllDay(false);
			setStatus({ kind: 'sent' });
		} catch (error) {
			const message = error instanceof Error ? error.message : '';
			setStatus({ kind: 'error', message: message || SUBMISSION_TEXTS.failed });
		}
	};

	const input = (
		name: string,
		label: string,
		options: {
			type?: string;
			required?: boolean;
			maxLength?: number;
			autoComplete?: string;
			hint?: string;
		} = {},
	) => (
		<>
			<label htmlFor={`${id}-${name}`}>
				{label}
				{options.required ? '' : ' (optional)'}
			</label>
			<input
				id={`${id}-${name}`}
				name={name}
				type={options.type ?? 'text'}
				required={options.required}
				maxLength={options.maxLength}
				autoComplete={options.autoComplete ?? 'off'}
				aria-describedby={options.hint ? `${id}-${name}-hint` : undefined}
			/>
			{options.hint && (
				<small id={`${id}-${name}-hint`} className="submit-event__hint">
					{options.hint}
				</small>
			)}
		</>
	);

	return (
		<dialog
			ref={dialog}
			className="contact-dialog submit-event"
			aria-labelledby={`${id}-title`}
			onCancel={(event) => sending && event.preventDefault()}
			onKeyDown={keepFocusInside}
			onClose={() => {
				onClose();
				returnFocus.current?.focus();
			}}
		>
			<div className="contact-dialog__head">
				<h2 id={`${id}-title`}>Submit an event</h2>
				<button
					type="button"
					className="contact-dialog__close"
					aria-label="Close"
					disabled={sending}
					onClick={close}
				>
					×
				</button>
			</div>
			<form ref={form} onSubmit={submit}>
				<fieldset className="contact-dialog__fields" disabled={sending}>
					<p className="submit-event__intro">
						The chamber reviews every event before it is on the community calendar.
					</p>
					<label htmlFor={`${id}-name`}>Event title</label>
					<input
						ref={firstField}
						id={`${id}-name`}
						name="name"
						required
						maxLength={L.name}
						autoComplete="off"
					/>
					<label className="submit-event__check">
						<input
							type="checkbox"
							name="all_day"
							checked={allDay}
							onChange={(e) => setAllDay(e.target.checked)}
						/>{' '}
						All day
					</label>
					{allDay ? (
						<>
							{input('starts_day', 'First day', { type: 'date', required: true })}
							{input('ends_day', 'Last day', { type: 'date' })}
						</>
					) : (
						<>
							{input('starts_local', 'Starts', { type: 'datetime-local', required: true })}
							{input('ends_local', 'Ends', { type: 'datetime-local', required: true })}
						</>
					)}
					{input('venue', 'Venue', { maxLength: L.venue })}
					{input('address1', 'Address', { maxLength: L.address1, autoComplete: 'street-address' })}
					{input('city', 'City', { maxLength: L.city })}
					{input('state', 'State', { maxLength: L.state })}
					{input('zip', 'ZIP', { maxLength: L.zip })}
					<label htmlFor={`${id}-description`}>Description (optional)</label>
					<textarea
						id={`${id}-description`}
						name="description"
						rows={4}
						maxLength={L.description}
					/>
					{input('registration_url', 'Registration or information link', {
						type: 'url',
						maxLength: L.url,
						hint: 'Shown on the event’s page.',
					})}
					{input('contact_email', 'Questions to (e-mail)', {
						type: 'email',
						maxLength: L.contactEmail,
						hint: 'Shown on the event’s page.',
					})}
					{input('submitterName', 'Your name', {
						required: true,
						maxLength: L.submitterName,
						autoComplete: 'name',
					})}
					{member ? (
						<p className="submit-event__member">
							Signed in as a member: the chamber answers {member.email}.
						</p>
					) : (
						input('submitterEmail', 'Your e-mail', {
							type: 'email',
							required: true,
							maxLength: L.submitterEmail,
							autoComplete: 'email',
							hint: 'For the chamber’s answer only; never shown.',
						})
					)}
					{/* A field people never see or reach; bots that fill it are ignored by the server. */}
					<div className="contact-dialog__trap" aria-hidden="true">
						<label htmlFor={`${id}-website`}>Website</label>
						<input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" />
					</div>
					<p className="contact-dialog__success" role="status">
						{status.kind === 'sent' ? SUBMISSION_TEXTS.sent : ''}
					</p>
					<p className="contact-dialog__error" role="alert">
						{status.kind === 'error' ? status.message : ''}
					</p>
					<div className="contact-dialog__actions">
						<button type="button" className="button button--outline" onClick={close}>
							{status.kind === 'sent' ? 'Close' : 'Cancel'}
						</button>
						<button type="submit" className="button">
							{sending ? 'Sending...' : 'Send for review'}
						</button>
					</div>
				</fieldset>
			</form>
		</dialog>
	);
}
