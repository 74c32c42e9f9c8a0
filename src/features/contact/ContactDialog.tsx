import { useEffect, useId, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import { CONTACT_LIMITS } from './limits.ts';
import { loadRecaptcha, recaptchaToken } from './recaptcha.ts';

// Its styles are in ContactDialog.css, which the profile page links: this component is bundled
// into a standalone script that loads on the first click and carries no stylesheet.

const SUCCESS_CLOSE_MS = 2000;
const FAILED = 'Failed to send message.';

interface Props {
	/** The business's id: the function finds the recipient by it (names are not unique). */
	businessId: string;
	businessName: string;
	/** services.recaptchaSiteKey; '' sends messages without a token. */
	recaptchaSiteKey: string;
	open: boolean;
	/** Called once the dialog has closed (Cancel, ×, Escape or after a successful send). */
	onClose: () => void;
}

const TABBABLE = 'button, input, textarea, select, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the last control goes to the first one and Shift+Tab back again: a modal dialog
 * alone would let focus leave the page for the browser's own controls in between.
 */
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

type Status = { kind: 'idle' | 'sending' | 'sent' } | { kind: 'error'; message: string };

/**
 * What a visitor reads once the message is stored (the specification's line): a stored message is
 * e-mailed right after, or later while the mail server is down, so it is sent and there is
 * nothing to send again.
 */
const SENT_TEXT = 'Message sent successfully!';

async function postMessage(body: Record<string, unknown>): Promise<void> {
	let response: Response;
	try {
		response = await fetch('/api/contact-business', {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: JSON.stringify(body),
		});
	} catch {
		throw new Error(FAILED);
	}
	const answer = (await response.json().catch(() => null)) as {
		success?: boolean;
		error?: string;
	} | null;
	if (!response.ok || !answer?.success) throw new Error(answer?.error || FAILED);
}

/**
 * 'Contact {business}': name, email and message, all required (the browser's own validation,
 * email by type). A native modal <dialog>: focus stays inside, Escape closes it, and focus goes
 * back to the button that opened it.
 */
export default function ContactDialog({
	businessId,
	businessName,
	recaptchaSiteKey,
	open,
	onClose,
}: Props) {
	const dialog = useRef<HTMLDialogElement>(null);
	const form = useRef<HTMLFormElement>(null);
	const firstField = useRef<HTMLInputElement>(null);
	const returnFocus = useRef<HTMLElement | null>(null);
	const [status, setStatus] = useState<Status>({ kind: 'idle' });
	// One key per message: a retried submit of the same text (a lost answer, a second click after
	// an error) is the same message to the server, which never stores or sends it twice.
	const idempotencyKey = useRef<string | null>(null);
	const id = useId();
	const sending = status.kind === 'sending';

	useEffect(() => {
		const element = dialog.current;
		if (!element) return;
		if (open && !element.open) {
			returnFocus.current = document.activeElement as HTMLElement | null;
			setStatus({ kind: 'idle' });
			idempotencyKey.current = null;
			element.showModal();
			// The browser would start on ×, the first control; the form is what the visitor came for.
			firstField.current?.focus();
			if (recaptchaSiteKey) loadRecaptcha(recaptchaSiteKey);
		} else if (!open && element.open) element.close();
	}, [open, recaptchaSiteKey]);

	useEffect(() => {
		if (status.kind !== 'sent') return;
		const timer = setTimeout(() => dialog.current?.close(), SUCCESS_CLOSE_MS);
		return () => clearTimeout(timer);
	}, [status]);

	const close = () => dialog.current?.close();

	const submit = async (event: SubmitEvent<HTMLFormElement>) => {
		event.preventDefault();
		const data = new FormData(event.currentTarget);
		const field = (name: string) => String(data.get(name) ?? '');
		setStatus({ kind: 'sending' });
		idempotencyKey.current ??= crypto.randomUUID();
		try {
			const token = recaptchaSiteKey ? await recaptchaToken(recaptchaSiteKey) : undefined;
			await postMessage({
				name: field('name'),
				email: field('email'),
				message: field('message'),
				businessId,
				businessName,
				idempotencyKey: idempotencyKey.current,
				recaptchaToken: token,
				website: field('website'),
			});
			form.current?.reset();
			idempotencyKey.current = null;
			setStatus({ kind: 'sent' });
			// The member statistics' page script counts it (src/features/reports/StatsBeacon.astro).
			document.dispatchEvent(
				new CustomEvent('chamber:stat', { detail: { kind: 'message', business: businessId } }),
			);
		} catch (error) {
			const message = error instanceof Error ? error.message : '';
			setStatus({ kind: 'error', message: message || FAILED });
		}
	};

	return (
		<dialog
			ref={dialog}
			className="contact-dialog"
			aria-labelledby={`${id}-title`}
			onCancel={(event) => sending && event.preventDefault()}
			onKeyDown={keepFocusInside}
			onClose={() => {
				onClose();
				returnFocus.current?.focus();
			}}
		>
			<div className="contact-dialog__head">
				<h2 id={`${id}-title`}>Contact {businessName}</h2>
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
			<form
				ref={form}
				onSubmit={submit}
				// An edited message is a new message.
				onInput={() => {
					idempotencyKey.current = null;
				}}
			>
				<fieldset className="contact-dialog__fields" disabled={sending}>
					<label htmlFor={`${id}-name`}>Name</label>
					<input
						ref={firstField}
						id={`${id}-name`}
						name="name"
						required
						autoComplete="name"
						maxLength={CONTACT_LIMITS.name}
					/>
					<label htmlFor={`${id}-email`}>Email</label>
					<input
						id={`${id}-email`}
						name="email"
						type="email"
						required
						autoComplete="email"
						maxLength={CONTACT_LIMITS.email}
					/>
					<label htmlFor={`${id}-message`}>Message</label>
					<textarea
						id={`${id}-message`}
						name="message"
						rows={5}
						required
						maxLength={CONTACT_LIMITS.message}
					/>
					{/* A field people never see or reach; bots that fill it are ignored by the server. */}
					<div className="contact-dialog__trap" aria-hidden="true">
						<label htmlFor={`${id}-website`}>Website</label>
						<input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" />
					</div>
					<p className="contact-dialog__success" role="status">
						{status.kind === 'sent' ? SENT_TEXT : ''}
					</p>
					<p className="contact-dialog__error" role="alert">
						{status.kind === 'error' ? status.message : ''}
					</p>
					<div className="contact-dialog__actions">
						<button type="button" className="button button--outline" onClick={close}>
							Cancel
						</button>
						<button type="submit" className="button">
							{sending ? 'Sending...' : 'Send Message'}
						</button>
					</div>
				</fieldset>
			</form>
		</dialog>
	);
}
