import { z } from 'zod';
import type { AuthConfig } from './config.ts';
import { AuthError } from './errors.ts';

/**
 * GoTrue's CAPTCHA protection (internal/api/middleware.go verifyCaptcha, internal/security/
 * captcha.go): with it on, a password sign-in and a recovery e-mail need the visitor's
 * `gotrue_meta_security.captcha_token`, checked with the provider's siteverify (secret, response,
 * remoteip as a form). A request made with the service role (a server acting for a visitor) is
 * let through without one, as GoTrue lets admin credentials through.
 */

export const CAPTCHA_VERIFY_URLS = {
	hcaptcha: 'https://hcaptcha.com/siteverify',
	turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
} as const;

export interface CaptchaConfig {
	provider: keyof typeof CAPTCHA_VERIFY_URLS;
	secret: string;
	verifyUrl: string;
}

const bodySchema = z.object({
	gotrue_meta_security: z.object({ captcha_token: z.string().default('') }).default({
		captcha_token: '',
	}),
});

const answerSchema = z.object({
	success: z.boolean(),
	'error-codes': z.array(z.string()).default([]),
});

export async function checkCaptcha(
	config: Pick<AuthConfig, 'captcha'>,
	body: unknown,
	clientIp: string,
): Promise<void> {
	const captcha = config.captcha;
	if (!captcha) return;
	const parsed = bodySchema.safeParse(body);
	const token = parsed.success ? parsed.data.gotrue_meta_security.captcha_token.trim() : '';
	if (!token) {
		throw new AuthError(
			400,
			'captcha_failed',
			'captcha protection: request disallowed (no captcha_token found)',
		);
	}
	let answer: z.output<typeof answerSchema>;
	try {
		const res = await fetch(captcha.verifyUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ secret: captcha.secret, response: token, remoteip: clientIp }),
			signal: AbortSignal.timeout(10_000),
		});
		answer = answerSchema.parse(await res.json());
	} catch (error) {
		console.error(`[auth] captcha verification failed: ${(error as Error).message}`);
		throw new AuthError(500, 'unexpected_failure', 'captcha verification process failed');
	}
	if (!answer.success) {
		throw new AuthError(
			400,
			'captcha_failed',
			`captcha protection: request disallowed (${answer['error-codes'].join(', ')})`,
		);
	}
}
