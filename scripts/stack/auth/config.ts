import { z } from 'zod';
import { readContactEnv } from '../../../src/features/contact/contact.server.ts';
import { CAPTCHA_VERIFY_URLS, type CaptchaConfig } from './captcha.ts';
import type { WindowLimit } from './rate-limit.ts';

/**
 * Settings of the local identity service, from the environment (validated like every other
 * setting). Names follow what they mean; GoTrue's own names are given where one exists.
 */
const authEnvSchema = z.object({
	/**
	 * GoTrue's SITE_URL: where links lead when a redirect_to is not allowed; default the local
	 * site this stack serves, http://localhost:{PORT, 8888}.
	 */
	AUTH_SITE_URL: z.url().optional(),
	PORT: z.coerce.number().int().min(1).max(65535).default(8888),
	/** GoTrue's URI_ALLOW_LIST: comma-separated URL globs a redirect_to may match. */
	AUTH_REDIRECT_ALLOW_LIST: z.string().default(''),
	/** GoTrue's JWT_EXP: access token lifetime in seconds (default one hour). */
	AUTH_JWT_EXPIRY: z.coerce.number().int().min(5).max(604_800).default(3600),
	/** Token endpoint requests (sign-ins and refreshes) per IP address per 5 minutes. */
	AUTH_RATE_LIMIT_TOKEN: z.coerce.number().int().min(1).default(150),
	/** Password-recovery requests per IP address per 5 minutes. */
	AUTH_RATE_LIMIT_RECOVER: z.coerce.number().int().min(1).default(30),
	/** E-mailed link verifications per IP address per 5 minutes. */
	AUTH_RATE_LIMIT_VERIFY: z.coerce.number().int().min(1).default(30),
	/**
	 * GoTrue's MAILER_OTP_LENGTH (Authentication → Providers → Email → Email OTP Length on a hosted
	 * project): the digits of the code behind an e-mailed sign-in link, which POST /verify also
	 * takes with the address. GoTrue allows 6 to 10; 10 here, as the deploy guide sets a project,
	 * so the code cannot be guessed across many addresses at the per-IP verify limit.
	 */
	AUTH_MAILER_OTP_LENGTH: z.coerce.number().int().min(6).max(10).default(10),
	/** Sign-in link requests (GoTrue's RATE_LIMIT_OTP) per IP address per 5 minutes. */
	AUTH_RATE_LIMIT_OTP: z.coerce.number().int().min(1).default(30),
	/**
	 * GoTrue's RATE_LIMIT_HEADER: the header whose first address the per-IP limits count, set by
	 * the edge in front (the stack's gateway sets X-Forwarded-For to the connection's address).
	 */
	AUTH_RATE_LIMIT_HEADER: z.string().default('X-Forwarded-For'),
	/**
	 * GoTrue's SECURITY_SB_FORWARDED_FOR_ENABLED (Authentication → Rate Limits → IP Address
	 * Forwarding on a hosted project): a secret key's request counts the visitor it names.
	 */
	/** GoTrue's SECURITY_CAPTCHA_ENABLED, _PROVIDER and _SECRET (Authentication → Attack Protection). */
	AUTH_CAPTCHA_ENABLED: z
		.enum(['true', 'false'])
		.default('false')
		.transform((v) => v === 'true'),
	AUTH_CAPTCHA_PROVIDER: z.enum(['hcaptcha', 'turnstile']).default('hcaptcha'),
	AUTH_CAPTCHA_SECRET: z.string().optional(),
	/** The provider's siteverify address (tests point it at a local stand-in). */
	AUTH_CAPTCHA_VERIFY_URL: z.url().optional(),
	/**
	 * GoTrue's SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD (Authentication → Providers →
	 * Email → Require current password when updating): on, as the deploy guide sets a project.
	 */
	AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: z
		.enum(['true', 'false'])
		.default('true')
		.transform((v) => v === 'true'),
	AUTH_SB_FORWARDED_FOR_ENABLED: z
		.enum(['true', 'false'])
		.default('true')
		.transform((v) => v === 'true'),
});

