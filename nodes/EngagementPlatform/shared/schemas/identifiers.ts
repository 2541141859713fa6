import { z } from 'zod/v4';

export const E164 = /^\+[1-9]\d{6,14}$/;
/** Deliberately loose: the platform is the judge of deliverability; this only catches obvious slips. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const userAlias = z.object({
	alias_name: z.string().min(1, 'alias name is required'),
	alias_label: z.string().min(1, 'alias label is required'),
});

export type UserAlias = z.infer<typeof userAlias>;

/** One of the ways a user is addressed in /users/track objects. */
export type UserIdentifier =
	| { external_id: string }
	| { user_alias: UserAlias }
	| { email: string }
	| { phone: string }
	| { service_id: string }
	| { device_id: string };

/** The platform's API identifiers of messages, steps and locales. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
