import { Faker, base, en, en_US } from '@faker-js/faker';
import { TZDate, tzName } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { getDay } from 'date-fns/getDay';
import { startOfMonth } from 'date-fns/startOfMonth';
import type { ChamberConfigInput } from '../../src/features/config/config.ts';
import type {
	AffiliationInput,
	BannerInput,
	BusinessInput,
	EventAttendeeInput,
	EventInput,
	EventItemInput,
	EventSponsorInput,
	ListingInput,
	TenantFileInput,
	TenantUserInput,
	WebContentInput,
} from '../../src/features/tenants/tenant-file.ts';

// The demo chamber: a fictional chamber in a fictional Iowa town, generated from a fixed seed.
// Every date is an offset from `today` so the calendars and the new-member filter always have
// something to show; only today's calendar day (in the chamber's zone) affects the output.
// No business ids are generated: the importer derives them from the tenant and
// weblink_profile_id, so two tenants generated from the same seed never share a row id.

export const DEMO_TIME_ZONE = 'America/Chicago';

export interface GenerateTenantOptions {
	/** Tenant slug; default 'demo'. */
	slug?: string;
	/** Chamber name; default 'Cedar Valley Chamber of Commerce'. */
	name?: string;
	/** Number of businesses; default 300. */
	businesses?: number;
	/** Faker seed; default 2026. */
	seed?: number;
	/** Reference day for all dates; default now. */
	today?: Date;
}

type Day = TZDate;

// --- Fixed demo data ---------------------------------------------------------------------------

const STATE = 'IA';
const AREA_CODE = '319';

interface Town {
	city: string;
	county: string;
	zips: readonly string[];
	weight: number;
	/** Where the town's middle is (degrees), and how far from it its businesses are, at most. */
	centre: { latitude: number; longitude: number };
	radiusKm: number;
}

// The towns are fictional; their places are eastern Iowa's prairie, a few miles apart, so the
// demo's distance search and map have something to find at every radius.
const TOWNS: readonly Town[] = [
	{
		city: 'Cedarbrook',
		county: 'Linden County',
		zips: ['52901', '52902', '52903'],
		weight: 45,
		centre: { latitude: 41.9779, longitude: -91.6656 },
		radiusKm: 6,
	},
	{
		city: 'North Cedarbrook',
		county: 'Linden County',
		zips: ['52905'],
		weight: 10,
		centre: { latitude: 42.058, longitude: -91.635 },
		radiusKm: 3,
	},
	{
		city: 'Maple Ridge',
		county: 'Ash County',
		zips: ['52910', '52911'],
		weight: 20,
		centre: { latitude: 41.9, longitude: -91.82 },
		radiusKm: 4,
	},
	{
		city: 'Willow Springs',
		county: 'Ash County',
		zips: ['52915'],
		weight: 15,
		centre: { latitude: 42.03, longitude: -91.48 },
		radiusKm: 3,
	},
	{
		city: 'Pine Hollow',
		county: 'Brook County',
		zips: ['52920'],
		weight: 10,
		centre: { latitude: 41.82, longitude: -91.55 },
		radiusKm: 3,
	},
];

/**
 * A place in a town, from a faker of its own (so the rest of the demo stays as it was): uniform
 * over the town's disc, six decimals, no network. The demo's businesses are on the map from the
 * first `npm start`; only those without a street address are not.
 */
function placeIn(faker: Faker, town: Town): { latitude: number; longitude: number } {
	const distance = town.radiusKm * Math.sqrt(faker.number.float());
	const bearing = faker.number.float({ max: 2 * Math.PI });
	const kmPerDegree = 111.195;
	const latitude = town.centre.latitude + (distance * Math.cos(bearing)) / kmPerDegree;
	const longitude =
		town.centre.longitude +
		(distance * Math.sin(bearing)) /
			(kmPerDegree * Math.cos((town.centre.latitude * Math.PI) / 180));
	const round = (value: number) => Math.round(value * 1e6) / 1e6;
	return { latitude: round(latitude), longitude: round(longitude) };
}

const STREETS = [
	'Main Street',
	'Cedar Avenue',
	'Oak Street',
	'Maple Drive',
	'Washington Street',
	'Lincoln Way',
	'River Road',
	'Prairie View Drive',
	'Elm Street',
	'1st Avenue',
	'2nd Street',
	'Commerce Drive',
	'Industrial Parkway',
	'Mill Street',
	'Park Avenue',
	'Highway 30',
	'Walnut Street',
	'Bluff Street',
	'College Drive',
	'Depot Street',
] as const;

const SUITES = ['Suite 100', 'Suite 200', 'Suite 210', 'Unit B', 'Unit 4', 'Floor 2', 'PO Box 118'];

const NAME_WORDS = [
	'Cedar',
	'Summit',
	'Prairie',
	'Riverbend',
	'Heartland',
	'Keystone',
	'Northside',
	'Main Street',
	'Oak Leaf',
	'Bluestem',
	'Golden Wheat',
	'Ironwood',
	'Valley',
	'Hometown',
	'Lighthouse',
	'Red Barn',
	'Twin Oaks',
	'Copper Kettle',
] as const;

/**
 * ~40 categories: one per category-icon keyword, the four exact-name categories,
 * and two that match no keyword. Weights make popularity uneven. Name templates use {last},
 * {town} and {word}; services feed descriptions and keywords.
 */
interface CategorySpec {
	name: string;
	weight: number;
	names: readonly string[];
	services: readonly string[];
}

function category(name: string, weight: number, names: string, services: string): CategorySpec {
	return { name, weight, names: names.split('; '), services: services.split('; ') };
}