export interface AuthConfig {
	/** The gateway's own address; the service answers at {externalUrl}/auth/v1. */
	externalUrl: string;
	jwtSecret: string;
	/** The keys Kong (Supabase's gateway) accepts in `apikey`. */
	apiKeys: readonly string[];
	jwtExpirySeconds: number;
	siteUrl: string;
	redirectAllowList: readonly string[];
	/** GoTrue's REFRESH_TOKEN_REUSE_INTERVAL (10 s). */
	refreshTokenReuseSeconds: number;
	/** GoTrue's MAILER_OTP_EXP: e-mailed links last one hour. */
	emailLinkSeconds: number;
	/** GoTrue's MAILER_OTP_LENGTH: the e-mailed code's digits (6 to 10). */
	emailOtpLength: number;
	/** GoTrue's SMTP_MAX_FREQUENCY: one e-mail per user per minute. */
	emailMinIntervalSeconds: number;
	limits: { token: WindowLimit; recover: WindowLimit; verify: WindowLimit; otp: WindowLimit };
	/** The header the per-IP limits read the client's address from ('' = the connection). */
	rateLimitHeader: string;
	/** Whether a secret key's request may name the visitor in Sb-Forwarded-For. */
	sbForwardedForEnabled: boolean;
	/** A password change outside an e-mailed link's session must name the current password. */
	requireCurrentPassword: boolean;
	/** CAPTCHA protection of sign-in and recovery, when on. */
	captcha?: CaptchaConfig;
	mail: { smtpUrl?: string; outboxDir: string; mailFrom?: string };
}

export function readAuthConfig(
	base: { externalUrl: string; jwtSecret: string; apiKeys: readonly string[] },
	env: NodeJS.ProcessEnv = process.env,
): AuthConfig {
	const parsed = authEnvSchema.safeParse(
		Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')),
	);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
		throw new Error(`Invalid identity service settings:\n${lines.join('\n')}`);
	}
	const e = parsed.data;
	// The identity service is part of the local stack wherever it runs (embedded or postgres
	// mode): it mails through SMTP_URL or into the outbox, and a deployed site's contact-form
	// rule (SMTP_URL required) is the contact form's own.
	const mail = readContactEnv(env, 'local');
	const window = (limit: number): WindowLimit => ({ limit, windowSeconds: 300 });
	return {
		...base,
		jwtExpirySeconds: e.AUTH_JWT_EXPIRY,
		siteUrl: e.AUTH_SITE_URL ?? `http://localhost:${e.PORT}`,
		redirectAllowList: e.AUTH_REDIRECT_ALLOW_LIST.split(',')
			.map((s) => s.trim())
			.filter(Boolean),
		refreshTokenReuseSeconds: 10,
		emailLinkSeconds: 3600,
		emailOtpLength: e.AUTH_MAILER_OTP_LENGTH,
		emailMinIntervalSeconds: 60,
		limits: {
			token: window(e.AUTH_RATE_LIMIT_TOKEN),
			recover: window(e.AUTH_RATE_LIMIT_RECOVER),
			verify: window(e.AUTH_RATE_LIMIT_VERIFY),
			otp: window(e.AUTH_RATE_LIMIT_OTP),
		},
		rateLimitHeader: e.AUTH_RATE_LIMIT_HEADER,
		sbForwardedForEnabled: e.AUTH_SB_FORWARDED_FOR_ENABLED,
		requireCurrentPassword: e.AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD,
		captcha: e.AUTH_CAPTCHA_ENABLED
			? {
					provider: e.AUTH_CAPTCHA_PROVIDER,
					secret: e.AUTH_CAPTCHA_SECRET ?? '',
					verifyUrl: e.AUTH_CAPTCHA_VERIFY_URL ?? CAPTCHA_VERIFY_URLS[e.AUTH_CAPTCHA_PROVIDER],
				}
			: undefined,
		mail: { smtpUrl: mail.smtpUrl, outboxDir: mail.outboxDir, mailFrom: mail.mailFrom },
	};
}

/** A glob of GoTrue's URI_ALLOW_LIST: `*` within a path segment or host label, `**` anything. */
function globToRegExp(glob: string): RegExp {
	let source = '';
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i]!;
		if (c === '*' && glob[i + 1] === '*') {
			source += '.*';
			i++;
		} else if (c === '*') source += '[^/.]*';
		else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
	}
	return new RegExp(`^${source}$`);
}

/**
 * Where a link may send the browser back to: the site URL's origin or an allow-list glob;
 * otherwise GoTrue falls back to the site URL. Another local port is another site: a page there
 * must not receive a session meant for this one.
 */
export function allowedRedirect(config: AuthConfig, redirectTo: string | null | undefined): string {
	if (!redirectTo) return config.siteUrl;
	let url: URL;
	try {
		url = new URL(redirectTo);
	} catch {
		return config.siteUrl;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return config.siteUrl;
	const site = new URL(config.siteUrl);
	if (url.origin === site.origin) return url.href;
	if (config.redirectAllowList.some((glob) => globToRegExp(glob).test(url.href))) return url.href;
	return config.siteUrl;
}
