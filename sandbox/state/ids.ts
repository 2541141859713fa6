/**
 * 24-hex-character identifiers shaped like the platform's (and MongoDB's) object IDs: 8 hex digits of
 * epoch seconds, then a counter. Unique within a sandbox run and sortable by creation.
 */
export class IdGenerator {
	private counter = 0;

	next(now: Date): string {
		this.counter++;
		const seconds = Math.floor(now.getTime() / 1000)
			.toString(16)
			.padStart(8, '0');
		return seconds + this.counter.toString(16).padStart(16, '0');
	}
}
