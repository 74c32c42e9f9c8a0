/**
 * The environment a deployment of one chamber runs with (a Netlify site's variables), as the code
 * reads it: src/lib/supabase.server.ts (Supabase, TENANT), astro.config.mjs (SITE_URL), the publish
 * feature (build hook, purge), contact and sign-in mail (SMTP), reCAPTCHA, the events source
 * (Atlas). The generator writes them out for a new chamber with placeholders; `{slug}` is replaced
 * by the chamber's slug.
 */
export interface DeploymentVariable {
	name: string;
	description: string;
	example: string;
	required: boolean;
}

export const DEPLOYMENT_VARIABLES: readonly DeploymentVariable[] = [
	{
		name: 'TENANT',
		description: 'The chamber this deployment builds and serves (its slug).',
		example: '{slug}',
		required: true,
	},
	{
		name: 'SITE_URL',
		description: 'The public address of the site (canonical links, sitemap, reset e-mails).',
		example: 'https://{slug}.netlify.app',
		required: true,
	},
	{
		name: 'SUPABASE_URL',
		description: 'The Supabase project (Project Settings → API).',
		example: 'https://your-project-ref.supabase.co',
		required: true,
	},
	{
		name: 'SUPABASE_ANON_KEY',
		description: "The project's anon (public) key.",
		example: 'your-anon-key',
		required: true,
	},
	{
		name: 'SUPABASE_SERVICE_ROLE_KEY',
		description:
			"The project's service-role key: the build and server functions only, never a browser.",
		example: 'your-service-role-key',
		required: true,
	},
	{
		name: 'NETLIFY_BUILD_HOOK_URL',
		description: 'Build hook the admin panel calls to publish (Site configuration → Build hooks).',
		example: 'https://api.netlify.com/build_hooks/your-hook-id',
		required: true,
	},
	{
		name: 'NETLIFY_PURGE_API_TOKEN',
		description:
			"A Netlify personal access token, to purge the chamber's cached answers on publish.",
		example: 'your-netlify-token',
		required: false,
	},
	{
		name: 'RECAPTCHA_SECRET',
		description:
			"reCAPTCHA v3 secret of the contact form (the site key goes in the chamber's configuration).",
		example: 'your-recaptcha-secret',
		required: false,
	},
	{
		name: 'SMTP_URL',
		description: 'Mail server for contact messages (smtp:// or smtps://user:password@host:port).',
		example: 'smtps://user:password@smtp.example.org:465',
		required: true,
	},
	{
		name: 'MAIL_FROM',
		description: 'Sender address of those e-mails.',
		example: 'no-reply@{slug}.example.org',
		required: false,
	},
	{
		name: 'ATLAS_BASE_URL',
		description:
			"The membership system's events API (leave both Atlas variables out to use imported events).",
		example: 'https://api.example.org/api',
		required: false,
	},
	{
		name: 'ATLAS_TENANT',
		description: "The chamber's tenant name in the membership system (sent as x-tenant).",
		example: '{slug}',
		required: false,
	},
];
