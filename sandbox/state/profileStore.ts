import type { EmailSubscribeState, UserAlias } from '../adminApiTypes';
import type { IdGenerator } from './ids';

export interface Profile {
	service_id: string;
	/** The primary external ID. */
	external_id?: string;
	deprecated_external_ids: string[];
	user_aliases: UserAlias[];
	email?: string;
	phone?: string;
	email_subscribe?: EmailSubscribeState;
	standard_attributes: Record<string, unknown>;
	custom_attributes: Record<string, unknown>;
	created_at: string;
	updated_at: string;
	/** Orders updates that fall in the same millisecond ("most recently updated"). */
	updateSeq: number;
}

export interface NewProfile {
	external_id?: string;
	user_alias?: UserAlias;
	email?: string;
	phone?: string;
}

/**
 * All profiles, indexed by every identifier a request may use, so each lookup is O(1) however many
 * profiles and events a benchmark creates.
 */
export class ProfileStore {
	private readonly byServiceIdIndex = new Map<string, Profile>();
	/** Primary and deprecated external IDs: both identify the user. */
	private readonly byExternalIdIndex = new Map<string, Profile>();
	private readonly byAliasIndex = new Map<string, Profile>();
	/** Several profiles may share an email or a phone. Emails are indexed in lower case. */
	private readonly byEmailIndex = new Map<string, Set<Profile>>();
	private readonly byPhoneIndex = new Map<string, Set<Profile>>();
	private updateCounter = 0;

	constructor(private readonly ids: IdGenerator) {}

	create(identity: NewProfile, now: Date): Profile {
		const timestamp = now.toISOString();
		const profile: Profile = {
			service_id: this.ids.next(now),
			deprecated_external_ids: [],
			user_aliases: [],
			standard_attributes: {},
			custom_attributes: {},
			created_at: timestamp,
			updated_at: timestamp,
			updateSeq: ++this.updateCounter,
		};
		this.byServiceIdIndex.set(profile.service_id, profile);
		if (identity.external_id !== undefined) this.setExternalId(profile, identity.external_id);
		if (identity.user_alias) this.addAlias(profile, identity.user_alias);
		if (identity.email !== undefined) this.setEmail(profile, identity.email);
		if (identity.phone !== undefined) this.setPhone(profile, identity.phone);
		return profile;
	}

	get size(): number {
		return this.byServiceIdIndex.size;
	}

	all(): IterableIterator<Profile> {
		return this.byServiceIdIndex.values();
	}

	byServiceId(serviceId: string): Profile | undefined {
		return this.byServiceIdIndex.get(serviceId);
	}

	byExternalId(externalId: string): Profile | undefined {
		return this.byExternalIdIndex.get(externalId);
	}

	byAlias(alias: UserAlias): Profile | undefined {
		return this.byAliasIndex.get(aliasKey(alias));
	}

	/** Spec rule 1: among profiles sharing the email, the most recently updated one with an external ID, else the most recently updated. */
	byEmail(email: string): Profile | undefined {
		return preferred(this.byEmailIndex.get(email.toLowerCase()));
	}

	/** Same rule as email (the spec states it for email only). */
	byPhone(phone: string): Profile | undefined {
		return preferred(this.byPhoneIndex.get(phone));
	}

	allWithEmail(email: string): Profile[] {
		return [...(this.byEmailIndex.get(email.toLowerCase()) ?? [])];
	}

	allWithPhone(phone: string): Profile[] {
		return [...(this.byPhoneIndex.get(phone) ?? [])];
	}

	setExternalId(profile: Profile, externalId: string): void {
		if (profile.external_id !== undefined) this.byExternalIdIndex.delete(profile.external_id);
		profile.external_id = externalId;
		this.byExternalIdIndex.set(externalId, profile);
	}

	/** The new ID becomes primary; the old one stays as a deprecated ID that still finds the profile. */
	renameExternalId(profile: Profile, newExternalId: string): void {
		if (profile.external_id !== undefined) profile.deprecated_external_ids.push(profile.external_id);
		profile.external_id = newExternalId;
		this.byExternalIdIndex.set(newExternalId, profile);
	}

	addDeprecatedExternalId(profile: Profile, externalId: string): void {
		profile.deprecated_external_ids.push(externalId);
		this.byExternalIdIndex.set(externalId, profile);
	}

	addAlias(profile: Profile, alias: UserAlias): void {
		profile.user_aliases.push({ alias_name: alias.alias_name, alias_label: alias.alias_label });
		this.byAliasIndex.set(aliasKey(alias), profile);
	}

	setEmail(profile: Profile, email: string | undefined): void {
		moveInIndex(this.byEmailIndex, profile, profile.email?.toLowerCase(), email?.toLowerCase());
		profile.email = email;
		if (email === undefined) delete profile.email;
	}

	setPhone(profile: Profile, phone: string | undefined): void {
		moveInIndex(this.byPhoneIndex, profile, profile.phone, phone);
		profile.phone = phone;
		if (phone === undefined) delete profile.phone;
	}

	/** Drops the profile and every identifier that found it (a merged-away anonymous profile). */
	remove(profile: Profile): void {
		this.byServiceIdIndex.delete(profile.service_id);
		for (const id of [profile.external_id, ...profile.deprecated_external_ids]) {
			if (id !== undefined && this.byExternalIdIndex.get(id) === profile) this.byExternalIdIndex.delete(id);
		}
		for (const alias of profile.user_aliases) {
			if (this.byAliasIndex.get(aliasKey(alias)) === profile) this.byAliasIndex.delete(aliasKey(alias));
		}
		moveInIndex(this.byEmailIndex, profile, profile.email?.toLowerCase(), undefined);
		moveInIndex(this.byPhoneIndex, profile, profile.phone, undefined);
	}

	touch(profile: Profile, now: Date): void {
		profile.updated_at = now.toISOString();
		profile.updateSeq = ++this.updateCounter;
	}
}

function aliasKey(alias: UserAlias): string {
	return `${alias.alias_label}::${alias.alias_name}`;
}

function preferred(candidates: Set<Profile> | undefined): Profile | undefined {
	let best: Profile | undefined;
	for (const profile of candidates ?? []) {
		if (!best) {
			best = profile;
			continue;
		}
		const identified = profile.external_id !== undefined;
		const bestIdentified = best.external_id !== undefined;
		if (identified !== bestIdentified ? identified : profile.updateSeq > best.updateSeq) best = profile;
	}
	return best;
}

function moveInIndex(
	index: Map<string, Set<Profile>>,
	profile: Profile,
	from: string | undefined,
	to: string | undefined,
): void {
	if (from === to) return;
	if (from !== undefined) {
		const set = index.get(from);
		set?.delete(profile);
		if (set && set.size === 0) index.delete(from);
	}
	if (to !== undefined) {
		let set = index.get(to);
		if (!set) index.set(to, (set = new Set()));
		set.add(profile);
	}
}
