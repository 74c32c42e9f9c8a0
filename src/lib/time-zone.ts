// Whether a name is an IANA time zone the runtime knows. Dependency-free: the calendars' islands,
// the panel's Events tab and the server's schemas share it without sharing a larger module.

const knownZones = new Map<string, boolean>();

/** Whether the runtime knows an IANA zone name (remembered: asking Intl costs a formatter). */
export function isTimeZone(name: string): boolean {
	let known = knownZones.get(name);
	if (known === undefined) {
		try {
			new Intl.DateTimeFormat('en-US', { timeZone: name });
			known = true;
		} catch {
			known = false;
		}
		// Names come from event data and files: a bounded memory, whatever a source sends.
		if (knownZones.size >= 500) knownZones.clear();
		knownZones.set(name, known);
	}
	return known;
}
