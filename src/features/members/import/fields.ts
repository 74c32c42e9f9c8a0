// Which business field a file's column fills. Pure logic, no I/O: the panel's mapping screen and
// the background function share it.

import { FIELD_LABELS, SCALAR_FIELDS, type ScalarField } from '../members.ts';

/** The social networks a column can hold a link for (the directory shows an icon for each). */
export const SOCIAL_TARGETS = ['facebook', 'twitter', 'linkedin', 'instagram', 'youtube'] as const;
/**
 * The fields a spreadsheet's column fills as they are: every scalar field but the location, which
 * the geocoder finds from the address (and a tenant file may carry as coordinates).
 */
const COLUMN_FIELDS = SCALAR_FIELDS.filter(
	(field): field is Exclude<ScalarField, 'location'> => field !== 'location',
);

/** The primary listing's texts. */
export const LISTING_TARGETS = ['description', 'short_description', 'keywords'] as const;

/**
 * The fields a column can fill: the tenant file's business fields, plus the parts of its lists a
 * spreadsheet has one column for (the primary listing's texts, one link per social network). The
 * database holds the same list (member_import_targets(); a test compares them).
 */
export const MAPPING_TARGETS = [
	'weblink_profile_id',
	...COLUMN_FIELDS,
	...LISTING_TARGETS,
	...SOCIAL_TARGETS,
] as const;
export type MappingTarget = (typeof MAPPING_TARGETS)[number];

/** A heading mapped to '' is ignored. */
export type Mapping = Record<string, MappingTarget | ''>;

/** The Members tab's names of the business fields, which a column fills as they are. */
const FIELD_NAMES = Object.fromEntries(
	COLUMN_FIELDS.map((field) => [field, FIELD_LABELS[field]]),
) as Record<Exclude<ScalarField, 'location'>, string>;

/**
 * How each field is named to people (the mapping screen and the preview): as the Members tab
 * names it, but where a spreadsheet's column needs a plainer or more exact name.
 */
export const TARGET_LABELS: Readonly<Record<MappingTarget, string>> = {
	...FIELD_NAMES,
	weblink_profile_id: 'Membership-system id',
	address1: 'Address line 1',
	zip: 'ZIP code',
	email: 'E-mail',
	logo_url: 'Logo URL',
	is_member: 'Member',
	description: 'Description',
	short_description: 'Short description',
	keywords: 'Keywords',
	facebook: 'Facebook',
	twitter: 'X (Twitter)',
	linkedin: 'LinkedIn',
	instagram: 'Instagram',
	youtube: 'YouTube',
};

/** A heading as it is compared: lower case, letters and digits only ('E-mail' → 'email'). */
export function normalizeHeader(header: string): string {
	return header
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '')
		.slice(0, 200);
}

/**
 * Built-in headings, normalised, per field: our own names, then those of the usual exports
 * (docs/member-imports.md says which system each comes from). The first field that claims a
 * heading wins, so no heading appears twice.
 */
