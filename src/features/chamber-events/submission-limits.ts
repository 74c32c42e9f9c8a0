// What a community submission may be, for the 'Submit an event' dialog (its inputs' maxLength,
// without zod: it is a public page's script) and the function's schema (submissions.ts).

export const SUBMISSION_LIMITS = {
	submitterName: 200,
	submitterEmail: 254,
	name: 200,
	description: 5000,
	venue: 200,
	address1: 200,
	city: 200,
	state: 200,
	zip: 20,
	url: 2000,
	contactEmail: 254,
	/** Submissions of one visitor's network: an hour's and a day's. */
	perHour: 5,
	perDay: 20,
	/** Waiting for review at once: one e-mail address's (the database holds these two). */
	pendingPerEmail: 3,
	pendingPerChamber: 200,
} as const;

/** The dialog's answer texts, the function's too. */
export const SUBMISSION_TEXTS = {
	sent: 'Thank you! The chamber reviews each event before it is on the calendar, and e-mails you either way.',
	tooMany: 'Too many events sent from here. Please try again in an hour.',
	unavailable: 'Events cannot be submitted right now. Please try again later.',
	failed: 'The event could not be sent. Please try again.',
	recaptcha: 'reCAPTCHA verification failed. Please try again.',
} as const;
