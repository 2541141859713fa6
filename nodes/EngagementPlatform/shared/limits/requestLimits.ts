/**
 * The spec's per-request limits, declared once. Operations build their slots from these and the
 * planner holds every request to them; where the spec reads two ways, the stricter reading is the
 * one no platform refuses.
 */
export const PER_REQUEST = {
	/** /users/track: "up to 75 event, 75 attribute, 75 purchase objects". */
	trackObjectsPerArray: 75,
	/** /users/track on the monthly-active-users plan: "up to 50 combined updates per request". */
	trackCombinedObjects: 50,
	/** /v2/subscription/status/set: "up to 50 ids per field". */
	subscriptionIdsPerElement: 50,
	/** /v2/subscription/status/set: "set subscription-group state for up to 50 users per call". */
	subscriptionUsersPerCall: 50,
	/** /users/export/ids: "up to 50 external_ids or user_aliases", read as 50 of the two together. */
	exportIdsAndAliases: 50,
	/** /users/export/ids: "one each of device_id, email_address, phone". */
	exportOneOfEach: 1,
	/** Messaging: "up to 50 external IDs per request", 50 recipients; aliases are counted with them. */
	messagingRecipients: 50,
	/** /users/identify: "up to 50 aliases per request"; emails are counted with them. */
	identifyProfiles: 50,
	/** /users/external_ids/rename: "up to 50 rename objects per request". */
	renames: 50,
	/** Catalog items: "up to 50 items per request". */
	catalogItems: 50,
	/** Transactional send: "Exactly one user per request". */
	transactionalRecipients: 1,
} as const;
