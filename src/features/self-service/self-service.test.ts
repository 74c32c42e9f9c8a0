import { describe, expect, it } from 'vitest';
import { chamberConfigSchema, MEMBER_FIELD_CHOICES } from '../config/config.ts';
import {
	decisionMail,
	describeSaved,
	describeSubmission,
	MEMBER_SESSION_NOT_FROM_LINK,
	MEMBER_SESSION_TOO_OLD,
	memberSessionProblem,
	parseMemberChanges,
	requestDiff,
	type Submission,
} from './self-service.ts';

const settings = {
	fields: ['listings', 'website', 'categories', 'social_media'] as const,
	maxCategories: 2,
};

describe('parseMemberChanges: the Members tab’s schema and the chamber’s member rules', () => {
	it('takes the fields the chamber allows, as the import would store them', () => {
		const parsed = parseMemberChanges(
			{ website: '  https://new.example ', categories: ['Bakeries', ' '] },
			{ ...settings, fields: [...settings.fields] },
			['Bakeries', 'Cafes'],
		);
		expect(parsed).toEqual({
			ok: true,
			changes: { website: 'https://new.example', categories: ['Bakeries'] },
		});
	});

	it('refuses a field the chamber keeps, a category not of its list and too many categories', () => {
		const parsed = parseMemberChanges(
			{ report_name: 'Renamed', categories: ['Bakeries', 'Cafes', 'Invented'] },
			{ ...settings, fields: [...settings.fields] },
			['Bakeries', 'Cafes'],
		);
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
			'report_name: Members of this chamber cannot change business name',
			'categories: Choose from the chamber\'s categories ("Invented" is not one)',
			'categories: At most 2 categories',
		]);
	});

	it('reports the schema’s own problems at their path', () => {
		const parsed = parseMemberChanges(
			{ social_media: [{ platform: '', url: 'https://x.example' }] },
			{ ...settings, fields: [...settings.fields] },
		);
		expect(parsed).toMatchObject({
			ok: false,
			issues: [{ path: 'social_media[0].platform', message: 'Name the network' }],
		});
	});
});

const submission: Submission = {
	id: 's1',
	status: 'pending',
	changes: {
		website: 'https://new.example',
		social_media: [{ platform: 'facebook', url: 'https://facebook.com/new' }],
	},
	baseVersion: 3,
	note: '',
	submittedAt: '2026-11-25T10:00:00Z',
	decidedAt: null,
	memberEmail: 'owner@example.com',
};

describe('requestDiff: each requested field beside its live value', () => {
	it('names the field and shows list entries a line each', () => {
		expect(requestDiff({ submission, live: { website: '', social_media: [] } })).toEqual([
			{ field: 'website', label: 'Website', live: ['(empty)'], requested: ['https://new.example'] },
			{
				field: 'social_media',
				label: 'Social links',
				live: ['(none)'],
				requested: ['facebook: https://facebook.com/new'],
			},
		]);
	});

	it('shows opening hours in their text form', () => {
		const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
		const hours = {
			...closed,
			sat: [{ open: '10:00', close: '14:00' }],
			note: 'By appointment',
		};
		expect(
			requestDiff({ submission: { ...submission, changes: { hours } }, live: { hours: null } }),
		).toEqual([
			{
				field: 'hours',
				label: 'Opening hours',
				live: ['(empty)'],
				requested: ['Sat 10:00-14:00; By appointment'],
			},
		]);
	});
});

describe('describeSubmission', () => {
	const at = (iso: string) => iso.slice(0, 10);
	it('says pending since, approved (live since) or returned', () => {
		expect(describeSubmission(submission, at)).toBe(
			"Waiting for the chamber's review since 2026-11-25.",
		);
		expect(
			describeSubmission(
				{ ...submission, status: 'approved', decidedAt: '2026-11-26T09:00:00Z' },
				at,
			),
		).toBe('Approved: live on the site since 2026-11-26.');
		expect(describeSubmission(null, at)).toBeNull();
	});
});

describe('decisionMail: in the chamber’s name and colour, with a plain-text part', () => {
	const chamber = {
		name: 'Cedar Valley Chamber',
		colour: '#123456',
		siteUrl: 'https://cv.example',
	};
	const business = { id: '5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11', name: 'Bella <Café>' };

	it('tells the member its update was approved', () => {
		const mail = decisionMail({ kind: 'approved' }, chamber, business);
		expect(mail.subject).toBe('Your listing update is approved — Cedar Valley Chamber');
		expect(mail.text).toContain("approved your update of Bella <Café>'s listing");
		expect(mail.html).toContain('color:#123456');
		expect(mail.html).toContain('Bella &lt;Café&gt;');
	});

	it('carries the note of a returned update and the way back to the listing', () => {
		const mail = decisionMail(
			{ kind: 'returned', note: 'Use the <shop> number' },
			chamber,
			business,
		);
		expect(mail.text).toContain('Use the <shop> number');
		expect(mail.text).toContain(`https://cv.example/members/sign-in?business=${business.id}`);
		expect(mail.html).toContain('Use the &lt;shop&gt; number');
	});
});