export const BUILT_IN_HEADINGS: Readonly<Record<MappingTarget, readonly string[]>> = {
	weblink_profile_id: [
		'weblinkprofileid',
		'profileid',
		'atlasprofileid',
		'atlasid',
		'accountnumber',
		'accountno',
		'memberid',
		'membernumber',
		'userid',
	],
	report_name: [
		'reportname',
		'name',
		'organizationname',
		'organization',
		'orgname',
		'membername',
		'businessname',
		'companyname',
		'company',
		'accountname',
		'business',
		'organisation',
		'organisationname',
		'membercompany',
		'listingname',
		'dba',
		'doingbusinessas',
		'tradingname',
		'tradename',
		'firm',
		'firmname',
	],
	address1: [
		'address1',
		'addressline1',
		'address',
		'streetaddress',
		'street',
		'physicaladdress',
		'physicaladdressline1',
	],
	address2: ['address2', 'addressline2', 'physicaladdressline2', 'suite'],
	city: ['city', 'town', 'physicalcity', 'citytown', 'towncity', 'municipality', 'locality'],
	county: ['county'],
	state: ['state', 'province', 'stateprovince', 'provincestate', 'region', 'physicalstate'],
	zip: ['zip', 'zipcode', 'postalcode', 'postcode', 'zippostalcode', 'physicalzip'],
	work_phone: [
		'workphone',
		'phone',
		'businessphone',
		'phonenumber',
		'telephone',
		'mainphone',
		'phoneno',
		'tel',
		'telephonenumber',
		'officephone',
		'contactphone',
		'businessphonenumber',
		'businesstelephone',
		'primaryphone',
	],
	hours: ['hours', 'openinghours', 'businesshours', 'hoursofoperation', 'openhours'],
	website: [
		'website',
		'web',
		'websiteurl',
		'webaddress',
		'url',
		'homepage',
		'websiteaddress',
		'webpage',
		'site',
		'www',
		'businesswebsite',
		'companywebsite',
		'homepageurl',
	],
	email: [
		'email',
		'emailaddress',
		'businessemail',
		'primaryemail',
		'contactemail',
		'workemail',
		'businessemailaddress',
		'emailid',
	],
	featured: ['featured'],
	categories: [
		'categories',
		'category',
		'businesscategories',
		'directorycategories',
		'listingcategories',
		'businesscategory',
		'directorycategory',
		'primarycategory',
		'businesstype',
		'typeofbusiness',
		'industry',
		'sector',
	],
	membership_level_name: [
		'membershiplevelname',
		'membershiplevel',
		'memberlevel',
		'level',
		'membershiptype',
	],
	membership_rank: ['membershiprank', 'rank'],
	member_since_date: ['membersincedate', 'membersince', 'joindate', 'datejoined', 'joined'],
	main_related_profile_name: [
		'mainrelatedprofilename',
		'maincontact',
		'primarycontact',
		'primarycontactname',
		'contactname',
	],
	logo_url: ['logourl', 'logo'],
	listing_position: ['listingposition'],
	is_member: ['ismember', 'member', 'membershipstatus', 'memberstatus', 'status'],
	published: ['published', 'showindirectory', 'listindirectory'],
	description: ['description', 'longdescription', 'profiledescription', 'businessdescription'],
	short_description: ['shortdescription', 'tagline', 'summary'],
	keywords: ['keywords', 'searchkeywords'],
	facebook: ['facebook', 'facebookurl'],
	twitter: ['twitter', 'twitterurl', 'x'],
	linkedin: ['linkedin', 'linkedinurl'],
	instagram: ['instagram', 'instagramurl'],
	youtube: ['youtube', 'youtubeurl'],
};

const BUILT_IN = new Map<string, MappingTarget>();
for (const target of MAPPING_TARGETS) {
	for (const heading of BUILT_IN_HEADINGS[target]) {
		if (!BUILT_IN.has(heading)) BUILT_IN.set(heading, target);
	}
}

/** The field a built-in mapping gives a heading, or undefined. */
function builtInTarget(header: string): MappingTarget | undefined {
	return BUILT_IN.get(normalizeHeader(header));
}

export function isMappingTarget(value: unknown): value is MappingTarget {
	return typeof value === 'string' && (MAPPING_TARGETS as readonly string[]).includes(value);
}

/**
 * Keys of the tenant file's business that a JSON file carries as they are (lists of objects):
 * they need no mapping.
 */
export const LIST_KEYS = [
	'listings',
	'social_media',
	'profile_affiliations',
	'web_content',
] as const;

export interface ResolvedMapping {
	/** Heading (as in the file) → field, or '' for an ignored column. */
	mapping: Mapping;
	/** Headings nothing maps (a person must choose). */
	unknown: string[];
	/**
	 * A column holds the membership-system id: rows are matched by it. Without one, rows are
	 * matched by e-mail, website and name (match.ts).
	 */
	byId: boolean;
}

/** Whether a mapping gives a column the membership-system id. */
export function mapsId(mapping: Readonly<Record<string, string>>): boolean {
	return Object.values(mapping).includes('weblink_profile_id');
}

/**
 * Maps a file's headings: what this import was told (`given`, from the mapping screen) first,
 * then what the chamber saved (normalised heading → field), then the built-in headings. A second
 * column for a field already filled is left for a person to map (it would silently win).
 */
export function resolveMapping(
	headers: readonly string[],
	saved: ReadonlyMap<string, MappingTarget | ''>,
	given: Readonly<Record<string, string>> = {},
): ResolvedMapping {
	const mapping: Mapping = {};
	const unknown: string[] = [];
	const taken = new Set<string>();
	for (const header of headers) {
		if ((LIST_KEYS as readonly string[]).includes(header) || header === 'id') continue;
		const normal = normalizeHeader(header);
		const fromGiven = given[header];
		const target =
			fromGiven !== undefined && (fromGiven === '' || isMappingTarget(fromGiven))
				? fromGiven
				: saved.has(normal)
					? saved.get(normal)!
					: builtInTarget(header);
		if (target === undefined) {
			unknown.push(header);
			continue;
		}
		if (target !== '' && taken.has(target)) {
			unknown.push(header);
			continue;
		}
		if (target !== '') taken.add(target);
		mapping[header] = target;
	}
	return { mapping, unknown, byId: taken.has('weblink_profile_id') };
}
