import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { tabTo } from './focus-support.ts';
import { chamberTimeZone } from '../../src/features/config/time-zone.ts';
import { chamberDay, monthLabel, monthOf } from '../../src/features/reports/reports.ts';
import {
	MEMBER_PUBLISH_INTERVAL_SECONDS,
	signInPath,
	SIGN_IN_SENT,
} from '../../src/features/self-service/self-service.ts';
import {
	changeDemoConfig,
	demoBusiness,
	openPanel,
	panelTab,
	waitUntilLive,
	withDatabase,
	type DemoBusiness,
} from './admin-support.ts';
import { demoConfig } from './directory-helpers.ts';
import { BUILD_GOES_LIVE, DATA_DIR, timeWithBuilds } from './e2e-env.ts';

// A member of the demo chamber keeps its own listing current: from its profile to an e-mailed
// sign-in link, an edit of its description and logo, staff's approval in the Requests tab; a
// returned request's note; fields that go live at once; the member's own statistics on its page;
// and the profile after one publish, with all of the changes that went live. The identity service
// sends one e-mail per user per minute (GoTrue's SMTP_MAX_FREQUENCY): each sign-in by e-mail is a
// member of its own, so no test waits on that minute, however fast the ones before it ran.
// That a profile loads no script before interaction, with the member's link and whatever sections
// it has, is profile.spec.ts's and hours.spec.ts's (measured in the desktop browser).

test.describe.configure({ mode: 'serial' });

const tag = Date.now().toString(36);
const description = `Fresh bread and e2e pastries ${tag}`;
const phone = `(319) 555-${String(Date.now() % 10_000).padStart(4, '0')}`;
const hoursNote = `By appointment on Sundays ${tag}`;
let business: DemoBusiness;
let member: BrowserContext;
let memberPage: Page;

/** The newest e-mail of `kind` to an address in the stack's outbox, once it is there. */
async function mailTo(address: string, kind: string, after = 0) {
	const outbox = join(DATA_DIR, 'outbox');
	let files: string[] = [];
	await expect
		.poll(async () => {
			files = (await readdir(outbox).catch(() => [] as string[]))
				.filter((f) => f.includes(kind) && f.includes(address))
				.sort();
			return files.length;
		})
		.toBeGreaterThan(after);
	return simpleParser(await readFile(join(outbox, files.at(-1)!)));
}

async function mailCount(address: string, kind: string): Promise<number> {
	return (await readdir(join(DATA_DIR, 'outbox')).catch(() => [] as string[])).filter(
		(f) => f.includes(kind) && f.includes(address),
	).length;
}

/**
 * Ten minutes on for members' immediate publishes: their limit's hits moved back, as a clock
 * would move (nothing waits), so the next live save of a field only the profile shows is live at
 * once.
 */
async function memberPublishIntervalPassed() {
	await withDatabase((db) =>
		db.query(
			`update public.rate_limit_hits set hit_at = hit_at - make_interval(secs => $1)
			where bucket like 'member-publish:%'`,
			[MEMBER_PUBLISH_INTERVAL_SECONDS],
		),
	);
}

/** The demo's publishes (builds) so far. */
async function publishCount(): Promise<number> {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ n: number }>(
			`select count(*)::int as n from public.publishes p join public.tenants t on t.id = p.tenant_id
			where t.slug = 'demo'`,
		);
		return rows[0]!.n;
	});
}

/** What the member page says of a live field: by when, on the chamber's clock, or at once. */
const WAITS = (field: string) =>
	new RegExp(`^${field}: saved\\. Live on the site by (\\w{3} \\d{1,2}, )?\\d\\d:\\d\\d\\.$`);
const AT_ONCE = (field: string) => `${field}: live on the site now.`;

/**
 * The member changes a field the chamber lets go live without review: the page says when it is
 * live (the window's publish is waited for once, by the last test that changes the profile).
 */
async function changeLiveField(field: string, value: string, said: string | RegExp) {
	await memberPublishIntervalPassed();
	await memberPage.reload();
	await expect(memberPage.getByText(`${field} goes live without review.`)).toBeVisible();
	await memberPage.getByRole('textbox', { name: field }).fill(value);
	await memberPage.getByRole('button', { name: 'Submit for review' }).click();
	await expect(memberPage.getByRole('status').filter({ hasText: said })).toBeVisible();
}

/** The Requests tab, signed in as the demo's admin. */
async function openRequests(page: Page) {
	await openPanel(page, 'admin@demo.test');
	const panel = await panelTab(page, /^Requests/);
	await expect(panel.getByRole('heading', { name: 'Requests', level: 2 })).toBeVisible();
	return panel;
}