describe('the settings’ defaults', () => {
	it('are off, every field, the hours live, editors not deciding, 3 categories', () => {
		const { features } = chamberConfigSchema.parse({ name: 'X', slug: 'x' });
		expect({
			enabled: features.memberUpdates,
			fields: features.memberFields,
			liveFields: features.memberLiveFields,
			editorsApprove: features.memberEditorsApprove,
			maxCategories: features.memberMaxCategories,
		}).toEqual({
			enabled: false,
			fields: [...MEMBER_FIELD_CHOICES],
			liveFields: ['hours'],
			editorsApprove: false,
			maxCategories: 3,
		});
	});
});

describe('memberSessionProblem: a member session began with the e-mailed link, within 30 days', () => {
	const now = new Date('2026-11-28T12:00:00Z');
	const at = (daysAgo: number) => now.getTime() / 1000 - daysAgo * 86_400;

	it.each([
		['otp', 0],
		['otp', 29.9],
		['magiclink', 1],
		['recovery', 1],
	])('a session by %s, %s days ago, is one', (method, days) => {
		expect(memberSessionProblem({ amr: [{ method, timestamp: at(days) }] }, now)).toBeNull();
	});

	it('a password session is none, also next to an old link entry', () => {
		expect(memberSessionProblem({ amr: [{ method: 'password', timestamp: at(0) }] }, now)).toBe(
			MEMBER_SESSION_NOT_FROM_LINK,
		);
		expect(
			memberSessionProblem(
				{
					amr: [
						{ method: 'password', timestamp: at(0) },
						{ method: 'otp', timestamp: at(40) },
					],
				},
				now,
			),
		).toBe(MEMBER_SESSION_TOO_OLD);
	});

	it('a sign-in by link 30 days ago or more is too old', () => {
		expect(memberSessionProblem({ amr: [{ method: 'otp', timestamp: at(30) }] }, now)).toBe(
			MEMBER_SESSION_TOO_OLD,
		);
	});

	it.each([[{}], [{ amr: 'otp' }], [{ amr: ['otp'] }], [{ amr: [{ method: 'otp' }] }]])(
		'claims without a usable amr are none: %j',
		(claims) => {
			expect(memberSessionProblem(claims, now)).toBe(MEMBER_SESSION_NOT_FROM_LINK);
		},
	);
});

describe('describeSaved: what the member page says after a save', () => {
	const liveBy = (iso: string) => `Live on the site by ${iso.slice(11, 16)}`;
	const saved = { published: false, publishAfter: null, liveBy: null };

	it('live fields on the site at once, and a request sent for review', () => {
		expect(
			describeSaved({ ...saved, live: ['hours'], submission: null, published: true }, liveBy),
		).toBe('Opening hours: live on the site now.');
		expect(
			describeSaved(
				{ ...saved, live: [], submission: { status: 'pending' } as Submission },
				liveBy,
			),
		).toBe('Sent for review: the chamber will e-mail you.');
	});

	it("live fields that wait for the chamber's publish window: live by its mark", () => {
		expect(
			describeSaved(
				{ ...saved, live: ['work_phone'], submission: null, liveBy: '2026-11-28T14:00:00Z' },
				liveBy,
			),
		).toBe('Phone: saved. Live on the site by 14:00.');
	});

	it('live fields saved within the interval: they wait for the window too, and it says why', () => {
		expect(
			describeSaved(
				{
					...saved,
					live: ['work_phone', 'hours'],
					submission: null,
					publishAfter: '2026-11-28T13:52:00Z',
					liveBy: '2026-11-28T14:00:00Z',
				},
				liveBy,
			),
		).toBe(
			'Phone, Opening hours: saved. Live on the site by 14:00 (your changes show at once at most every 10 minutes).',
		);
	});

	it('past the budget and its daily reserve: with the chamber’s next publish, no time promised', () => {
		expect(
			describeSaved({ ...saved, live: ['work_phone'], submission: null, held: true }, liveBy),
		).toBe("Phone: saved. It goes live with the chamber's next publish.");
	});

	it('a listing that is not on the site publishes nothing', () => {
		expect(describeSaved({ ...saved, live: ['hours'], submission: null }, liveBy)).toBe(
			'Opening hours: saved. Your listing is not on the site, so nothing is published.',
		);
	});
});
