const BUCKETS = 10_000;

/**
 * The spec shows `random_bucket` as an integer without a range. Braze gives every user a random bucket
 * number from 0 to 9999, fixed for the user's life; we derive it from the service_id (FNV-1a), so it is
 * stable per profile and the same in every export.
 */
export function randomBucketOf(serviceId: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < serviceId.length; i++) {
		hash ^= serviceId.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash % BUCKETS;
}
