/**
 * The longest value each field of a contact message may hold. Zod-free, so the dialog (which
 * ships to the browser) caps its fields with the same numbers contact.ts's schema enforces.
 */
export const CONTACT_LIMITS = {
	name: 100,
	email: 254,
	message: 5000,
	businessName: 200,
	recaptchaToken: 4000,
} as const;