test.beforeAll(async ({ browser }) => {
	// A published demo business with an address on file that no other spec edits.
	business = await demoBusiness(7, { descending: true, withEmail: true });
	member = await browser.newContext();
	memberPage = await member.newPage();
});

test.afterAll(async () => {
	await member?.close();
});

test('a member updates its description and logo through an e-mailed link; staff approve it', async ({
	page,
}) => {
	test.setTimeout(120_000);

	// The profile links to the sign-in.
	await memberPage.goto(business.profile);
	await memberPage.getByRole('link', { name: 'Update this listing' }).click();
	await expect(memberPage.getByRole('heading', { name: 'Update your listing' })).toBeVisible();
	await expectAccessibleInEveryTheme(memberPage, "the member's sign-in page", {
		include: 'main',
	});
	const before = await mailCount(business.email, 'sign-in');
	await memberPage.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
	await expect(memberPage.getByRole('status')).toHaveText(SIGN_IN_SENT);

	// The link in the e-mail signs the member in to its listing.
	const mail = await mailTo(business.email, 'sign-in', before);
	expect(mail.text).toContain(business.name);
	const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
	await memberPage.goto(link);
	await expect(memberPage.getByRole('heading', { name: business.name, level: 1 })).toBeVisible();
	await expectAccessibleInEveryTheme(memberPage, "the member's listing editor", {
		include: 'main',
	});

	const form = memberPage.getByRole('form').or(memberPage.locator('form'));
	await form
		.getByRole('textbox', { name: 'Description', exact: true })
		.first()
		.fill(`<p>${description}</p>`);
	await memberPage.getByLabel('Logo').setInputFiles({
		name: 'logo.svg',
		mimeType: 'image/svg+xml',
		buffer: Buffer.from(
			`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#c0392b"/><title>${tag}</title></svg>`,
		),
	});
	const preview = memberPage.getByRole('complementary', { name: 'Preview' });
	await expect(preview.getByText(description)).toBeVisible();
	await expect(preview.getByRole('img', { name: `${business.name} logo` })).toHaveAttribute(
		'src',
		/\/storage\/v1\/object\/public\/logos\/.+\/businesses\//,
	);
	await memberPage.getByRole('button', { name: 'Submit for review' }).click();
	await expect(memberPage.getByText('Sent for review')).toBeVisible();
	await expect(memberPage.getByText(/Waiting for the chamber's review since/)).toBeVisible();

	// Staff see the diff and approve it.
	const panel = await openRequests(page);
	await expect(page.getByRole('tab', { name: /^Requests/ })).toContainText(/\d/);
	const card = panel.getByRole('article', { name: business.name });
	await expect(card.getByRole('row', { name: /Descriptions/ })).toContainText(description);
	await expect(card.getByRole('row', { name: /Logo/ })).toBeVisible();
	await expectAccessibleInEveryTheme(page, 'the Requests tab with a request', {
		include: '[role="tabpanel"]',
	});
	await card.getByRole('button', { name: 'Approve', exact: true }).click();
	await expect(panel.getByRole('status')).toContainText(`Approved the update of ${business.name}`);
	await expect(panel.getByRole('article', { name: business.name })).toHaveCount(0);

	// The member is told (the profile shows it after the publish: the last test here).
	const approved = await mailTo(business.email, 'member-approved');
	expect(approved.subject).toContain('approved');
	await memberPage.reload();
	await expect(memberPage.getByText(/Approved: live on the site since/)).toBeVisible();
});

test('a returned request shows the chamber’s note to the member', async ({ page }) => {
	await memberPage.reload();
	await memberPage.getByRole('textbox', { name: 'Website' }).fill(`https://e2e-${tag}.example`);
	await memberPage.getByRole('button', { name: 'Submit for review' }).click();
	await expect(memberPage.getByText('Sent for review')).toBeVisible();

	const panel = await openRequests(page);
	const card = panel.getByRole('article', { name: business.name });
	await expect(card.getByRole('row', { name: /Website/ })).toContainText(
		`https://e2e-${tag}.example`,
	);
	await card.getByRole('button', { name: 'Return with a note' }).click();
	await card
		.getByRole('textbox', { name: 'Note to the member' })
		.fill('Please use your shop’s own site.');
	await card.getByRole('button', { name: 'Return request' }).click();
	await expect(panel.getByRole('status')).toContainText(`Returned the update of ${business.name}`);

	await memberPage.reload();
	await expect(
		memberPage.getByText('Note from the chamber: Please use your shop’s own site.'),
	).toBeVisible();
	const mail = await mailTo(business.email, 'member-returned');
	expect(mail.text).toContain('Please use your shop’s own site.');
});

test("a field the chamber lets go live without review is saved at once and waits for the chamber's publish window", async ({
	page,
}) => {
	const features = await changeDemoConfig('features', (current) => ({
		...current,
		memberLiveFields: ['work_phone'],
	}));
	try {
		// A phone shows on the directory's cards: it waits for the window's publish, and the page
		// says by when; the window's publish is the last test's.
		const publishes = await publishCount();
		await changeLiveField(
			'Phone',
			phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10)),
			WAITS('Phone'),
		);

		// Another change before the window's mark joins the same wait.
		// Made with the keyboard alone, as a screen reader user makes it: the focus is seen at every
		// stop and the outcome is announced (a status).
		await memberPage.reload();
		await expect(memberPage.getByText(/^Your saved changes: live on the site by /)).toBeVisible();
		await tabTo(memberPage, memberPage.getByRole('textbox', { name: 'Phone' }), { max: 120 });
		await memberPage.keyboard.press('ControlOrMeta+A');
		await memberPage.keyboard.type(phone);
		await tabTo(memberPage, memberPage.getByRole('button', { name: 'Submit for review' }), {
			max: 120,
		});
		await memberPage.keyboard.press('Enter');
		const told = memberPage.getByRole('status').filter({ hasText: WAITS('Phone') });
		await expect(told).toBeVisible();
		// A member's saves make no build of their own.
		expect(await publishCount()).toBe(publishes);

		// Staff see it in the Requests tab, live without review and waiting for the publish, by the
		// time the member was told.
		const liveBy = /Live on the site by (.+)\.$/.exec((await told.textContent()) ?? '')![1]!;
		const requests = await openRequests(page);
		const waiting = requests.getByRole('region', {
			name: 'Live without review, waiting for a publish',
		});
		await expect(waiting.getByRole('listitem').filter({ hasText: business.name })).toContainText(
			`Live on the site by ${liveBy}: ${business.name}: Phone. A member, saved `,
		);
		expect(await publishCount()).toBe(publishes);
	} finally {
		await changeDemoConfig('features', () => features);
	}
});

