import { describe, expect, it } from 'vitest';
import {
	budgetConfirmText,
	budgetMail,
	budgetNote,
	budgetWarningAt,
	businessChangeImpact,
	configChangeAltersPages,
	liveByText,
	monthText,
} from './policy.ts';

describe('the month’s budget, as the panel says it', () => {
	it("'Publishes this month: 12 of 40', warned from 80 %", () => {
		expect(monthText({ used: 12, budget: 40 })).toBe('Publishes this month: 12 of 40');
		expect(budgetWarningAt(40)).toBe(32);
		expect(budgetWarningAt(5)).toBe(4);
		expect(budgetWarningAt(1)).toBe(1);
		expect(budgetNote({ used: 31, budget: 40, warnAt: 32 })).toBe('');
		expect(budgetNote({ used: 32, budget: 40, warnAt: 32 })).toBe(
			"Nearly used: at 40, members' changes go out once a day.",
		);
		expect(budgetNote({ used: 40, budget: 40, warnAt: 32 })).toBe(
			"The budget is used: members' changes go out once a day.",
		);
	});

	it('the confirmation names what the next publish costs', () => {
		expect(budgetConfirmText({ used: 40, budget: 40 })).toBe(
			"This month's 40 publishes are used (40 so far). Publishing now is publish 41 of the month and costs 15 more Netlify credits (615 credits of deploys this month). Without it, the changes go live with the daily publish.",
		);
	});
});

describe("'Live on the site by', on the chamber's clock", () => {
	const now = new Date('2026-11-28T19:20:00Z'); // 13:20 in Chicago
	it('the time alone today, the day too otherwise', () => {
		expect(liveByText('2026-11-28T20:00:00Z', 'America/Chicago', now)).toBe(
			'Live on the site by 14:00',
		);
		expect(liveByText('2026-11-29T06:00:00Z', 'America/Chicago', now)).toBe(
			'Live on the site by Nov 29, 00:00',
		);
		// The same instant is already tomorrow in New York.
		expect(liveByText('2026-11-29T05:30:00Z', 'America/New_York', now)).toBe(
			'Live on the site by Nov 29, 00:30',
		);
	});
});

describe('which changes alter a page', () => {
	it('configuration: the member-update rules, the window and the mail domain show nowhere', () => {
		expect(configChangeAltersPages('features.memberLiveFields')).toBe(false);
		expect(configChangeAltersPages('features.publishWindow')).toBe(false);
		expect(configChangeAltersPages('services.emailDomain')).toBe(false);
		expect(configChangeAltersPages('features.memberUpdates')).toBe(true);
		expect(configChangeAltersPages('content.heroTitle')).toBe(true);
		expect(configChangeAltersPages('colors')).toBe(true);
	});

	const change = (
		fields: string[],
		extra: Partial<Parameters<typeof businessChangeImpact>[0]> = {},
	) =>
		businessChangeImpact({
			fields,
			publishedBefore: true,
			publishedAfter: true,
			cardsShowDescription: false,
			...extra,
		});

	it('a business: nothing off the site, its profile for its own fields, the site for the rest', () => {
		expect(change(['work_phone'], { publishedBefore: false, publishedAfter: false })).toBe('none');
		expect(change(['hours', 'social_media', 'web_content', 'email'])).toBe('profile');
		expect(change(['listings'])).toBe('profile');
		expect(change(['listings'], { cardsShowDescription: true })).toBe('site');
		expect(change(['hours', 'work_phone'])).toBe('site');
		expect(change(['report_name'])).toBe('site');
		expect(change(['hours'], { publishedAfter: false })).toBe('site');
		expect(change(['published'], { publishedBefore: false })).toBe('site');
		expect(change([])).toBe('none');
	});
});

describe("the admins' e-mail at 80 %", () => {
	it('names the month’s figures, what happens at the budget, and where to see them', () => {
		const mail = budgetMail(
			{ name: 'Cedar Valley Chamber' },
			{ used: 32, budget: 40 },
			'https://cedar.example/chamber-config-v2',
		);
		expect(mail.subject).toBe('Cedar Valley Chamber: Publishes this month: 32 of 40');
		expect(mail.text).toBe(
			[
				'Publishes this month: 32 of 40.',
				'',
				"32 of this month's 40 publishes are used. At 40, members' changes, syncs and imports go live once a day, and each publish asks first.",
				'',
				"Each publish is a production deploy on Netlify: 15 credits. The admin panel shows the month's publishes in its header and in History: https://cedar.example/chamber-config-v2",
			].join('\n'),
		);
	});
});
