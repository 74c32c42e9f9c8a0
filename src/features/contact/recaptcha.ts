/**
 * reCAPTCHA v3 for the contact form: the provider's script loads when the dialog
 * opens, and a token for the action 'submit' is taken right before a message is posted.
 */

interface Grecaptcha {
	ready(callback: () => void): void;
	execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
	interface Window {
		grecaptcha?: Grecaptcha;
	}
}

export const RECAPTCHA_NOT_LOADED = 'reCAPTCHA not loaded. Please try again.';

export function loadRecaptcha(siteKey: string): void {
	if (document.querySelector('script[data-recaptcha]')) return;
	const script = document.createElement('script');
	script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
	script.async = true;
	script.dataset.recaptcha = '';
	document.head.append(script);
}

export async function recaptchaToken(
	siteKey: string,
	grecaptcha: Grecaptcha | undefined = globalThis.window?.grecaptcha,
): Promise<string> {
	if (typeof grecaptcha?.execute !== 'function') throw new Error(RECAPTCHA_NOT_LOADED);
	await new Promise<void>((resolve) => grecaptcha.ready(resolve));
	return grecaptcha.execute(siteKey, { action: 'submit' });
}
