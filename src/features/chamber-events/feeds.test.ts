import { describe, expect, it } from 'vitest';
import { config } from '../../../netlify/functions/event-feeds-scheduled.ts';
import { FEED_LIMITS } from './feed-limits.ts';
import { feedAddress, feedAddSchema, feedFailureMail } from './feeds.ts';

describe('a feed’s address', () => {
	it('reads webcal:// (Google’s and Outlook’s subscribe links) as https://', () => {
		expect(
			feedAddress(
				'webcal://outlook.office365.com/owa/calendar/7f3a@cedarvalley.org/ab12/calendar.ics',
			),
		).toBe('https://outlook.office365.com/owa/calendar/7f3a@cedarvalley.org/ab12/calendar.ics');
		expect(feedAddress(' webcals://calendar.google.com/calendar/ical/x/public/basic.ics ')).toBe(
			'https://calendar.google.com/calendar/ical/x/public/basic.ics',
		);
		expect(feedAddress('https://example.org/feed.ics')).toBe('https://example.org/feed.ics');
	});

	it('refuses what is not an http(s) address, or carries credentials', () => {
		for (const bad of [
			'ftp://example.org/a.ics',
			'file:///etc/passwd',
			'calendar',
			'https://u:p@x.org/',
		]) {
			expect(feedAddress(bad), bad).toBeNull();
		}
		expect(feedAddSchema.safeParse({ url: 'javascript:alert(1)' }).error?.issues[0]?.message).toBe(
			'url: expected a calendar’s address, https://… or webcal://…',
		);
		expect(feedAddSchema.parse({ url: 'webcal://example.org/a.ics' })).toEqual({
			url: 'https://example.org/a.ics',
			calendar: 'chamber',
			name: '',
		});
	});
});

describe('the schedule and the e-mail', () => {
	it('reads every 30 minutes, as the panel says', () => {
		expect(config.schedule).toBe(`*/${FEED_LIMITS.scheduleMinutes} * * * *`);
	});

	it('names the feed and its host, never the secret path', () => {
		const mail = feedFailureMail(
			{ name: 'Cedar Valley Chamber', siteUrl: 'https://cedarvalley.example.org/' },
			{
				name: 'Board',
				url: 'https://calendar.google.com/calendar/ical/secret-token/private/basic.ics',
			},
			{ error: 'The feed’s address answered HTTP 404', since: '2027-03-02T18:00:00Z' },
		);
		expect(mail.subject).toBe('Cedar Valley Chamber: the calendar feed “Board” cannot be read');
		expect(mail.text).toContain('The feed’s address answered HTTP 404');
		expect(mail.text).toContain('calendar.google.com');
		expect(mail.text).not.toContain('secret-token');
		expect(mail.text).toContain('https://cedarvalley.example.org/chamber-config-v2');
	});
});
