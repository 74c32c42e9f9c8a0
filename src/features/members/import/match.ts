// Matching a file's rows to the chamber's businesses when the file has no membership-system id
// (the member list a small chamber keeps in a spreadsheet). Pure logic, no I/O: the dry run
// builds the index from the directory and asks it row by row; the tests ask it directly.

/** What a row matched a business on, in the order the rules are tried. */
export const MATCH_RULES = ['id', 'email', 'website', 'name_city', 'name', 'similar_name'] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

/** How the preview names each rule ("matched by …"). */
export const MATCH_RULE_LABELS: Readonly<Record<MatchRule, string>> = {
	id: 'membership-system id',
	email: 'e-mail',
	website: 'website',
	name_city: 'name and city',
	name: 'name',
	similar_name: 'a similar name',
};

/** How many businesses a row to confirm offers at most. */
const MAX_CANDIDATES = 5;
/**
 * How many businesses a rule looks at to choose those it offers: a name a thousand businesses
 * share (a chain without cities) must not cost a thousand comparisons per row.
 */
const LOOKED_AT = 50;

/**
 * The chamber's own numbering of the businesses a file without ids adds: 'chamber-1', … The
 * membership system's ids are digits only, so the two never collide; the database hands the
 * numbers out when the import is applied (business_numbers).
 */
const OWN_ID = /^chamber-0*(\d{1,18})$/i;

/** An id of the chamber's own numbering as stored ('Chamber-007' → 'chamber-7'), or null. */
export function ownId(text: string): string | null {
	const found = OWN_ID.exec(text.trim());
	return found ? `chamber-${found[1]!.replace(/^0+(?=\d)/, '')}` : null;
}

// --- Keys ----------------------------------------------------------------------------------------

