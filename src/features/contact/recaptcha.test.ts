import { describe, expect, it, vi } from 'vitest';
import { RECAPTCHA_NOT_LOADED, recaptchaToken } from './recaptcha.ts';

describe('recaptchaToken', () => {
	it("fails with the form's message when the provider's script has not loaded", async () => {
		await expect(recaptchaToken('site-key', undefined)).rejects.toThrow(
			'reCAPTCHA not loaded. Please try again.',
		);
		expect(RECAPTCHA_NOT_LOADED).toBe('reCAPTCHA not loaded. Please try again.');
	});

	it("waits until the provider is ready, then asks for a token for the action 'submit'", async () => {
		let ready = false;
		const grecaptcha = {
			ready: (callback: () => void) => {
				ready = true;
				setTimeout(callback, 0);
			},
			execute: vi.fn(async () => {
				expect(ready).toBe(true);
				return 'token-123';
			}),
		};
		await expect(recaptchaToken('site-key', grecaptcha)).resolves.toBe('token-123');
		expect(grecaptcha.execute).toHaveBeenCalledWith('site-key', { action: 'submit' });
	});
});
