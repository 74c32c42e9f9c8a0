import { z } from 'zod';
import { TIME_ZONES, describeValue, tooLong, text, stateCode, countryCode } from './fields.ts';

export const contactSchema = z.object({
	/** Street address shown in the footer; default ''. */
	address: text(''),
	/** Optional second address line; default ''. */
	addressLine2: text(''),
	/** City of the chamber office; default ''. */
	city: text(''),
	/** 2-letter state of the chamber office, uppercased; default ''. */
	state: stateCode(),
	/** ZIP code; default ''. */
	zip: text(''),
	/**
	 * The chamber's country, two letters (ISO 3166-1), uppercased: distances in miles or km by
	 * it, and the geocoder's country; default 'US'.
	 */
	country: countryCode(),
	/** Phone number; default ''. */
	phone: text(''),
	/**
	 * The chamber's time zone, for the dates staff enter ('Publish at…'); '' takes the usual one
	 * of the chamber's state (chamberTimeZone); default ''.
	 */
	timeZone: z
		.enum(['', ...TIME_ZONES], {
			error: (iss) =>
				`Expected a US time zone such as America/Chicago, received ${describeValue(iss.input)}`,
		})
		.default(''),
	/** Optional public e-mail address; default ''. */
	email: z
		.union([
			z.literal(''),
			z
				.email({
					error: (iss) => `Expected an e-mail address, received ${describeValue(iss.input)}`,
				})
				.max(254, tooLong(254)),
		])
		.default(''),
});
