import { describe, expect, it } from 'vitest';
import { contactMessageSchema, isHoneypotFilled } from './contact.ts';
import { CONTACT_LIMITS } from './limits.ts';
import { readContactEnv, runsWhere } from './contact.server.ts';

const valid = {
	name: ' Ada Visitor ',
	email: ' ada@example.com ',
	message: ' Are you open on Sundays? ',
	// As the demo's ids are: hex in the UUID layout without an RFC 4122 version.
	businessId: 'dc94bddc-fa51-e6fa-b4d8-d29f85f1dfda',
	businessName: "Bella's Restaurant",
	idempotencyKey: 'b2a8e3c4-1d2f-4e5a-8b7c-9d0e1f2a3b4c',
	recaptchaToken: 'token',
	website: '',
};

describe('contactMessageSchema', () => {
	it('accepts a message and trims it', () => {
		expect(contactMessageSchema.parse(valid)).toEqual({
			name: 'Ada Visitor',
			email: 'ada@example.com',
			message: 'Are you open on Sundays?',
			businessId: valid.businessId,
			businessName: "Bella's Restaurant",
			idempotencyKey: valid.idempotencyKey,
			recaptchaToken: 'token',
			website: '',
		});
	});

	it("takes the specification's body, without the business's id", () => {
		const { businessId: _id, idempotencyKey: _k, website: _w, ...spec } = valid;
		expect(contactMessageSchema.safeParse(spec).success).toBe(true);
	});

	it('needs no reCAPTCHA token, honeypot field or idempotency key', () => {
		const { recaptchaToken: _t, website: _w, idempotencyKey: _k, ...rest } = valid;
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
		// An id is an id: a name given as one is refused, never looked up.
		['businessId', { businessId: "Bella's Restaurant" }, 'Business id must be a business id'],
		['idempotencyKey', { idempotencyKey: 'again' }, 'Idempotency key must be a UUID'],
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

describe('readContactEnv', () => {
	it('defaults to an outbox under the data folder and no reCAPTCHA', () => {
		const env = readContactEnv({ CHAMBER_DATA_DIR: '/tmp/chamber-data' }, 'local');
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
		expect(() => readContactEnv({ SMTP_URL: 'https://mail.example' }, 'local')).toThrow(
			'SMTP_URL must be an smtp:// or smtps:// URL',
		);
	});

	// On Netlify the outbox folder is read-only: every message would fail after being stored.
	it('requires SMTP_URL on a deployed site, unless an outbox folder is chosen', () => {
		expect(() => readContactEnv({}, 'deployed')).toThrow(
			'Contact configuration error: SMTP_URL is required on a deployed site',
		);
		expect(readContactEnv({ SMTP_URL: 'smtps://mail.example' }, 'deployed').smtpUrl).toBe(
			'smtps://mail.example',
		);
		expect(readContactEnv({ OUTBOX_DIR: '/srv/outbox' }, 'deployed').outboxDir).toBe('/srv/outbox');
	});

	it('knows a deployed site from one beside a local stack', () => {
		const hosted = {
			SUPABASE_URL: 'https://ref.supabase.co',
			SUPABASE_ANON_KEY: 'anon-key-of-twenty-characters',
			SUPABASE_SERVICE_ROLE_KEY: 'service-key-of-twenty-characters',
		};
		expect(runsWhere(hosted)).toBe('deployed');
		// npm start passes its stack's keys too, and its database.
		expect(runsWhere({ ...hosted, CHAMBER_DATABASE_URL: 'postgres://127.0.0.1:54322/x' })).toBe(
			'local',
		);
		expect(runsWhere({})).toBe('local');
	});
});
