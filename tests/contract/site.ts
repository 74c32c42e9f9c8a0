import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
	BusinessInput,
	EventInput,
	UserRole,
} from '../../src/features/tenants/tenant-file.ts';
import { service, stack } from '../db/clients.ts';
import {
	importChamber,
	importStaffChambers,
	randomProfileNumber,
	type StaffChamber,
	type StaffChambers,
} from '../db/fixtures.ts';
import { startStaffSite, type StaffSite } from '../db/staff-site.ts';

// The chamber every contract file of the API talks to: one import with a little of everything the
// specification's calls read (businesses, a banner, events of both calendars), served by the real
// functions over HTTP on 127.0.0.1 against the database tests' stack (tests/db/global-setup.ts),
// with the staff a file needs signed in. Nothing is built: publishes go to a stand-in of
// Netlify's API.

export const PASSWORD = 'contract-password';

/** A date `days` from today, yyyy-mm-dd (UTC). */
export function day(days: number): string {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A business of the file, with the ids the rows look it up by. */
type ContractBusiness = BusinessInput & { id: string; weblink_profile_id: string };

function business(name: string, fields: Partial<BusinessInput>): ContractBusiness {
	return {
		id: randomUUID(),
		report_name: name,
		address1: '12 Main Street',
		city: 'Cedarbrook',
		county: 'Linn',
		state: 'IA',
		zip: '52901',
		work_phone: '319-555-0100',
		website: 'example.com',
		weblink_profile_id: randomProfileNumber(),
		member_since_date: day(-400),
		listings: [
			{
				description: `<p>${name} serves the town.</p>`,
				short_description: `${name} serves the town.`,
				categories: fields.categories ?? [],
				keywords: 'lunch dinner catering',
				primary_listing: true,
			},
		],
		social_media: [{ platform: 'facebook', url: 'https://facebook.com/example' }],
		...fields,
	} as ContractBusiness;
}

/** The chamber's businesses: the first takes messages and belongs to an affiliation. */
export const BUSINESSES = {
	bistro: business('Contract Bistro', {
		email: 'hello@bistro.example',
		categories: ['Restaurants'],
		membership_level_name: 'Trustee',
		membership_rank: 4,
		featured: true,
		listing_position: 1,
		profile_affiliations: [{ aff_name: 'Women in Business', aff_code: 'WIB' }],
		web_content: [
			{ content_type: 'image', content_title: 'Storefront', full_url: 'https://example.com/a.jpg' },
		],
	}),
	hardware: business('Contract Hardware', {
		categories: ['Retail'],
		membership_level_name: 'Executive',
		city: 'Marion',
		zip: '52302',
		listing_position: 2,
	}),
	newcomer: business('Contract Newcomer', {
		categories: ['Restaurants'],
		membership_level_name: 'Business Partner',
		member_since_date: day(-10),
	}),
};

function event(EventId: number, EventName: string, days: number): EventInput {
	const start = new Date(`${day(days)}T17:00:00Z`);
	const end = new Date(start.getTime() + 2 * 3_600_000);
	return {
		EventId,
		EventName,
		Descr: `<p>${EventName} for members.</p>`,
		StartDateTimeUtc: start.toISOString(),
		EndDateTimeUtc: end.toISOString(),
		StartDate: day(days),
		EndDate: day(days),
		StartTime: '5:00 PM',
		EndTime: '7:00 PM',
		TimeZone: { Abbreviation: 'UTC' },
		Venue: 'Chamber Office',
		Address1: '200 Main Street',
		City: 'Cedarbrook',
		State: 'IA',
		Zip: '52901',
		EventType: 'Networking',
		Items: [
			{ ItemId: 1, ItemName: 'Member', UnitPrice: 0 },
			{ ItemId: 2, ItemName: 'Guest', UnitPrice: 25 },
		],
	};
}

export const EVENT_IDS = { mixer: 7101, market: 7201 } as const;

/** What the chamber is imported with, besides its staff. */
const CHAMBER = {
	config: { urls: { eventRegistrationBaseUrl: 'https://members.example.org' } },
	businesses: Object.values(BUSINESSES),
	// A banner of the site's own files: the proxy sends the browser to it, nothing is fetched.
	banners: [{ banner_name: 'Contract banner', image_url: '/demo/banners/banner-1.svg' }],
	events: [event(EVENT_IDS.mixer, 'Contract Mixer', 10)],
	communityEvents: [event(EVENT_IDS.market, 'Contract Market', 12)],
};

export interface ContractSite<Chambers> extends StaffSite<Chambers> {
	/** Where the contact form's e-mails land (no SMTP server). */
	outbox: string;
}

async function withOutbox<Chambers extends StaffChamber<string>>(
	domain: string,
	chambers: () => Promise<Chambers>,
	env: Record<string, string | undefined> = {},
): Promise<ContractSite<Chambers>> {
	const outbox = await mkdtemp(join(tmpdir(), 'chamber-contract-'));
	const site = await startStaffSite({
		domain,
		chambers,
		env: { OUTBOX_DIR: outbox, SMTP_URL: undefined, RECAPTCHA_SECRET: undefined, ...env },
	});
	return {
		...site,
		outbox,
		async close() {
			await site.close();
			await rm(outbox, { recursive: true, force: true });
		},
	};
}

/**
 * The chamber with the staff of `staff` (key → role), signed in; its e-mails at `domain`, which
 * no other file uses.
 */
export function startContractSite<Key extends string>(options: {
	domain: string;
	staff: Record<Key, UserRole>;
}): Promise<ContractSite<StaffChamber<Key>>> {
	return withOutbox(options.domain, () =>
		importChamber(stack, service, {
			prefix: 'contract',
			domain: options.domain,
			password: PASSWORD,
			name: 'Contract',
			staff: options.staff,
			...CHAMBER,
		}),
	);
}

/**
 * The chamber (two admins `admin` and `second`, an `editor`) and another one (its admin
 * `otherAdmin`, a `super` admin): importStaffChambers with this file's chamber.
 */
export function startContractChambers(options: {
	domain: string;
}): Promise<ContractSite<StaffChambers>> {
	return withOutbox(options.domain, () =>
		importStaffChambers(stack, service, {
			prefix: 'contract',
			domain: options.domain,
			password: PASSWORD,
			name: 'Contract',
			...CHAMBER,
		}),
	);
}
