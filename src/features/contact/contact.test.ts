import { describe, expect, it } from 'vitest';
import { contactMessageSchema, isHoneypotFilled } from './contact.ts';
import { CONTACT_LIMITS } from './limits.ts';
import { createRateLimiter, readContactEnv } from './contact.server.ts';

const valid = {
	name: ' Ada Visitor ',
	email: ' ada@example.com ',
	message: ' Are you open on Sundays? ',
	businessName: "Bella's Restaurant",
	recaptchaToken: 'token',
	website: '',
};

describe('contactMessageSchema', () => {
	it('accepts a message and trims it', () => {
		expect(contactMessageSchema.parse(valid)).toEqual({
			name: 'Ada Visitor',
			email: 'ada@example.com',
			message: 'Are you open on Sundays?',
			businessName: "Bella's Restaurant",
			recaptchaToken: 'token',
			website: '',
		});
	});

	it('needs no reCAPTCHA token or honeypot field', () => {
		const { recaptchaToken: _t, website: _w, ...rest } = valid;
		expect(contactMessageSchema.safeParse(rest).success).toBe(true);
	});

	it.each([
		['name', { name: '   ' }, 'Name is required'],
		['name', { name: undefined }, 'Name is required'],
		['name', { name: 'x'.repeat(CONTACT_LIMITS.name + 1) }, 'Name must be at most 100 characters'],
		['email', { email: '' }, 'Email is required'],
		['email', { email: 'not-an-email' }, 'Email must be a valid email address'],
		['message', { message: ' \n ' }, 'Message is required'],
		['message', { message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
		['businessName', { businessName: '' }, 'Business name is required'],
		['website', { website: 'https://spam.example' }, 'website must be empty'],
	])('refuses a bad %s with a message naming it', (field, change, message) => {
		const result = contactMessageSchema.safeParse({ ...valid, ...change });
		expect(result.success).toBe(false);
		expect(result.error?.issues[0]?.path).toEqual([field]);
		expect(result.error?.issues[0]?.message).toBe(message);
	});
});

describe('isHoneypotFilled', () => {
	it.each([
		[{ website: 'https://spam.example' }, true],
		[{ website: ' x ' }, true],
		[{ website: 1 }, true],
		[{ website: '' }, false],
		[{ website: '   ' }, false],
		[{ website: null }, false],
		[{}, false],
		[null, false],
		['text', false],
	])('%j → %j', (body, filled) => expect(isHoneypotFilled(body)).toBe(filled));
});

describe('createRateLimiter', () => {
	it('allows the limit within the window, per key, and again once the window passed', () => {
		let now = 0;
		const limiter = createRateLimiter({ limit: 5, windowMs: 60_000, now: () => now });
		for (let i = 0; i < 5; i++) expect(limiter.take('1.2.3.4')).toBe(true);
		expect(limiter.take('1.2.3.4')).toBe(false);
		expect(limiter.take('5.6.7.8')).toBe(true);
		now = 59_999;
		expect(limiter.take('1.2.3.4')).toBe(false);
		now = 60_000;
		expect(limiter.take('1.2.3.4')).toBe(true);
	});
});

describe('readContactEnv', () => {
	it('defaults to an outbox under the data folder and no reCAPTCHA', () => {
		const env = readContactEnv({ CHAMBER_DATA_DIR: '/tmp/chamber-data' });
		expect(env.outboxDir).toBe('/tmp/chamber-data/outbox');
		expect(env.smtpUrl).toBeUndefined();
		expect(env.recaptcha).toBeUndefined();
	});

	it('reads SMTP, the outbox folder and reCAPTCHA with Google as the default verifier', () => {
		const env = readContactEnv({
			SMTP_URL: 'smtp://user:pass@mail.example:587',
			OUTBOX_DIR: '/tmp/out',
			RECAPTCHA_SECRET: 's3cret',
		});
		expect(env.smtpUrl).toBe('smtp://user:pass@mail.example:587');
		expect(env.outboxDir).toBe('/tmp/out');
		expect(env.recaptcha).toEqual({
			secret: 's3cret',
			verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
		});
	});

	it('refuses an SMTP_URL that is not smtp', () => {
		expect(() => readContactEnv({ SMTP_URL: 'https://mail.example' })).toThrow(
			'SMTP_URL must be an smtp:// or smtps:// URL',
		);
	});
});