// prettier-ignore
const CATEGORIES: readonly CategorySpec[] = [
	category('Legal Services', 5, '{last} Law Office; {last} & {last} Attorneys; {town} Legal Group', 'estate planning; business law; real estate closings; family law; wills and trusts'),
	category('Accounting & Tax Preparation', 5, '{last} & Associates CPAs; {word} Tax Service; {last} Bookkeeping', 'tax preparation; bookkeeping; payroll; audits; business consulting'),
	category('Medical Clinics', 4, '{town} Family Medicine; {word} Medical Clinic; {last} Urgent Care', 'family medicine; urgent care; physicals; vaccinations; lab services'),
	category('Dental Care', 3, '{last} Family Dentistry; {town} Dental Care; {word} Smiles Orthodontics', 'cleanings; orthodontics; cosmetic dentistry; implants; pediatric dentistry'),
	category('Banking & Credit Unions', 4, '{word} State Bank; {town} Community Credit Union; {word} Savings Bank', 'checking accounts; business loans; mortgages; online banking; savings'),
	category('Insurance Agencies', 5, '{last} Insurance Agency; {word} Insurance Group; {last} & {last} Insurance', 'auto insurance; home insurance; business insurance; life insurance; crop insurance'),
	category('Real Estate', 7, '{last} Realty; {word} Real Estate; {town} Property Management', 'home sales; commercial real estate; property management; relocation; appraisals'),
	category('Construction & Contractors', 7, '{last} Construction; {word} Builders; {last} Roofing & Siding', 'new construction; remodeling; roofing; concrete; excavation'),
	category('Automotive Sales & Service', 5, '{last} Auto Repair; {town} Ford; {word} Tire & Service', 'oil changes; brake repair; new and used vehicles; tires; collision repair'),
	category('Technology & IT Services', 4, '{word} Tech Solutions; {last} IT Consulting; {word} Computer Repair', 'managed IT; computer repair; network security; web development; cloud backups'),
	category('Marketing & Advertising', 3, '{word} Creative; {last} Marketing Group; {word} Sign & Print', 'branding; social media; printing; signage; web design'),
	category('Restaurants & Catering', 12, "{word} Grill; {last}'s Diner; {word} Pizza Co.; {town} Bakery & Cafe", 'dine-in; carry-out; catering; private events; breakfast all day'),
	category('Hotels & Lodging', 2, '{word} Inn; {town} Suites; {word} Bed & Breakfast', 'guest rooms; meeting space; extended stays; breakfast; wedding blocks'),
	category('Retail Shopping', 10, '{word} Boutique; {last} Hardware; {word} Gifts & Home; {town} Outfitters', 'gifts; home decor; clothing; hardware; local products'),
	category('Education & Training', 3, '{word} Learning Center; {town} Community College; {word} Tutoring', 'tutoring; adult education; workforce training; test preparation; early learning'),
	category('Fitness & Wellness', 3, '{word} Fitness; {town} Yoga Studio; {last} Chiropractic', 'personal training; group classes; yoga; massage therapy; chiropractic care'),
	category('Manufacturing', 4, '{word} Manufacturing; {last} Machine & Tool; {word} Fabrication', 'metal fabrication; CNC machining; welding; assembly; powder coating'),
	category('Transportation & Logistics', 3, '{word} Trucking; {last} Freight Lines; {town} Courier', 'freight; local delivery; warehousing; logistics planning; moving services'),
	category('Associations & Nonprofits', 3, '{town} Community Foundation; {word} Food Pantry; {county} Habitat Partners', 'volunteering; fundraising; community programs; grants; youth programs'),
	category('Government Offices', 2, 'City of {town}; {county} Auditor; {county} Economic Development', 'permits; public records; economic development; utilities billing; licenses'),
	category('Churches & Places of Worship', 2, "First Lutheran Church of {town}; {town} United Methodist Church; St. {last}'s Parish", 'worship services; youth ministry; community meals; weddings; bible study'),
	category('Arts & Entertainment', 2, '{town} Community Theatre; {word} Cinema; {word} Arts Center', 'live theatre; movies; art classes; gallery exhibits; event rentals'),
	category('Sports & Recreation', 2, '{word} Bowling Lanes; {town} Parks & Recreation; {word} Sports Complex', 'leagues; lane rentals; batting cages; birthday parties; open gym'),
	category('Golf Courses', 1, '{word} Golf Club; {town} Country Club; {word} Golf Course', 'tee times; golf lessons; tournaments; pro shop; banquet hall'),
	category('Museums & Historical Sites', 1, '{county} Historical Museum; {town} Depot Museum; {word} Heritage Center', 'exhibits; guided tours; school field trips; genealogy research; archives'),
	category('Music Lessons & Venues', 1, '{word} Music Studio; {last} Music Co.; {word} Music Hall', 'piano lessons; guitar lessons; instrument rentals; live music; repairs'),
	category('Photography & Video', 2, '{last} Photography; {word} Studios; {word} Video Productions', 'portraits; weddings; headshots; drone video; event photography'),
	category('Cleaning & Janitorial', 3, '{word} Cleaning Co.; {last} Janitorial; {town} Carpet Care', 'office cleaning; carpet cleaning; move-out cleaning; window washing; floor care'),
	category('Security Systems', 1, '{word} Security; {last} Alarm & Lock; {word} Safe Systems', 'alarm monitoring; cameras; access control; locksmith services; fire alarms'),
	category('Self Storage', 1, '{word} Self Storage; {town} Mini Storage; {last} Storage Units', 'climate-controlled units; RV storage; boxes and supplies; month-to-month rentals'),
	category('Waste Management & Recycling', 1, '{word} Disposal; {county} Recycling Center; {last} Roll-Off Service', 'trash pickup; recycling; roll-off dumpsters; e-waste drop-off'),
	category('Pets & Veterinary', 2, '{town} Animal Hospital; {word} Pet Grooming; {last} Veterinary Clinic', 'veterinary care; grooming; boarding; pet supplies; dog training'),
	category('Travel Agencies', 1, '{word} Travel; {last} Tours & Travel; {town} Travel Center', 'group tours; cruises; vacation planning; corporate travel'),
	category('Water Treatment', 1, '{word} Water Conditioning; {last} Well & Pump; {word} Soft Water', 'water softeners; well drilling; water testing; filtration systems'),
	category('Utilities', 1, '{county} Rural Electric Cooperative; {town} Municipal Utilities; {word} Broadband', 'electric service; natural gas; broadband internet; energy audits'),
	category('Chamber of Commerce', 1, '{town} Area Chamber Foundation; {county} Chamber Alliance', 'business advocacy; networking events; community development'),
	category('Maps', 1, '{word} Mapping & GIS; {last} Surveying & Maps', 'land surveys; GIS mapping; plat maps; aerial imagery'),
	category('Newspapers', 1, 'The {town} Courier; {county} Gazette; {town} Weekly News', 'local news; print advertising; legal notices; digital subscriptions'),
	category('Youth Sports', 1, '{town} Youth Soccer League; {word} Youth Baseball; {town} Swim Club', 'youth leagues; summer camps; coaching clinics; tournaments'),
	category('Beekeeping & Apiaries', 1, '{word} Honey Farm; {last} Apiary', 'local honey; beekeeping classes; pollination services; beeswax candles'),
	category('Miscellaneous', 2, '{word} Services; {last} Enterprises; {word} & Co.', 'custom orders; consulting; seasonal services; special requests'),
];

/** The default membership hierarchy, highest first; weights favour Member. */
const LEVELS = [
	{ name: 'Trustee', rank: 10, weight: 2 },
	{ name: 'Chairman', rank: 9, weight: 2 },
	{ name: 'Executive Partner', rank: 8, weight: 3 },
	{ name: 'Executive', rank: 7, weight: 5 },
	{ name: 'Corporate Partner', rank: 6, weight: 5 },
	{ name: 'Corporate', rank: 5, weight: 8 },
	{ name: 'Business Partner', rank: 4, weight: 10 },
	{ name: 'Member', rank: 3, weight: 65 },
] as const;
type Level = (typeof LEVELS)[number];

interface AffiliationSpec {
	aff_name: string;
	aff_code: string;
	icon_text: string;
	path: string;
	weight: number;
}

// The last four are the kinds of names the directory must drop: a blank name and
// administrative groups exported by the membership system.
const AFFILIATIONS: readonly AffiliationSpec[] = [
	{
		aff_name: 'Women in Business',
		aff_code: 'WIB',
		icon_text: 'WIB',
		path: 'women-in-business',
		weight: 8,
	},
	{
		aff_name: 'Young Professionals',
		aff_code: 'YP',
		icon_text: 'YP',
		path: 'young-professionals',
		weight: 8,
	},
	{
		aff_name: 'Green Business Network',
		aff_code: 'GBN',
		icon_text: 'GBN',
		path: 'green-business',
		weight: 5,
	},
	{
		aff_name: 'Chamber Ambassadors',
		aff_code: 'AMB',
		icon_text: 'AMB',
		path: 'ambassadors',
		weight: 4,
	},
	{
		aff_name: 'Downtown Merchants',
		aff_code: 'DTM',
		icon_text: 'DTM',
		path: 'downtown',
		weight: 4,
	},
	{ aff_name: 'All Profiles', aff_code: 'ALL', icon_text: '', path: '', weight: 2 },
	{ aff_name: 'Mem Type - Gold', aff_code: 'MTG', icon_text: '', path: '', weight: 2 },
	{ aff_name: 'Admin Sync', aff_code: 'SYNC', icon_text: '', path: '', weight: 1 },
	{ aff_name: '', aff_code: '', icon_text: '', path: '', weight: 1 },
];

// Mixed case and an unknown network on purpose: only the five known ones get an icon.
const SOCIAL = [
	{ platform: 'Facebook', url: (h: string) => `https://www.facebook.com/${h}` },
	{ platform: 'facebook', url: (h: string) => `facebook.com/${h}` },
	{ platform: 'Instagram', url: (h: string) => `https://www.instagram.com/${h}` },
	{ platform: 'LinkedIn', url: (h: string) => `https://www.linkedin.com/company/${h}` },
	{ platform: 'twitter', url: (h: string) => `https://twitter.com/${h}` },
	{ platform: 'YouTube', url: (h: string) => `https://www.youtube.com/@${h}` },
	{ platform: 'tiktok', url: (h: string) => `https://www.tiktok.com/@${h}` },
] as const;

const WEB_CONTENT_TYPES = [
	{ type: 'Hot Deal', titles: ['10% off for chamber members', 'Free estimate this month'] },
	{ type: 'Job Posting', titles: ['Now hiring: Office Assistant', 'Seasonal help wanted'] },
	{ type: 'Video', titles: ['Meet our team', 'A tour of our shop'] },
	{ type: 'Coupon', titles: ['Buy one, get one free', '$5 off your next visit'] },
] as const;

const TAGLINES = [
	'Proudly serving our neighbors.',
	'Your success is our business.',
	'Quality you can count on.',
	'Local people, local service.',
	'Here when you need us.',
	'Rooted in Cedar Valley.',
];

const VALUES = [
	'pride ourselves on friendly, personal service',
	'believe in doing the job right the first time',
	'treat every customer like a neighbor',
	'are committed to giving back to the community',
	'offer honest advice and fair prices',
];

const JOB_TITLES = [
	'Owner',
	'President',
	'Office Manager',
	'Marketing Director',
	'Sales Manager',
	'CEO',
	'Account Executive',
	'Branch Manager',
	'Operations Manager',
	'Community Relations Coordinator',
	'Financial Advisor',
	'Realtor',
	'',
];

const LOGO_COUNT = 20;