test("the member's page shows its own listing's numbers, as staff see them in the Reports tab", async () => {
	const zone = chamberTimeZone(demoConfig());
	const today = chamberDay(new Date(), zone);
	await withDatabase((db) =>
		db.query(
			`insert into public.business_stats (tenant_id, business_id, day, kind, words, count)
			select p.tenant_id, p.id, $2::date, d.kind, d.words, d.count from public.profiles p,
			(values ('shown', '', 8642), ('view', '', 4321), ('website', '', 210),
				('search', 'fresh e2e bread', 17)) as d(kind, words, count)
			where p.id = $1
			on conflict (tenant_id, business_id, day, kind, words) do update set count = excluded.count`,
			[business.id, today],
		),
	);

	await memberPage.reload();
	const report = memberPage.getByRole('region', { name: "Your listing's numbers" });
	const cells = (table: string | RegExp, row: string) =>
		report.getByRole('table', { name: table }).getByRole('row', { name: row }).getByRole('cell');
	await expect(cells('Last 12 months, by month', monthLabel(monthOf(new Date(), zone)))).toHaveText(
		['8,642', '4,321', '210'],
	);
	await expect(cells(/^Actions by kind/, 'Website')).toHaveText('210');
	await expect(cells(/^Top search words/, 'fresh e2e bread')).toHaveText('17');
	await expectAccessibleInEveryTheme(memberPage, "the member's numbers", { include: 'main' });
});

test('opening hours go live without review by default, at once; the window’s publish takes the phone; the profile shows every change', async ({
	page,
}) => {
	test.setTimeout(timeWithBuilds(1));
	// Profiles are rendered on demand and only the profile shows opening hours: live at once.
	await changeLiveField(
		'Opening hours',
		`Tue-Sat 8:00-16:30\n${hoursNote}`,
		AT_ONCE('Opening hours'),
	);

	// The window's mark reached (the phone's wait moved to now, as a clock would move), the
	// scheduled function publishes what waits: one build.
	await withDatabase((db) =>
		db.query(
			`update public.waiting_changes set due_at = now() where business_id = $1 and state = 'waiting'`,
			[business.id],
		),
	);
	expect((await page.request.post('/.netlify/functions/fire-scheduled-publishes')).status()).toBe(
		204,
	);
	const window = await withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`select p.id from public.publishes p join public.tenants t on t.id = p.tenant_id
			where t.slug = 'demo' and p.reason like 'Waiting changes:%' order by p.id desc limit 1`,
		);
		return Number(rows[0]?.id);
	});
	expect(window).toBeGreaterThan(0);
	await waitUntilLive(page.request, window);
	await expect
		.poll(async () => (await page.request.get(business.profile)).text(), BUILD_GOES_LIVE)
		.toContain(hoursNote);
	const html = await (await page.request.get(business.profile)).text();
	expect(html).toContain(description);
	expect(html).toMatch(/\/storage\/v1\/object\/public\/logos\/[^"]+\/businesses\//);
	expect(html).toContain(phone);
	await page.goto(business.profile);
	const week = page.getByRole('region', { name: 'Opening Hours' }).getByRole('table');
	await expect(week.getByRole('row', { name: /^Tuesday/ }).getByRole('cell')).toHaveText(
		'8:00 AM – 4:30 PM',
	);
	await expect(week.getByRole('row', { name: /^Monday/ }).getByRole('cell')).toHaveText('Closed');
});

