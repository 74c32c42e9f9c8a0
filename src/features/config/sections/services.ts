import { z } from 'zod';
import { MAX_LENGTH, TOKEN, DOMAIN, describeValue, tooLong, text, tileUrl } from './fields.ts';

export const servicesSchema = z.object({
	/**
	 * Google Analytics 4 measurement id (G-XXXXXXX); the script loads only when set; default ''.
	 * Only G- ids: a tag-manager container (GTM-) would run whatever its owner adds, site-wide, on
	 * the origin where staff sessions live.
	 */
	googleAnalyticsId: z
		.string()
		.trim()
		.max(30, tooLong(30))
		.regex(/^(?:G-[A-Z0-9]{4,20})?$/, {
			error: (iss) =>
				`Expected a Google Analytics measurement id like G-ABC123, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/** reCAPTCHA site key used by the contact form; default ''. */
	recaptchaSiteKey: z
		.string()
		.trim()
		.max(100, tooLong(100))
		.regex(TOKEN, {
			error: (iss) => `Expected a reCAPTCHA site key, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/**
	 * The maps' tiles: a raster tile service's https address with {z}/{x}/{y}; '' takes
	 * MAP_TILE_URL of the deployment, else OpenStreetMap's standard tiles; default ''.
	 */
	mapTileUrl: tileUrl(),
	/** The tile service's attribution, as its terms ask (plain text); default ''. */
	mapAttribution: text('', MAX_LENGTH.short),
	/** Domain outgoing e-mail is sent from; default ''. */
	emailDomain: z
		.string()
		.trim()
		.max(253, tooLong(253))
		.regex(DOMAIN, {
			error: (iss) => `Expected a domain like example.org, received ${describeValue(iss.input)}`,
		})
		.default(''),
});