/**
 * Appended to the last business's description: script, event-handler and javascript: payloads
 * that the profile's sanitiser must neutralise (the end-to-end tests look for this text).
 */
export const UNSAFE_DESCRIPTION =
	'<p>Ask about our seasonal specials.</p>' +
	'<script>alert("xss-script")</script>' +
	'<img src="x" onerror="alert(\'xss-onerror\')" alt="Storefront">' +
	'<p onmouseover="alert(\'xss-hover\')"><a href="javascript:alert(\'xss-link\')">Our specials</a></p>';

// --- Small helpers -----------------------------------------------------------------------------

function escapeHtml(value: string): string {
	return value
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function capitalize(value: string): string {
	return value.charAt(0).toUpperCase() + value.slice(1);
}

/** A fictional domain for a name: letters and digits only, on the reserved .example TLD. */
function domainFor(name: string): string {
	const label = name
		.toLowerCase()
		.replace(/&/g, 'and')
		.replace(/[^a-z0-9]+/g, '')
		.slice(0, 40);
	return `${label || 'business'}.example`;
}

function isoDay(day: Day): string {
	return format(day, 'yyyy-MM-dd');
}

function pad2(n: number): string {
	return String(n).padStart(2, '0');
}

function phoneNumber(faker: Faker): string {
	// 555-0100 to 555-0199 are reserved for fiction.
	const line = `01${pad2(faker.number.int({ min: 0, max: 99 }))}`;
	const style = faker.number.int({ min: 0, max: 9 });
	if (style < 7) return `(${AREA_CODE}) 555-${line}`;
	if (style < 9) return `${AREA_CODE}-555-${line}`;
	return `${AREA_CODE}.555.${line}`;
}

function chance(faker: Faker, probability: number): boolean {
	return faker.number.float() < probability;
}

function weighted<T extends { weight: number }>(faker: Faker, items: readonly T[]): T {
	return faker.helpers.weightedArrayElement(
		items.map((value) => ({ weight: value.weight, value })),
	);
}

function newFaker(seed: number): Faker {
	const faker = new Faker({ locale: [en_US, en, base] });
	faker.seed(seed);
	return faker;
}

// --- Businesses --------------------------------------------------------------------------------

interface GeneratedBusiness {
	input: BusinessInput;
	town: Town;
	domain: string;
}

function fillName(faker: Faker, template: string, town: Town): string {
	return (
		template
			// Double-barrelled surnames read oddly in firm names ("Kuvalis-Hagenes & Kuvalis").
			.replace(/\{last\}/g, () => faker.person.lastName().split('-')[0]!)
			.replace(/\{town\}/g, town.city)
			.replace(/\{county\}/g, town.county)
			.replace(/\{word\}/g, () => faker.helpers.arrayElement(NAME_WORDS))
	);
}

function describeBusiness(
	faker: Faker,
	name: string,
	category: CategorySpec,
	town: Town,
	since: number | null,
	website: string,
	phone: string,
): { html: string; short: string } {
	const services = faker.helpers.shuffle([...category.services]);
	const [first = 'service', second = 'support'] = services;
	const opener = faker.helpers.arrayElement(['provides', 'offers', 'specializes in', 'delivers']);
	const parts = [
		`<p><strong>${escapeHtml(name)}</strong> ${opener} ${first} and ${second} for families and businesses in ${town.city} and across Cedar Valley.</p>`,
		`<p>${since ? `Locally owned since ${since}, we` : 'We'} ${faker.helpers.arrayElement(VALUES)}. <em>${faker.helpers.arrayElement(TAGLINES)}</em></p>`,
	];
	if (chance(faker, 0.5)) {
		const items = services.slice(0, faker.number.int({ min: 3, max: services.length }));
		parts.push(
			`<h3>What We Offer</h3><ul>${items.map((s) => `<li>${capitalize(s)}</li>`).join('')}</ul>`,
		);
	}
	if (chance(faker, 0.06)) {
		parts.push(
			'<h3>Hours</h3><table><thead><tr><th>Day</th><th>Hours</th></tr></thead><tbody>' +
				'<tr><td>Monday&ndash;Friday</td><td>8:00 AM &ndash; 5:30 PM</td></tr>' +
				'<tr><td>Saturday</td><td>9:00 AM &ndash; 1:00 PM</td></tr>' +
				'<tr><td>Sunday</td><td>Closed</td></tr></tbody></table>',
		);
	}
	if (website && chance(faker, 0.4)) {
		const href = /^https?:\/\//.test(website) ? website : `https://${website}`;
		parts.push(
			`<div><span>Visit <a href="${escapeHtml(href)}">our website</a>${phone ? ` or call ${phone}` : ''}.</span></div>`,
		);
	}
	const short = chance(faker, 0.85)
		? `${capitalize(first)} and ${second} in ${town.city}. ${faker.helpers.arrayElement(TAGLINES)}`
		: '';
	return { html: parts.join(''), short };
}

function generateBusinesses(
	count: number,
	seed: number,
	today: Day,
	chamberDomain: string,
): GeneratedBusiness[] {
	const faker = newFaker(seed);
	// Levels are drawn up front so every level of the hierarchy can be guaranteed below.
	const levels: Level[] = Array.from({ length: count }, () => weighted(faker, LEVELS));
	if (count >= LEVELS.length) {
		const uses = new Map<Level, number>();
		for (const level of levels) uses.set(level, (uses.get(level) ?? 0) + 1);
		LEVELS.forEach((level, k) => {
			if (uses.has(level)) return;
			// Take the slot from a level that occurs more than once, so no other level disappears.
			let at = Math.floor(((k + 0.5) * count) / LEVELS.length);
			while ((uses.get(levels[at]!) ?? 0) < 2) at = (at + 1) % count;
			uses.set(levels[at]!, uses.get(levels[at]!)! - 1);
			uses.set(level, 1);
			levels[at] = level;
		});
	}
	const usedNames = new Set<string>();
	const result: GeneratedBusiness[] = [];
	let profileId = 104000;
	const places = newFaker(seed + 1);

	for (let i = 0; i < count; i++) {
		const level = levels[i] ?? LEVELS[LEVELS.length - 1]!;
		const town = weighted(faker, TOWNS);
		// The first businesses take the categories in order so every category is in use.
		const primary = CATEGORIES[i] ?? weighted(faker, CATEGORIES);
		const categories = [primary];
		const extra = faker.helpers.weightedArrayElement([
			{ weight: 55, value: 0 },
			{ weight: 30, value: 1 },
			{ weight: 15, value: 2 },
		]);
		for (let tries = 0; categories.length < 1 + extra && tries < 10; tries++) {
			const next = weighted(faker, CATEGORIES);
			if (!categories.includes(next)) categories.push(next);
		}

		let name = fillName(faker, faker.helpers.arrayElement(primary.names), town);
		for (let tries = 0; usedNames.has(name) && tries < 4; tries++) {
			name = fillName(faker, faker.helpers.arrayElement(primary.names), town);
		}
		// Large directories run out of template combinations; a branch suffix keeps names unique.
		if (usedNames.has(name)) {
			const stem = name;
			for (let branch = 2; usedNames.has(name); branch++) name = `${stem} #${branch}`;
		}
		usedNames.add(name);
		const domain = domainFor(name);

		const homeBased = chance(faker, 0.03);
		const phone = chance(faker, 0.92) ? phoneNumber(faker) : '';
		const websiteStyle = faker.number.int({ min: 0, max: 9 });
		const website =
			websiteStyle < 5
				? `https://www.${domain}`
				: websiteStyle < 7
					? `www.${domain}`
					: websiteStyle === 7
						? `http://${domain}`
						: websiteStyle === 8
							? `${domain}/home`
							: '';
		const first = faker.person.firstName();
		const last = faker.person.lastName();
		const email = chance(faker, 0.85)
			? chance(faker, 0.6)
				? `info@${domain}`
				: `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}`
			: '';

		const sinceRoll = faker.number.float();
		const daysAgo =
			sinceRoll < 0.1
				? faker.number.int({ min: 0, max: 89 })
				: faker.number.int({ min: 91, max: 30 * 365 });
		const sinceDate = sinceRoll > 0.98 ? null : addDays(today, -daysAgo);
		const sinceYear = sinceDate ? sinceDate.getFullYear() : null;
		const { html, short } = describeBusiness(faker, name, primary, town, sinceYear, website, phone);

		const listings: ListingInput[] = [
			{
				description: i === count - 1 ? html + UNSAFE_DESCRIPTION : html,
				short_description: short,
				categories: categories.map((c) => c.name),
				keywords: [...primary.services, town.city].join(', '),
				active: true,
				primary_listing: true,
			},
		];
		if (chance(faker, 0.08)) {
			const second = categories[1] ?? primary;
			listings.push({
				description: `<p>${escapeHtml(name)} also offers ${second.services.join(', ')}.</p>`,
				short_description: `${capitalize(second.services[0] ?? 'services')} by ${name}.`,
				categories: [second.name, ' '],
				keywords: second.services.join(', '),
				active: chance(faker, 0.7),
			});
		}

		const business: BusinessInput = {
			report_name: name,
			address1: homeBased
				? ''
				: `${faker.number.int({ min: 100, max: 4899 })} ${faker.helpers.arrayElement(STREETS)}`,
			address2: !homeBased && chance(faker, 0.15) ? faker.helpers.arrayElement(SUITES) : '',
			city: homeBased ? '' : town.city,
			county: town.county,
			state: STATE,
			zip: faker.helpers.arrayElement(town.zips),
			work_phone: phone,
			website,
			email,
			featured: level.name === 'Trustee' || chance(faker, 0.03),
			categories: categories.map((c) => c.name),
			membership_level_name: level.name,
			member_since_date: sinceDate ? isoDay(sinceDate) : null,
			weblink_profile_id: String((profileId += faker.number.int({ min: 1, max: 9 }))),
			main_related_profile_name: chance(faker, 0.9) ? `${first} ${last}` : '',
			logo_url: chance(faker, 0.75)
				? `/demo/logos/logo-${pad2(faker.number.int({ min: 1, max: LOGO_COUNT }))}.svg`
				: '',
			is_member: chance(faker, 0.98),
			published: chance(faker, 0.99),
			listings,
		};
		const place = placeIn(places, town);
		if (!homeBased) business.location = place;
		// Most businesses leave the rank to the directory's fallback.
		if (chance(faker, 0.15)) business.membership_rank = level.rank;
		if (level.rank >= 8) business.listing_position = 11 - level.rank;
		else if (chance(faker, 0.1)) business.listing_position = faker.number.int({ min: 4, max: 12 });

		const socialRoll = faker.number.float();
		if (socialRoll < 0.05) {
			business.social_media = 'None';
		} else if (socialRoll < 0.65) {
			const handle = domain.replace(/\.example$/, '');
			const networks = faker.helpers.arrayElements(SOCIAL, { min: 1, max: 4 });
			business.social_media = networks.map((n) => ({ platform: n.platform, url: n.url(handle) }));
		}

		if (chance(faker, 0.35)) {
			const picked = new Set<AffiliationSpec>();
			const n = faker.number.int({ min: 1, max: 3 });
			for (let k = 0; k < n; k++) picked.add(weighted(faker, AFFILIATIONS));
			business.profile_affiliations = [...picked].map((a): AffiliationInput => ({
				aff_name: a.aff_name,
				aff_code: a.aff_code,
				icon_text: a.icon_text,
				icon_url: a.path ? `https://www.${chamberDomain}/${a.path}` : '',
				list_available_on_website: chance(faker, 0.95),
			}));
		}

		if (chance(faker, 0.08)) {
			const kind = faker.helpers.arrayElement(WEB_CONTENT_TYPES);
			const slug = kind.type.toLowerCase().replace(/\s+/g, '-');
			const item: WebContentInput = {
				content_type: kind.type,
				content_title: faker.helpers.arrayElement(kind.titles),
				full_url: `https://www.${domain}/${slug}`,
				rel_url: `/${slug}/${profileId}`,
			};
			business.web_content = [item];
		}

		result.push({ input: business, town, domain });
	}
	return result;
}

// --- Events ------------------------------------------------------------------------------------

interface Venue {
	Venue: string;
	Address1: string;
	City: string;
	Zip: string;
}

const VENUES = {
	office: {
		Venue: 'Cedar Valley Chamber Office',
		Address1: '200 Main Street',
		City: 'Cedarbrook',
		Zip: '52901',
	},
	civic: {
		Venue: 'Cedarbrook Civic Center',
		Address1: '415 Commerce Drive',
		City: 'Cedarbrook',
		Zip: '52901',
	},
	hotel: {
		Venue: 'Grand Prairie Hotel Ballroom',
		Address1: '1200 Lincoln Way',
		City: 'Cedarbrook',
		Zip: '52902',
	},
	club: {
		Venue: 'Maple Ridge Country Club',
		Address1: '3300 Prairie View Drive',
		City: 'Maple Ridge',
		Zip: '52910',
	},
	library: {
		Venue: 'Cedarbrook Public Library',
		Address1: '88 Park Avenue',
		City: 'Cedarbrook',
		Zip: '52901',
	},
	park: {
		Venue: 'Riverfront Park Pavilion',
		Address1: '10 River Road',
		City: 'Cedarbrook',
		Zip: '52903',
	},
	fairgrounds: {
		Venue: 'Linden County Fairgrounds',
		Address1: '2100 Highway 30',
		City: 'North Cedarbrook',
		Zip: '52905',
	},
	college: {
		Venue: 'Cedar Valley Community College',
		Address1: '500 College Drive',
		City: 'Willow Springs',
		Zip: '52915',
	},
	cityHall: {
		Venue: 'Cedarbrook City Hall',
		Address1: '101 Washington Street',
		City: 'Cedarbrook',
		Zip: '52901',
	},
	square: {
		Venue: 'Downtown Cedarbrook',
		Address1: 'Main Street & Cedar Avenue',
		City: 'Cedarbrook',
		Zip: '52901',
	},
} satisfies Record<string, Venue>;

const CHAMBER_TYPES = {
	networking: { EventType: 'Networking', EventTypeColor: '#2563eb' },
	ribbon: { EventType: 'Ribbon Cutting', EventTypeColor: '#dc2626' },
	education: { EventType: 'Education', EventTypeColor: '#059669' },
	signature: { EventType: 'Signature Event', EventTypeColor: '#7c3aed' },
	committee: { EventType: 'Committee Meeting', EventTypeColor: '#64748b' },
	government: { EventType: 'Government Affairs', EventTypeColor: '#b45309' },
};

const COMMUNITY_TYPES = {
	community: { EventType: 'Community', EventTypeColor: '#0d9488' },
	arts: { EventType: 'Arts & Culture', EventTypeColor: '#9333ea' },
	fundraiser: { EventType: 'Fundraiser', EventTypeColor: '#e11d48' },
	sports: { EventType: 'Sports', EventTypeColor: '#16a34a' },
};

const LUNCH_TOPICS = [
	'Social Media for Small Business',
	'Cybersecurity Basics',
	'Understanding Your Cash Flow',
	'Hiring and Keeping Great People',
	'Customer Service That Wins',
	'Succession Planning',
	'Grant Writing 101',
	'Google Business Profile Tips',
	'Workplace Wellness',
	'Retirement Plans for Employers',
];

type Ticket = readonly [name: string, price: number, isPublic?: boolean, max?: number];

interface OneOff {
	/** Days from today to the first day. */
	offset: number;
	name: string;
	text: string;
	venue: keyof typeof VENUES;
	type: keyof typeof COMMUNITY_TYPES;
	/** Minutes after local midnight. */
	from: number;
	to: number;
	days?: number;
	registerAt?: string;
	tickets?: readonly Ticket[];
	sponsor?: string;
	/** Cancelled: the listing stays in the feed but must not be shown. */
	closed?: boolean;
}

const h = (hours: number, minutes = 0) => hours * 60 + minutes;
const ALL_DAY = { from: 0, to: h(23, 59) };
const BLOOD_DRIVE = {
	name: 'Red Cross Blood Drive',
	text: 'Give the gift of life. Walk-ins welcome.',
	type: 'community',
	from: h(10),
	to: h(15),
} as const;
const GARAGE_SALES = {
	name: 'Community Garage Sale Day',
	text: 'Citywide garage sales. Maps available at the chamber office.',
	venue: 'square',
	type: 'community',
	...ALL_DAY,
} as const;

// prettier-ignore
const COMMUNITY_ONE_OFFS: readonly OneOff[] = [
	{ offset: -70, ...BLOOD_DRIVE, venue: 'civic', registerAt: 'https://www.cedarvalleyblooddrive.example/schedule' },
	{ offset: 20, ...BLOOD_DRIVE, venue: 'civic' },
	{ offset: 110, ...BLOOD_DRIVE, venue: 'library' },
	{ offset: -30, ...GARAGE_SALES },
	{ offset: 150, ...GARAGE_SALES },
	{ offset: 34, name: 'Cedar Valley 5K Fun Run', text: 'Run or walk to support the youth sports scholarship fund.', venue: 'park', type: 'sports', from: h(8), to: h(10), registerAt: 'https://www.cedarvalley5k.example/register', tickets: [['Adult Entry', 30], ['Youth Entry', 15]] },
	{ offset: 75, name: 'Youth Soccer Tournament', text: 'Teams from across the region compete over two days.', venue: 'fairgrounds', type: 'sports', from: h(8), to: h(17), days: 2 },
	{ offset: -55, name: 'Home & Garden Show', text: 'Ideas and experts for every project, inside and out.', venue: 'fairgrounds', type: 'community', from: h(9), to: h(17), days: 3 },
	{ offset: -12, name: 'Historical Society Lecture', text: 'Cedarbrook and the railroad: a talk by the county historian.', venue: 'library', type: 'arts', from: h(19), to: h(20, 30) },
	{ offset: 88, name: 'Historical Society Lecture', text: 'Main Street then and now: a photo presentation.', venue: 'library', type: 'arts', from: h(19), to: h(20, 30) },
	{ offset: -5, name: 'Firefighters Pancake Breakfast', text: 'All-you-can-eat pancakes to support the volunteer fire department.', venue: 'civic', type: 'fundraiser', from: h(7), to: h(11) },
	{ offset: 140, name: 'Food Pantry Fundraiser Dinner', text: 'Dinner and silent auction benefiting the Cedar Valley Food Pantry.', venue: 'hotel', type: 'fundraiser', from: h(18), to: h(21), tickets: [['Dinner Ticket', 40], ['Table of Ten', 350]], sponsor: 'Feeding our neighbors.' },
	{ offset: 8, name: 'Library Reading Challenge Kickoff', text: 'Games, crafts and prizes for readers of all ages.', venue: 'library', type: 'community', from: h(10), to: h(12), closed: true },
];

type DraftEvent = Omit<EventInput, 'EventId'>;

interface Org {
	name: string;
	domain: string;
	address1: string;
	city: string;
	zip: string;
}

class EventBuilder {
	readonly faker: Faker;
	readonly orgs: readonly Org[];
	readonly questionsEmail: string;
	readonly siteUrl: string;
	private attendeeId = 880000;
	private registrationId = 550000;
	private itemId = 9100;
	private sponsorId = 300;

	constructor(faker: Faker, orgs: readonly Org[], domain: string) {
		this.faker = faker;
		this.orgs = orgs;
		this.questionsEmail = `events@${domain}`;
		this.siteUrl = `https://www.${domain}`;
	}

	org(): Org {
		return this.faker.helpers.arrayElement(this.orgs);
	}

	/**
	 * The date and time fields of an event from local wall times in the chamber's zone; minutes
	 * count from midnight. The instants are what the calendars sort by, the local fields what
	 * they show, so both come from the same TZDate.
	 */
	when(startDay: Day, startMinute: number, endDay: Day, endMinute: number) {
		const at = (day: Day, minute: number) =>
			new TZDate(
				day.getFullYear(),
				day.getMonth(),
				day.getDate(),
				Math.floor(minute / 60),
				minute % 60,
				DEMO_TIME_ZONE,
			);
		const start = at(startDay, startMinute);
		const end = at(endDay, endMinute);
		const utc = (d: TZDate) => new Date(d.getTime()).toISOString().replace('.000Z', 'Z');
		return {
			StartDateTimeUtc: utc(start),
			EndDateTimeUtc: utc(end),
			StartDate: format(start, 'yyyy-MM-dd'),
			EndDate: format(end, 'yyyy-MM-dd'),
			StartTime: format(start, 'h:mm a'),
			EndTime: format(end, 'h:mm a'),
			TimeZone: { Abbreviation: tzName(DEMO_TIME_ZONE, start, 'short'), Name: DEMO_TIME_ZONE },
		};
	}

	registration(startDay: Day, open: boolean) {
		return {
			RegistrationStartDate: isoDay(addDays(startDay, -30)),
			RegistrationEndDate: open ? null : isoDay(addDays(startDay, -1)),
		};
	}

	items(specs: readonly Ticket[]): EventItemInput[] {
		return specs.map(([ItemName, UnitPrice, IsPublic = true, MaxQuantity]) => {
			const sold = this.faker.number.int({ min: 0, max: MaxQuantity ?? 40 });
			return {
				ItemId: ++this.itemId,
				ItemName,
				Descr: UnitPrice === 0 ? 'Complimentary for chamber members.' : '',
				UnitPrice,
				IsPublic,
				AttendeesForItem: sold,
				Sold: sold,
				MaxQuantity: MaxQuantity ?? null,
			};
		});
	}

	/** Attendees grouped by registration: each registration is one organisation. */
	attendees(count: number, itemNames: readonly string[]): EventAttendeeInput[] {
		const list: EventAttendeeInput[] = [];
		while (list.length < count) {
			const org = this.org();
			const registrationId = ++this.registrationId;
			const size = Math.min(count - list.length, this.faker.number.int({ min: 1, max: 4 }));
			for (let k = 0; k < size; k++) {
				list.push({
					AttendeeId: ++this.attendeeId,
					RegistrationId: registrationId,
					RegistrationOrgName: org.name,
					OrgName: org.name,
					ItemsDisplay: this.faker.helpers.arrayElement(itemNames),
					FName: this.faker.person.firstName(),
					LName: this.faker.person.lastName(),
					Title: this.faker.helpers.arrayElement(JOB_TITLES),
				});
			}
		}
		return list;
	}

	sponsors(count: number, message: string): EventSponsorInput[] {
		return Array.from({ length: count }, (_, k) => {
			const org = this.org();
			const style = this.faker.number.int({ min: 0, max: 3 });
			// Some logos and websites lack the scheme on purpose (the events pages add http://).
			return {
				SponserId: ++this.sponsorId,
				SponsorName: org.name,
				SponsorLogoUrl:
					style === 0
						? ''
						: style === 1
							? `www.${org.domain}/logo.png`
							: `https://www.${org.domain}/logo.png`,
				SponsorWebsite: style === 2 ? org.domain : `https://www.${org.domain}`,
				SponsorMessage: k === 0 ? message : '',
				HideSponsorOrgName: style === 3 && k > 0,
			};
		});
	}
}

// date-fns types lastDayOfMonth as returning a plain Date; this keeps the TZDate type.
function lastDayOf(day: Day): Day {
	return addDays(startOfMonth(addMonths(day, 1)), -1);
}

function nthWeekday(monthStart: Day, weekday: number, n: number): Day {
	if (n < 0) {
		const last = lastDayOf(monthStart);
		return addDays(last, -((getDay(last) - weekday + 7) % 7));
	}
	const first = addDays(monthStart, (weekday - getDay(monthStart) + 7) % 7);
	return addDays(first, 7 * (n - 1));
}

function descr(...paragraphs: string[]): string {
	return paragraphs.map((p) => (p.startsWith('<') ? p : `<p>${p}</p>`)).join('');
}

interface EventWindow {
	start: Day;
	end: Day;
	months: Day[];
}

function eventWindow(today: Day): EventWindow {
	const start = addMonths(today, -3);
	const end = addMonths(today, 6);
	const months: Day[] = [];
	for (let m = startOfMonth(start); m <= end; m = addMonths(m, 1)) months.push(m);
	return { start, end, months };
}

function inWindow(w: EventWindow, first: Day, last: Day = first): boolean {
	return first >= w.start && last <= w.end;
}

function chamberEvents(b: EventBuilder, w: EventWindow, today: Day): DraftEvent[] {
	const { faker } = b;
	const events: DraftEvent[] = [];
	const memberTickets = (): EventItemInput[] =>
		b.items([
			['Member Registration', 0],
			['Non-Member Registration', 25],
		]);

	w.months.forEach((month, index) => {
		const coffee = nthWeekday(month, 2, 1);
		if (inWindow(w, coffee)) {
			const host = b.org();
			events.push({
				EventName: 'Coffee Connections',
				Descr: descr(
					`Start your morning with fresh coffee and fresh connections, hosted by <strong>${escapeHtml(host.name)}</strong>.`,
					'Bring plenty of business cards. <em>Free for members.</em>',
				),
				...b.when(coffee, 7 * 60 + 30, coffee, 8 * 60 + 30),
				Venue: host.name,
				Address1: host.address1,
				City: host.city,
				State: STATE,
				Zip: host.zip,
				...CHAMBER_TYPES.networking,
				...b.registration(coffee, true),
				SendQuestionsToEmail: b.questionsEmail,
				Items: b.items([['Coffee Connections', 0]]),
			});
		}

		const lunch = nthWeekday(month, 3, 2);
		if (inWindow(w, lunch)) {
			const topic = LUNCH_TOPICS[index % LUNCH_TOPICS.length]!;
			const sponsored = index % 2 === 0;
			events.push({
				EventName: `Lunch & Learn: ${topic}`,
				Descr: descr(
					`Join us for a practical, one-hour session on <strong>${escapeHtml(topic.toLowerCase())}</strong>.`,
					'<ul><li>Boxed lunch included</li><li>Handouts and slides provided</li><li>Q&amp;A with the presenter</li></ul>',
				),
				...b.when(lunch, 11 * 60 + 30, lunch, 13 * 60),
				...VENUES.library,
				State: STATE,
				...CHAMBER_TYPES.education,
				...b.registration(lunch, false),
				SendQuestionsToEmail: b.questionsEmail,
				Items: b.items([
					['Member Lunch', 15],
					['Non-Member Lunch', 25],
					['Speaker Comp', 0, false, 2],
				]),
				Sponsors: sponsored ? b.sponsors(1, 'Lunch is on us. Enjoy!') : [],
				ShowAttendeeDetail: index % 3 === 0,
				AttendeeDetailThreshold: 0,
				...(index % 3 === 0
					? {
							Attendees: b.attendees(faker.number.int({ min: 6, max: 18 }), [
								'Member Lunch',
								'Non-Member Lunch',
							]),
						}
					: { AttendingAttendees: faker.number.int({ min: 8, max: 30 }) }),
			});
		}

		const afterHours = nthWeekday(month, 4, 3);
		if (inWindow(w, afterHours)) {
			const host = b.org();
			const show = index % 2 === 1;
			events.push({
				EventName: `Business After Hours at ${host.name}`,
				Descr: descr(
					`Unwind and network with fellow members at <strong>${escapeHtml(host.name)}</strong>.`,
					`Appetizers, drinks and a door-prize drawing. <a href="${b.siteUrl}/networking">More about our networking events</a>.`,
				),
				...b.when(afterHours, 17 * 60, afterHours, 19 * 60),
				Venue: host.name,
				Address1: host.address1,
				City: host.city,
				State: STATE,
				Zip: host.zip,
				...CHAMBER_TYPES.networking,
				...b.registration(afterHours, true),
				SendQuestionsToEmail: b.questionsEmail,
				Items: memberTickets(),
				Sponsors: b.sponsors(
					faker.number.int({ min: 0, max: 2 }),
					'Thanks for coming out tonight!',
				),
				ShowAttendeeDetail: show,
				AttendeeDetailThreshold: 5,
				// Some stay below the threshold so the attendee list stays hidden.
				...(show
					? {
							Attendees: b.attendees(faker.number.int({ min: 2, max: 24 }), [
								'Member Registration',
								'Non-Member Registration',
							]),
						}
					: { AttendingAttendees: faker.number.int({ min: 10, max: 60 }) }),
			});
		}

		if (index % 2 === 0) {
			const happyHour = nthWeekday(month, 4, -1);
			if (inWindow(w, happyHour)) {
				events.push({
					EventName: 'Young Professionals Happy Hour',
					Descr: descr(
						'Emerging leaders under 40: meet, mingle and grow your network. First drink on us.',
					),
					...b.when(happyHour, 17 * 60 + 30, happyHour, 19 * 60 + 30),
					Venue: 'Copper Kettle Taproom',
					Address1: '310 Main Street',
					City: 'Cedarbrook',
					State: STATE,
					Zip: '52901',
					...CHAMBER_TYPES.networking,
					...b.registration(happyHour, true),
					Items: b.items([
						['YP Member', 0],
						['Guest', 10],
					]),
				});
			}
		} else {
			const ambassadors = nthWeekday(month, 5, 1);
			if (inWindow(w, ambassadors)) {
				events.push({
					EventName: 'Ambassador Committee Meeting',
					Descr: descr('Monthly meeting of the Chamber Ambassadors. Committee members only.'),
					...b.when(ambassadors, 8 * 60, ambassadors, 9 * 60),
					...VENUES.office,
					State: STATE,
					...CHAMBER_TYPES.committee,
					DisableRegistration: true,
					Closed: index % 4 === 1,
				});
			}
		}
	});

	// Ribbon cuttings on scattered weekdays.
	for (let k = 0; k < 10; k++) {
		let day = addDays(w.start, faker.number.int({ min: 3, max: 260 }));
		while (getDay(day) === 0 || getDay(day) === 6) day = addDays(day, 1);
		if (!inWindow(w, day)) continue;
		const org = b.org();
		const startMinute = faker.helpers.arrayElement([11 * 60, 16 * 60]);
		events.push({
			EventName: `Ribbon Cutting: ${org.name}`,
			Descr: descr(
				`Help us welcome <strong>${escapeHtml(org.name)}</strong> to the chamber with an official ribbon cutting!`,
				'Light refreshments will be served. Free and open to the public.',
			),
			...b.when(day, startMinute, day, startMinute + 30),
			Venue: org.name,
			Address1: org.address1,
			City: org.city,
			State: STATE,
			Zip: org.zip,
			...CHAMBER_TYPES.ribbon,
			DisableRegistration: k % 2 === 0,
		});
	}

	for (const months of [-2, 1, 4]) {
		const day = nthWeekday(addMonths(startOfMonth(today), months), 2, 2);
		if (!inWindow(w, day)) continue;
		events.push({
			EventName: 'New Member Orientation',
			Descr: descr(
				'New to the chamber? Learn how to get the most out of your membership.',
				'<ol><li>Chamber programs and committees</li><li>Updating your directory listing</li><li>Marketing opportunities</li></ol>',
			),
			...b.when(day, 8 * 60, day, 9 * 60 + 30),
			...VENUES.office,
			State: STATE,
			...CHAMBER_TYPES.education,
			...b.registration(day, true),
			SendQuestionsToEmail: b.questionsEmail,
			Items: b.items([['New Member', 0]]),
		});
	}

	for (const months of [-1, 2, 5]) {
		const day = nthWeekday(addMonths(startOfMonth(today), months), 1, 3);
		if (!inWindow(w, day)) continue;
		events.push({
			EventName: 'Board of Directors Meeting',
			Descr: descr('Regular meeting of the chamber board of directors.'),
			...b.when(day, 12 * 60, day, 13 * 60 + 30),
			...VENUES.office,
			State: STATE,
			...CHAMBER_TYPES.committee,
			DisableRegistration: true,
			Closed: true,
		});
	}

	// One-off events, placed relative to today.
	const saturdayNear = (offsetDays: number) => {
		const day = addDays(today, offsetDays);
		return addDays(day, (6 - getDay(day) + 7) % 7);
	};

	const gala = saturdayNear(60);
	const galaSponsors = b.sponsors(3, 'Proud presenting sponsor of the Annual Gala.');
	events.push({
		EventName: 'Annual Gala & Awards Night',
		Descr: descr(
			'<h3>An Evening Celebrating Cedar Valley Business</h3>',
			'Join 300 business and community leaders for dinner, live music and the presentation of the <strong>Business of the Year</strong>, <strong>Volunteer of the Year</strong> and <strong>Lifetime Achievement</strong> awards.',
			'<ul><li>5:30 PM &ndash; Cocktails &amp; silent auction</li><li>6:30 PM &ndash; Dinner</li><li>8:00 PM &ndash; Awards</li></ul>',
			'<em>Cocktail attire.</em> Tickets are sold through our gala page.',
		),
		...b.when(gala, 17 * 60 + 30, gala, 22 * 60),
		...VENUES.hotel,
		State: STATE,
		...CHAMBER_TYPES.signature,
		FeaturedEvent: true,
		SpecialRegistrationUrl: `${b.siteUrl}/gala`,
		...b.registration(gala, false),
		SendQuestionsToEmail: b.questionsEmail,
		Items: b.items([
			['Individual Ticket', 125, true, 300],
			['Table of Eight', 900, true, 30],
			['Sponsor Table', 0, false, 10],
		]),
		Sponsors: galaSponsors,
		ShowAttendeeDetail: true,
		AttendeeDetailThreshold: 10,
		Attendees: b.attendees(40, ['Individual Ticket', 'Table of Eight']),
	});

	const golf = saturdayNear(100);
	events.push({
		EventName: 'Chamber Golf Classic',
		Descr: descr(
			'Four-person scramble with lunch, prizes and an awards reception. <strong>Shotgun start at 8:00 AM.</strong>',
			'<table><thead><tr><th>Package</th><th>Includes</th></tr></thead><tbody><tr><td>Individual</td><td>18 holes, cart, lunch</td></tr><tr><td>Foursome</td><td>Four players, cart, lunch, hole sign</td></tr></tbody></table>',
		),
		...b.when(golf, 7 * 60, golf, 15 * 60),
		...VENUES.club,
		State: STATE,
		...CHAMBER_TYPES.signature,
		...b.registration(golf, false),
		SendQuestionsToEmail: b.questionsEmail,
		Items: b.items([
			['Individual Golfer', 150, true, 144],
			['Foursome', 550, true, 36],
			['Hole Sponsor', 250],
			['Volunteer', 0, false],
		]),
		Sponsors: b.sponsors(4, 'Fore! Good luck to all our golfers.'),
		ShowAttendeeDetail: true,
		// More attendees are needed before the list is shown.
		AttendeeDetailThreshold: 50,
		Attendees: b.attendees(12, ['Individual Golfer', 'Foursome']),
	});

	const breakfast = addDays(today, -40);
	events.push({
		EventName: 'Legislative Breakfast',
		Descr: descr('Hear from our state legislators about the session ahead and ask your questions.'),
		...b.when(breakfast, 7 * 60, breakfast, 8 * 60 + 30),
		...VENUES.college,
		State: STATE,
		...CHAMBER_TYPES.government,
		...b.registration(breakfast, false),
		Items: b.items([['Breakfast', 20]]),
		AttendingAttendees: 64,
	});

	const address = addDays(today, 25);
	events.push({
		EventName: 'State of the City Address',
		Descr: descr('The mayor reviews the past year and shares plans for the year ahead.'),
		...b.when(address, 11 * 60 + 30, address, 13 * 60),
		...VENUES.civic,
		State: STATE,
		...CHAMBER_TYPES.government,
		...b.registration(address, true),
		Items: b.items([
			['Lunch', 30],
			['Press', 0, false],
		]),
		Sponsors: b.sponsors(2, 'Investing in our community.'),
	});

	// Multi-day: a two-day retreat, and an expo that spans a month boundary.
	const retreat = addDays(today, 130);
	events.push({
		EventName: 'Leadership Cedar Valley Retreat',
		Descr: descr('Two days of leadership training for the new Leadership Cedar Valley class.'),
		...b.when(retreat, 8 * 60, addDays(retreat, 1), 16 * 60),
		...VENUES.college,
		State: STATE,
		...CHAMBER_TYPES.education,
		DisableRegistration: true,
	});

	const expoStart = addDays(lastDayOf(addMonths(today, 1)), -1);
	events.push({
		EventName: 'Cedar Valley Business Expo',
		Descr: descr(
			'Over 80 exhibitors, seminars and a job fair under one roof. <strong>Free admission.</strong>',
			'Exhibitor booths are available to members.',
		),
		...b.when(expoStart, 9 * 60, addDays(expoStart, 2), 16 * 60),
		...VENUES.fairgrounds,
		State: STATE,
		...CHAMBER_TYPES.signature,
		...b.registration(expoStart, false),
		SendQuestionsToEmail: b.questionsEmail,
		Items: b.items([
			['Exhibitor Booth', 200, true, 80],
			['Visitor', 0],
		]),
		Sponsors: b.sponsors(2, 'Presenting sponsor of the Business Expo.'),
	});

	// All-day.
	const shopLocal = saturdayNear(45);
	events.push({
		EventName: 'Shop Local Saturday',
		Descr: descr(
			'Support Cedar Valley merchants! Look for specials at participating businesses all day.',
		),
		...b.when(shopLocal, 0, shopLocal, 23 * 60 + 59),
		...VENUES.square,
		State: STATE,
		...CHAMBER_TYPES.networking,
		DisableRegistration: true,
	});

	return events;
}

function communityEvents(b: EventBuilder, w: EventWindow, today: Day): DraftEvent[] {
	const events: DraftEvent[] = [];
	const common = { State: STATE, DisableRegistration: true };

	w.months.forEach((month, index) => {
		const market = nthWeekday(month, 6, 2);
		if (inWindow(w, market)) {
			events.push({
				EventName: 'Cedarbrook Farmers Market',
				Descr: descr(
					'Fresh produce, baked goods, honey and crafts from local growers and makers.',
					'<em>Rain or shine.</em>',
				),
				...b.when(market, 8 * 60, market, 12 * 60),
				...VENUES.square,
				...common,
				...COMMUNITY_TYPES.community,
			});
		}
		const artWalk = nthWeekday(month, 5, 1);
		if (inWindow(w, artWalk)) {
			events.push({
				EventName: 'First Friday Art Walk',
				Descr: descr(
					'Galleries and shops stay open late with local artists, live music and refreshments.',
				),
				...b.when(artWalk, 17 * 60, artWalk, 20 * 60),
				...VENUES.square,
				...common,
				...COMMUNITY_TYPES.arts,
			});
		}
		if (index % 3 === 0) {
			const council = nthWeekday(month, 1, 2);
			if (inWindow(w, council)) {
				events.push({
					EventName: 'City Council Meeting',
					Descr: descr(
						'Regular meeting of the Cedarbrook City Council. Agendas are posted 24 hours in advance.',
					),
					...b.when(council, 18 * 60, council, 20 * 60),
					...VENUES.cityHall,
					...common,
					...COMMUNITY_TYPES.community,
				});
			}
		}
		if (index % 2 === 1) {
			const concert = nthWeekday(month, 4, 2);
			if (inWindow(w, concert)) {
				events.push({
					EventName: 'Concert in the Park',
					Descr: descr(
						'Bring a lawn chair for an evening of music by local bands. Food trucks on site.',
					),
					...b.when(concert, 18 * 60 + 30, concert, 20 * 60 + 30),
					...VENUES.park,
					...common,
					...COMMUNITY_TYPES.arts,
				});
			}
		}
	});

	for (const spec of COMMUNITY_ONE_OFFS) {
		const day = addDays(today, spec.offset);
		const last = addDays(day, (spec.days ?? 1) - 1);
		if (!inWindow(w, day, last)) continue;
		events.push({
			EventName: spec.name,
			Descr: descr(spec.text),
			...b.when(day, spec.from, last, spec.to),
			...VENUES[spec.venue],
			...common,
			...COMMUNITY_TYPES[spec.type],
			...(spec.registerAt === undefined
				? {}
				: { DisableRegistration: false, SpecialRegistrationUrl: spec.registerAt }),
			...(spec.tickets ? { DisableRegistration: false, Items: b.items(spec.tickets) } : {}),
			...(spec.sponsor ? { Sponsors: b.sponsors(1, spec.sponsor) } : {}),
			...(spec.closed ? { Closed: true } : {}),
		});
	}

	return events;
}

/** Sorted by start then name, with ids assigned in that order so they read chronologically. */
function numberEvents(drafts: DraftEvent[], firstId: number): (EventInput & { EventId: number })[] {
	return drafts
		.sort(
			(a, b) =>
				a.StartDateTimeUtc.localeCompare(b.StartDateTimeUtc) ||
				a.EventName.localeCompare(b.EventName),
		)
		.map((event, index) => ({ EventId: firstId + index, ...event }));
}

// --- Configuration, banners, users -------------------------------------------------------------

function demoConfig(
	name: string,
	slug: string,
	domain: string,
	featuredEventId: number | null,
): ChamberConfigInput {
	const site = `https://www.${domain}`;
	return {
		name,
		slug,
		city: 'Cedarbrook',
		state: STATE,
		foundedYear: 1921,
		colors: {
			primary: '#1f4e3d',
			primaryLight: '#4f8a6f',
			primaryDark: '#12322a',
			secondary: '#c8702a',
			secondaryLight: '#e8a25c',
			secondaryDark: '#9a5218',
		},
		logo: {
			standard: '/demo/logos/chamber.svg',
			stacked: '/demo/logos/chamber-stacked.svg',
			favicon: '/demo/logos/favicon.svg',
		},
		fonts: { heading: 'Merriweather', body: 'Source Sans Pro' },
		textColors: {
			heading: '#1a2e26',
			body: '#374151',
			link: '#1f4e3d',
			linkHover: '#4f8a6f',
			onDarkHeading: '#ffffff',
			onDarkBody: '#e3efe8',
		},
		contact: {
			address: '200 Main Street',
			addressLine2: 'Suite 100',
			city: 'Cedarbrook',
			state: STATE,
			zip: '52901',
			phone: `(${AREA_CODE}) 555-0100`,
			email: `info@${domain}`,
		},
		social: {
			facebook: 'https://www.facebook.com/CedarValleyChamberDemo',
			twitter: 'https://twitter.com/CedarValleyChamberDemo',
			linkedin: 'https://www.linkedin.com/company/cedar-valley-chamber-demo',
			instagram: 'https://www.instagram.com/cedarvalleychamberdemo',
			youtube: 'https://www.youtube.com/@CedarValleyChamberDemo',
		},
		urls: {
			mainWebsite: site,
			joinUrl: `${site}/join`,
			aboutUrl: `${site}/about`,
			teamUrl: `${site}/about/staff`,
			presidentUrl: `${site}/about/president`,
			boardUrl: `${site}/about/board`,
			eventsUrl: `${site}/events`,
			networkingUrl: `${site}/networking`,
			newsUrl: `${site}/news`,
			advocacyUrl: `${site}/advocacy`,
			privacyUrl: `${site}/privacy`,
			businessResourcesUrl: `${site}/resources/small-business`,
			workforceUrl: `${site}/resources/workforce`,
			communityGuideUrl: `${site}/community-guide`,
			communityMapUrl: `${site}/community-map`,
			jobBoardUrl: `${site}/jobs`,
			committeesUrl: `${site}/committees`,
			annualReportUrl: `${site}/annual-report`,
			contactUrl: `${site}/contact`,
			eventRegistrationBaseUrl: `https://members.${domain}`,
		},
		footerLabels: {
			businessResourcesLabel: 'Small Business Resources',
			workforceLabel: 'Workforce Development',
			communityGuideLabel: 'Community Guide',
			jobBoardLabel: 'Job Board',
		},
		content: {
			heroTitle: 'Discover Cedar Valley Businesses',
			heroSubtitle:
				'Find trusted local businesses, services and organizations across Cedar Valley.',
			footerTagline: 'Building a stronger Cedar Valley since 1921.',
			copyrightText: 'All rights reserved.',
			featuredTitle: 'Featured Members',
			categoriesTitle: 'Browse by Category',
			whyJoinTitle: 'Why Join the Chamber?',
			whyJoinText:
				'Chamber members get more visibility, more connections and a stronger voice. Join over 300 businesses growing together in Cedar Valley.',
			whyJoinButtonText: 'Become a Member',
			directoryTitle: 'Member Directory',
			sidebarTitle: 'Grow With the Chamber',
			sidebarTagline: 'Get your business in front of thousands of local customers.',
			sidebarButtonText: 'Join Today',
			eventsTabLabel: 'Chamber Events',
			communityEventsTabLabel: 'Community Events',
			defaultEventsCalendar: 'events',
			metaDescription:
				'The Cedar Valley Chamber of Commerce business directory: find local businesses, services and events in Cedarbrook and the surrounding area.',
			metaKeywords:
				'Cedar Valley, Cedarbrook, chamber of commerce, business directory, local business, events',
		},
		services: { googleAnalyticsId: '', recaptchaSiteKey: '', emailDomain: domain },
		features: {
			showEvents: true,
			showCommunityEvents: true,
			showNewMembersFilter: true,
			showMembershipLevels: true,
			showBanners: true,
			showEventFilters: true,
			// The only non-default switch: the demo has a featured event to show.
			showFeaturedEvent: featuredEventId !== null,
			featuredEventId,
			showBusinessShortDescription: false,
			showEventAttendeeCountInHeader: true,
			memberBadgeDisplay: 'level',
			businessDetailLayout: 'classic',
			showMainContact: false,
			// Members of the demo keep their own listings current (through an e-mailed link).
			memberUpdates: true,
		},
		membershipLevels: {
			featured: ['trustee'],
			canLinkWebsite: [
				'trustee',
				'chairman',
				'executive partner',
				'executive',
				'corporate',
				'corporate partner',
			],
		},
		featuredBusinesses: {
			strategy: 'membership',
			count: 4,
			membershipLevels: ['trustee', 'chairman'],
			requireCompleteProfile: true,
			showViewAllButton: true,
		},
		categoryDisplay: { count: 12, sortBy: 'popularity' },
		searchPage: {
			defaultSort: 'membershipHighToLow',
			availableSorts: [
				'nameAsc',
				'nameDesc',
				'membershipHighToLow',
				'membershipLowToHigh',
				'listingPositionHighToLowRandom',
				'random',
			],
			showSortDropdown: true,
			showFilters: true,
			availableFilters: ['city', 'county', 'zip', 'affiliation'],
			membershipHierarchy: LEVELS.map(({ name: levelName, rank }) => ({ name: levelName, rank })),
		},
		navigation: {
			menuItems: [
				{ id: 'home', label: 'Home', type: 'link', url: '/', isInternal: true },
				{ id: 'directory', label: 'Directory', type: 'link', url: '/search', isInternal: true },
				{
					id: 'events',
					label: 'Events',
					type: 'dropdown',
					url: '',
					isInternal: false,
					items: [
						{ label: 'Chamber Events', url: '/events', isInternal: true },
						{ label: 'Community Events', url: '/community-events', isInternal: true },
						{ label: 'Events List', url: '/events-list', isInternal: true },
					],
				},
				{
					id: 'about',
					label: 'About',
					type: 'dropdown',
					url: '',
					isInternal: false,
					items: [
						{ label: 'About Us', url: 'aboutUrl', isInternal: false },
						{ label: 'Our Team', url: 'teamUrl', isInternal: false },
						{ label: 'Board of Directors', url: 'boardUrl', isInternal: false },
						{ label: 'Annual Report', url: 'annualReportUrl', isInternal: false },
					],
				},
				{ id: 'news', label: 'News', type: 'link', url: 'newsUrl', isInternal: false },
				{ id: 'contact', label: 'Contact', type: 'link', url: 'contactUrl', isInternal: false },
			],
		},
	};
}

function demoBanners(domain: string): BannerInput[] {
	const site = `https://www.${domain}`;
	return [
		{
			banner_name: 'Membership drive',
			image_url: '/demo/banners/banner-1.svg',
			navigate_url: `${site}/join`,
			alternate_text: 'Grow your business: become a Cedar Valley Chamber member today',
			position: 1,
		},
		{
			banner_name: 'Shop local',
			image_url: '/demo/banners/banner-2.svg',
			navigate_url: '/search',
			target: '_self',
			alternate_text: 'Shop local, support Cedar Valley: browse the member directory',
			position: 2,
		},
		{
			banner_name: 'Annual Gala',
			image_url: '/demo/banners/banner-3.svg',
			navigate_url: `${site}/gala`,
			alternate_text: 'Annual Gala and Awards Night: tickets on sale now',
			position: 3,
		},
		{
			banner_name: 'Retired sponsor banner',
			image_url: '/demo/banners/banner-2.svg',
			navigate_url: site,
			alternate_text: 'Retired banner, not shown',
			active: false,
			position: 4,
		},
	];
}

function demoUsers(slug: string): TenantUserInput[] {
	// The demo keeps the documented addresses; other slugs get their own so tenants never share a login.
	const host = `${slug}.test`;
	return [
		{ email: `super@${host}`, password: 'demo-password', role: 'super_admin' },
		{ email: `admin@${host}`, password: 'demo-password', role: 'admin' },
		{ email: `editor@${host}`, password: 'demo-password', role: 'editor' },
	];
}

// --- Entry point -------------------------------------------------------------------------------

export function generateTenant(options: GenerateTenantOptions = {}): TenantFileInput {
	const slug = options.slug ?? 'demo';
	const name = options.name ?? 'Cedar Valley Chamber of Commerce';
	const count = options.businesses ?? 300;
	const seed = options.seed ?? 2026;
	const now = new TZDate((options.today ?? new Date()).getTime(), DEMO_TIME_ZONE);
	const today = new TZDate(now.getFullYear(), now.getMonth(), now.getDate(), DEMO_TIME_ZONE);
	const domain = domainFor(name.replace(/\s+of\s+commerce$/i, ''));

	const businesses = generateBusinesses(count, seed, today, domain);

	// Events draw from their own seed, so their schedule does not depend on the number of businesses.
	const pool: Org[] = businesses.slice(0, 300).map(({ input, town, domain: orgDomain }) => ({
		name: input.report_name,
		domain: orgDomain,
		address1: input.address1 || '100 Main Street',
		city: input.city || town.city,
		zip: input.zip ?? town.zips[0] ?? '',
	}));
	if (pool.length === 0) {
		pool.push({
			name: 'Cedar Valley Chamber',
			domain,
			address1: '200 Main Street',
			city: 'Cedarbrook',
			zip: '52901',
		});
	}
	const builder = new EventBuilder(newFaker(seed + 1), pool, domain);
	const range = eventWindow(today);
	const events = numberEvents(chamberEvents(builder, range, today), 41001);
	const community = numberEvents(communityEvents(builder, range, today), 72001);
	const featured = events.find((e) => e.FeaturedEvent)?.EventId ?? null;

	return {
		tenant: { slug, name },
		config: demoConfig(name, slug, domain, featured),
		businesses: businesses.map((b) => b.input),
		banners: demoBanners(domain),
		events,
		communityEvents: community,
		users: demoUsers(slug),
	};
}