test('a member adds social links and web content, removes a row, and sends what is left', async ({
	page,
	browser,
}) => {
	const link = `https://social.example/@bakery-${tag}`;
	const title = `Our bakery tour ${tag}`;

	// Another member, signed in by e-mail in a browser of its own, so the test stands on its own:
	// the first member's sign-in e-mail may have gone out less than a minute ago.
	const other = await demoBusiness(8, { descending: true, withEmail: true });
	expect(other.email).not.toBe(business.email);
	const otherMember = await browser.newContext();
	const otherPage = await otherMember.newPage();
	await otherPage.goto(signInPath(other.id));
	const before = await mailCount(other.email, 'sign-in');
	await otherPage.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
	await expect(otherPage.getByRole('status')).toHaveText(SIGN_IN_SENT);
	const mail = await mailTo(other.email, 'sign-in', before);
	await otherPage.goto(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0]);
	await expect(otherPage.getByRole('heading', { name: other.name, level: 1 })).toBeVisible();

	const social = otherPage.getByRole('group', { name: 'Social links' });
	const networks = social.getByRole('textbox', { name: 'Network', exact: true });
	const rows = await networks.count();
	await social.getByRole('button', { name: 'Add a social link' }).click();
	await social.getByRole('button', { name: 'Add a social link' }).click();
	await expect(networks).toHaveCount(rows + 2);
	await networks.nth(rows).fill('Mastodon');
	await social.getByRole('textbox', { name: 'Link', exact: true }).nth(rows).fill(link);
	await networks.nth(rows + 1).fill('Bluesky');
	await social
		.getByRole('textbox', { name: 'Link', exact: true })
		.nth(rows + 1)
		.fill('https://bsky.example/removed');
	await social
		.getByRole('button', { name: 'Remove', exact: true })
		.nth(rows + 1)
		.click();
	await expect(networks).toHaveCount(rows + 1);

	const web = otherPage.getByRole('group', { name: 'Web content' });
	const kinds = web.getByRole('textbox', { name: 'Kind', exact: true });
	const items = await kinds.count();
	await web.getByRole('button', { name: 'Add web content' }).click();
	await kinds.nth(items).fill('Video');
	await web.getByRole('textbox', { name: 'Title', exact: true }).nth(items).fill(title);
	await web
		.getByRole('textbox', { name: 'Link', exact: true })
		.nth(items)
		.fill(`https://video.example/${tag}`);

	const preview = otherPage.getByRole('complementary', { name: 'Preview' });
	await expect(preview.getByText(`Mastodon: ${link}`)).toBeVisible();
	await expect(preview.getByText(/Bluesky/)).toHaveCount(0);
	await otherPage.getByRole('button', { name: 'Submit for review' }).click();
	await expect(otherPage.getByText('Sent for review')).toBeVisible();

	// The page opens again on what was sent.
	await otherPage.reload();
	await expect(networks.nth(rows)).toHaveValue('Mastodon');
	await expect(networks).toHaveCount(rows + 1);
	await expect(web.getByRole('textbox', { name: 'Title', exact: true }).nth(items)).toHaveValue(
		title,
	);

	// Staff see the rows the member sent, not the one removed; returned, nothing stays pending.
	const panel = await openRequests(page);
	const card = panel.getByRole('article', { name: other.name });
	const requestedLinks = card.getByRole('row', { name: /Social links/ });
	await expect(requestedLinks).toContainText(`Mastodon: ${link}`);
	await expect(requestedLinks).not.toContainText('Bluesky');
	await expect(card.getByRole('row', { name: /Web content/ })).toContainText(
		`Video — ${title} — https://video.example/${tag}`,
	);
	await card.getByRole('button', { name: 'Return with a note' }).click();
	await card.getByRole('textbox', { name: 'Note to the member' }).fill('Thank you, not now.');
	await card.getByRole('button', { name: 'Return request' }).click();
	await expect(panel.getByRole('status')).toContainText(`Returned the update of ${other.name}`);
	await otherMember.close();
});