/** Letters without their accents, in lower case ('Café' → 'cafe'). */
function plainLetters(text: string): string {
	return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Words a business's name may carry or leave out without being another business. */
const LEGAL_FORMS = new Set([
	'inc',
	'incorporated',
	'llc',
	'lc',
	'llp',
	'lp',
	'lllp',
	'pllc',
	'pc',
	'pa',
	'plc',
	'ltd',
	'limited',
	'co',
	'company',
	'corp',
	'corporation',
]);

/**
 * The words of a business's name as they are compared: case, accents and punctuation ignored
 * ('Joe's' = 'Joes', 'L.L.C.' = 'LLC'), '&' and 'and' left out, and so are a leading 'The' and
 * the legal form at its end ('Smith & Sons Co., Inc.' → smith sons).
 */
function nameWords(name: string): string[] {
	const words = plainLetters(name)
		.replace(/['’.]/g, '')
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w !== '' && w !== 'and');
	while (words.length > 1 && LEGAL_FORMS.has(words.at(-1)!)) words.pop();
	if (words.length > 1 && words[0] === 'the') words.shift();
	return words;
}

/** A business name as the name rule compares it, or null when nothing is left of it. */
export function nameKey(name: string | null | undefined): string | null {
	const words = nameWords(name ?? '');
	return words.length > 0 ? words.join(' ') : null;
}

/** A city as compared: case, accents and punctuation ignored ('St. Mary's' = 'st marys'). */
export function cityKey(city: string | null | undefined): string | null {
	const words = plainLetters(city ?? '')
		.replace(/['’.]/g, '')
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w !== '');
	return words.length > 0 ? words.join(' ') : null;
}

/** An e-mail address as compared: trimmed, in lower case; null when it is no address. */
export function emailKey(email: string | null | undefined): string | null {
	const text = (email ?? '').trim().toLowerCase();
	return /^[^\s@]+@[^\s@]+$/.test(text) ? text : null;
}

/**
 * Sites where many businesses have a page: on these the page is the business, not the host
 * (two bakeries' Facebook pages are two businesses).
 */
const SHARED_HOSTS = new Set([
	'facebook.com',
	'fb.com',
	'instagram.com',
	'linkedin.com',
	'twitter.com',
	'x.com',
	'youtube.com',
	'tiktok.com',
	'yelp.com',
	'google.com',
	'sites.google.com',
	'linktr.ee',
	'etsy.com',
	'nextdoor.com',
	'pinterest.com',
]);

/**
 * A website as compared: its host in lower case without 'www.' ('https://www.Bakery.example/menu'
 * → 'bakery.example'); on a site of many businesses' pages (Facebook, Yelp …) the host and the
 * page's path. Null when the text is no web address.
 */
export function websiteKey(website: string | null | undefined): string | null {
	const text = (website ?? '').trim();
	if (text === '') return null;
	let url: URL;
	try {
		url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
	} catch {
		return null;
	}
	// 'mailto:x@y.example' read as a web address has a user: it is no website.
	if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username) return null;
	const host = url.hostname.replace(/\.$/, '').replace(/^(www\d*|m)\./, '');
	if (!host.includes('.')) return null;
	if (!SHARED_HOSTS.has(host)) return host;
	const path = decodeURIComponent(url.pathname).toLowerCase().replace(/\/+$/, '');
	return `${host}${path}`;
}

// --- The directory -------------------------------------------------------------------------------

/** A business of the chamber as the rules see it. */
export interface DirectoryEntry {
	id: string;
	weblinkProfileId: string;
	name: string;
	city: string | null;
	email: string | null;
	website: string | null;
}

interface Indexed {
	entry: DirectoryEntry;
	name: string | null;
	city: string | null;
	email: string | null;
	website: string | null;
	words: ReadonlySet<string>;
}

function push<K, V>(map: Map<K, V[]>, key: K | null, value: V): void {
	if (key === null) return;
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** The words of a name in a fixed order, as a key of its set of words. */
const wordSet = (words: Iterable<string>) => [...new Set(words)].sort().join(' ');

/** A row's values the rules read (the file's cells, as they are). */
export interface RowKeys {
	email?: string | null;
	website?: string | null;
	name?: string | null;
	/** Undefined when the file has no city column; null or '' when this row's cell is empty. */
	city?: string | null;
}

interface Candidate {
	entry: DirectoryEntry;
	on: MatchRule;
}

export type MatchResult =
	| { kind: 'match'; entry: DirectoryEntry; on: MatchRule }
	/** More than one business, or a name only loosely: a person chooses. */
	| { kind: 'confirm'; candidates: Candidate[] }
	| { kind: 'none' };

/** A name shorter than this (without spaces) is too common to match a longer one loosely. */
const LOOSE_MIN = 5;
/** A word more businesses have than this says too little to look for similar names by it. */
const LOOSE_MAX_POSTINGS = 200;

/**
 * The chamber's businesses, indexed by each rule's key. `taken` (for matchRow) says which ones
 * an earlier row of the file already matched.
 */
export class DirectoryIndex {
	private readonly byEmail = new Map<string, Indexed[]>();
	private readonly byWebsite = new Map<string, Indexed[]>();
	private readonly byName = new Map<string, Indexed[]>();
	private readonly byCompact = new Map<string, Indexed[]>();
	private readonly byWordSet = new Map<string, Indexed[]>();
	private readonly byWord = new Map<string, Indexed[]>();

	constructor(entries: Iterable<DirectoryEntry>) {
		for (const entry of entries) {
			const words = nameWords(entry.name);
			const item: Indexed = {
				entry,
				name: words.length > 0 ? words.join(' ') : null,
				city: cityKey(entry.city),
				email: emailKey(entry.email),
				website: websiteKey(entry.website),
				words: new Set(words),
			};
			push(this.byEmail, item.email, item);
			push(this.byWebsite, item.website, item);
			push(this.byName, item.name, item);
			if (words.length > 0) {
				push(this.byCompact, words.join(''), item);
				push(this.byWordSet, wordSet(words), item);
			}
			for (const word of item.words) push(this.byWord, word, item);
		}
	}

	/**
	 * The business a row describes, by the first rule that finds one: its e-mail, its website's
	 * host, its name with its city (when the file has cities), its name. Where a rule finds more
	 * than one, the next rules choose among them; where they cannot, or only a similar name is
	 * found, the row is to confirm. Businesses an earlier row took are not found again by e-mail
	 * or website (two businesses of one owner may share them); by name they are, and the caller
	 * says the row repeats the earlier one.
	 */
	matchRow(row: RowKeys, taken: (id: string) => boolean = () => false): MatchResult {
		const keys = {
			email: emailKey(row.email),
			website: websiteKey(row.website),
			name: nameKey(row.name),
			city: row.city === undefined ? undefined : cityKey(row.city),
		};
		for (const rule of ['email', 'website'] as const) {
			const key = keys[rule];
			if (key === null) continue;
			const open = (rule === 'email' ? this.byEmail : this.byWebsite)
				.get(key)
				?.filter((i) => !taken(i.entry.id));
			if (!open || open.length === 0) continue;
			if (open.length === 1) return { kind: 'match', entry: open[0]!.entry, on: rule };
			const narrowed = narrow(open, keys);
			if (narrowed) return { kind: 'match', entry: narrowed.entry, on: rule };
			return confirm(open, rule);
		}
		if (keys.name === null) return { kind: 'none' };
		const named = this.byName.get(keys.name) ?? [];
		if (named.length > 0) {
			if (keys.city === undefined || keys.city === null) {
				return named.length === 1
					? { kind: 'match', entry: named[0]!.entry, on: 'name' }
					: confirm(named, 'name');
			}
			const sameCity = named.filter((i) => i.city === keys.city);
			if (sameCity.length === 1)
				return { kind: 'match', entry: sameCity[0]!.entry, on: 'name_city' };
			if (sameCity.length > 1) return confirm(sameCity, 'name_city');
			// The directory does not know its city: the name alone decides.
			if (named.length === 1 && named[0]!.city === null) {
				return { kind: 'match', entry: named[0]!.entry, on: 'name' };
			}
			// The same name in another city: perhaps it moved, perhaps a second shop.
			return confirm(named, 'name');
		}
		const similar = this.similar(keys.name).filter((i) => !taken(i.entry.id));
		return similar.length > 0 ? confirm(similar, 'similar_name') : { kind: 'none' };
	}

	/**
	 * Businesses whose name is like this one without being the same: the same words run together
	 * or in another order ('Bay Side Cafe' / 'Bayside Cafe'), or all the words of one in the other
	 * ('Harbor Hardware' / 'Harbor Hardware Supply').
	 */
	private similar(key: string): Indexed[] {
		const words = key.split(' ');
		const found = new Set<Indexed>([
			...(this.byCompact.get(words.join('')) ?? []),
			...(this.byWordSet.get(wordSet(words)) ?? []),
		]);
		if (words.join('').length >= LOOSE_MIN) {
			// This name's words all in a business's longer name.
			const lists = [...new Set(words)]
				.map((w) => this.byWord.get(w) ?? [])
				.sort((a, b) => a.length - b.length);
			if (lists[0] && lists[0].length <= LOOSE_MAX_POSTINGS) {
				for (const item of lists[0]) {
					if (words.every((w) => item.words.has(w))) found.add(item);
					if (found.size >= LOOKED_AT) break;
				}
			}
		}
		// A business's shorter name made of this name's words: each set of them, when few.
		const distinct = [...new Set(words)];
		if (distinct.length <= 8) {
			for (let mask = 1; mask < (1 << distinct.length) - 1 && found.size < LOOKED_AT; mask += 1) {
				const subset = distinct.filter((_, i) => mask & (1 << i));
				if (subset.join('').length < LOOSE_MIN) continue;
				for (const item of (this.byWordSet.get(wordSet(subset)) ?? []).slice(0, LOOKED_AT)) {
					found.add(item);
				}
			}
		}
		return [...found].filter((i) => i.name !== key);
	}
}

/** The one business of several that the row's other keys single out, if any. */
function narrow(
	items: Indexed[],
	keys: { email: string | null; website: string | null; name: string | null; city?: string | null },
): Indexed | null {
	const tries: ((i: Indexed) => boolean)[] = [
		(i) => keys.website !== null && i.website === keys.website,
		(i) => keys.email !== null && i.email === keys.email,
		(i) => keys.name !== null && i.name === keys.name && (!keys.city || i.city === keys.city),
		(i) => keys.name !== null && i.name === keys.name,
	];
	for (const test of tries) {
		const left = items.filter(test);
		if (left.length === 1) return left[0]!;
	}
	return null;
}

/** The businesses to choose from, by name and city (as the person will read them). */
function confirm(items: Indexed[], on: MatchRule): MatchResult {
	const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	const sorted = items
		.slice(0, LOOKED_AT)
		.sort(
			(a, b) =>
				order(a.entry.name, b.entry.name) ||
				order(a.entry.city ?? '', b.entry.city ?? '') ||
				order(a.entry.id, b.entry.id),
		);
	return {
		kind: 'confirm',
		candidates: sorted.slice(0, MAX_CANDIDATES).map((i) => ({ entry: i.entry, on })),
	};
}
