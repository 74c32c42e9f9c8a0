import { describe, expect, it } from 'vitest';
import { plainTextHtml } from './plain-html.ts';
import { memberSession } from './submit/SubmitEventDialog.tsx';
import { reviewMail, submissionBodySchema, type ReviewAnswer } from './submissions.ts';

const body = (event: Record<string, unknown>) => ({
	submitterName: 'Dana',
	submitterEmail: 'dana@example.org',
	event: {
		name: 'Book Sale',
		starts_local: '2027-04-01T10:00',
		ends_local: '2027-04-01T14:00',
		...event,
	},
});

describe('a submitted event', () => {
	it('runs an all-day event from the start of its first day to the end of its last', () => {
		const parsed = submissionBodySchema.parse(
			body({ all_day: true, starts_local: '2027-04-01T10:00', ends_local: '2027-04-02T09:00' }),
		);
		expect(parsed.event).toMatchObject({
			starts_local: '2027-04-01T00:00',
			ends_local: '2027-04-02T23:59',
		});
	});

	it('refuses a field no submission has, an end before the start, a script link', () => {
		const issue = (event: Record<string, unknown>) =>
			submissionBodySchema.safeParse(body(event)).error?.issues[0]?.message;
		expect(issue({ featured: true })).toMatch(/featured/);
		expect(issue({ ends_local: '2027-04-01T09:00' })).toBe('End: before the start');
		expect(issue({ registration_url: 'javascript:alert(1)' })).toMatch(/http\(s\)/);
		expect(issue({ starts_local: '2027-02-30T10:00' })).toBe('Start: not a real date and time');
	});

	it('keeps its description’s paragraphs as HTML, escaping everything typed', () => {
		expect(plainTextHtml('Bring <b>bags</b> & gloves.\nMeet at 9.\n\nAll ages.')).toBe(
			'<p>Bring &lt;b&gt;bags&lt;/b&gt; &amp; gloves.<br>Meet at 9.</p><p>All ages.</p>',
		);
		expect(plainTextHtml('   ')).toBe('');
	});
});

describe('the submitter’s e-mail', () => {
	const answer: ReviewAnswer = {
		id: 'x',
		status: 'approved',
		eventSeriesId: 's',
		eventId: 900000123,
		name: 'Main Street Fair',
		submitterName: 'Dana',
		submitterEmail: 'dana@example.org',
	};

	it('links the approved event’s page, and carries the note', () => {
		const mail = reviewMail(
			answer,
			{ name: 'Cedar Valley Chamber', siteUrl: 'https://cv.example/' },
			'Renamed.',
		);
		expect(mail.subject).toBe(
			'Your event is on the Cedar Valley Chamber calendar: Main Street Fair',
		);
		expect(mail.text).toContain('https://cv.example/events/900000123/main-street-fair');
		expect(mail.text).toContain('Renamed.');
	});

	it('says a declined event is not on the calendar, with the note', () => {
		const mail = reviewMail(
			{ ...answer, status: 'declined', eventId: null },
			{ name: 'Cedar Valley Chamber', siteUrl: 'https://cv.example' },
			'Private sales are not listed.',
		);
		expect(mail.text).toContain('did not add it to the community calendar');
		expect(mail.text).toContain('Private sales are not listed.');
	});
});

describe('a member’s session in the browser', () => {
	const storage = (value: unknown) => ({ getItem: () => JSON.stringify(value) });
	const inAnHour = Math.floor(Date.now() / 1000) + 3600;

	it('is used while its token is good, with the member’s address', () => {
		expect(
			memberSession(
				storage({ access_token: 't', expires_at: inAnHour, user: { email: 'm@x.org' } }),
			),
		).toEqual({ token: 't', email: 'm@x.org' });
	});

	it('is not when it expired, is missing or is not JSON', () => {
		expect(
			memberSession(storage({ access_token: 't', expires_at: 10, user: { email: 'm@x.org' } })),
		).toBeNull();
		expect(memberSession({ getItem: () => null })).toBeNull();
		expect(memberSession({ getItem: () => '{nope' })).toBeNull();
	});
});
